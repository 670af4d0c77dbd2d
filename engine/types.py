"""Records that flow through the engine: span → link → candidates → ranked replacement."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.errors import InputError

MASK = "***"


class EntityType(str, Enum):
    """Entity types of the WikiReplace / TAB annotation scheme."""

    PERSON = "PERSON"
    DATETIME = "DATETIME"
    QUANTITY = "QUANTITY"
    CODE = "CODE"
    LOC = "LOC"
    ORG = "ORG"
    DEM = "DEM"
    MISC = "MISC"

    @classmethod
    def parse(cls, value: "str | EntityType") -> "EntityType":
        try:
            return cls(value.upper() if isinstance(value, str) else value)
        except ValueError:
            raise InputError(f"unknown entity type {value!r}; expected one of {', '.join(t.value for t in cls)}") from None

    @property
    def is_graph(self) -> bool:
        """Generalized from the knowledge graph (the others by rules)."""
        return self in GRAPH_TYPES


#: The entity types generalized from the knowledge graph (:attr:`EntityType.is_graph`).
GRAPH_TYPES: tuple[EntityType, ...] = (EntityType.LOC, EntityType.ORG, EntityType.DEM, EntityType.MISC)


class IdentifierType(str, Enum):
    """Whether a span identifies the person directly, indirectly, or needs no masking."""

    DIRECT = "DIRECT"
    QUASI = "QUASI"
    NO_MASK = "NO_MASK"

    @classmethod
    def parse(cls, value: "str | IdentifierType | None") -> "IdentifierType":
        if value is None:
            return cls.QUASI
        try:
            return cls(value.upper() if isinstance(value, str) else value)
        except ValueError:
            raise InputError(f"unknown identifier type {value!r}; expected DIRECT, QUASI or NO_MASK") from None


class Selection(str, Enum):
    """How the selection policy (:mod:`engine.select.policy`) picks among a ladder's allowed
    rungs: ``meaning``, the ranker's best rung other than ``***``; ``annotators``, the
    ranker's first choice, ``***`` included."""

    MEANING = "meaning"
    ANNOTATORS = "annotators"

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(s.value for s in cls)

    @classmethod
    def parse(cls, value: "str | Selection") -> "Selection":
        try:
            return cls(value)
        except ValueError:
            raise InputError(f"unknown selection {value!r}; expected 'meaning' or 'annotators'") from None


class LinkMethod(str, Enum):
    """How a span was linked to an item, in the order they are tried."""

    EXACT = "exact"
    ALIAS = "alias"
    NORMALISED = "normalised"
    DEMONYM = "demonym"
    CONTAINED = "contained"
    APPROXIMATE = "approximate"


@dataclass(frozen=True, slots=True)
class Span:
    """A detected span: its text, type, identifier type and optional document context."""

    text: str
    entity_type: EntityType
    identifier_type: IdentifierType = IdentifierType.QUASI
    context: str | None = None
    start: int | None = None
    end: int | None = None
    entity_id: str | None = None


@dataclass(frozen=True, slots=True)
class Link:
    """A knowledge-graph item a span was linked to."""

    qid: str
    label: str
    method: LinkMethod
    matched: str
    score: float


@dataclass(frozen=True, slots=True)
class Candidate:
    """One replacement option with its provenance.

    ``source`` is a rule name (``person``, ``datetime``…), a property (``P31``, ``P279``,
    ``P8225``, ``P361``) or ``mask``; ``qid``/``path`` say which item and property path
    reached it; ``level`` is its 1-based position in the ladder.
    """

    label: str
    source: str
    level: int = 0
    qid: str | None = None
    path: str | None = None
    rule: str | None = None
    depth: int = 0
    link_qid: str | None = None

    @property
    def is_mask(self) -> bool:
        return self.label == MASK

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in ("label", "source", "level", "qid", "path", "rule", "depth", "link_qid")}


@dataclass(frozen=True, slots=True)
class Ladder:
    """The ordered candidates of one span, most specific first, ending with ``***``."""

    span: Span
    candidates: tuple[Candidate, ...]
    links: tuple[Link, ...] = ()
    reason: str = ""

    @property
    def labels(self) -> list[str]:
        return [c.label for c in self.candidates]


@dataclass(frozen=True, slots=True)
class ScoredCandidate:
    """A candidate with the ranker's score."""

    candidate: Candidate
    score: float


@dataclass(frozen=True, slots=True)
class Mention:
    """A span of a document with offsets, as given by the caller."""

    start: int
    end: int
    entity_type: EntityType
    identifier_type: IdentifierType = IdentifierType.QUASI
    entity_id: str | None = None
    related: tuple[str, ...] = ()
    mention_id: str | None = None


@dataclass(frozen=True, slots=True)
class Replacement:
    """What one mention became in the sanitized text.

    ``rung`` is the chosen ladder label; ``replacement`` is what the reader sees for the
    mention, ``text[new_start:new_end]`` (the rung rendered for its slot by
    :mod:`engine.render`: "the 1980s" for "date in the 1980s" after "in", "" for a
    modifier dropped, the shared phrase of merged neighbours).
    """

    mention: Mention
    original: str
    replacement: str
    alternatives: tuple[ScoredCandidate, ...] = ()
    new_start: int = 0
    new_end: int = 0
    kept: bool = False
    note: str = ""
    rung: str = ""

    @property
    def rendered(self) -> str:
        """The text shown for the mention (same as ``replacement``)."""
        return self.replacement


@dataclass(frozen=True, slots=True)
class Skipped:
    """A rung of a mention withheld because it would leak (:mod:`engine.privacy`): never chosen,
    never shown among the alternatives, whether it ranked above the chosen rung or below;
    or passed over because it names a category of roles in a role's slot
    (:mod:`engine.select.role_slot`; still shown among the alternatives)."""

    mention_start: int
    mention_end: int
    label: str
    source: str
    level: int
    reason: str


@dataclass(frozen=True, slots=True)
class Segment:
    """A changed region: ``new[new_start:new_end]`` stands for ``original[orig_start:orig_end]``."""

    new_start: int
    new_end: int
    orig_start: int
    orig_end: int


@dataclass(frozen=True, slots=True)
class Choice:
    """The rung chosen for an entity's first mention, as every mention of it shows it.

    ``candidate`` is None for ``***``; ``alternatives`` are the ranked rungs that may be
    shown (a leaking rung never is); ``note`` says why the choice is not the ranker's
    plain first pick (empty when it is).
    """

    label: str
    candidate: Candidate | None
    alternatives: tuple[ScoredCandidate, ...] = ()
    note: str = ""
