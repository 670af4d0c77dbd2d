"""No leak across mentions: a replacement never reveals what another mask hides.

A candidate *leaks* when its label contains, as whole words (case- and accent-insensitive
after :func:`engine.linking.fold`):

- the text of another masked mention of the document, or one of its normalised forms
  ("Brazil" in "municipality of Brazil");
- a name of the item linked from another masked mention — its label, its aliases and its
  demonyms ("French" → France: "city in France"; "American" → United States of America,
  alias "United States": "city of the United States"). A demonym span counts as naming
  its country even when the linker chose another item for it (the language "Norwegian").
  Only links that name the item count (exact, alias, normalised, demonym: "Gujarat High
  Court" contains Gujarat but is not named by it), and never a class ("university"):
  naming a class reveals nothing about one mention;
- the text of another mention of its own entity (every mention of an entity shares one
  replacement: "Norway" and "Norwegian").

Composed rungs ("city in {country}") are plain labels by the time they are offered, so
they are checked like any other. PERSON numbers, ``***`` and rule placeholders without
letters of the original never match anything. NO_MASK mentions are visible anyway and
are not protected.

:class:`DocumentLeakGuard` is built once per document from its masked mentions (and
their ladders' links); :meth:`DocumentLeakGuard.check` says whether a candidate of one
entity leaks and why.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from engine.linking import LabelIndex, fold, normalised_forms
from engine.types import IdentifierType, Ladder, LinkMethod, Mention

#: Links that name the item (a contained or approximate link names something else).
_NAMING = (LinkMethod.EXACT, LinkMethod.ALIAS, LinkMethod.NORMALISED, LinkMethod.DEMONYM)
#: Shorter texts (after folding) are not looked for: "a", "I", a lone digit.
MIN_LENGTH = 2


@dataclass(frozen=True, slots=True)
class Leak:
    """Why a candidate may not be shown: what it reveals, and of which mention."""

    kind: str          # "mention text" or "linked item"
    revealed: str      # the folded text found in the candidate
    mention_start: int
    mention_end: int
    qid: str | None = None

    def reason(self) -> str:
        """A description that does not quote the revealed text (results may omit originals)."""
        where = f"masked mention at {self.mention_start}–{self.mention_end}"
        if self.kind == "linked item":
            return f"names the item linked from the {where} ({self.qid})"
        return f"contains the text of the {where}"


class ItemNames:
    """The folded names of an item (labels, aliases, demonyms), from a :class:`LabelIndex`.

    Short names are left out: labels under 3 characters, aliases and demonyms under 4
    ("IN" is an alias of Indiana, "The" the label of an album). The reverse maps are
    built on first use (one pass over the index) and kept. With a ``taxonomy``, classes
    (items with a P279 parent: "university", "music school") are recognised: naming a
    class reveals nothing about one mention.
    """

    def __init__(self, index: LabelIndex, taxonomy=None) -> None:
        self.index = index
        self.taxonomy = taxonomy
        self._names: dict[str, set[str]] | None = None

    def _build(self) -> dict[str, set[str]]:
        names: dict[str, set[str]] = defaultdict(set)
        for table, shortest in ((self.index.labels, 3), (self.index.aliases, 4), (self.index.demonyms, 4)):
            for key, qids in table.items():
                if len(key) < shortest or key in _STOP:
                    continue
                for q in qids:
                    names[q].add(key)
        return names

    def names(self, qid: str) -> frozenset[str]:
        if hasattr(self.index, "names_of"):  # a store's SQLite index: per item, no reverse map
            shortest = {"label": 3, "alias": 4, "demonym": 4}
            return frozenset(k for k, kind in self.index.names_of(qid) if len(k) >= shortest[kind] and k not in _STOP)
        if self._names is None:
            self._names = self._build()
        return frozenset(self._names.get(qid, ()))

    def is_class(self, qid: str) -> bool:
        return self.taxonomy is not None and bool(self.taxonomy.parents(qid, "P279"))

    def demonym_countries(self, text: str) -> tuple[str, ...]:
        """Items that ``text`` (or a normalised form of it) is a demonym of."""
        out: list[str] = []
        for form in [fold(text)] + normalised_forms(text):
            for q in self.index.demonyms.get(form, ()):
                if q not in out:
                    out.append(q)
        return tuple(out)


_STOP = frozenset("the and for with from into that this his her its new old one two".split())


@dataclass(frozen=True)
class _Revealer:
    text: str          # folded
    kind: str
    start: int
    end: int
    qid: str | None
    pattern: re.Pattern = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", re.compile(rf"(^|\W){re.escape(self.text)}(\W|$)"))


class DocumentLeakGuard:
    """The leak check of one document (see the module docstring)."""

    def __init__(self, revealers: Mapping[int, Sequence[_Revealer]]) -> None:
        self._by_entity = {e: tuple(r) for e, r in revealers.items()}

    @classmethod
    def build(
        cls,
        text: str,
        mentions: Sequence[Mention],
        entity: Sequence[int],
        ladders: Mapping[int, Ladder],
        names: ItemNames | None = None,
    ) -> "DocumentLeakGuard":
        """The guard for ``mentions`` of ``text`` grouped into ``entity`` indices;
        ``ladders`` maps a mention index to its ladder (its links name its item)."""
        first_ladder: dict[int, Ladder] = {}
        for k, ladder in ladders.items():
            first_ladder.setdefault(entity[k], ladder)
        revealers: dict[int, list[_Revealer]] = defaultdict(list)
        for k, m in enumerate(mentions):
            if m.identifier_type is IdentifierType.NO_MASK:
                continue
            span = text[m.start:m.end]
            found = revealers[entity[k]]
            for form in dict.fromkeys([fold(span)] + normalised_forms(span)):
                if len(form) >= MIN_LENGTH:
                    found.append(_Revealer(form, "mention text", m.start, m.end, None))
            if names is None:
                continue
            qids: list[str] = []
            ladder = first_ladder.get(entity[k])
            if ladder is not None and ladder.links and ladder.links[0].method in _NAMING:
                qids.append(ladder.links[0].qid)
            if m.entity_type.is_graph:
                qids += [q for q in names.demonym_countries(span) if q not in qids]
            for q in qids:
                if names.is_class(q):
                    continue
                for name in names.names(q):
                    found.append(_Revealer(name, "linked item", m.start, m.end, q))
        return cls(revealers)

    def check(self, entity: int, label: str) -> Leak | None:
        """The first leak of a candidate ``label`` offered for ``entity``, or None when safe."""
        key = fold(label)
        if not key:
            return None
        # the entity's own mention texts first, then the other entities in document order
        order = [entity] + [e for e in self._by_entity if e != entity]
        for e in order:
            for r in self._by_entity.get(e, ()):
                if e == entity and r.kind != "mention text":
                    continue  # its own item is what its ladder generalizes
                if r.pattern.search(key):
                    return Leak(r.kind, r.text, r.start, r.end, r.qid)
        return None
