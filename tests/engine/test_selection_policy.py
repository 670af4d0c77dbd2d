"""The selection policy: which rung a prepared document shows for a mention."""

from engine.doc import Doc, DocMention
from engine.select.policy import SelectionPolicy
from engine.types import MASK, Candidate, EntityType, IdentifierType, Ladder, Mention, Selection, Span

TEXT = "She lives in Oslo."


def one_mention_doc(text: str, m: Mention, ladder: Ladder, scores: list[float]) -> Doc:
    """A document whose only mention has its ladder and scores (what the rank stage leaves)."""
    dm = DocMention.of(m)
    dm.entity, dm.ladder, dm.scores = 0, ladder, scores
    return Doc(text, [m], mentions=[dm], first={0: 0})


def doc_with(labels: list[str], scores: list[float], identifier: IdentifierType = IdentifierType.QUASI) -> Doc:
    start = TEXT.index("Oslo")
    m = Mention(start, start + 4, EntityType.LOC, identifier)
    cands = tuple(Candidate(label, "mask" if label == MASK else "P31", level=i + 1) for i, label in enumerate(labels))
    return one_mention_doc(TEXT, m, Ladder(Span("Oslo", EntityType.LOC), cands), scores)


def test_given_mask_ranked_first_then_meaning_shows_the_best_class_and_annotators_the_mask():
    doc = doc_with(["city in Norway", "city", MASK], [0.2, 0.3, 0.9])
    meaning = SelectionPolicy(Selection.MEANING).choose(doc, 0)
    assert (meaning.label, meaning.note) == ("city", "the ranker put *** first; kept the best rung with meaning")
    assert SelectionPolicy(Selection.ANNOTATORS).choose(doc, 0).label == MASK


def test_given_only_mask_or_only_the_span_itself_then_masked_and_the_note_says_which():
    assert SelectionPolicy().choose(doc_with([MASK], [0.5]), 0).note == "the ladder offers nothing but ***"
    own = SelectionPolicy().choose(doc_with(["Oslo", MASK], [0.9, 0.1]), 0)
    assert own.label == MASK and own.note == "every rung with meaning was refused or would leak; masked"


def test_given_refusal_rules_then_one_place_says_why():
    start = TEXT.index("Oslo")
    direct_person = Mention(start, start + 4, EntityType.PERSON, IdentifierType.DIRECT)
    assert SelectionPolicy.refusal(Candidate("oslo", "P31"), "Oslo", direct_person) == "the span's own text"
    assert SelectionPolicy.refusal(Candidate("human", "P31"), "Oslo", direct_person) == "a class of a directly identifying name"
    assert SelectionPolicy.refusal(Candidate("PERSON 1", "person"), "Oslo", direct_person) is None
    assert Selection.parse("annotators") is Selection.ANNOTATORS


def test_given_at_most_one_rung_with_meaning_then_meaning_does_not_rank_and_annotators_does():
    one, two = doc_with(["city", MASK], [0.1, 0.9]).ladders[0], doc_with(["city in Norway", "city", MASK], [0, 0, 0]).ladders[0]
    only_mask = doc_with([MASK], [0.5]).ladders[0]
    meaning, annotators = SelectionPolicy(Selection.MEANING), SelectionPolicy(Selection.ANNOTATORS)
    assert (meaning.ranks(one), meaning.ranks(only_mask), meaning.ranks(two)) == (False, False, True)
    assert annotators.ranks(one) and annotators.ranks(only_mask)
    # whatever the order of "city" and ***, meaning shows "city"
    assert meaning.choose(doc_with(["city", MASK], [0.1, 0.9]), 0).label == meaning.choose(doc_with(["city", MASK], [0.9, 0.1]), 0).label == "city"


def test_given_a_sentence_that_states_the_class_next_to_the_name_then_masked_not_repeated():
    from engine.select.stated import STATED

    text = "Her credits included the television series MacGyver and the film Blade."

    def choice(name: str, labels: list[str], etype: EntityType = EntityType.MISC):
        start = text.index(name)
        ladder = Ladder(Span(name, etype), tuple(Candidate(lab, "mask" if lab == MASK else "P31") for lab in labels))
        doc = one_mention_doc(text, Mention(start, start + len(name), etype), ladder, [0.9 - 0.1 * i for i in range(len(labels))])
        return SelectionPolicy().choose(doc, 0)

    assert (choice("MacGyver", ["television series", "creative work", MASK]).label, choice("MacGyver", ["television series", MASK]).note) == (MASK, STATED)
    assert choice("Blade", ["superhero film", "film", MASK]).label == MASK  # "the film a superhero film" says little more
    assert choice("Blade", ["novel", MASK]).label == "novel"  # a class the sentence does not state is shown
