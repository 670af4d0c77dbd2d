"""Candidate sources by name: built-ins plus any registered by the application."""

from __future__ import annotations


from engine.errors import UnknownComponentError
from engine.generate.sources.base import CandidateSource
from engine.types import EntityType


class SourceRegistry:
    """Maps source names to instances and entity types to source names."""

    def __init__(self) -> None:
        self._sources: dict[str, CandidateSource] = {}
        self._by_type: dict[EntityType, str] = {}

    def register(self, source: CandidateSource, *, entity_types: tuple[EntityType, ...] = ()) -> None:
        """Add (or replace) ``source`` under its name, serving ``entity_types``."""
        if not source.name:
            raise ValueError(f"{type(source).__name__} has no name")
        self._sources[source.name] = source
        for t in entity_types:
            self._by_type[t] = source.name

    def remove(self, name: str) -> None:
        self.get(name)
        del self._sources[name]
        self._by_type = {t: n for t, n in self._by_type.items() if n != name}

    def get(self, name: str) -> CandidateSource:
        """The source called ``name``; raises :class:`UnknownComponentError`."""
        try:
            return self._sources[name]
        except KeyError:
            raise UnknownComponentError(
                f"no candidate source named {name!r}; known: {', '.join(sorted(self._sources))}",
                name=name, known=tuple(sorted(self._sources)),
            ) from None

    def for_type(self, entity_type: EntityType) -> CandidateSource:
        """The source serving ``entity_type``; raises :class:`UnknownComponentError`."""
        name = self._by_type.get(entity_type)
        if name is None:
            raise UnknownComponentError(f"no candidate source serves {entity_type.value}", name=entity_type.value, known=tuple(sorted(self._sources)))
        return self._sources[name]

    def names(self) -> list[str]:
        return sorted(self._sources)

    def routes(self) -> dict[str, str]:
        """Entity type → source name."""
        return {t.value: n for t, n in sorted(self._by_type.items(), key=lambda kv: kv[0].value)}


def rule_sources() -> SourceRegistry:
    """A registry with the rule-based sources (PERSON, DATETIME, QUANTITY, CODE)."""
    from engine.generate.sources.code import CodeSource
    from engine.generate.sources.datetime import DatetimeSource
    from engine.generate.sources.person import PersonSource
    from engine.generate.sources.quantity import QuantitySource

    reg = SourceRegistry()
    reg.register(PersonSource(), entity_types=(EntityType.PERSON,))
    reg.register(DatetimeSource(), entity_types=(EntityType.DATETIME,))
    reg.register(QuantitySource(), entity_types=(EntityType.QUANTITY,))
    reg.register(CodeSource(), entity_types=(EntityType.CODE,))
    return reg
