"""Hand-made records for tests that need a labelled mention without the shared data."""

from __future__ import annotations

from engine.detect.spans import DetectedSpan
from engine.select.features import RankCandidate, RankItem
from taxogen_tools.training.selection_data import LabelledItem
from engine.types import EntityType, IdentifierType
from engine.io.wikireplace import WRMention


def labelled_item(
    doc: str,
    selection: dict[str, list[str]],
    labels: tuple[str, ...] = ("1980", "***"),
    *,
    kind: EntityType = EntityType.DATETIME,
    annotator: str = "annotator1",
    span: str = "18 July 1980",
) -> LabelledItem:
    """A mention of ``doc`` whose candidates are ``labels`` and whose votes are ``selection``
    (label → annotators); gold is the most voted label, the first on ties."""
    mention = WRMention(doc, annotator, "m", span, 0, len(span), kind, IdentifierType.QUASI, None, (), {}, selection, True)
    item = RankItem(span, kind, IdentifierType.QUASI, span, tuple(RankCandidate(label) for label in labels), group=doc)
    votes = tuple(len(selection.get(label, [])) for label in labels)
    gold = max(range(len(labels)), key=lambda i: votes[i])
    return LabelledItem(item, mention, gold, frozenset(i for i, v in enumerate(votes) if v), votes)


def detected_span(text: str, sub: str, etype: EntityType, *, sources=("ner",), nth: int = 0, **kw) -> DetectedSpan:
    """The ``nth`` occurrence of ``sub`` in ``text`` as a detected span of type ``etype``."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(sub, start + 1)
    return DetectedSpan(start, start + len(sub), sub, etype, frozenset(sources), **kw)


def discloser_of(engine):
    """The :class:`engine.privacy.disclosure.Discloser` the engine's privacy guard uses, without its background."""
    from engine.privacy.disclosure import Discloser

    return Discloser(engine.chains.rules.composed, engine.linker.taxonomy, engine.linker.index, engine.truth)
