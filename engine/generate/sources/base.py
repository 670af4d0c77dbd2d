"""The candidate-source interface: one source turns a span into ordered candidates."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from engine.types import Candidate, Link, Span


@dataclass
class SourceResult:
    """Candidates of one source (most specific first, without the final ``***``)."""

    candidates: list[Candidate]
    links: tuple[Link, ...] = ()
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Linked:
    """The items a span may name, best first, and notes on how they were found (the link stage's)."""

    links: tuple[Link, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass
class DocumentState:
    """Per-document memory shared by the sources (PERSON numbering and the like)."""

    #: (entity id, name tokens, number) of every PERSON mention seen, in order
    persons: list[tuple[str | None, list[str], int]] = field(default_factory=list)
    #: entity id → PERSON number
    entity_numbers: dict[str, int] = field(default_factory=dict)
    #: name token → indices in ``persons`` of the names holding it (name matching looks
    #: only at names sharing a token: linear in mentions, not quadratic)
    person_tokens: dict[str, list[int]] = field(default_factory=dict)
    #: the highest PERSON number given so far
    top_person: int = 0
    #: the distinct names (token tuples) each PERSON number stands for
    names_of_number: dict[int, set[tuple[str, ...]]] = field(default_factory=dict)
    #: countries of the document's unambiguous places and nationalities
    #: (:func:`engine.generate.context.document_countries`): homonyms are linked in them
    countries: frozenset[str] = frozenset()
    #: countries of every place and nationality the document names, ambiguous ones too
    #: (:func:`engine.generate.context.mentioned_countries`)
    mentioned: frozenset[str] = frozenset()
    #: the document's text, for rules that read beyond a span's sentence (empty: unknown)
    text: str = ""
    #: the sports the document names (:func:`engine.generate.teams.document_sports`), once read
    sports: frozenset[str] | None = None


class CandidateSource(ABC):
    """A named producer of replacement candidates.

    Subclasses set :attr:`name` and implement :meth:`generate`, which returns the
    candidates for ``span`` most specific first (never ``***``: the generator adds it),
    and a reason when there are none.
    """

    name: str = ""
    #: whether the source links spans to items (the link stage asks it first: :meth:`link`)
    links_items: bool = False

    @abstractmethod
    def generate(self, span: Span, state: DocumentState, linked: Linked | None = None) -> SourceResult:
        """Candidates for ``span``; ``state`` carries document-level memory; ``linked``: the
        span's links when the link stage found them (sources that link items)."""

    def link(self, span: Span, state: DocumentState) -> Linked:
        """The items ``span`` may name (a source that links items overrides this)."""
        return Linked()
