"""A name the store does not class still gets the classes its own words vouch for: the class
the store's items named with the same head word share, the class the head noun of its item's
description names, the class the common noun before it in its sentence names."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from engine.engine import Engine
from engine.generate.apposition import noun_after, noun_before
from engine.types import MASK, EntityType, Span
from tests.conftest import candidate_labels, tiny_store

WD = "http://www.wikidata.org/entity/"

EDGES = [
    ("Q18127", "P279", "Q43229"),                                           # record label ⊂ organization
    ("Q637846", "P279", "Q11204"), ("Q11204", "P279", "Q43229"),            # upper house ⊂ legislature ⊂ organization
    ("Q189004", "P279", "Q2385804"),                                        # college ⊂ educational institution
    ("Q15238777", "P279", "Q1656682"),                                      # legislative term ⊂ event
    ("Q188451", "P279", "Q483394"),                                         # music genre ⊂ genre
    ("Q476028", "P279", "Q12973014"), ("Q12973014", "P279", "Q327245"),     # association football club ⊂ sports team ⊂ team
    ("Q327245", "P279", "Q43229"),
    ("Q482994", "P279", "Q17537576"),                                       # album ⊂ creative work
    ("Q170238", "P279", "Q5398426"), ("Q5398426", "P279", "Q17537576"),     # sitcom ⊂ television series ⊂ creative work
    ("Q11410", "P279", "Q17537576"),                                        # game ⊂ creative work
    ("Q3505845", "P279", "Q1190554"),                                       # state (a condition) ⊂ occurrence
    ("Q4189293", "P279", "Q4164871"),                                       # rank ⊂ position
    ("Q11424", "P279", "Q4502142"), ("Q11424", "P279", "Q106213450"),       # film ⊂ visual artwork, an unlabelled class
    ("Q106213450", "P279", "Q4502142"), ("Q4502142", "P279", "Q17537576"),  # … ⊂ visual artwork ⊂ creative work
    ("Q11424", "P279", "Q2431196"), ("Q2431196", "P279", "Q17537576"),      # film ⊂ audiovisual work ⊂ creative work
    ("Q60", "P31", "Q515"), ("Q515", "P279", "Q486972"),                    # New York City, a city ⊂ human settlement
    ("Q9900001", "P279", "Q9900002"),                                       # side ⊂ an unlabelled class (no kind)
    ("Q5", "P279", "Q215627"),                                              # human ⊂ person
    ("Q4504495", "P279", "Q1656682"),                                       # award ceremony ⊂ event
    ("Q28575", "P279", "Q56061"),                                           # county of Testland ⊂ administrative territorial entity
    ("Q7275", "P279", "Q56061"),                                            # state ⊂ administrative territorial entity
]
LABELS = {
    "Q18127": "record label", "Q43229": "organization", "Q637846": "upper house", "Q11204": "legislature",
    "Q189004": "college", "Q2385804": "educational institution", "Q15238777": "legislative term", "Q1656682": "event",
    "Q188451": "music genre", "Q483394": "genre", "Q476028": "association football club", "Q12973014": "sports team",
    "Q327245": "team", "Q482994": "album", "Q17537576": "creative work", "Q170238": "sitcom",
    "Q5398426": "television series", "Q11410": "game", "Q3505845": "state", "Q7275": "state", "Q1190554": "occurrence",
    "Q4189293": "rank", "Q4164871": "position", "Q11424": "film", "Q4502142": "visual artwork",
    "Q2431196": "audiovisual work", "Q60": "New York City", "Q515": "city", "Q486972": "human settlement",
    "Q9900001": "side", "Q618779": "award", "Q4504495": "award ceremony", "Q5": "human", "Q215627": "person", "Q28575": "county of Testland", "Q56061": "administrative territorial entity",
}
ALIASES = [("Q60", "NYC")]


def _named(first: int, cls: str, names: list[str]) -> tuple[list, dict]:
    """Items ``Q<first>…`` labelled ``names``, instances of ``cls``."""
    items = {f"Q{first + i}": name for i, name in enumerate(names)}
    return [(q, "P31", cls) for q in items], items


NAMED = [
    _named(9000100, "Q18127", ["Alpha Records", "Beta Records", "Gamma Records", "Delta Records", "Epsilon Records"]),
    _named(9000200, "Q482994", ["Greatest Records"]),                    # an album: no organisation, not counted for ORG
    _named(9000300, "Q637846", ["Ohio Senate", "Utah State Senate", "Iowa Senate", "Senate of Testland"]),
    _named(9000400, "Q189004", ["Alpha College", "Beta College", "Gamma College", "Delta College", "Epsilon College"]),
    _named(9000500, "Q15238777", ["101st Test Congress", "102nd Test Congress", "103rd Test Congress", "104th Test Congress"]),
    _named(9000600, "Q188451", ["new wave", "cold wave", "dark wave", "no wave"]),  # genres, written in lower case
    _named(9000700, "Q476028", ["FC Alpha", "FC Beta", "FC Gamma", "FC Delta"]),
    _named(9000800, "Q476028", ["NYC Alpha", "NYC Beta", "NYC Gamma", "NYC Delta"]),  # "NYC" names a city: no marker
    _named(9000900, "Q28575", ["Alpha County", "Beta County", "Gamma County", "Delta County"]),
    _named(9000960, "Q618779", ["Alpha Award", "Beta Award", "Gamma Award", "Delta Award", "Epsilon Award", "Zeta Award"]),
    _named(9000970, "Q4504495", ["Eta Award", "Theta Award", "Iota Award", "Kappa Award"]),  # award ceremonies (events)
    _named(9000950, "Q5", ["Ben Cross", "David Cross", "Amanda Cross", "Marcia Cross"]),  # people: a surname is no head noun
]
#: items the store keeps without a class, and their descriptions
DESCRIBED = {
    "Q9001001": ("1. FC Testburg", "German association football club"),
    "Q9001002": ("Testing Development", "American television sitcom created by Someone for Fox"),
    "Q9001003": ("1956 Test Olympics", "games of the XVI Olympiad, celebrated in Melbourne"),
    "Q9001004": ("General Testofficer", "military rank"),
    "Q9001005": ("Test War", "state of geopolitical tension after World War II"),
    "Q9001006": ("major", "military rank"),
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    edges, labels = list(EDGES), dict(LABELS)
    for more, names in NAMED:
        edges += more
        labels.update(names)
    labels.update({q: label for q, (label, _) in DESCRIBED.items()})
    kg = tiny_store(edges, labels, ALIASES, shipped_overlay=True)
    nt = [f'<{WD}{q}> <http://schema.org/description> "{text}"@en .' for q, (_, text) in DESCRIBED.items()]
    kg.raw.load("\n".join(nt).encode(), format=ox.RdfFormat.N_TRIPLES)
    return Engine.from_store(kg)


# --- the class the store's items named with the same head word share ------------------------------
def test_given_head_word_the_store_names_share_a_class_then_it(engine):
    # no word of the span links, and "records" names no class: five "… Records" are record labels
    assert candidate_labels(engine, "Radioactive Records", EntityType.ORG) == ["record label", "organization", MASK]
    # a head word before "of" counts too ("Senate of Testland")
    assert candidate_labels(engine, "Nigerian Senate", EntityType.ORG) == ["upper house", "legislature", "organization", MASK]
    ladder = engine.candidates("Radioactive Records", EntityType.ORG)
    assert "head word 'records'" in ladder.reason and ladder.candidates[0].rule == "name-head"


def test_given_a_misc_span_then_no_organisation_class_from_names(engine):
    # "… Records" are record labels: an ORG span is one, a MISC span (a work, an event) is none
    assert candidate_labels(engine, "Radioactive Records", EntityType.MISC) == [MASK]


def test_given_people_named_with_the_head_word_then_no_class_from_them(engine):
    # "Victoria Cross" is a medal: "Ben Cross" and "David Cross" say nothing of it, and no person class is offered
    assert candidate_labels(engine, "Victoria Cross", EntityType.MISC) == [MASK]


def test_given_the_head_word_mostly_names_things_of_another_type_then_no_class(engine):
    # "… Award" names awards (no organisation): the four award ceremonies an ORG span could be say nothing of it
    assert candidate_labels(engine, "Ramon Testsay Award", EntityType.ORG) == [MASK]


def test_given_an_ordinal_before_the_span_then_one_edition_not_a_class_from_names(engine):
    assert candidate_labels(engine, "Kyoto Records", EntityType.ORG)[0] == "record label"
    # "the 18th Party Congress" is one meeting; "the 3rd Kyoto Records" one edition of something named so
    assert candidate_labels(engine, "Kyoto Records", EntityType.ORG, "after the 3rd Kyoto Records in Japan") == [MASK]


def test_given_homonym_head_word_then_no_class_from_names(engine):
    # "college" is a homonym head (reader_rules.ttl): the Electoral College is no educational institution
    assert candidate_labels(engine, "Electoral College", EntityType.ORG) == [MASK]


def test_given_names_that_start_with_an_ordinal_then_not_counted(engine):
    # "101st Test Congress" is one term of a congress: it says nothing of what a congress is
    assert candidate_labels(engine, "National Democratic Congress", EntityType.ORG) == [MASK]


def test_given_a_name_then_only_names_count_not_common_nouns_written_alike(engine):
    # "new wave" is a genre written in lower case: "First Wave", a television series, is none
    assert candidate_labels(engine, "First Wave", EntityType.MISC) == [MASK]


def test_given_an_abbreviation_before_the_name_then_it_marks_the_kind(engine):
    assert candidate_labels(engine, "FC Haka", EntityType.ORG) == ["association football club", "sports team", "team", "organization", MASK]
    # "NYC" names a city: a place before a name says nothing of the kind of the name
    assert candidate_labels(engine, "NYC Dance Troupe", EntityType.ORG) == [MASK]


def test_given_a_place_then_no_class_from_other_places_names(engine):
    # a county's classes depend on its country, which the head word does not say
    assert candidate_labels(engine, "Shou County", EntityType.LOC) == [MASK]


# --- the class the head noun of the item's description names ------------------------------------------
def test_given_item_without_class_then_the_head_noun_of_its_description(engine):
    labels = candidate_labels(engine, "1. FC Testburg", EntityType.ORG)
    assert labels[:3] == ["association football club", "sports team", "team"]
    assert "description of Q9001001" in engine.candidates("1. FC Testburg", EntityType.ORG).reason


def test_given_description_head_ending_in_a_participle_then_the_noun_before_it(engine):
    assert candidate_labels(engine, "Testing Development", EntityType.MISC)[:2] == ["sitcom", "television series"]


def test_given_description_with_plural_head_or_homonym_word_then_no_class(engine):
    # "games of the XVI Olympiad" describe one event, none of the games
    assert candidate_labels(engine, "1956 Test Olympics", EntityType.MISC) == [MASK]
    # "state" names a political state and a condition in the store: the description does not say which
    assert candidate_labels(engine, "Test War", EntityType.MISC) == [MASK]


def test_given_a_common_word_then_its_item_description_is_not_read(engine):
    # "produced at major theatres": the adjective, not the rank the item "major" is described as
    assert candidate_labels(engine, "major", EntityType.MISC, "plays produced at major theatres") == [MASK]


def test_given_a_role_then_its_description_is_not_read(engine):
    # "military rank" says what the role is, not what the person holding it is
    assert candidate_labels(engine, "General Testofficer", EntityType.DEM) == [MASK]


# --- the common noun before the name in its sentence ----------------------------------------------------
@pytest.mark.parametrize("text, context, words", [
    ("MacGyver", "Her credits included the television series MacGyver, Roseanne and Melrose Place.", ["television", "series"]),
    ("Melrose Place", "Her credits included the television series MacGyver, Roseanne and Melrose Place.", ["television", "series"]),
    ("Excision", "She appeared in films such as Skinner (1993), Blade (1998) and Excision (2012).", ["films"]),
    ("Chou Nan Ren", 'His song "Chou Nan Ren" (Jerk) was the opening theme.', ["song"]),
    ("Not of This Earth", "the 1957 Roger Corman science fiction film Not of This Earth", ["science", "fiction", "film"]),
    ("Economic and Financial Crimes Commission", "he was held in the custody of the Economic and Financial Crimes Commission", []),
    ("Sony Taiwan", "after his contract ended with Sony Taiwan.", []),
    ("rural electrification", "funds earmarked for rural electrification.", []),
])
def test_noun_before_a_name(text, context, words):
    assert noun_before(Span(text, EntityType.MISC, context=context)) == words


@pytest.mark.parametrize("text, context, words", [
    ("Ulaştırmaspor", "He is a member of Ulaştırmaspor, a club of the Ministry of Transport.", ["club"]),
    ("Hermosillo", "the northern part of Hermosillo, the state capital.", ["state", "capital"]),
    ("Kemptville Royals", "playing for the Kemptville Royals, a championship senior men's hockey team in the league",
     ["championship", "senior", "men's", "hockey", "team"]),
    ("SA", "he joined the SA, the brownshirted street-fighting stormtroopers of the party.", []),  # a plural: the group
    ("Paris", "Born in Paris, a year later he moved to Lyon.", ["year"]),  # no class of a place: read, then not offered
    ("Testville", "He moved to Testville, a small place.", ["small", "place"]),
])
def test_noun_in_apposition_after_a_name(text, context, words):
    assert noun_after(Span(text, EntityType.ORG, context=context)) == words


def test_given_a_noun_next_to_the_name_then_it_gives_no_rung(engine):
    # the sentence's own noun already says what the name is: a rung would only repeat it
    # (engine.select.stated shows *** for a ladder headed by it)
    context = "She signed with Kyoto Testworks, a record label of the city."
    assert candidate_labels(engine, "Kyoto Testworks", EntityType.ORG, context) == [MASK]
    context = "Her other acting credits included the television series MacGyver, Roseanne and Melrose Place."
    assert candidate_labels(engine, "Melrose Place", EntityType.MISC, context) == [MASK]


def test_given_a_one_word_noun_of_no_kind_before_the_name_then_no_class(engine):
    # "local side": "side" names a class of no kind in the store, and may be any word
    assert candidate_labels(engine, "Sheffield Wednesday", EntityType.ORG, "he started with local side Sheffield Wednesday") == [MASK]


def test_given_a_film_then_no_visual_artwork(engine):
    # a film is a moving image, not a painting or a sculpture (reader_rules.ttl), by either edge
    labels = candidate_labels(engine, "film", EntityType.MISC, "the soundtrack to a film")
    assert "visual artwork" not in labels and "creative work" in labels, labels
