"""Link a span to knowledge-graph items.

Methods are tried in stages, the first stage that finds anything wins (as in Olstad
2023, then better): exact label, alias or demonym (P1549, linking "Norwegian" to Norway
as well as to the language) → the same for normalised forms (case, leading "the",
possessive, plural) → an item label contained in the span (longest first) → approximate
match (character edit distance below 15 %, rapidfuzz; the same first letter).

Within a method, items are ranked by the entity type (DEM → occupations, nationalities,
ethnic groups, languages; LOC → places; ORG → organisations), by the context sentence
("She speaks Norwegian" → the language, "She is Norwegian" → the nationality), then by
how connected the item is in the taxonomy and its Q-number.

A link to an item *more specific* than the span is rejected: an item whose label
contains the span and more ("attorney" → "attorney general"; "footballer" → "Footballer
of the Year").
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from kg.chains import PreloadedTaxonomy
from kg.class_sets import class_set, named_class, shipped
from kg.store import KGStore
from kg.text import fold  # noqa: F401  (the folding of the index, re-exported for the engine)
from kg.vocab import DEGREE_PROPS, TYPE_PROPS, local_id, qid_number
from engine.knowledge import pattern, words
from engine.types import EntityType, Link, LinkMethod, Span

#: Classes that mark an item as fitting an entity type (any ancestor, up to 6 hops):
#: the link anchors of ``ontology/class_sets.ttl`` (``tg:linkAnchorFor``).
TYPE_ANCHORS: dict[EntityType, frozenset[str]] = {EntityType.parse(t): c for t, c in shipped().link_anchors().items()}
#: The language class ("she speaks Norwegian"): the root of the language kind (``ontology/entity_types.ttl``).
LANGUAGE = named_class("kindLanguage")
#: What "she is Norwegian" names: a country, a nationality, an ethnic group.
NATIONALITY_CLASSES = class_set("nationClasses")
_LANGUAGE_CUES = pattern("linking.language_cues")
_NATIONALITY_CUES = pattern("linking.nationality_cues")
_LEADING_ARTICLE = pattern("linking.leading_article")
_SIBILANT_PLURAL = words("linking.plural_sibilant_endings")
#: Every class ranking asks about: a link's ancestors matter to it only through these.
RANK_CLASSES: frozenset[str] = frozenset().union(*TYPE_ANCHORS.values(), {LANGUAGE}, NATIONALITY_CLASSES)
_BASE_SCORE = {
    LinkMethod.EXACT: 1.0, LinkMethod.ALIAS: 0.9, LinkMethod.NORMALISED: 0.85,
    LinkMethod.DEMONYM: 0.8, LinkMethod.CONTAINED: 0.6, LinkMethod.APPROXIMATE: 0.5,
}


def contains_words(text: str, words: str) -> bool:
    """``words`` occurs in ``text`` as whole words (both already folded): not preceded nor
    followed by a word character (``\\w``: a letter, digit or ``_``). A scan with ``str.find``,
    not a pattern per ``words`` (each compiled anew once the ``re`` cache is full)."""
    at = text.find(words)
    while at >= 0:
        end = at + len(words)
        if (at == 0 or not _word_char(text[at - 1])) and (end == len(text) or not _word_char(text[end])):
            return True
        at = text.find(words, at + 1)
    return False


def _word_char(ch: str) -> bool:
    """``ch`` matches ``\\w`` in a ``str`` pattern."""
    return ch.isalnum() or ch == "_"


def normalised_forms(text: str) -> list[str]:
    """Variants of a folded span: without a leading "the", a possessive, a plural."""
    base = fold(text)
    forms: list[str] = []

    def add(f: str) -> None:
        if f and f != base and f not in forms:
            forms.append(f)

    no_the = _LEADING_ARTICLE.sub("", base)
    add(no_the)
    for f in list(forms) + [base]:
        add(re.sub(r"'s$|'$", "", f))
    for f in [f for f in list(forms) + [base] if "'" not in f]:
        if f.endswith("ies") and len(f) > 4:
            add(f[:-3] + "y")
        elif f.endswith(tuple(_SIBILANT_PLURAL.in_order())) and len(f) > 4:
            add(f[:-2])
        elif f.endswith("s") and not f.endswith("ss") and len(f) > 3:
            add(f[:-1])
    return forms


@dataclass
class LabelIndex:
    """Folded labels, aliases and demonyms of a store, for linking."""

    labels: dict[str, list[str]]
    aliases: dict[str, list[str]]
    demonyms: dict[str, list[str]]
    by_length: dict[int, list[str]]
    main_label: dict[str, str]

    @classmethod
    def from_store(cls, kg: KGStore) -> "LabelIndex":
        labels: dict[str, list[str]] = defaultdict(list)
        aliases: dict[str, list[str]] = defaultdict(list)
        main: dict[str, str] = {}
        for row in kg.select("all_labels"):
            qid = local_id(row["item"])
            if not qid.startswith("Q"):
                continue
            key = fold(row["text"])
            if row["kind"] == "label":
                labels[key].append(qid)
                main.setdefault(qid, row["text"])
            else:
                aliases[key].append(qid)
        demonyms: dict[str, list[str]] = defaultdict(list)
        for row in kg.select("all_demonyms"):
            demonyms[fold(row["demonym"])].append(local_id(row["country"]))
        by_length: dict[int, list[str]] = defaultdict(list)
        for key in set(labels) | set(aliases):
            by_length[len(key)].append(key)
        for table in (labels, aliases, demonyms):
            for key, items in table.items():
                table[key] = sorted(set(items), key=qid_number)
        return cls(dict(labels), dict(aliases), dict(demonyms), dict(by_length), main)

    def add(self, qid: str, text: str, kind: str = "label") -> None:
        """Add a label or alias (e.g. fetched remotely)."""
        key = fold(text)
        table = self.labels if kind == "label" else self.aliases
        items = table.setdefault(key, [])
        if qid not in items:
            items.append(qid)
            items.sort(key=qid_number)
        if kind == "label":
            self.main_label.setdefault(qid, text)
        bucket = self.by_length.setdefault(len(key), [])
        if key not in bucket:
            bucket.append(key)

    def lookup(self, key: str) -> list[tuple[str, LinkMethod]]:
        out = [(q, LinkMethod.EXACT) for q in self.labels.get(key, ())]
        out += [(q, LinkMethod.ALIAS) for q in self.aliases.get(key, ()) if q not in {o[0] for o in out}]
        return out

    def names_with_word(self, word: str) -> list[tuple[str, str]]:
        """``(folded label, item)`` of every main-kind label holding the folded ``word`` as a whole word."""
        return [(key, q) for key, items in self.labels.items() if word in key.split() for q in items]

    def prominence(self, qid: str) -> int:
        """No prominence prior in memory (stores with indices have one: ``engine.generate.label_store``)."""
        return 0

    def prominences(self, qids: list[str]) -> list[int]:
        """``prominence`` of each of ``qids``."""
        return [0] * len(qids)

    def main_labels(self, qids: list[str]) -> dict[str, str]:
        """The main label of each of ``qids`` that has one."""
        return {q: self.main_label[q] for q in qids if q in self.main_label}

    def approximate(self, key: str, threshold: float, limit: int = 5) -> list[tuple[float, str]]:
        """Names within ``threshold`` normalised edit distance of ``key`` (length-bucketed scan), best first."""
        max_dist = int(len(key) * threshold / (1 - threshold)) + 1
        best: list[tuple[float, str]] = []
        for length in range(len(key) - max_dist, len(key) + max_dist + 1):
            bucket = self.by_length.get(length)
            if not bucket:
                continue
            for cand, d, _ in process.extract(
                key, bucket, scorer=Levenshtein.normalized_distance, score_cutoff=threshold, limit=5
            ):
                if d < threshold:
                    best.append((d, cand))
        best.sort()
        return best[:limit]


class Linker:
    """Links spans to items of one store (see the module docstring for the method order)."""

    def __init__(self, index: LabelIndex, taxonomy: PreloadedTaxonomy, *, max_links: int = 5, approx_threshold: float = 0.15) -> None:
        self.index = index
        self.taxonomy = taxonomy
        self.max_links = max_links
        self.approx_threshold = approx_threshold
        self.max_ranked = 64
        self._ancestors: dict[tuple[str, int], frozenset[str]] = {}  # (item, hops) → classes above
        self._reach: dict[tuple[str, int], frozenset[str]] = {}  # (node, hops) → RANK_CLASSES above
        self._marks: bool | None = None  # whether the taxonomy's index marks RANK_CLASSES (asked once)
        self._approx: dict[str, tuple[Link, ...]] = {}  # key → approximate links (the costliest stage)

    # --- public -------------------------------------------------------------------------
    def link(self, span: Span) -> list[Link]:
        """Ranked links for ``span`` (empty when nothing acceptable matches)."""
        key = fold(span.text)
        if not key:
            return []
        stages = (
            lambda: self._exact(span, key) + self._demonym(span, [key]),
            lambda: self._normalised(span, key) + self._demonym(span, normalised_forms(span.text)),
            lambda: self._contained(span, key),
            lambda: self._approximate(span, key),
        )
        for stage in stages:
            accepted = self._accept(key, _unique(stage()))
            if accepted:
                return self._rank(span, accepted)[: self.max_links]
        return []

    def _accept(self, key: str, matches: list[Link]) -> list[Link]:
        """``_shortlist(reject_more_specific(key, …))`` of one stage's matches, with each item's
        main label read only as far as needed: a common name ("Asta") can have thousands of
        homonyms at full scale, and one label read per homonym (a random read of the index,
        ~0.1 ms on a cold page cache) made that one stage take ~100 ms. Matches are taken in
        the shortlist's order (score, prominence, Q-number) a batch at a time until
        ``max_ranked`` do not extend the span; the answer is the one of labelling every match."""
        if len(matches) <= self.max_ranked:
            return self.reject_more_specific(key, self._labelled(matches))
        ranked = self._shortlist_order(matches)
        plain: list[Link] = []
        labelled: list[Link] = []
        for i in range(0, len(ranked), self.max_ranked):
            batch = self._labelled(ranked[i : i + self.max_ranked])
            labelled += batch
            plain += [link for link in batch if not self.extends(key, link)]
            if len(plain) >= self.max_ranked:
                return plain[: self.max_ranked]
        return plain if plain else self._shortlist(self.reject_more_specific(key, labelled))

    def _labelled(self, matches: list[Link]) -> list[Link]:
        """``matches`` with their items' main labels (one batch read; the matched name when an item has none)."""
        labels = self.index.main_labels([m.qid for m in matches])
        return [Link(m.qid, labels.get(m.qid, m.matched), m.method, m.matched, m.score) for m in matches]

    def _shortlist_order(self, links: list[Link]) -> list[Link]:
        """Best matched first, then the most prominent, then the lowest Q-number."""
        prominence = self.index.prominences([link.qid for link in links])
        order = sorted(range(len(links)), key=lambda i: (-links[i].score, -prominence[i], qid_number(links[i].qid)))
        return [links[i] for i in order]

    def _shortlist(self, links: list[Link]) -> list[Link]:
        """At most ``max_ranked`` links (ranking walks each one's ancestors; a name can have
        hundreds of homonyms at full scale): the best matched, then the most prominent."""
        if len(links) <= self.max_ranked:
            return links
        return self._shortlist_order(links)[: self.max_ranked]

    def extends(self, key: str, link: Link) -> bool:
        """The item's main label (``link.label``, as :meth:`_labelled` set it) contains the span
        and says more ("attorney general" for "attorney")."""
        label = fold(link.label)
        if label == key or len(label) <= len(key):
            return False
        return contains_words(label, key)

    def reject_more_specific(self, key: str, links: list[Link]) -> list[Link]:
        """Drop links to items more specific than the span.

        An item whose label extends the span is dropped when another candidate does not,
        when it was not matched by one of its own names (contained/approximate), or when
        it sits below an item named by the span ("attorney general" ⊂ "attorney"). It is
        kept otherwise: "United States" is an alias of "United States of America".
        """
        plain = [l for l in links if not self.extends(key, l)]
        if plain:
            return plain
        named = {q for q, _ in self.index.lookup(key)}
        keep = []
        for link in links:
            if link.method in (LinkMethod.CONTAINED, LinkMethod.APPROXIMATE):
                continue
            if named - {link.qid} and (self.ancestors(link.qid, hops=3) & (named - {link.qid})):
                continue
            keep.append(link)
        return keep

    def invalidate(self) -> None:
        """Forget cached ancestor sets (after the taxonomy grew)."""
        self._ancestors.clear()
        self._reach.clear()

    def forget_approximate(self) -> None:
        """Forget the remembered approximate links (a benchmark of documents never seen)."""
        self._approx.clear()

    def ancestors(self, qid: str, hops: int = 6) -> frozenset[str]:
        """Classes above ``qid`` over P31/P279 within ``hops`` (cached per item and hops: a
        set cached for 3 hops must not answer a 6-hop question, or a document's links would
        depend on what the process linked before)."""
        cached = self._ancestors.get((qid, hops))
        if cached is not None:
            return cached
        seen: set[str] = set()
        frontier = [qid]
        for _ in range(hops):
            nxt = []
            for node in frontier:
                for prop in TYPE_PROPS:
                    for parent in self.taxonomy.parents(node, prop):
                        if parent not in seen:
                            seen.add(parent)
                            nxt.append(parent)
            frontier = nxt
            if not frontier:
                break
        result = frozenset(seen)
        if len(self._ancestors) < 200_000:
            self._ancestors[(qid, hops)] = result
        return result

    def rank_ancestors(self, qid: str, hops: int = 6) -> frozenset[str]:
        """``ancestors(qid, hops) & RANK_CLASSES``, from a memo per (node, hops) shared by every
        item: the classes within ``hops`` above a node are those of each parent within
        ``hops - 1``, so the class graph above common classes is walked once, not once per
        homonym (at full scale a name has dozens, each above hundreds of classes)."""
        key = (qid, hops)
        cached = self._reach.get(key)
        if cached is not None:
            return cached
        found: set[str] = set()
        for prop in TYPE_PROPS:
            for parent in self.taxonomy.parents(qid, prop):
                if parent in RANK_CLASSES:
                    found.add(parent)
                if hops > 1:
                    found |= self.rank_ancestors(parent, hops - 1)
        result = frozenset(found)
        if len(self._reach) >= 400_000:
            self._reach.clear()
        self._reach[key] = result
        return result

    def _rank_facts(self, qid: str) -> tuple[frozenset[str], int]:
        """What ranking needs of an item: ``RANK_CLASSES`` within six hops above it, and its
        degree (P31, P279 and P361 parents, subclasses, instances). Read from the index's
        marks (:mod:`kg.marks`) when the taxonomy has them for these classes, else walked."""
        if self._marks is None:
            marks = getattr(self.taxonomy, "marks", None)
            self._marks = bool(marks is not None and RANK_CLASSES <= set(marks.classes) and marks.hops == 6)
        if self._marks:
            facts = self.taxonomy.rank_facts(qid)  # type: ignore[attr-defined]
            if facts is not None:
                mask, degree = facts
                return self.taxonomy.marks.classes_of(mask) & RANK_CLASSES, degree  # type: ignore[attr-defined]
        degree = sum(len(self.taxonomy.parents(qid, p)) for p in DEGREE_PROPS)
        degree += self.taxonomy.children_count.get(qid, 0) + self.taxonomy.instance_count.get(qid, 0)
        return self.rank_ancestors(qid), degree

    # --- methods ------------------------------------------------------------------------
    def _links(self, items: Iterable[tuple[str, LinkMethod]], matched: str) -> list[Link]:
        return [Link(q, matched, m, matched, _BASE_SCORE[m]) for q, m in items]

    def _exact(self, span: Span, key: str) -> list[Link]:
        return self._links(self.index.lookup(key), span.text)

    def _normalised(self, span: Span, key: str) -> list[Link]:
        out: list[Link] = []
        seen: set[str] = set()
        for form in normalised_forms(span.text):
            for q, _ in self.index.lookup(form):
                if q not in seen:
                    seen.add(q)
                    out.append(Link(q, form, LinkMethod.NORMALISED, form, _BASE_SCORE[LinkMethod.NORMALISED]))
        return out

    def _demonym(self, span: Span, forms: list[str]) -> list[Link]:
        out: list[Link] = []
        seen: set[str] = set()
        for form in forms:
            for q in self.index.demonyms.get(form, ()):
                if q not in seen:
                    seen.add(q)
                    out.append(Link(q, form, LinkMethod.DEMONYM, form, _BASE_SCORE[LinkMethod.DEMONYM]))
        return out

    def _contained(self, span: Span, key: str) -> list[Link]:
        """Items whose label is a shorter run of the span's words (longest runs first)."""
        words = key.split()
        for n in range(len(words) - 1, 0, -1):
            found: list[Link] = []
            seen: set[str] = set()
            for i in range(len(words) - n + 1):
                gram = " ".join(words[i : i + n])
                if len(gram) < 3:
                    continue
                for form in [gram] + normalised_forms(gram):
                    for q, _ in self.index.lookup(form):
                        if q not in seen:
                            seen.add(q)
                            found.append(Link(q, gram, LinkMethod.CONTAINED, gram, _BASE_SCORE[LinkMethod.CONTAINED] + 0.01 * n))
            if found:
                return found
        return []

    #: Keys whose approximate links are remembered (a scan costs milliseconds; names repeat).
    APPROX_CACHE = 50_000

    def _approximate(self, span: Span, key: str) -> list[Link]:
        """Labels within ``approx_threshold`` normalised edit distance, remembered per key; never
        for a capitalised LOC/ORG/MISC name: a name one letter away is another ("Storting" is
        no "Sporting"), a common noun or demonym may be misspelt ("geologistt", "Rusian")."""
        if len(key) < 4 or (span.entity_type in (EntityType.LOC, EntityType.ORG, EntityType.MISC) and span.text.strip()[:1].isupper()):
            return []
        found = self._approx.get(key)
        if found is None:
            found = tuple(self._approximate_scan(key))
            if len(self._approx) >= self.APPROX_CACHE:
                self._approx.clear()
            self._approx[key] = found
        return list(found)

    def _approximate_scan(self, key: str) -> list[Link]:
        """Items named within the threshold that begin with the span's letter: a slip of the pen
        spares a word's first letter, while another first letter makes another word
        ("Prussian" is no misspelt "Russian", "Austrian" no "Gaustrian")."""
        out: list[Link] = []
        seen: set[str] = set()
        for d, cand in self.index.approximate(key, self.approx_threshold, 5):
            if cand[:1] != key[:1]:
                continue
            for q, _ in self.index.lookup(cand):
                if q not in seen:
                    seen.add(q)
                    out.append(Link(q, cand, LinkMethod.APPROXIMATE, cand, _BASE_SCORE[LinkMethod.APPROXIMATE] - d))
        return out

    # --- ranking ------------------------------------------------------------------------
    def _rank(self, span: Span, links: list[Link]) -> list[Link]:
        anchors = TYPE_ANCHORS.get(span.entity_type, frozenset())
        context = span.context or ""
        wants_language = bool(_LANGUAGE_CUES.search(context))
        wants_nationality = bool(context) and not wants_language and bool(_NATIONALITY_CUES.search(context))
        scored = []
        for link in links:
            above, degree = self._rank_facts(link.qid)
            anc = above | ({link.qid} & RANK_CLASSES)
            score = link.score
            if anc & anchors:
                score += 0.3
            if span.entity_type in (EntityType.DEM, EntityType.MISC) and (wants_language or wants_nationality):
                is_language = LANGUAGE in anc
                is_nation = bool(anc & NATIONALITY_CLASSES) or link.method is LinkMethod.DEMONYM
                if wants_language and is_language or wants_nationality and is_nation and not is_language:
                    score += 0.25
                elif wants_language and not is_language or wants_nationality and is_language:
                    score -= 0.25
            score += min(0.1, 0.02 * math.log1p(degree))
            scored.append((round(score, 6), link))
        scored.sort(key=lambda t: (-t[0], qid_number(t[1].qid)))
        scored = self._prefer_prominent(scored)
        return [Link(l.qid, l.label, l.method, l.matched, s) for s, l in scored]

    def _prefer_prominent(self, scored: list[tuple[float, Link]]) -> list[tuple[float, Link]]:
        """Among homonyms (links of equal score matched by the same name), the more prominent
        item first (``index.prominence``: sitelinks or incoming statements); others keep their places."""
        out = list(scored)
        slots: dict[tuple[float, str], list[int]] = defaultdict(list)
        for i, (score, link) in enumerate(out):
            slots[(score, link.matched)].append(i)
        for positions in slots.values():
            if len(positions) > 1:
                group = sorted((out[i] for i in positions), key=lambda t: -self.index.prominence(t[1].qid))
                for i, item in zip(positions, group):
                    out[i] = item
        return out


def _unique(links: list[Link]) -> list[Link]:
    """First link per item (earlier methods win)."""
    seen: set[str] = set()
    out = []
    for link in links:
        if link.qid not in seen:
            seen.add(link.qid)
            out.append(link)
    return out
