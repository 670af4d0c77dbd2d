"""Training the models taxogen ships: the replacement ranker (:mod:`.ranker`, on
:mod:`.selection_data`) and the masking decider (:mod:`.detect`)."""
