"""No leak across mentions: a replacement never reveals what another mask hides.

A candidate *leaks* when its label contains, as whole words (case- and accent-insensitive
after :func:`engine.generate.linking.fold`):

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
are not protected, unless the privacy guard generalized them.

:class:`DocumentLeakGuard` is built once per document from its masked mentions (and
their ladders' links); :meth:`DocumentLeakGuard.check` says whether a candidate of one
entity leaks and why.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Collection, Mapping, Sequence

from engine.generate.linking import LabelIndex, fold, normalised_forms
from engine.knowledge import words
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


#: Words so common that an item named by one is not looked for in other labels
#: (``packs/core/leaks.yaml``).
_STOP = words("leaks.common_names")


@dataclass(frozen=True)
class _Revealer:
    text: str          # folded
    kind: str
    start: int
    end: int
    qid: str | None

    @property
    def pattern(self) -> re.Pattern:
        """Where the text may occur in a label: as whole words (compiled on use, not per mention)."""
        return re.compile(rf"(^|\W){re.escape(self.text)}(\W|$)")


class DocumentLeakGuard:
    """The leak check of one document (see the module docstring)."""

    def __init__(self, revealers: Mapping[int, Sequence[_Revealer]]) -> None:
        self._by_entity = {e: tuple(r) for e, r in revealers.items()}
        # folded text → (entity order, position in the entity's list, entity, revealer):
        # a check looks up the label's whole-word substrings instead of scanning every
        # revealer of the document (linear in mentions, not quadratic)
        rank = {e: n for n, e in enumerate(self._by_entity)}
        self._by_text: dict[str, list[tuple[int, int, int, _Revealer]]] = defaultdict(list)  # in check order
        self._own: dict[str, dict[int, tuple[int, int, int, _Revealer]]] = defaultdict(dict)  # first mention text per entity
        self._odd: list[tuple[int, int, int, _Revealer]] = []  # empty texts: matched by their pattern
        for e, rs in self._by_entity.items():
            for i, r in enumerate(rs):
                entry = (rank[e], i, e, r)
                if not r.text:
                    self._odd.append(entry)
                    continue
                self._by_text[r.text].append(entry)
                if r.kind == "mention text":
                    self._own[r.text].setdefault(e, entry)

    @classmethod
    def build(
        cls,
        text: str,
        mentions: Sequence[Mention],
        entity: Sequence[int],
        ladders: Mapping[int, Ladder],
        names: ItemNames | None = None,
        hidden: Collection[int] = (),
    ) -> "DocumentLeakGuard":
        """The guard for ``mentions`` of ``text`` grouped into ``entity`` indices;
        ``ladders`` maps a mention index to its ladder (its links name its item).
        ``hidden``: NO_MASK mentions that are generalized all the same (the privacy
        guard moved them) and so are protected like masked ones."""
        first_ladder: dict[int, Ladder] = {}
        for k, ladder in ladders.items():
            first_ladder.setdefault(entity[k], ladder)
        revealers: dict[int, list[_Revealer]] = defaultdict(list)
        for k, m in enumerate(mentions):
            if m.identifier_type is IdentifierType.NO_MASK and k not in hidden:
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
        best: tuple[int, int, int, _Revealer] | None = None
        for text in _word_substrings(key):
            own = self._own.get(text, {}).get(entity)
            if own is not None and self._better(own, entity, best):
                best = own
            entries = self._by_text.get(text, ())
            k = 0
            while k < len(entries) and entries[k][2] == entity:  # skip the entity's own entries (contiguous) at the front
                k += 1
            if k < len(entries) and self._better(entries[k], entity, best):
                best = entries[k]
        for entry in self._odd:
            if entry[3].pattern.search(key) and self._better(entry, entity, best):
                best = entry
        if best is not None:
            r = best[3]
            return Leak(r.kind, r.text, r.start, r.end, r.qid)
        return None

    @staticmethod
    def _better(entry: tuple[int, int, int, _Revealer], entity: int, best: tuple[int, int, int, _Revealer] | None) -> bool:
        """Whether ``entry`` applies to ``entity`` and comes before ``best`` in check order."""
        rank, i, e, r = entry
        if e == entity:
            if r.kind != "mention text":
                return False  # its own item is what its ladder generalizes
            rank = -1
        if best is None:
            return True
        best_rank = -1 if best[2] == entity else best[0]
        return (rank, i) < (best_rank, best[1])


_WORD = re.compile(r"\w")


@functools.lru_cache(maxsize=65536)
def _word_substrings(key: str) -> frozenset[str]:
    r"""Every substring of ``key`` with a non-word character or an end on both sides
    (what the pattern ``(^|\W)text(\W|$)`` of a revealer can match)."""
    n = len(key)
    starts = [s for s in range(n) if s == 0 or not _WORD.match(key[s - 1])]
    ends = [e for e in range(1, n + 1) if e == n or not _WORD.match(key[e])]
    return frozenset(key[s:e] for s in starts for e in ends if e > s)
