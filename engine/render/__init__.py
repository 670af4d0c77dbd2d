"""Rendering chosen rungs as readable text: phrases fitted to their slots, neighbours merged."""

from engine.render.document import Decision, RenderedDocument, render_document
from engine.render.phrase import RungKind, kind_of, render_phrase

__all__ = ["Decision", "RenderedDocument", "RungKind", "kind_of", "render_document", "render_phrase"]
