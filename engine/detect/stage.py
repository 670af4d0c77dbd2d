"""The detect stage: the mentions of each document, found in raw text or given, made ready.

For a raw text (``Doc.given`` is None) the detector (:class:`engine.detect.Detector`) parses
the text once — the spaCy parse is kept as ``Doc.parse`` — and decides which spans to mask
(``Doc.detected`` keeps every candidate span with its decision); the spans to mask become
the document's mentions. Given mentions are taken as they are. Either way the mentions are
then checked, overlapping ones merged (or rejected), grouped into entities
(:mod:`engine.mentions`), and placed in their sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.doc import Doc, DocMention, SanitizeOptions
from engine.mentions import caller_grouped, group_entities, resolve_mentions
from engine.select.features import DocumentFacts
from engine.text.sentences import SentenceIndex
from engine.types import IdentifierType


class DetectStage:
    """Finds or takes each document's mentions, resolved and grouped.

    ``detector``: builds the :class:`engine.detect.Detector` on first need (a raw text)."""

    name = "detect"

    def __init__(self, detector: Callable[[], object]) -> None:
        self._make_detector = detector
        self._detector = None

    @property
    def detector(self):
        """The detector (built on first use)."""
        if self._detector is None:
            self._detector = self._make_detector()
        return self._detector

    @detector.setter
    def detector(self, detector) -> None:
        self._detector = detector

    def __call__(self, docs: Sequence[Doc], options: SanitizeOptions) -> None:
        raw = [d for d in docs if d.given is None]
        if raw:
            for doc, (parse, spans) in zip(raw, self.detector.detect_parsed([d.text for d in raw])):
                doc.parse, doc.detected = parse, spans
                doc.given = [s.to_mention() for s in spans if s.masked]
        for doc in docs:
            self.resolve(doc, options)

    @staticmethod
    def resolve(doc: Doc, options: SanitizeOptions) -> None:
        """The document's mentions from the given ones: checked, merged, grouped, in their sentences."""
        ms, merged = resolve_mentions(doc.text, doc.given or [], options.overlap)
        entity = group_entities(ms)
        doc.grouped = caller_grouped(ms, entity)  # other PERSON groups are matched by name (surname alone)
        sentences = SentenceIndex(doc.text)
        scores = {(s.start, s.end): s.score for s in doc.detected}
        doc.mentions = []
        doc.first = {}
        for k, m in enumerate(ms):
            dm = DocMention.of(m)
            dm.entity, dm.merged = entity[k], merged.get(k, "")
            dm.sentence = sentences.bounds(m.start, m.end)
            dm.detection_score = scores.get((m.start, m.end))
            doc.mentions.append(dm)
            if m.identifier_type is not IdentifierType.NO_MASK:
                doc.first.setdefault(entity[k], k)  # later mentions reuse the entity's replacement
        doc.facts = DocumentFacts.of(len(doc.text), [(m.entity_type, m.identifier_type) for m in ms])
