"""The link, ladder and verify stages: what each entity's first mention may name, its ladder,
and how likely each rung is true.

- **link**: the document's state (:func:`engine.generate.context.document_state`: the
  countries its unambiguous places name, …) and, for each entity's first mention of a graph
  type, the items it may name, best first (:meth:`engine.generate.sources.graph.GraphSource.link`);
- **ladder**: the ladder of each entity's first mention, from the source serving its type
  (:class:`engine.generate.candidates.CandidateGenerator`), in text order (persons are
  numbered as they come);
- **verify**: with a verifier (:mod:`engine.generate.verifier`), P(rung true) of each rung of
  a LOC/ORG/DEM/MISC ladder (``DocMention.verdicts``); the rungs below the operating point
  (``SanitizeOptions.min_truth``, else the verifier's point for the document's kind) are dropped,
  ``***`` never.

A failure on one mention masks it (fail closed) and is reported in ``Doc.errors``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from engine.doc import Doc, SanitizeOptions
from engine.generate.candidates import CandidateGenerator
from engine.generate.context import document_state
from engine.generate.linking import Linker
from engine.generate.verifier import LadderVerifier, keep
from engine.types import Span

log = logging.getLogger(__name__)


def _failure(doc: Doc, k: int, exc: Exception) -> None:
    m = doc.mentions[k]
    log.exception("candidate generation failed")
    doc.fail(k, f"span {m.start}–{m.end} ({m.entity_type.value}): {type(exc).__name__}: {exc}; masked")


class LinkStage:
    """The document's state, and the links of each entity's first mention."""

    name = "link"

    def __init__(self, linker: Linker, generator: CandidateGenerator) -> None:
        self.linker = linker
        self.generator = generator

    def __call__(self, docs: Sequence[Doc], options: SanitizeOptions) -> None:
        for doc in docs:
            text = doc.text
            doc.state = document_state(self.linker, (Span(text[m.start:m.end], m.entity_type) for m in doc.mentions), text)
            for k in doc.firsts():
                try:
                    doc.mentions[k].linked = self.generator.link(doc.span(k), doc.state)
                except Exception as exc:  # fail closed
                    _failure(doc, k, exc)


class LadderStage:
    """The ladder of each entity's first mention."""

    name = "ladder"

    def __init__(self, generator: CandidateGenerator) -> None:
        self.generator = generator

    def __call__(self, docs: Sequence[Doc], options: SanitizeOptions) -> None:
        for doc in docs:
            for k in doc.firsts():
                m = doc.mentions[k]
                if m.failed:
                    continue
                try:
                    m.ladder = self.generator.ladder(doc.span(k), doc.state, m.linked)
                except Exception as exc:  # fail closed
                    _failure(doc, k, exc)


class VerifyStage:
    """P(rung true) of each rung, from a verifier; without one, the ladders stand as built."""

    name = "verify"

    def __init__(self, verifier: LadderVerifier | None = None) -> None:
        self.verifier = verifier

    def __call__(self, docs: Sequence[Doc], options: SanitizeOptions) -> None:
        if self.verifier is None:
            return
        for doc in docs:
            # the user's point for every document, else the verifier's for the document's kind
            min_truth = options.min_truth if options.min_truth is not None else self.verifier.min_truth_for(doc.kind)
            at = [k for k in doc.firsts() if doc.mentions[k].ladder is not None and not doc.mentions[k].failed
                  and doc.mentions[k].entity_type.is_graph]
            try:  # one prediction for the document's rungs
                probs = self.verifier.probabilities([(doc.mentions[k].ladder, doc.state) for k in at])
            except Exception as exc:  # fail closed: the document's graph mentions are masked
                for k in at:
                    _failure(doc, k, exc)
                continue
            for k, p in zip(at, probs):
                m = doc.mentions[k]
                m.ladder, m.verdicts = keep(m.ladder, p, min_truth)
