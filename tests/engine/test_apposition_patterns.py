"""The apposition readers match one precompiled pattern per side instead of compiling one
per span's text: their phrases equal those of the per-text patterns they replace, on the
examples of ``test_name_classes`` and on generated sentences built from the characters and
words the patterns react to."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.generate.apposition import phrases_after, phrases_before

#: the patterns compiled per span's text before (MAX_WORDS 4, six words after the name)
_LISTED = r"(?:[A-Z\"“][^,;]*?(?:,\s+(?:and\s+)?|\s+and\s+))*"


def _old_before(context: str, text: str) -> list[list[str]]:
    pattern = re.compile(rf"(?<![\w'’-])((?:[a-z][\w-]*\s+){{1,6}}){_LISTED}[\"“]?{re.escape(text)}(?!\w)")
    return [m.group(1).split() for m in pattern.finditer(context)]


def _old_after(context: str, text: str) -> list[str]:
    pattern = re.compile(rf"(?<![\w'’-]){re.escape(text)}(?:\s*\([^)]*\))?,\s+(?:a|an|the)\s+((?:[\w'’-]+\s*){{1,6}})")
    return [m.group(1) for m in pattern.finditer(context)]


EXAMPLES = [
    ("Melrose Place", "Her credits included the television series MacGyver, Roseanne and Melrose Place."),
    ("Excision", "She appeared in films such as Skinner (1993), Blade (1998) and Excision (2012)."),
    ("Chou Nan Ren", 'His song "Chou Nan Ren" (Jerk) was the opening theme.'),
    ("Not of This Earth", "the 1957 Roger Corman science fiction film Not of This Earth"),
    ("Sony Taiwan", "after his contract ended with Sony Taiwan."),
    ("Ulaştırmaspor", "He is a member of Ulaştırmaspor, a club of the Ministry of Transport."),
    ("Hermosillo", "the northern part of Hermosillo, the state capital."),
    ("Paris", "Born in Paris, a year later he moved to Lyon; the city of Paris (France), the capital, and Paris, an idea."),
    ("Blade", "the films Blade Runner and Blade, a film, and the film Blade"),
    ("A.B. (C)", "the group A.B. (C) and the band A.B. (C), a band"),
    ("Zed", "the film Zed"),
    ("Zed", "Zed, a"),
]

TEXTS = ["Zed", "Zed Two", "Blade", "Z", "Zed, a", "1998", "Zed and Blade"]
WORDS = ["the", "film", "series", "such", "as", "and", "a", "an", "club", "x-ray", "it's", "of", "in", "(1998)", "(", ")",
         '"', "“", "’", "-", ";", "\n", "Roseanne", "MacGyver", "A", "zed", "Zedd", "Blade", *TEXTS]
#: a sentence: words and names joined by the separators the patterns read
SENTENCES = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from([" ", " ", " ", ", ", " and ", ", and ", "", "  "])),
                     max_size=16).map(lambda parts: "".join(w + sep for w, sep in parts))


def test_given_the_examples_then_thephrases_equal_the_per_text_patterns():
    for text, context in EXAMPLES:
        assert list(phrases_before(context, text)) == _old_before(context, text)
        assert list(phrases_after(context, text)) == _old_after(context, text)


@settings(max_examples=1000, deadline=None)
@given(SENTENCES, st.sampled_from(TEXTS))
def test_given_generated_sentences_then_thephrases_equal_the_per_text_patterns(context, text):
    assert list(phrases_before(context, text)) == _old_before(context, text)
    assert list(phrases_after(context, text)) == _old_after(context, text)
