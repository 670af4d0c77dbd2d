"""A class the sentence already states next to a name is not shown for it.

"the television series *MacGyver*", 'his song "*Chou Nan Ren*"', "films such as
*Skinner*", "*Hermosillo*, the state capital": the sentence's own noun already tells the
reader what the name names (:mod:`engine.generate.apposition` finds it). Shown as a
class, a rung headed by that noun repeats it ("the television series a television
series", "his song "song"") and a rung above it ("an audiovisual work") says less than
the sentence does; ``***`` keeps the same meaning and reads. So for a LOC, ORG or MISC
mention whose ladder holds a class headed by that noun,
:class:`engine.select.policy.SelectionPolicy` shows ``***`` and says why (the rule
``class-stated-beside-a-name``; switched off, no noun is stated).
"""

from __future__ import annotations

from collections.abc import Iterable, Set

from engine.generate.apposition import noun_after, noun_before
from engine.generate.linking import fold
from engine.knowledge import rule, words
from engine.text.sentences import sentence_around
from engine.types import EntityType, Span

#: Why a mention is masked when its sentence states its class.
STATED = "the sentence names its class next to it; a class rung would only repeat it"

_NAMES = (EntityType.LOC, EntityType.ORG, EntityType.MISC)
#: Endings of a noun in -s that is no plural of the word without it ("class", "series").
_SINGULAR_IN_S = words("select.singular_in_s")


def _forms(word: str) -> set[str]:
    """A folded word and, for a plural, its singular ("films" → "film"; "series" stays)."""
    w = fold(word)
    out = {w}
    if w.endswith("ies") and len(w) > 4:
        out.add(w[:-3] + "y")
    if w.endswith("s") and not w.endswith(_SINGULAR_IN_S.in_order()):
        out.add(w[:-1])
    return out


@rule("class-stated-beside-a-name", stage="select", types=tuple(t.value for t in _NAMES), off=frozenset(),
      purpose='a name whose sentence states its class beside it ("the television series [MacGyver]") shows "***", not a class headed by that noun')
def stated_noun(text: str, start: int, end: int, entity_type: EntityType) -> Set[str]:
    """Forms of the head noun the sentence puts right before the name or in an apposition
    after it; empty when there is none (or the mention is no name of a place, organisation or thing)."""
    if entity_type not in _NAMES:
        return set()
    span = Span(text[start:end], entity_type, context=sentence_around(text, start, end))
    noun = noun_before(span) or noun_after(span)
    return _forms(noun[-1]) if noun else set()


def repeats_stated(labels: Iterable[str], noun: Set[str]) -> bool:
    """Some class label is headed by the stated noun ("television series" by "series")."""
    return bool(noun) and any(label.split() and fold(label.split()[-1]) in noun for label in labels)
