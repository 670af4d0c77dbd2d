"""Truth rules: every offered rung is true of the whole span's referent.

Six rules shape the graph ladders (:class:`engine.generate.sources.graph.GraphSource`):

1. **A part never lends its class to the whole.** A link found for a shorter run of the
   span's words (:attr:`LinkMethod.CONTAINED`) is not used: "Gujarat High Court" is not a
   "state of India", "Kenosha Comets" is not a "city". Instead the span is generalized by
   its *head noun* when that names a class ("court" → "court", then its superclasses;
   "Madurai Kamaraj University" → "university"), and otherwise gets only ``***``. A
   MISC name whose head noun is a person word names a title or an award category
   ("Best Supporting Actress"), never a person: no person class from its head. The
   head is the last word, or the last word before a preposition ("Order *of* Santiago"
   → "order", "Genie Award *for* Best Actor" → "award"). A name whose head noun is a
   plural names one thing made of or about several: "Tales from the Crypt" (a series)
   is no tale, so a plural head is looked up as written, never as its singular. A
   name that starts with an ordinal ("17th Academy Awards", "LXI Legislature of the
   Mexican Congress") names one edition or term, not an instance of its head noun's
   class: no head-noun class (DEM spans apart: "4th President" is a president). A
   class whose label is capitalised names one thing, not a kind: "East Germany national
   football team" is not the "Germany national football team".
2. **The entity type constrains the classes** (``ontology/entity_types.ttl``): each type
   allows some *kinds* of class (place, organisation, person attribute, …) and forbids
   others for the linked item. An ORG span linked to a city is not generalized at all;
   a LOC span never gets "local government"; a rung reached by walking up whose class
   belongs only to kinds the type does not allow is dropped (a direct class of the item
   is kept unless its kind is forbidden: Wikidata says it of the item itself). A class
   of things that no longer exist ("historical country") is not offered for an item
   that exists today (Cornwall).
3. **A nationality adjective generalizes as a nationality.** A DEM or MISC span that is a
   country's demonym ("Israeli", "Norwegian") gets "nationality", not "ethnic group" or
   "country" (unless the linker chose the language: "She speaks Norwegian").
4. **A non-subsective modifier blocks its noun.** "Vice President" is not generalized to
   "president" (nor "former champion" to "champion"), whatever the class graph says.
5. **A named thing is not a class.** A P31 value that is a proper name with no class
   facts and no other instance ("Federal Treaty" for Switzerland: a constitution) is
   not offered.
6. **Specific before general.** A rung whose class is a superclass of a later rung's
   class moves after it; a composed rung ("city in Norway") comes before its class
   ("city").

Three rules read the span's sentence (:meth:`TruthFilter.in_context`; ladders are
remembered per item, so they apply after):

7. **A status is offered only at a time it held.** The store keeps no start or end time
   (P580/P582) of a class, so a status a place acquires or loses is offered only when the
   sentence's own years allow it: a class of the kind ``tg:kindTimeBound`` (a legal
   status, a population size: "city designated by government ordinance", "city with
   millions of inhabitants") is not offered when the sentence names a year before
   :data:`TIME_BOUND_BEFORE` (Hiroshima in 1932 was neither); a regime (``tg:kindRegime``:
   "communist state", "divided country") only when the sentence names years, none of
   them before it — a biography's undated sentence is as likely about the past (Vietnam
   at the end of the war in 1975 was not yet the communist state founded in 1976).
8. **A plural names the holders, not the role.** A plural span ("the two former
   *presidents*") gets no class of the kind ``tg:kindRole`` (position, public office,
   occupation, profession): those are true of the role, not of the people.
9. **A language name before a noun is not the language.** A DEM span linked to a
   language and followed by a noun ("a *Bosnian* retired footballer", not "Bosnian:" or
   "Bosnian pronunciation") is a nationality or origin adjective: the language's ladder
   is not used. Every use of the span's text in the sentence counts.

``ontology/reader_rules.ttl`` also says which classes nothing is both of
(``owl:disjointWith``: "a public office is no profession, professional or worker"): the
walk from an item that is an A stops at B, so a minister is not offered "professional"
nor "worker" above it, while a politician by trade is.

A sibling is never offered as a generalization because of rule 1: "Genie Award for Best
Actor" contains "Best Actor", an alias of "Academy Award for Best Actor", whose class
"Academy Awards" is a sibling series; the head noun gives "award" instead.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from kg.chains import PreloadedTaxonomy
from kg.overlay import OverlayRules
from kg.vocab import TG, local_id
from engine.generate.linking import LANGUAGE, LabelIndex, fold, normalised_forms
from engine.types import Candidate, EntityType, Link, Span

NATIONALITY = "Q231002"
FORMER = "kindFormer"
TIME_BOUND = "kindTimeBound"
REGIME = "kindRegime"
ROLE = "kindRole"
#: Kinds that mark a class for a rule of their own; they say nothing of what a type allows.
MARKER_KINDS = frozenset({TIME_BOUND, REGIME, ROLE})
PERSON_ATTRIBUTE = "kindPersonAttribute"
#: A sentence naming a year before this one is "dated": no time-bound status is offered
#: for it (rule 7). The store's classes are today's; a generation back is where regimes,
#: legal statuses and population classes of the truth set's places changed.
TIME_BOUND_BEFORE = 1990
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
#: A year in a sentence: four digits (1000–2099), or three after a month or "in"/"AD" ("April 258").
_YEAR = re.compile(rf"\b(1\d{{3}}|20\d{{2}})\b|\b(?:{_MONTHS}|in|ad)\s+(\d{{3}})\b", re.IGNORECASE)
#: Words after a language name that keep it the language ("Hebrew: …", "Bosnian pronunciation",
#: works in it: "Malayalam films", "Urdu poetry").
_LANGUAGE_NOUNS = frozenset({"language", "languages", "pronunciation", "name", "spelling", "translation", "dialect",
                             "word", "words", "script", "alphabet", "text", "version", "edition", "speaking", "speakers", "speaker",
                             "film", "films", "cinema", "literature", "poetry", "poem", "poems", "song", "songs", "novel",
                             "novels", "newspaper", "newspapers", "press", "theatre", "theater"})
#: Words after which a name's head noun has ended ("Order of Santiago" → "order").
_PREPOSITIONS = frozenset({"of", "for", "in", "at", "on", "from", "to", "de", "del", "della", "du", "des", "von", "and", "&"})
_WORD = re.compile(r"[\w'’.-]+")
#: Modifiers that make a noun name something it is not: a vice president is no president.
NON_SUBSECTIVE = frozenset({"vice", "deputy", "former", "ex", "acting", "honorary", "would-be", "pseudo", "fake", "mock", "anti"})


def rule_files() -> list[Path]:
    """The shipped vocabulary and truth-rule files (``ontology/taxogen.ttl``, ``entity_types.ttl``, ``reader_rules.ttl``)."""
    from kg.store import overlay_paths

    return [p for p in overlay_paths() if p.name in ("taxogen.ttl", "entity_types.ttl", "reader_rules.ttl")]


@dataclass(frozen=True, slots=True)
class TypeRule:
    """Kinds of class an entity type allows, and kinds its linked item must not have."""

    entity_type: EntityType
    allows: frozenset[str]
    forbids: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TruthRules:
    """Kinds (kind name → root classes) and the rule of each entity type."""

    kinds: dict[str, frozenset[str]] = field(default_factory=dict)
    types: dict[EntityType, TypeRule] = field(default_factory=dict)
    #: (child, parent) class edges not read as "is a" (``ontology/reader_rules.ttl``)
    not_is_a: frozenset[tuple[str, str]] = frozenset()
    #: classes never taken from a span's head noun alone
    homonym_heads: frozenset[str] = frozenset()
    #: (A, B): nothing is both an A and a B (``owl:disjointWith`` in ``ontology/reader_rules.ttl``)
    disjoint: frozenset[tuple[str, str]] = frozenset()
    #: head noun → kinds, for a class that belongs to no kind (``tg:headNoun``)
    head_kinds: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def load(cls, paths: Iterable[str | Path] | None = None) -> "TruthRules":
        """Read the rules from Turtle files (default: the shipped ``ontology/entity_types.ttl``)."""
        from kg.store import KGStore

        kg = KGStore.in_memory()
        kg.load_overlay(list(paths) if paths is not None else rule_files())
        kinds: dict[str, set[str]] = {}
        heads: dict[str, set[str]] = {}
        allows: dict[EntityType, set[str]] = {}
        forbids: dict[EntityType, set[str]] = {}
        for row in kg.select("type_rules"):
            kind = row["kind"].removeprefix(TG)
            if row.get("root") is not None:
                kinds.setdefault(kind, set()).add(local_id(row["root"]))
                continue
            if row.get("head") is not None:
                heads.setdefault(str(row["head"]), set()).add(kind)
                continue
            etype = EntityType.parse(row["entityType"])
            table = allows if row["relation"] == "allows" else forbids
            table.setdefault(etype, set()).add(kind)
            allows.setdefault(etype, set())
        types = {t: TypeRule(t, frozenset(a), frozenset(forbids.get(t, ()))) for t, a in allows.items()}
        edges: set[tuple[str, str]] = set()
        disjoint: set[tuple[str, str]] = set()
        homonyms: set[str] = set()
        for row in kg.select("reader_rules"):
            if row.get("homonym") is not None:
                homonyms.add(local_id(row["homonym"]))
            elif row.get("child") is not None and row.get("parent") is not None:
                pair = (local_id(row["child"]), local_id(row["parent"]))
                (disjoint if str(row.get("relation")) == "disjoint" else edges).add(pair)
        return cls({k: frozenset(v) for k, v in kinds.items()}, types, frozenset(edges), frozenset(homonyms), frozenset(disjoint),
                   {h: frozenset(k) for h, k in heads.items()})


def dated_before(context: str | None, year: int) -> bool:
    """The sentence names a year before ``year`` ("born in 1932", "March or April 258")."""
    for m in _YEAR.finditer(context or ""):
        if int(m.group(1) or m.group(2)) < year:
            return True
    return False


def dated_since(context: str | None, year: int) -> bool:
    """The sentence names a year, and none before ``year``."""
    years = [int(m.group(1) or m.group(2)) for m in _YEAR.finditer(context or "")]
    return bool(years) and min(years) >= year


def is_plural(text: str, label: str | None) -> bool:
    """The span is the plural of its linked class's label ("presidents" of "president")."""
    words, lab = span_words(text), fold(label or "").split()
    if not words or not lab or not words[-1].endswith("s") or words[-1] == lab[-1]:
        return False
    last = words[-1]
    return lab[-1] in (last[:-1], last[:-2], last[:-3] + "y")


def words_after(text: str, context: str) -> list[str]:
    """The word (or punctuation mark) after each occurrence of ``text`` in ``context``
    (a span carries no offset in its sentence, and later mentions of an entity reuse
    the first one's replacement: every use counts)."""
    out = []
    for m in re.finditer(rf"(?<!\w){re.escape(text)}(?!\w)\s*([\w’'-]+|\S)?", context):
        out.append(m.group(1) or "")
    return out


_ORDINAL = re.compile(r"^(?:\d+(?:st|nd|rd|th)|(?=[IVXLC]{2,}$)C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3}))$")


def is_ordinal(word: str) -> bool:
    """A word as written is an ordinal: "17th", or a Roman numeral in capitals of two
    letters or more ("LXI"; not "Li", a name)."""
    return bool(_ORDINAL.match(word.strip(".,;:")))


def plural_name_head(text: str, words: list[str]) -> bool:
    """The span is a name (its head word capitalised) whose head noun is a plural: it
    names one thing — a series, a team, a body — made of or about several of them, not
    one of them ("Tales from the Crypt" is no tale, "United Nations" no nation)."""
    if not words:
        return False
    raw = [w.strip(".,;:'’\"") for w in _WORD.findall(re.sub(r"\([^)]*\)", " ", text)) if w.strip(".,;:'’\"")]
    if len(raw) != len(words):
        return False
    i = head_index(words)
    head = words[i]
    return raw[i][:1].isupper() and len(head) > 3 and head.endswith("s") and not head.endswith(("ss", "us", "is"))


def span_words(text: str) -> list[str]:
    """Folded words of a span, without brackets and trailing punctuation."""
    text = re.sub(r"\([^)]*\)", " ", fold(text))
    return [w.strip(".,;:'’\"") for w in _WORD.findall(text) if w.strip(".,;:'’\"")]


def head_index(words: list[str]) -> int:
    """Position of the head noun: the last word before the first preposition, else the last word."""
    for i, w in enumerate(words):
        if i > 0 and w in _PREPOSITIONS:
            return i - 1
    return len(words) - 1


_QUALIFIER = re.compile(r"\s+(?:of|in|for|from|at|on|with)\s+", re.I)


def label_narrows(general: str, specific: str) -> bool:
    """Whether the class label ``specific`` names a kind of ``general`` by its words alone:
    its head phrase (before "of", "in", …) ends with all of ``general``'s words and says
    more ("big city", "city of Switzerland" and "cantonal capital of Switzerland" narrow
    "city" and "capital"; "city" does not narrow "big city", nor "capital city" "city of
    Switzerland"). The fallback of :meth:`TruthCheck.order` when the store relates neither
    class to the other."""
    g = general.lower().split()
    if not g or _QUALIFIER.search(general):
        return False
    full = specific.lower().split()
    head = _QUALIFIER.split(specific.lower(), maxsplit=1)[0].split()
    return len(head) >= len(g) and head[-len(g):] == g and len(full) > len(g)


def head_grams(words: list[str]) -> list[str]:
    """Runs of words that hold the head noun and end at it or at the span's end, longest first."""
    if not words:
        return []
    h = head_index(words)
    grams = []
    for end in sorted({h + 1, len(words)}, reverse=True):
        for start in range(0, h + 1):
            if (start, end) != (0, len(words)):
                grams.append((end - start, start, " ".join(words[start:end])))
    grams.sort(key=lambda g: (-g[0], g[1]))
    return [g for _, _, g in grams]


class TruthFilter:
    """Applies the truth rules over one taxonomy (class closures are cached)."""

    def __init__(self, taxonomy: PreloadedTaxonomy, index: LabelIndex, rules: TruthRules, overlay: OverlayRules | None = None, max_hops: int = 12) -> None:
        self.taxonomy = taxonomy
        self.index = index
        self.rules = rules
        self.max_hops = max_hops
        self.composed_class = {r.name: r.applies_to for r in (overlay.composed if overlay else ())}
        self._root_kinds: dict[str, set[str]] = {}
        for kind, roots in rules.kinds.items():
            for root in roots:
                self._root_kinds.setdefault(root, set()).add(kind)
        self._closure: dict[str, frozenset[str]] = {}
        self._is_a: dict[str, frozenset[str]] = {}

    # --- classes and kinds ----------------------------------------------------------
    def superclasses(self, qid: str) -> frozenset[str]:
        """``qid`` and every class above it over P279 (up to ``max_hops``)."""
        hit = self._closure.get(qid)
        if hit is not None:
            return hit
        seen = {qid}
        queue = deque([(qid, 0)])
        while queue:
            node, depth = queue.popleft()
            if depth >= self.max_hops:
                continue
            for parent in self.taxonomy.parents(node, "P279"):
                if parent not in seen:
                    seen.add(parent)
                    queue.append((parent, depth + 1))
        result = frozenset(seen)
        if len(self._closure) < 500_000:
            self._closure[qid] = result
        return result

    def class_kinds(self, qid: str) -> frozenset[str]:
        """Kinds a class belongs to (through itself or a superclass), marker kinds
        included; a class in no kind gets the kinds of its label's head noun
        (``tg:headNoun``: "province of Canada", kept without a superclass, is a place)."""
        kinds: set[str] = set()
        for c in self.superclasses(qid):
            kinds |= self._root_kinds.get(c, set())
        if not kinds and self.rules.head_kinds:
            words = span_words(self.taxonomy.label(qid) or "")
            if words:
                kinds |= self.rules.head_kinds.get(words[head_index(words)], frozenset())
        return frozenset(kinds)

    def _type_kinds(self, qid: str) -> frozenset[str]:
        """:meth:`class_kinds` without the marker kinds (what an entity type may allow or forbid)."""
        return self.class_kinds(qid) - MARKER_KINDS

    def item_kinds(self, qid: str) -> frozenset[str]:
        """Kinds an item belongs to (through its classes, or itself when it is a class); no marker kinds."""
        kinds = set(self._type_kinds(qid))
        for c in self.taxonomy.parents(qid, "P31"):
            kinds |= self._type_kinds(c)
        return frozenset(kinds)

    def is_class(self, qid: str) -> bool:
        """The item is used as a class (has superclasses, subclasses or instances)."""
        t = self.taxonomy
        return bool(t.parents(qid, "P279")) or t.children_count.get(qid, 0) > 0 or t.instance_count.get(qid, 0) > 0

    def named_individual(self, qid: str, label: str) -> bool:
        """A "class" that is a named thing: a proper name (every word before a preposition
        capitalised), no class facts of its own (no P31, no P279), no subclasses and at
        most one instance. "Federal Treaty", a P31 value of Switzerland in Wikidata, is
        the constitution of 1815, not something Switzerland is one of."""
        words = [w for w in _WORD.findall(label)]
        head = []
        for w in words:
            if w.lower() in _PREPOSITIONS:
                break
            head.append(w)
        if not head or not all(w[:1].isupper() for w in head):
            return False
        t = self.taxonomy
        if t.parents(qid, "P31") or t.parents(qid, "P279") or t.children_count.get(qid, 0) > 0:
            return False
        return t.instance_count.get(qid, 0) <= 1

    # --- rule 2: the entity type ------------------------------------------------------
    def item_fits(self, qid: str, entity_type: EntityType) -> bool:
        """The linked item may stand for a span of ``entity_type``."""
        rule = self.rules.types.get(entity_type)
        if rule is None:
            return True
        kinds = self.item_kinds(qid)
        if kinds & rule.forbids:
            return False
        return not kinds or bool(kinds & rule.allows)

    def class_fits(self, qid: str, entity_type: EntityType, *, strict: bool = False) -> bool:
        """A class may be offered for ``entity_type`` (``strict``: it must belong to an allowed kind)."""
        rule = self.rules.types.get(entity_type)
        if rule is None:
            return True
        kinds = self._type_kinds(qid)
        return bool(kinds & rule.allows) if (kinds or strict) else True

    def candidate_class(self, cand: Candidate) -> str | None:
        """The class a rung stands for (a composed rung: the class it is composed on)."""
        if cand.qid is not None:
            return cand.qid
        return self.composed_class.get(cand.rule or "")

    def rung_fits(self, cand: Candidate, entity_type: EntityType) -> bool:
        """A rung is true of a span of ``entity_type`` as far as its kind goes."""
        qid = self.candidate_class(cand)
        if qid is None:
            return True
        if FORMER in self.item_kinds(qid) and cand.link_qid and self.exists_today(cand.link_qid):
            return False
        if cand.source == "P361":  # a whole the item is part of: an item, not a class
            return self.item_fits(qid, entity_type)
        if cand.qid is not None and self.named_individual(cand.qid, cand.label):
            return False
        if cand.depth <= 1 and cand.rule != "head-noun":
            # a direct class of a fitting item is true of it ("city of the United States"
            # is only an organisation in the class graph, but Los Angeles is one)
            rule = self.rules.types.get(entity_type)
            kinds = self._type_kinds(qid)
            return rule is None or bool(kinds & rule.allows) or not (kinds & rule.forbids)
        return self.class_fits(qid, entity_type)

    def blocked_for(self, item: str) -> frozenset[str]:
        """The classes B of the ``owl:disjointWith`` pairs whose A the item (or class) is."""
        if not self.rules.disjoint:
            return frozenset()
        above = self.superclasses_of_item(item)
        return frozenset(b for a, b in self.rules.disjoint if a in above)

    # --- rules 7–9: the span's sentence ---------------------------------------------------
    def in_context(self, cand: Candidate, span: Span) -> bool:
        """The rung stays true of the span as its sentence uses it (rules 7 and 8)."""
        qid = self.candidate_class(cand)
        if qid is None:
            return True
        kinds = self.class_kinds(qid)
        if TIME_BOUND in kinds and dated_before(span.context, TIME_BOUND_BEFORE):
            return False
        if REGIME in kinds and not dated_since(span.context, TIME_BOUND_BEFORE):
            return False
        return not (ROLE in kinds and is_plural(span.text, self.taxonomy.label(cand.link_qid) if cand.link_qid else None))

    def language_as_adjective(self, span: Span, link: Link) -> bool:
        """Rule 9: a DEM span linked to a language, followed in its sentence by a noun."""
        if span.entity_type is not EntityType.DEM or LANGUAGE not in self.superclasses_of_item(link.qid):
            return False
        return any(nxt[:1].isalpha() and nxt.lower() not in _LANGUAGE_NOUNS for nxt in words_after(span.text, span.context or ""))

    def reached_as_is_a(self, cand: Candidate) -> bool:
        """The rung's class is reached from its item without an edge a reader does not read
        as "is a" (``tg:notIsA``), and without passing a class the item cannot be
        (``owl:disjointWith``: a minister's walk stops at "professional", so "worker"
        above it goes too, while "official" and "person", reached otherwise, stay).
        Rungs not walked over P31/P279 are not concerned."""
        if not (self.rules.not_is_a or self.rules.disjoint) or cand.qid is None or not cand.link_qid or cand.rule == "head-noun":
            return True
        first = (cand.path or "").split("/")[0]
        if first not in ("P31", "P279"):
            return True
        return cand.qid in self.is_a_closure(cand.link_qid, first)

    def is_a_closure(self, start: str, first: str) -> frozenset[str]:
        """Classes reached from ``start`` by one ``first`` hop then P279 hops, skipping
        ``tg:notIsA`` edges and the classes ``start`` is disjoint with (:meth:`blocked_for`)."""
        key = f"{first}:{start}"
        hit = self._is_a.get(key)
        if hit is not None:
            return hit
        pruned = self.rules.not_is_a
        blocked = self.blocked_for(start)
        seen: set[str] = set()
        queue = deque((p, 1) for p in self.taxonomy.parents(start, first) if (start, p) not in pruned)
        while queue:
            node, depth = queue.popleft()
            if node in seen or node in blocked:
                continue
            seen.add(node)
            if depth >= self.max_hops:
                continue
            queue.extend((p, depth + 1) for p in self.taxonomy.parents(node, "P279") if (node, p) not in pruned and p not in seen)
        result = frozenset(seen)
        if len(self._is_a) < 100_000:
            self._is_a[key] = result
        return result

    def exists_today(self, qid: str) -> bool:
        """The item has a class that is not a former one (Cornwall is a county today)."""
        return any(FORMER not in self.class_kinds(c) for c in self.taxonomy.parents(qid, "P31"))

    # --- rule 1: the head noun ----------------------------------------------------------
    def head_classes(self, span: Span) -> list[tuple[str, str]]:
        """(class, matched words) named by the head noun of ``span``, longest match first."""
        out: list[tuple[str, str]] = []
        words = span_words(span.text)
        first = span.text.split()[0] if span.text.split() else ""
        if span.entity_type is not EntityType.DEM and is_ordinal(first):
            return out  # "17th Academy Awards", "LXI Legislature": one edition or term, not an instance
        named_plural = plural_name_head(span.text, words)
        for gram in head_grams(words):
            if len(gram) < 3:
                continue
            for form in [gram] + normalised_forms(gram):
                if named_plural and form.split()[-1] != gram.split()[-1]:
                    continue  # "Tales from the Crypt" is one series, not a tale
                found = self.index.lookup(form)
                if any(qid in self.rules.homonym_heads for qid, _ in found):
                    continue  # a homonym head noun: none of its senses is taken from the name alone
                for qid, _ in found:
                    if qid in {q for q, _ in out} or (self.taxonomy.label(qid) or "a")[:1].isupper():
                        continue  # a capitalised label names one thing: "East Germany national football team" is not Germany's
                    if self.is_class(qid) and self.class_fits(qid, span.entity_type, strict=True) and not (
                        span.entity_type is EntityType.MISC and PERSON_ATTRIBUTE in self.class_kinds(qid)
                    ):
                        out.append((qid, gram))
            if out:
                return out
        return out

    # --- rule 3: nationality --------------------------------------------------------------
    def is_nationality(self, span: Span, links: Iterable[Link]) -> bool:
        """A DEM/MISC span that is a country's demonym, not linked as a language."""
        if span.entity_type not in (EntityType.DEM, EntityType.MISC):
            return False
        forms = [fold(span.text)] + normalised_forms(span.text)
        if not any(self.index.demonyms.get(f) for f in forms):
            return False
        first = next(iter(links), None)
        return first is None or LANGUAGE not in self.superclasses_of_item(first.qid)

    def superclasses_of_item(self, qid: str) -> frozenset[str]:
        out: set[str] = set(self.superclasses(qid))
        for c in self.taxonomy.parents(qid, "P31"):
            out |= self.superclasses(c)
        return frozenset(out)

    def negated_by_modifier(self, span_text: str, label: str) -> bool:
        """The rung's words follow a non-subsective modifier in the span ("vice president" → "president")."""
        words = [w for part in span_words(span_text) for w in part.split("-")]
        lab = fold(label).split()
        n = len(lab)
        return any(words[i:i + n] == lab and words[i - 1] in NON_SUBSECTIVE for i in range(1, len(words) - n + 1))

    # --- rule 4: specific before general --------------------------------------------------
    def _above(self, general: Candidate, specific: Candidate) -> bool:
        g, s = general.qid, self.candidate_class(specific)
        if g is None or s is None:
            return False
        if specific.qid is None and s == g:
            return True  # "city in Norway" is below "city"
        if g == s:
            return False
        if g in self.superclasses(s):
            return s not in self.superclasses(g)
        if s in self.superclasses(g):
            return False
        # the graph relates neither to the other (a class without P279 facts in the store):
        # "cantonal capital of Switzerland" is read as below "capital" by its label
        return label_narrows(general.label, specific.label)

    def order(self, cands: list[Candidate]) -> list[Candidate]:
        """Move every rung after the last rung below it (stable otherwise)."""
        items = list(cands)
        for _ in range(len(items) * len(items)):
            moved = False
            for i, c in enumerate(items):
                last = max((j for j in range(i + 1, len(items)) if self._above(c, items[j])), default=None)
                if last is not None:
                    items.insert(last, items.pop(i))
                    moved = True
                    break
            if not moved:
                break
        return items
