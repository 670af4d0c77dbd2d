"""Truth rules: every offered rung is true of the whole span's referent.

Six rules shape the graph ladders (:class:`engine.generate.sources.graph.GraphSource`):

1. **A part never lends its class to the whole.** A link found for a shorter run of the
   span's words (:attr:`LinkMethod.CONTAINED`) is not used: "Gujarat High Court" is not a
   "state of India", "Kenosha Comets" is not a "city". Instead the span is generalized by
   its *head noun* when that names a class ("court" → "court", then its superclasses;
   "Madurai Kamaraj University" → "university"), and otherwise gets only ``***``. The
   class must be of a kind the entity type allows; one of no kind (the seed keeps many
   classes without a superclass) only when a head phrase of two words or more ("Tamil Nadu
   Legislative Assembly") or a lower-case head noun ("Sima clan") names it, and then only
   classes of an allowed kind above it ("BBC News" is no news: a capitalised word). A
   MISC name whose head noun is a person word names a title or an award category
   ("Best Supporting Actress"), never a person: no person class from its head. The
   head is the last word, or the last word before a preposition ("Order *of* Santiago"
   → "order", "Genie Award *for* Best Actor" → "award"). A name whose head noun is a
   plural names one thing made of or about several: "Tales from the Crypt" (a series)
   is no tale, so a plural head is looked up as written, never as its singular. A
   name that starts with an ordinal ("17th Academy Awards", "LXI Legislature of the
   Mexican Congress") names one edition or term, not an instance of its head noun's
   class: no head-noun class (DEM spans apart: "4th President" is a president; a lower-case
   noun is numbered, not named: "the 38th president"). A class whose label is capitalised
   names one thing: "East Germany national football team" is not the Germany one.
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
walk from an item that is an A offers neither B nor a class below B, so a minister is not
offered "professional" nor "worker", while a politician by trade is; above B the walk goes
on ("person" stays true of a minister).

When neither the span's item nor its head noun gives a class, the store's words for the
name may (:class:`engine.generate.sources.graph.GraphSource`): the head noun of an item's
description ("1. FC Magdeburg": "German association football *club*"), then the classes
the store's items named with the same head word share (:mod:`engine.generate.name_heads`:
"… Records" → "record label"), each read with rules 1 and 2 and rules of its own.

Which sense of a name's words a span takes is ruled in :mod:`engine.generate.truth_senses`: a
class the words of a name cannot give (``tg:notFromHeadNoun``, for every reading of them), an
institution Wikidata also files as its building, an approximate match, a bare homonym word.

A sibling is never offered as a generalization because of rule 1: "Genie Award for Best
Actor" contains "Best Actor", an alias of "Academy Award for Best Actor", whose class
"Academy Awards" is a sibling series; the head noun gives "award" instead.

Each rule, and each check a rule makes, is registered by name (:func:`engine.knowledge.rule`;
``taxogen rules list``), so that it can be switched off alone (``--disable-rule``) and its
example table (``packs/*/examples/``) shows what it does: rule 1 is ``part-never-lends-class``
and the head-noun checks ``ordinal-names-edition``, ``coordinated-names-no-head``,
``plural-name-head``, ``later-head``, ``homonym-head-noun``, ``heard-sense``,
``capitalised-class-label``, ``clipped-alias``, ``kindless-needs-phrase`` and those of
:mod:`engine.generate.truth_titles`; rule 2 ``entity-type-fits-item`` (the link),
``entity-type-fits-rung``, ``former-class``, ``misc-no-person-class``, ``part-is-not-whole``,
``strict-type-whole``, ``read-as-is-a`` and ``first-walk-only``; rule 3 ``nationality`` and
``demonym-names-country``; rule 4 ``non-subsective-modifier``; rule 5 ``named-thing-not-class``;
rules 7–9 ``time-bound-status``, ``regime-status``, ``plural-names-holders``,
``role-qualifies-noun``, ``demonym-qualifies-noun``, ``field-of-study-slot`` and
``language-before-noun``. Their words (articles, prepositions, the cues of a field of study)
are pack entries (``packs/core/truth.yaml``, ``packs/biography/truth.yaml``).
"""

from __future__ import annotations

from collections import deque
from typing import Iterable

from kg.chains import PreloadedTaxonomy
from kg.class_sets import named_class
from kg.overlay import OverlayRules
from engine.generate.linking import LANGUAGE, LabelIndex, fold, normalised_forms
from engine.generate.truth_rules import (  # noqa: F401  (re-exported: the rules' public names)
    FORMER, GENRES, MARKER_KINDS, NATIONALITY, PLACE, PERSON_ATTRIBUTE, REGIME, ROLE, THING_KINDS, TIME_BOUND, WORK, TruthRules, TypeRule, rule_files,
)
from engine.generate.truth_titles import not_named_by_head
from engine.generate.truth_text import (  # noqa: F401  (re-exported: the rules' public names)
    ARTICLES, LANGUAGE_NOUNS, NON_SUBSECTIVE, NUMBER_MARKERS, PREPOSITIONS, TIME_BOUND_BEFORE, WORD, clipped, dated_before, dated_since, head_grams,
    NAME_METHODS, after_in, attributive, coordinated, head_index, later_head, head_written_lower, in_field_slot, is_ordinal, is_plural, label_narrows, names_its_country, names_kindless, negated_by_modifier, plural_name_head, sentence_case_title, span_words,
    after_language_verb, demonym_as_noun, exclusive_before, honour_rank, nouns_after, qualifies_a_noun, titled, without_trailing_number, words_after,
)
from engine.knowledge import pattern, rule, words
from engine.types import GRAPH_TYPES as ENTITY_GRAPH_TYPES
from engine.types import Candidate, EntityType, Link, LinkMethod, Span


#: Nouns after a demonym that name a person or an ancestry the store may lack ("national", "descent").
PERSON_NOUNS = words("places.continent_person_nouns")
#: Nouns after a demonym that make its nation the scope of a claim ("the Italian *champion*"), ``places.continent_scope_nouns``.
CONTINENT_SCOPE_NOUNS = words("places.continent_scope_nouns")
#: The ending of an agent noun ("geologist", "sculptor"), read as a person where the store lacks the word.
PERSON_SUFFIX = pattern("places.continent_person_suffix")

#: religion (``tg:religionClass``): a DEM span linked to one names a follower (:mod:`engine.generate.adherents`)
RELIGION = named_class("religionClass")
#: Head words of the reader rules that head a name only from its end or before a number or date ("Law").
FINAL_HEAD_WORDS = words("truth.head_words_at_the_end")
#: The entity types whose spans are generalized from the knowledge graph (the ``types`` of its rules).
GRAPH_TYPES: tuple[str, ...] = tuple(t.value for t in ENTITY_GRAPH_TYPES)
#: The graph types that name things rather than people: their head noun names a class of them.
NAME_TYPES: tuple[str, ...] = tuple(t for t in GRAPH_TYPES if t != EntityType.DEM.value)


@rule("part-never-lends-class", stage="link", types=GRAPH_TYPES, off=False,
      purpose="a link found for a shorter run of the span's words is not used: a part never lends its class to the whole")
def part_link(link: Link) -> bool:
    """Rule 1: the link was found for a shorter run of the span's words (:attr:`LinkMethod.CONTAINED`):
    "Gujarat High Court" is not a "state of India"."""
    return link.method is LinkMethod.CONTAINED


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
        self._kinds: dict[str, frozenset[str]] = {}
        self._is_a: dict[str, frozenset[str]] = {}
        #: the holder classes of every kind (``tg:holderClass``: "person")
        self.all_holders: frozenset[str] = frozenset().union(*rules.holders.values())

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
        (``tg:headNoun``: "province of Canada", kept without a superclass, is a place; a label
        of one word does not count: a class called "state" may be the polity). Cached like
        the closures (about 150 lookups a document)."""
        hit = self._kinds.get(qid)
        if hit is not None:
            return hit
        kinds: set[str] = set()
        for c in self.superclasses(qid):
            kinds |= self._root_kinds.get(c, set())
        if not kinds and self.rules.head_kinds:
            words = span_words(self.taxonomy.label(qid) or "")
            if len(words) > 1:  # "state of Australia"; a class called only "state" may be the polity
                kinds |= self.rules.head_kinds.get(words[head_index(words)], frozenset())
        result = frozenset(kinds)
        if len(self._kinds) < 500_000:
            self._kinds[qid] = result
        return result

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

    def has_class_facts(self, qid: str) -> bool:
        """The store says what the item is (a P31 or P279 value)."""
        return bool(self.taxonomy.parents(qid, "P31") or self.taxonomy.parents(qid, "P279"))

    @rule("named-thing-not-class", stage="ladder", types=GRAPH_TYPES, off=False,
          purpose="a P31 value that is a proper name with no class facts and at most one instance is a named thing, not a class")
    def named_individual(self, qid: str, label: str) -> bool:
        """A "class" that is a named thing: a proper name (every word before a preposition
        capitalised), no class facts of its own (no P31, no P279), no subclasses and at
        most one instance. "Federal Treaty", a P31 value of Switzerland in Wikidata, is
        the constitution of 1815, not something Switzerland is one of."""
        words = [w for w in WORD.findall(label)]
        head = []
        for w in words:
            if w.lower() in PREPOSITIONS:
                break
            head.append(w)
        if not head or not all(w[:1].isupper() for w in head):
            return False
        t = self.taxonomy
        if t.parents(qid, "P31") or t.parents(qid, "P279") or t.children_count.get(qid, 0) > 0:
            return False
        return t.instance_count.get(qid, 0) <= 1

    # --- rule 2: the entity type ------------------------------------------------------
    @rule("entity-type-fits-item", stage="link", types=GRAPH_TYPES, off=True,
          purpose="the linked item must be of a kind the span's entity type allows (an ORG span linked to a city is not generalized)")
    def item_fits(self, qid: str, entity_type: EntityType) -> bool:
        """The linked item may stand for a span of ``entity_type``."""
        return self._item_fits(qid, entity_type)

    def _item_fits(self, qid: str, entity_type: EntityType) -> bool:
        rule = self.rules.types.get(entity_type)
        if rule is None:
            return True
        kinds = self.item_kinds(qid)
        if kinds & rule.forbids:
            return False
        if not kinds:  # an item whose classes are all of no kind ("gold", the colour, for a LOC span: tg:kindedItemsOnly)
            return not (rule.kinded_items and self.has_class_facts(qid))
        return bool(kinds & rule.allows)

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
        """A rung is true of a span of ``entity_type`` as far as its kind goes (each check a rule of its own)."""
        qid = self.candidate_class(cand)
        if qid is None:
            return True
        if self.former_class(cand, qid) or self.person_class_for_title(qid, entity_type):
            return False
        if cand.source == "P361":  # a whole the item is part of: an item, not a class
            if self.part_not_whole(cand) or self.strict_whole(cand, qid, entity_type):
                return False
        elif cand.qid is not None and self.named_individual(cand.qid, cand.label):
            return False
        return self.kind_fits(cand, qid, entity_type)

    @rule("former-class", stage="ladder", types=GRAPH_TYPES, off=False,
          purpose="a class of things that no longer exist (\"historical country\") is not offered for an item that exists today")
    def former_class(self, cand: Candidate, qid: str) -> bool:
        """The rung's class is a former kind of thing and the linked item has a class that is not."""
        return bool(FORMER in self.item_kinds(qid) and cand.link_qid and self.exists_today(cand.link_qid))

    @rule("misc-no-person-class", stage="ladder", types=("MISC",), off=False,
          purpose="a MISC span names a title, a grade or an award category, never a person: no holder class (\"person\")")
    def person_class_for_title(self, qid: str, entity_type: EntityType) -> bool:
        """The rung's class is a holder class (``tg:holderClass``: "person") and the span is MISC."""
        return qid in self.all_holders and entity_type is EntityType.MISC

    @rule("part-is-not-whole", stage="ladder", types=GRAPH_TYPES, off=False,
          purpose="a part of an event or a work is not the whole it is part of (tg:partOfNotIsA)")
    def part_not_whole(self, cand: Candidate) -> bool:
        """A P361 rung of an item of a kind whose parts are not their whole."""
        return bool(cand.link_qid and self.item_kinds(cand.link_qid) & self.rules.part_not_whole)

    @rule("strict-type-whole", stage="ladder", types=("DEM",), off=False,
          purpose="a strict type's whole must be of its kinds: a pastor is part of Christianity, no religion")
    def strict_whole(self, cand: Candidate, qid: str, entity_type: EntityType) -> bool:
        """A P361 rung of no kind for a strict type (DEM), unless it is a religion (a religion's
        whole is its followers': :mod:`engine.generate.adherents`)."""
        rule = self.rules.types.get(entity_type)
        return bool(rule is not None and rule.strict and not self.item_kinds(qid)
                    and RELIGION not in self.superclasses_of_item(cand.link_qid or qid))

    @rule("entity-type-fits-rung", stage="ladder", types=GRAPH_TYPES, off=True,
          purpose="a rung's class must be of a kind the span's entity type allows (a LOC span never gets \"local government\")")
    def kind_fits(self, cand: Candidate, qid: str, entity_type: EntityType) -> bool:
        """Rule 2 for a rung: a whole (P361) fits as an item; a direct class of the item unless its
        kind is forbidden; a class walked up to only when of an allowed kind."""
        if cand.source == "P361":
            return self._item_fits(qid, entity_type)
        if cand.depth <= 1 and cand.rule != "head-noun":
            # a direct class of a fitting item is true of it ("city of the United States"
            # is only an organisation in the class graph, but Los Angeles is one)
            rule = self.rules.types.get(entity_type)
            kinds = self._type_kinds(qid)
            return rule is None or bool(kinds & rule.allows) or not (kinds & (rule.forbids if not rule.strict else kinds))
        # a strict type (DEM) takes no class of no kind above an item the store gives a kind
        # ("baritone", a job → "human voice"); a store that knows no kind of the item keeps it
        rule = self.rules.types.get(entity_type)
        strict = rule is not None and rule.strict and bool(cand.link_qid and self.item_kinds(cand.link_qid))
        return self.class_fits(qid, entity_type, strict=strict)

    def blocked_for(self, item: str) -> frozenset[str]:
        """The classes B of the ``owl:disjointWith`` pairs whose A the item (or class) is."""
        if not self.rules.disjoint:
            return frozenset()
        above = self.superclasses_of_item(item)
        return frozenset(b for a, b in self.rules.disjoint if a in above)

    # --- rules 7–9: the span's sentence ---------------------------------------------------
    def in_context(self, cand: Candidate, span: Span) -> bool:
        """The rung stays true of the span as its sentence uses it: none of the sentence's rules
        (rules 7 and 8; a role or a demonym qualifying a noun; a field of study) rules it out."""
        qid = self.candidate_class(cand)
        if qid is None:
            return True
        return not (self.role_qualifies_noun(cand, span) or self.demonym_qualifies_noun(qid, span)
                    or self.time_bound_status(qid, span) or self.regime_status(qid, span)
                    or self.field_of_study(qid, span) or self.plural_holders(cand, qid, span))

    @rule("role-qualifies-noun", stage="verify", types=GRAPH_TYPES, off=False,
          purpose="a role followed by a noun qualifies it (\"officer rank\"): no holder class (\"person\") offered only as its holder")
    def role_qualifies_noun(self, cand: Candidate, span: Span) -> bool:
        """The rung is only its item's holder class and the span is used before a lower-case noun."""
        return self.held_only(cand) and attributive(span.text, span.context or "")

    @rule("demonym-qualifies-noun", stage="verify", types=("DEM",), off=False,
          purpose="a demonym before a noun is an adjective (\"the German occupation\"): it names no person")
    def demonym_qualifies_noun(self, qid: str, span: Span) -> bool:
        """A holder class for a DEM span that is a demonym used before a lower-case noun."""
        return bool(qid in self.all_holders and span.entity_type is EntityType.DEM and self.index.demonyms.get(fold(span.text))
                    and attributive(span.text, span.context or ""))

    @rule("continent-of-a-person", stage="ladder", types=("DEM", "MISC"), off=False,
          purpose='a demonym generalizes to its continent\'s adjective only where it describes a person: not before a thing ("the Polish championship", "the German invasion") nor after "only", "first" … ("the only German commander")')
    def continent_misreads(self, span: Span) -> bool:
        """Some use of the demonym follows an exclusive word (:func:`exclusive_before`) or
        qualifies a noun phrase with no person noun in it (:meth:`person_noun`)."""
        context = span.context or ""
        return exclusive_before(span.text, context) or any(
            phrase and (not any(self.person_noun(w) for w in phrase) or self.national_scope(phrase))
            for phrase in nouns_after(span.text, context))

    @rule("national-scope-keeps-its-nationality", stage="ladder", types=(EntityType.DEM,), off=False,
          purpose='a demonym before a title, a team or a championship of its nation gets no continent\'s adjective: a Swedish champion is no European champion, "the Finnish national team" no European one')
    def national_scope(self, phrase: list[str]) -> bool:
        """The noun phrase after the demonym holds a word of ``places.continent_scope_nouns``
        ("champion", "team", "record"): the nation is the scope of the claim."""
        return any(w.lower() in CONTINENT_SCOPE_NOUNS for w in phrase)

    def person_noun(self, word: str) -> bool:
        """``word`` names a person: in ``places.continent_person_nouns``, or an item the store
        knows by it (or by its singular) is a person attribute or a holder class; a word the
        store does not know, by an agent's ending (``places.continent_person_suffix``)."""
        if word.lower() in PERSON_NOUNS:
            return True
        key = fold(word)
        hits = self.index.lookup(key) or (self.index.lookup(key[:-1]) if key.endswith("s") else [])
        if not hits:
            return bool(PERSON_SUFFIX.search(word.lower()))
        return any(PERSON_ATTRIBUTE in self.item_kinds(q) or self.superclasses_of_item(q) & self.all_holders for q, _ in hits)

    @rule("nationality-not-a-person", stage="ladder", types=("DEM", "MISC"), off=False,
          purpose='the class "nationality" is not offered for a demonym that names people: a plural ("Tanzanians often call him") or a noun after an article or an ordinal ("the second Vietnamese to be promoted")')
    def nationality_names_person(self, span: Span) -> bool:
        """The span is a plural demonym (its singular is one) or a demonym used as a noun
        (:func:`demonym_as_noun`)."""
        key = fold(span.text)
        plural = key.endswith("s") and not self.index.demonyms.get(key) and bool(self.index.demonyms.get(key[:-1]))
        return plural or demonym_as_noun(span.text, span.context or "")

    @rule("language-after-verb-of-speaking", stage="ladder", types=("DEM", "MISC"), off=False,
          purpose='a language\'s name right after a verb of speaking, learning or translating ("she learned Dutch", "he spoke Polish") is the language, not a nationality')
    def language_verb_object(self, span: Span) -> bool:
        """Some use of the span follows such a verb (:func:`after_language_verb`)."""
        return after_language_verb(span.text, span.context or "")

    @rule("time-bound-status", stage="verify", types=GRAPH_TYPES, off=False,
          purpose="a legal status or population class (tg:kindTimeBound) is not offered when the sentence names a year before 1990")
    def time_bound_status(self, qid: str, span: Span) -> bool:
        """Rule 7: a time-bound class in a sentence dated before :data:`TIME_BOUND_BEFORE`."""
        return TIME_BOUND in self.class_kinds(qid) and dated_before(span.context, TIME_BOUND_BEFORE)

    @rule("regime-status", stage="verify", types=GRAPH_TYPES, off=False,
          purpose="a regime (tg:kindRegime: \"communist state\") is offered only when the sentence names years, none before 1990")
    def regime_status(self, qid: str, span: Span) -> bool:
        """Rule 7: a regime class in a sentence not dated since :data:`TIME_BOUND_BEFORE`."""
        return REGIME in self.class_kinds(qid) and not dated_since(span.context, TIME_BOUND_BEFORE)

    @rule("field-of-study-slot", stage="verify", types=("MISC",), pack="biography", off=False,
          purpose="a MISC span after words of study (\"studied sculpture\") names the field: no work, organisation, place or genre")
    def field_of_study(self, qid: str, span: Span) -> bool:
        """A thing or genre class for a MISC span in a field-of-study slot (:func:`in_field_slot`)."""
        return span.entity_type is EntityType.MISC and bool(self.class_kinds(qid) & THING_KINDS or GENRES & self.superclasses(qid)) \
            and in_field_slot(span.text, span.context or "")

    @rule("plural-names-holders", stage="verify", types=GRAPH_TYPES, off=False,
          purpose="a plural span (\"the two former presidents\") names the holders: no role class (position, office, occupation)")
    def plural_holders(self, cand: Candidate, qid: str, span: Span) -> bool:
        """Rule 8: a role class for a span that is the plural of its linked class's label."""
        return ROLE in self.class_kinds(qid) and is_plural(span.text, self.taxonomy.label(cand.link_qid) if cand.link_qid else None)

    @rule("language-before-noun", stage="link", types=("DEM",), off=False,
          purpose="a DEM span linked to a language and followed by a noun (\"a Bosnian footballer\") is an adjective, not the language")
    def language_as_adjective(self, span: Span, link: Link) -> bool:
        """Rule 9: a DEM span linked to a language, followed in its sentence by a noun."""
        if span.entity_type is not EntityType.DEM or LANGUAGE not in self.superclasses_of_item(link.qid):
            return False
        return any(nxt[:1].isalpha() and nxt.lower() not in LANGUAGE_NOUNS | PREPOSITIONS for nxt in words_after(span.text, span.context or ""))

    @rule("first-walk-only", stage="ladder", types=GRAPH_TYPES, off=False,
          purpose="the longest walk's side branches of the class graph are not offered (\"university\" → \"research institute\"); a place's of a place kind fill the room left")
    def first_walks_only(self) -> bool:
        """Ladders take the direct and *first* walks of the class graph only, not the *longest*
        (:meth:`engine.generate.sources.graph.GraphSource.ladder_for`)."""
        return True

    @rule("read-as-is-a", stage="ladder", types=GRAPH_TYPES, off=True,
          purpose="a rung must be reached over edges a reader reads as \"is a\" (tg:notIsA) and past no class the item cannot be (owl:disjointWith)")
    def reached_as_is_a(self, cand: Candidate) -> bool:
        """The rung's class is reached from its item without an edge a reader does not read
        as "is a" (``tg:notIsA``), and without passing a class the item cannot be
        (``owl:disjointWith``: a minister's walk stops at "professional", so "worker"
        above it goes too, while "official" and "person", reached otherwise, stay).
        Rungs not walked over P31/P279 are not concerned, nor the holder class of a kind the
        item is of (``tg:holderClass``: an officer is a "person" whatever lies between)."""
        if not (self.rules.not_is_a or self.rules.disjoint) or cand.qid is None or not cand.link_qid or cand.rule == "head-noun":
            return True
        first = (cand.path or "").split("/")[0]
        if first not in ("P31", "P279"):
            return True
        return cand.qid in self.is_a_closure(cand.link_qid, first) or cand.qid in self.holder_classes(cand.link_qid)

    def held_only(self, cand: Candidate) -> bool:
        """The rung is offered only as the holder class of its item's kind (:meth:`holder_classes`),
        not reached over "is a" edges."""
        if cand.qid is None or not cand.link_qid or cand.qid not in self.holder_classes(cand.link_qid):
            return False
        first = (cand.path or "").split("/")[0]
        return first in ("P31", "P279") and cand.qid not in self.is_a_closure(cand.link_qid, first)

    def holder_classes(self, item: str) -> frozenset[str]:
        """Classes whatever holds the item (a class, or the classes of an item) is an
        instance of, by the kinds it is of (``tg:holderClass``: "person" for a role)."""
        if not self.rules.holders:
            return frozenset()
        kinds = set(self.class_kinds(item))
        for c in self.taxonomy.parents(item, "P31"):
            kinds |= self.class_kinds(c)
        return frozenset().union(*(self.rules.holders.get(k, frozenset()) for k in kinds))

    def is_a_closure(self, start: str, first: str) -> frozenset[str]:
        """Classes reached from ``start`` by one ``first`` hop then P279 hops, skipping
        ``tg:notIsA`` edges and the classes ``start`` is disjoint with (:meth:`blocked_for`).
        Above a disjoint class the walk goes on for classes that are not themselves below
        one: a member of parliament is no "professional", but the "person" above it is true
        of one."""
        key = f"{first}:{start}"
        hit = self._is_a.get(key)
        if hit is not None:
            return hit
        blocked = self.blocked_for(start)
        seen = self._walk(start, first, blocked)
        if blocked:
            seen |= {c for c in self._walk(start, first, frozenset()) - seen if not (blocked & self.superclasses(c))}
        result = frozenset(seen)
        if len(self._is_a) < 100_000:
            self._is_a[key] = result
        return result

    def _walk(self, start: str, first: str, blocked: frozenset[str]) -> set[str]:
        """Classes reached from ``start`` by one ``first`` hop then P279 hops, over no
        ``tg:notIsA`` edge and through none of ``blocked``."""
        pruned = self.rules.not_is_a
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
        return seen

    def exists_today(self, qid: str) -> bool:
        """The item has a class that is not a former one (Cornwall is a county today)."""
        return any(FORMER not in self.class_kinds(c) for c in self.taxonomy.parents(qid, "P31"))

    # --- rule 1: the head noun ----------------------------------------------------------
    def head_classes(self, span: Span, *, whole: bool = False) -> list[tuple[str, str]]:
        """(class, matched words) named by the head noun of ``span``, longest match first.

        The class must belong to a kind the entity type allows; one that belongs to no kind
        (the seed keeps many classes without a superclass: "legislative assembly", "clan")
        is taken when the words leave no doubt that they name it (:func:`engine.generate.truth_text.names_kindless`).
        A lower-case label without class facts ("midfielder", "collection") is taken alike.
        After such a match the shorter runs are still read, down to the first that names a
        class of an allowed kind ("high school", then "school"). ``whole``: the span's
        words are another's (an item's description), so all of them may name the class."""
        out: list[tuple[str, str]] = []
        words = span_words(span.text)
        first = span.text.split()[0] if span.text.split() else ""
        if self.edition_name(span, first, words):
            return out  # "17th Academy Awards", "LXI Legislature": one edition or term, not an instance
        numbered = False
        if span.entity_type in (EntityType.MISC, EntityType.ORG) and not whole:
            trimmed = without_trailing_number(words) or words  # "Police Act 1997": the act; "Windows 95" no window
            if len(trimmed) < len(words) and trimmed[-1] in self.rules.head_words:
                numbered, words = True, trimmed
        if not whole and coordinated(words) and not self.reader_head_ends_name(span, words):
            return out  # "physical education and sports": no one head noun names the whole
        # "Northern Railway (1961)", a film, is no railway company: of a title's head noun only
        # a kind of work is read
        works_only = not whole and bool(span.context) and titled(span.text, span.context, span.entity_type)
        if span.entity_type is EntityType.DEM and honour_rank(span.text):
            return out  # "Officer of the Order of Canada": an honour, no officer
        named_plural = plural_name_head(span.text, words)
        later = None if whole or self.role_heads_its_span(span) else self.later_head(words)  # "University of Malawi College of Medicine"
        for gram in head_grams(words[later:] if later is not None else words, whole=whole or numbered):
            if len(gram) < 3 and gram not in self.rules.head_words:
                continue
            kinded: list[tuple[str, str]] = []
            kindless: list[tuple[str, str]] = []
            for form in [gram] + normalised_forms(gram):
                if named_plural and form.split()[-1] != gram.split()[-1]:
                    continue  # "Tales from the Crypt" is one series, not a tale
                heard_as = self.named_by_head_word(span, form) if self.head_word_in_place(gram, words, numbered) else []
                found = heard_as + self.index.lookup(form)
                if self.homonym_head(found):
                    continue  # a homonym head noun: none of its senses is taken from the name alone
                heard = self.heard_sense(span, found)
                for qid, method in found:
                    # a capitalised label names one thing ("East Germany national football team"); "head", clipped from "head teacher", heads other roles
                    if (qid in {q for q, _ in out + kinded + kindless} or self.names_one_thing(qid)
                            or span.entity_type is EntityType.DEM and method is LinkMethod.ALIAS and clipped(form, self.taxonomy.label(qid) or "")
                            or not_named_by_head(self, span, words, qid)):
                        continue
                    if works_only and WORK not in self.class_kinds(qid):
                        continue
                    if self.is_class(qid) and self.class_fits(qid, span.entity_type, strict=True):
                        kinded.append((qid, gram))
                    elif not self._type_kinds(qid) and not heard and names_kindless(span.text, words, gram):
                        kindless.append((qid, gram))
            if kinded:  # a class of an allowed kind goes before one of no kind the same words name
                return out + kinded
            out += kindless
        return out

    @rule("reader-head-word-ends-a-coordinated-name", stage="ladder", types=(EntityType.MISC, EntityType.ORG), off=False,
          purpose='a name that joins two modifiers and ends with a reader rule\'s head word is headed by it ("Disclosure and Barring Service" is a service of the state, "Aliens and Immigration Law" a law)')
    def reader_head_ends_name(self, span: Span, words: list[str]) -> bool:
        """The span is a capitalised name of a MISC or ORG and its last word a head word of
        the reader rules (``tg:headWord``), which heads a name from its end."""
        return (span.entity_type in (EntityType.MISC, EntityType.ORG) and span.text[:1].isupper()
                and bool(words) and words[-1] in self.rules.head_words)

    @rule("law-heads-only-a-law-it-ends-or-dates", stage="ladder", types=(EntityType.MISC, EntityType.ORG), off=True,
          purpose='"Law" heads a statute\'s name only at its end or before a number or date ("Aliens and Immigration Law", "Law no. 3713", "Law of 8 August 2000"), not a body of law\'s ("Law of the Sea")')
    def head_word_in_place(self, gram: str, words: list[str], numbered: bool) -> bool:
        """The reader rules' head word ``gram`` may name its class where it stands in ``words``:
        a word of ``truth.head_words_at_the_end`` only at the end of the name, before a number
        or before a preposition and a date ("of 8 August 2000")."""
        last = gram.split()[-1] if gram else ""
        if numbered or last not in FINAL_HEAD_WORDS or not words or words[-1] == last:
            return True
        after = words[len(words) - words[::-1].index(last):]
        return bool(after) and (after[0][:1].isdigit() or after[0] in NUMBER_MARKERS
                                or (after[0] in PREPOSITIONS and len(after) > 1 and after[1][:1].isdigit()))

    @rule("head-word-sense", stage="ladder", types=GRAPH_TYPES, off=[],
          purpose="a head noun names the class the reader rules give it for the span's type (tg:headWord: \"Social Insurance Authority\" is a government agency, \"… Act\" a statute)")
    def named_by_head_word(self, span: Span, form: str) -> list[tuple[str, LinkMethod]]:
        """The classes ``form``, the span's head noun, names as a head word (``tg:headWord``)
        whose kinds the span's type allows, before the store's own senses of the word."""
        return [(q, LinkMethod.EXACT) for q in sorted(self.rules.head_words.get(form.replace("’", "'"), ()))
                if self.class_fits(q, span.entity_type, strict=True)]

    @rule("ordinal-names-edition", stage="ladder", types=NAME_TYPES, off=False,
          purpose="a name that starts with an ordinal (\"17th Academy Awards\") names one edition or term: no class from its head noun")
    def edition_name(self, span: Span, first: str, words: list[str]) -> bool:
        """The span's first word is an ordinal and its head noun a word of the name (a DEM span
        apart: "4th President" is a president; a lower-case noun is numbered, not named)."""
        return span.entity_type is not EntityType.DEM and is_ordinal(first) and not head_written_lower(span.text, words)

    @rule("homonym-head-noun", stage="ladder", types=GRAPH_TYPES, off=False,
          purpose="a head noun that names a homonym class (tg:homonymHead: \"captain\") gives none of its senses from the name alone")
    def homonym_head(self, found: list[tuple[str, LinkMethod]]) -> bool:
        """Some class the words name is a homonym head (``tg:homonymHead``)."""
        return any(qid in self.rules.homonym_heads for qid, _ in found)

    @rule("heard-sense", stage="ladder", types=("MISC", "DEM"), off=False,
          purpose="a class of a kind the type forbids under the same word is the sense a reader hears: no class of no kind from that word")
    def heard_sense(self, span: Span, found: list[tuple[str, LinkMethod]]) -> bool:
        """For a MISC or DEM span, the words also name a class of a kind the type does not allow
        ("state of emergency": the polity); an ORG "state of Cao Wei" is the polity."""
        return span.entity_type in (EntityType.MISC, EntityType.DEM) and any(
            self.is_class(q) and self._type_kinds(q) and not self.class_fits(q, span.entity_type, strict=True) for q, _ in found)

    @rule("capitalised-class-label", stage="ladder", types=GRAPH_TYPES, off=False,
          purpose="a class whose label is capitalised names one thing: \"East Germany national football team\" is not the Germany one")
    def names_one_thing(self, qid: str) -> bool:
        """The class's label starts with a capital letter."""
        return (self.taxonomy.label(qid) or "a")[:1].isupper()

    def names_place(self, words: str) -> bool:
        """The words are a place's own label in the store ("Malawi", "London")."""
        return any(m in NAME_METHODS and PLACE in self.item_kinds(q) for q, m in self.index.lookup(words))

    @rule("role-heads-its-span", stage="ladder", types=("DEM",), off=False,
          purpose='a DEM span names a role: its head is the role word before "of", not a name after it ("president of the Vikstad Academy of Painting" is no academy)')
    def role_heads_its_span(self, span: Span) -> bool:
        """``span`` is a DEM span: no later head ("… Academy", "… College") is read in it."""
        return span.entity_type is EntityType.DEM

    @rule("later-head", stage="ladder", types=NAME_TYPES, off=None,
          purpose="a name made of two names (\"University of Malawi College of Medicine\") is headed by the later one: a college")
    def later_head(self, words: list[str]) -> int | None:
        """:func:`engine.generate.truth_text.later_head` over the store: a place's own label
        before a word that names a class (an item labelled in lower case)."""
        return later_head(words, self.names_place, lambda w: any((self.taxonomy.label(q) or "A")[:1].islower() for q, _ in self.index.lookup(w)))

    # --- rule 3: nationality --------------------------------------------------------------
    @rule("nationality", stage="ladder", types=("DEM", "MISC"), off=False,
          purpose="a DEM or MISC span that is a country's demonym generalizes as a nationality, not an ethnic group or the country")
    def is_nationality(self, span: Span, links: Iterable[Link]) -> bool:
        """A DEM/MISC span that is a country's demonym, not linked as a language nor a language's name
        before a colon or after "in"; a MISC span not followed by a noun that names a language is it."""
        if span.entity_type not in (EntityType.DEM, EntityType.MISC):
            return False
        forms = [fold(span.text)] + normalised_forms(span.text)
        if not any(self.index.demonyms.get(f) for f in forms) or names_its_country(span.text, span.context or ""):
            return False
        links = list(links)
        first = next(iter(links), None)
        if first is not None and LANGUAGE in self.superclasses_of_item(first.qid) and not qualifies_a_noun(span.text, span.context or ""):
            return False  # "translated from Polish into French": the language; "a Polish engineer": the nationality
        if span.entity_type is EntityType.MISC and not attributive(span.text, span.context or "") and any(
                l.method is not LinkMethod.DEMONYM and LANGUAGE in self.superclasses_of_item(l.qid) for l in links):
            return False  # a MISC span is a name: "titles her works in Isthmus Zapotec and Spanish" names the language
        def language() -> bool:  # asked only where the sentence reads the span as one
            return any(LANGUAGE in self.superclasses_of_item(q) for f in forms for q, _ in self.index.lookup(f))
        if (after_in(span.text, span.context or "") or self.language_verb_object(span)) and not attributive(span.text, span.context or "") and language():
            return False  # "novels written in Indonesian", "the news in Somali": the language
        # before a colon, the language ("simplified Chinese: 黄义达"; rule 9), unless another use is an adjective
        after = words_after(span.text, span.context or "")
        return not (":" in after and not any(w[:1].isalpha() and w.lower() not in LANGUAGE_NOUNS for w in after) and language())

    def superclasses_of_item(self, qid: str) -> frozenset[str]:
        out: set[str] = set(self.superclasses(qid))
        for c in self.taxonomy.parents(qid, "P31"):
            out |= self.superclasses(c)
        return frozenset(out)

    negated_by_modifier = staticmethod(negated_by_modifier)

    # --- rule 4: specific before general --------------------------------------------------
    def above(self, general: Candidate, specific: Candidate) -> bool:
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
                last = max((j for j in range(i + 1, len(items)) if self.above(c, items[j])), default=None)
                if last is not None:
                    items.insert(last, items.pop(i))
                    moved = True
                    break
            if not moved:
                break
        return items
