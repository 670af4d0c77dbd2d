"""Text folding shared by the index builder and its readers (a module below both)."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Case- and whitespace-folded text (the same folding as :func:`engine.generate.linking.fold`)."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    return " ".join(text.lower().split())
