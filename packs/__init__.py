"""The packs of words, cue phrases, patterns and rule examples the engine reads (:mod:`engine.knowledge`)."""
