"""The render stage: each mention shows its entity's choice, rendered for its slot.

A NO_MASK mention the guard left alone keeps its text; any other shows the rung chosen for
its entity's first mention (a rung equal to the mention's own text is masked). The rungs are
laid into the text by :func:`engine.render.document.render_document` (articles, date
phrases, modifiers, adjacent replacements merged), giving ``Doc.result`` and each
``DocMention.replacement``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.doc import Doc, SanitizeOptions, SanitizeResult
from engine.privacy.disclosure import trusted_link
from engine.render.document import Decision, render_document
from engine.types import MASK, IdentifierType


class RenderStage:
    """Writes each document's sanitized text."""

    name = "render"

    def __call__(self, docs: Sequence[Doc], options: SanitizeOptions) -> None:
        for doc in docs:
            self.render(doc, options)

    @staticmethod
    def render(doc: Doc, options: SanitizeOptions) -> None:
        text, ms = doc.text, doc.mentions
        decisions: list[Decision] = []
        for k, m in enumerate(ms):
            original = text[m.start:m.end]
            forced = m.forced is not None
            if m.identifier_type is IdentifierType.NO_MASK and not forced:
                decisions.append(Decision(m.as_mention(), original, original, note=m.merged))
                continue
            first = ms[doc.first_of(k)]
            choice = first.choice
            assert choice is not None, "the guard stage chooses a rung for every entity"
            label, cand, note = choice.label, choice.candidate, choice.note
            if label.strip().lower() == original.strip().lower():
                label, cand, note = MASK, None, "replacement equals this mention's text; masked"
            decisions.append(Decision(m.as_mention(), original, label, cand, choice.alternatives[: options.alternatives],
                                      "; ".join(filter(None, (note, m.merged))), forced=forced,
                                      referent=trusted_link(first.ladder)))
        rendered = render_document(text, decisions, readability=options.readability, parse=doc.parse)
        for m, r in zip(ms, rendered.replacements):
            m.replacement = r
        doc.result = SanitizeResult(rendered.text, text, tuple(rendered.replacements), tuple(rendered.edits), tuple(rendered.segments),
                                    tuple(doc.errors), privacy=doc.privacy, skipped=tuple(doc.skipped))
