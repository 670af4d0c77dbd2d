"""Document context for linking homonyms: "Georgia" in a biography of an American
president is the U.S. state, not the country.

A document's *countries* are the countries of its places and nationalities that link
without doubt: one item is named by the span ("Omaha" → Omaha, whose country is the
United States; "American" → the United States; "United States" → itself), and the
countries its organisation spans name ("an application against the French Republic": a
court judgment names the respondent state as a party). A name that
several items share ("Georgia": the country and the U.S. state) says nothing about the
document and does not vote.

When a span's first link is such a homonym, its country is known (its P17, or the country
its class's label ends with: "city of the United States") and is not one of the document's, while another homonym (the same name, linked the same way) lies in one of
them, that homonym is linked instead. Nothing changes for a document without countries,
for a name with one item, or when the first link already fits the document.

A place name followed in its sentence by a comma and a region ("Manchester, Connecticut")
lies in that region's country: a link known to lie elsewhere (Manchester, England) is
replaced by a homonym in that country, or dropped when there is none
(:func:`in_named_region`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from kg.class_sets import class_set
from engine.generate.linking import Linker, fold
from engine.generate.sources.base import DocumentState
from engine.knowledge import pattern, rule
from engine.types import EntityType, Link, LinkMethod, Span

#: The naming links of a text read as an entity type.
Naming = Callable[[str, EntityType], list[Link]]

#: Classes whose instances are their own country (country, sovereign state; ``ontology/class_sets.ttl``).
COUNTRY_CLASSES = class_set("countryClasses")
#: A country that no longer exists (``tg:historicalCountry``): no document's country today.
HISTORICAL_COUNTRY = class_set("historicalCountry")
#: Links that name the item (a contained part or a near spelling names nothing for sure).
NAMING = frozenset({LinkMethod.EXACT, LinkMethod.ALIAS, LinkMethod.NORMALISED, LinkMethod.DEMONYM})
#: Links through which a span is the item's name (no demonym): the senses of an ambiguous name.
NAME_LINKS = (LinkMethod.EXACT, LinkMethod.ALIAS, LinkMethod.NORMALISED)
#: Types whose spans tell the document's countries.
PLACE_TYPES = frozenset({EntityType.LOC, EntityType.DEM})
#: The country at the end of a class's label ("city of the United States").
_COUNTRY_IN_CLASS = pattern("linking.country_in_class_label")


def item_countries(taxonomy, qid: str) -> frozenset[str]:
    """The country of an item: itself for a country, else its ``P17`` values."""
    if set(taxonomy.parents(qid, "P31")) & COUNTRY_CLASSES:
        return frozenset({qid})
    return frozenset(taxonomy.values(qid, "P17"))


def document_state(linker: Linker, spans: Iterable[Span], text: str = "") -> DocumentState:
    """The state a document's ladders are built in: its :func:`document_countries` and
    :func:`mentioned_countries`, each place span linked once for both, and its ``text``."""
    spans = list(spans)
    memo: dict[tuple[str, EntityType], list[Link]] = {}

    def naming(text: str, etype: EntityType) -> list[Link]:
        if (text, etype) not in memo:
            memo[(text, etype)] = [link for link in linker.link(Span(text, etype)) if link.method in NAMING]
        return memo[(text, etype)]

    spans += demonyms_in_text(linker, text, spans)
    return DocumentState(countries=document_countries(linker, spans, naming), mentioned=mentioned_countries(linker, spans, naming),
                         text=text)


_CAPITALISED = re.compile(r"(?<![\w-])[A-Z][a-z]+(?![\w-])")


@rule("unmasked-demonym-votes", stage="link", types=("LOC", "DEM"), off=[],
      purpose='a demonym the text leaves unmasked ("a Spanish cyclist") says which country the document is in, as its masked places and nationalities do')
def demonyms_in_text(linker: Linker, text: str, spans: Sequence[Span]) -> list[Span]:
    """The demonyms the text writes outside its spans ("a Spanish cyclist" left unmasked), as
    DEM spans: the nationalities a document names say where its homonyms lie as its masked
    ones do."""
    if not text:
        return []
    known = {span.text for span in spans}
    found = dict.fromkeys(m.group(0) for m in _CAPITALISED.finditer(text))
    return [Span(word, EntityType.DEM) for word in found if word not in known and linker.index.demonyms.get(fold(word))]


def mentioned_countries(linker: Linker, spans: Iterable[Span], naming: Naming | None = None) -> frozenset[str]:
    """Countries of every item a place or nationality span (LOC, DEM) names when read as a
    place, whether or not the name is ambiguous ("Wales": the country and its national
    side). ``naming``: the naming links of a text read as a type (by default the linker's)."""
    naming = naming or _naming(linker)
    out: set[str] = set()
    for text in {span.text for span in spans if span.entity_type in PLACE_TYPES}:
        for link in naming(text, EntityType.LOC):
            out |= item_countries(linker.taxonomy, link.qid)
    return frozenset(out)


def document_countries(linker: Linker, spans: Iterable[Span], naming: Naming | None = None) -> frozenset[str]:
    """Countries of the spans (LOC, DEM) that link to exactly one item by one of its names,
    and of the ORG spans that name exactly one country (:func:`state_named`: "against the
    French Republic")."""
    naming = naming or _naming(linker)
    out: set[str] = set()
    seen: set[str] = set()
    for span in spans:
        if span.text in seen:
            continue
        if span.entity_type is EntityType.ORG:
            seen.add(span.text)
            out |= state_named(linker, span, naming)
            continue
        if span.entity_type not in PLACE_TYPES:
            continue
        seen.add(span.text)
        links = naming(span.text, span.entity_type)
        if span.entity_type is EntityType.DEM:
            # a demonym names its country, whatever else the word names ("Spanish": the language too)
            links = [link for link in links if link.method is LinkMethod.DEMONYM] or links
        if len({link.qid for link in links}) == 1:
            out |= item_countries(linker.taxonomy, links[0].qid)
    return frozenset(out)


def state_named(linker: Linker, span: Span, naming: Naming) -> frozenset[str]:
    """The country an ORG span names by one of its names (read as a place), when exactly one
    of the items it names is a country (``tg:countryClasses``): "French Republic" names the
    First Republic too, which is no country today."""
    found = {link.qid for link in naming(span.text, EntityType.LOC)}
    countries = {q for q in found if set(linker.taxonomy.parents(q, "P31")) & COUNTRY_CLASSES
                 and not set(linker.taxonomy.parents(q, "P31")) & HISTORICAL_COUNTRY}
    return frozenset(countries) if len(countries) == 1 else frozenset()


def _naming(linker: Linker) -> Naming:
    return lambda text, etype: [link for link in linker.link(Span(text, etype)) if link.method in NAMING]


@rule("country-named-by-class-label", stage="link", types=("LOC",), off=frozenset(),
      purpose='an item the store gives no country lies where its class\'s label says ("city of the United States"): a namesake in the document\'s country is linked first')
def countries_named_by_classes(linker: Linker, qid: str) -> frozenset[str]:
    """The countries the labels of an item's classes end with ("city of the United States",
    ``linking.country_in_class_label``): where the item lies when the store gives it no
    country. A name that also names an item of another kind still names the country."""
    out: set[str] = set()
    for cls in linker.taxonomy.parents(qid, "P31"):
        m = _COUNTRY_IN_CLASS.search(linker.taxonomy.label(cls) or "")
        if m is None:
            continue
        for link in linker.link(Span(m.group(1), EntityType.LOC)):
            kinds = set(linker.taxonomy.parents(link.qid, "P31"))
            if link.method in NAME_LINKS and kinds & COUNTRY_CLASSES and not kinds & HISTORICAL_COUNTRY:
                out.add(link.qid)
    return frozenset(out)


def prefer_in_document(links: Sequence[Link], countries: frozenset[str], taxonomy,
                       named: Callable[[str], frozenset[str]] | None = None) -> list[Link]:
    """``links`` with a homonym of the first link that lies in one of ``countries`` moved
    first, when the first link does not (see the module docstring); ``named``: the countries
    an item's classes name (:func:`countries_named_by_classes`), read where the store gives
    the first link no country."""
    links = list(links)
    if not countries or len(links) < 2 or links[0].method not in NAMING:
        return links
    first = links[0]
    own = item_countries(taxonomy, first.qid) or (named(first.qid) if named is not None else frozenset())
    if not own or own & countries:  # no country known for it ("Kathmandu" the city): nothing says it is wrong
        return links
    for i, link in enumerate(links[1:], start=1):
        if link.method is first.method and link.matched == first.matched and item_countries(taxonomy, link.qid) & countries:
            return [link] + links[:i] + links[i + 1:]
    return links


#: ", Region" after a place name: capitalised words up to punctuation or a lower-case word.
_REGION = re.compile(r",\s+((?:[A-Z][\w.'’-]*)(?:\s+[A-Z][\w.'’-]*)*)")


def named_region(span: Span) -> str | None:
    """The region named after the span and a comma in its sentence ("Connecticut" in
    "born … in Manchester, Connecticut"); None when there is none."""
    context = span.context or ""
    at = context.find(span.text)
    if at < 0:
        return None
    m = _REGION.match(context, at + len(span.text))
    if not m:
        return None
    region = m.group(1)
    last = region.split()[-1]
    return region[:-1] if last.endswith(".") and last.count(".") == 1 else region  # a sentence's full stop, not "D.C."


def in_named_region(linker: Linker, span: Span, links: Sequence[Link]) -> list[Link]:
    """``links`` of a place span with those known to lie outside the country of the region
    named after it (:func:`named_region`) replaced by a homonym inside it, or dropped.
    Unchanged when no region follows, when the region does not link to exactly one item
    with a known country, or when the first link's country is unknown or fits."""
    links = list(links)
    region = named_region(span)
    if region is None or not links:
        return links
    found = {link.qid for link in _naming(linker)(region, EntityType.LOC)}
    if len(found) != 1:
        return links
    countries = item_countries(linker.taxonomy, next(iter(found)))
    own = item_countries(linker.taxonomy, links[0].qid)
    if not countries or not own or own & countries:
        return links
    inside = [link for link in links if item_countries(linker.taxonomy, link.qid) & countries]
    unknown = [link for link in links if not item_countries(linker.taxonomy, link.qid)]
    return inside + [link for link in unknown if link not in inside]


#: "Place, " right before a span: capitalised words, then a comma ("Rosario, *Santa Fe*").
_PLACE_BEFORE = r"((?:[A-Z][\w.'’-]*)(?:\s+[A-Z][\w.'’-]*)*),\s+"
#: How far up the administrative parents (P131) a place is followed.
_REGION_HOPS = 6


def around_named_place(linker: Linker, span: Span, links: Sequence[Link]) -> list[Link]:
    """``links`` of a place span that follows another place and a comma ("born in Rosario,
    *Santa Fe*"), with the item of its name (label or alias) that the first place lies in
    (over ``P131``) first: the span names the region around it (Santa Fe Province), not
    another place of the name (a city of Argentina, a city of New Mexico). Unchanged when no
    place precedes, when it links to nothing, or when no item of the span's name contains it."""
    links = list(links)
    context = span.context or ""
    m = re.search(_PLACE_BEFORE + re.escape(span.text) + r"(?!\w)", context) if links and context else None
    before = _naming(linker)(m.group(1), EntityType.LOC) if m else []
    if not before:
        return links
    taxonomy, around, frontier = linker.taxonomy, set(), {before[0].qid}
    for _ in range(_REGION_HOPS):
        frontier = {p for q in frontier for p in taxonomy.values(q, "P131")} - around
        around |= frontier
    named = [(qid, method) for qid, method in linker.index.lookup(fold(span.text)) if qid in around]
    if not named:
        return links
    qid, method = named[0]
    first = next((link for link in links if link.qid == qid), None) or Link(qid, taxonomy.label(qid) or span.text, method, span.text, 1.0)
    return [first] + [link for link in links if link.qid != qid]
