"""A gazetteer built from the knowledge graph: every label, alias and demonym of the store.

Input is a plain iterator of :class:`GazetteerEntry` ``(label, item, entity_type, kind)``
(:func:`store_entries` reads it from a store with the named queries ``all_labels`` and
``all_demonyms``; another label index can feed it the same way). Each item is given a
*kind* from its classes (P31/P279 ancestors within a few hops): occupation, position,
nationality, ethnic group, language, religion, award, work, event, organisation, place,
or ``other`` (any other labelled class), and the kind gives the entity type (DEM for the
first six, MISC for awards, works, events and other classes, ORG, LOC).

Matching uses **pyahocorasick** (an Aho–Corasick automaton in C): one pass over the text
finds every occurrence of ~100k labels in linear time, on Unicode strings in any script,
and the automaton is built in about a second. spaCy's PhraseMatcher would need every
label tokenized by the pipeline (slow to build for 100k labels, and bound to spaCy's
tokenizer), FlashText is unmaintained and its word boundaries are ASCII-only. Matches are
case-folded and kept only at word boundaries; the longest match wins where they overlap.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Iterator

from kg.class_sets import shipped
from kg.vocab import TYPE_PROPS

from engine.detect.spans import DetectedSpan
from engine.types import EntityType

#: Kind → anchor classes (an item is of the kind when one of them is among its ancestors),
#: and the kinds in the order they are tried: the gazetteer's sets of ``ontology/class_sets.ttl``.
KIND_ANCHORS: dict[str, frozenset[str]] = dict(shipped().gazetteer_kinds())
KIND_ORDER: tuple[str, ...] = tuple(kind for kind, _ in shipped().gazetteer_kinds())
KIND_TYPE: dict[str, EntityType] = {
    "position": EntityType.DEM, "occupation": EntityType.DEM, "nationality": EntityType.DEM, "ethnic group": EntityType.DEM,
    "language": EntityType.DEM, "religion": EntityType.DEM, "award": EntityType.MISC, "work": EntityType.MISC,
    "event": EntityType.MISC, "organisation": EntityType.ORG, "place": EntityType.LOC, "other": EntityType.MISC,
}
#: Every kind an entry may have, in the order the trained detector codes its ``gaz_kind`` feature.
KINDS = ("position", "occupation", "nationality", "ethnic group", "language", "religion", "award", "work", "event", "organisation", "place", "other")

# never gazetteer entries on their own: function words and a few very common nouns
_STOP = frozenset("""a an the and or of in on at to for from by with as is was be been are were he she it they his her
their its this that these those who which what when where one also after before during first last new old name
time year years day days people man woman men women child children part best high low all any some many more most
such other same than then there here not no yes but if so up out over under into about i me my we our you your us
""".split())


@dataclass(frozen=True, slots=True)
class GazetteerEntry:
    """One name of one item: the text to match, the item, its entity type and kind."""

    label: str
    item: str
    entity_type: EntityType
    kind: str


def fold(text: str) -> str:
    """Case-folded NFKC text with straight apostrophes (same length mapping not needed)."""
    return unicodedata.normalize("NFKC", text).replace("’", "'").casefold()


def item_kind(ancestors: frozenset[str]) -> str:
    for kind in KIND_ORDER:
        if ancestors & KIND_ANCHORS[kind]:
            return kind
    return "other"


class KindOf:
    """An item's gazetteer kind from its P31/P279 ancestors within ``hops`` (memoised).

    ``taxonomy`` is any view with ``parents(qid, prop)``: the preloaded taxonomy or the
    memory-mapped :class:`kg.indexed.IndexedTaxonomy`.
    """

    def __init__(self, taxonomy, hops: int = 5) -> None:
        self.taxonomy = taxonomy
        self.hops = hops
        self._kinds: dict[str, str] = {}
        self._memo: dict[tuple[str, int], frozenset[str]] = {}

    def ancestors(self, qid: str, depth: int) -> frozenset[str]:
        key = (qid, depth)
        if key not in self._memo:
            out: set[str] = set()
            if depth > 0:
                for prop in TYPE_PROPS:
                    for parent in self.taxonomy.parents(qid, prop):
                        out.add(parent)
                        out |= self.ancestors(parent, depth - 1)
            self._memo[key] = frozenset(out)
        return self._memo[key]

    def __call__(self, qid: str) -> str:
        if qid not in self._kinds:
            self._kinds[qid] = item_kind(self.ancestors(qid, self.hops) | {qid})
        return self._kinds[qid]


def store_entries(kg, taxonomy=None, *, hops: int = 5) -> Iterator[GazetteerEntry]:
    """Entries for every English label, alias and demonym of ``kg``.

    ``taxonomy`` is a :class:`kg.chains.PreloadedTaxonomy` (built when not given) used to
    find each item's kind from its ancestors within ``hops``.
    """
    from kg.chains import PreloadedTaxonomy
    from kg.vocab import local_id

    kind_of = KindOf(taxonomy or PreloadedTaxonomy.from_store(kg), hops)
    for row in kg.select("all_labels"):
        qid = local_id(row["item"])
        if not qid.startswith("Q"):
            continue
        kind = kind_of(qid)
        yield GazetteerEntry(row["text"], qid, KIND_TYPE[kind], kind)
    for row in kg.select("all_demonyms"):
        yield GazetteerEntry(row["demonym"], local_id(row["country"]), EntityType.DEM, "nationality")


@dataclass(frozen=True, slots=True)
class GazetteerHit:
    start: int
    end: int
    entries: tuple[GazetteerEntry, ...]


class Gazetteer:
    """An Aho–Corasick automaton over the folded names of ``entries``."""

    def __init__(self, entries: Iterable[GazetteerEntry], *, min_length: int = 3) -> None:
        import ahocorasick

        table: dict[str, list[GazetteerEntry]] = defaultdict(list)
        for e in entries:
            key = fold(e.label).strip()
            if not _acceptable(key, e.label, min_length):
                continue
            table[key].append(e)
        self.automaton = ahocorasick.Automaton()
        for key, es in table.items():
            self.automaton.add_word(key, (len(key), tuple(_best_first(es))))
        self.size = len(table)
        if self.size:
            self.automaton.make_automaton()

    def hits(self, text: str) -> list[GazetteerHit]:
        """Longest non-overlapping whole-word matches, left to right."""
        if not self.size:
            return []
        folded = fold(text)
        if len(folded) != len(text):  # folding changed lengths (rare ligatures): fall back to lower()
            folded = text.lower()
            if len(folded) != len(text):
                return []
        raw: list[tuple[int, int, tuple[GazetteerEntry, ...]]] = []
        for end, (length, es) in self.automaton.iter(folded):
            start = end - length + 1
            if _boundary(folded, start, end + 1):
                raw.append((start, end + 1, es))
        raw.sort(key=lambda t: (-(t[1] - t[0]), t[0]))
        taken: list[tuple[int, int]] = []
        out = []
        for s, e, es in raw:
            if any(s < te and ts < e for ts, te in taken):
                continue
            taken.append((s, e))
            out.append(GazetteerHit(s, e, es))
        return sorted(out, key=lambda h: h.start)

    def spans(self, text: str) -> list[DetectedSpan]:
        """Hits as :class:`DetectedSpan` (type and kind of the best entry)."""
        out = []
        for h in self.hits(text):
            best = h.entries[0]
            surface = text[h.start:h.end]
            # a lower-case label matched in title case is kept (sentence start, "Senator");
            # a capitalised label (a name) matched in lower case is weak evidence: mark it
            if best.label.isupper() and len(best.label) <= 4 and surface != best.label:
                continue  # acronyms match in their own case only ("DR" is not "Dr")
            kind = best.kind if not (best.label[:1].isupper() and surface[:1].islower()) else "other"
            out.append(DetectedSpan(
                h.start, h.end, surface, best.entity_type, frozenset({"gazetteer"}), gaz_kind=kind,
                items=tuple(dict.fromkeys(e.item for e in h.entries)),
            ))
        return out


#: a key of nothing but punctuation, digits and spaces (compiled once: ~100k keys at start-up)
_NO_LETTER = re.compile(r"[\W\d_]+")


def _acceptable(key: str, label: str, min_length: int) -> bool:
    if key in _STOP or not key or key.isdigit():
        return False
    if len(key) < min_length and not (label.isupper() and len(label) >= 2):
        return False
    if _NO_LETTER.fullmatch(key):
        return False
    return True


#: rank of each kind among an item's names (built once, not once per name: 0.16 s of a start-up)
_KIND_RANK = {k: i for i, k in enumerate(("nationality",) + KIND_ORDER + ("other",))}


def _best_first(entries: list[GazetteerEntry]) -> list[GazetteerEntry]:
    if len(entries) == 1:
        return entries
    return sorted(entries, key=lambda e: _KIND_RANK.get(e.kind, len(_KIND_RANK)))


def _boundary(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    if before.isalnum() or after.isalnum():
        # scripts written without spaces (CJK, Thai) have no word boundaries to check
        return _unspaced(text[start]) and _unspaced(text[end - 1])
    return True


def _unspaced(ch: str) -> bool:
    if ch.isascii():  # no ASCII character belongs to those scripts (most checks: no name looked up)
        return False
    name = unicodedata.name(ch, "")
    return any(s in name for s in ("CJK", "HIRAGANA", "KATAKANA", "THAI", "HANGUL"))
