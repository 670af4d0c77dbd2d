from engine.generate.sources.base import DocumentState
from engine.generate.sources.person import PersonSource, name_tokens, same_person
from engine.types import EntityType, Span


def numbers(names, ids=None):
    src, state = PersonSource(), DocumentState()
    ids = ids or [None] * len(names)
    return [src.generate(Span(n, EntityType.PERSON, entity_id=i), state).candidates[0].label for n, i in zip(names, ids)]


def test_given_mentions_then_numbered_by_first_mention_and_shared():
    assert numbers(["Percy Parke Lewis", "Ada Lovelace", "Lewis", "Percy Lewis", "Lovelace"]) == [
        "PERSON 1", "PERSON 2", "PERSON 1", "PERSON 1", "PERSON 2"]


def test_given_same_surname_different_first_names_then_two_people():
    assert numbers(["Théodolinde de Beauharnais", "Joséphine de Beauharnais", "Beauharnais"]) == [
        "PERSON 1", "PERSON 2", "PERSON 2"]


def test_given_a_surname_alone_then_it_does_not_join_another_full_name_to_its_person():
    # the spouse shares the surname: "Karabulut" stood for Ayşe, Mehmet is another person
    assert numbers(["Ayşe Nurhan Karabulut", "Karabulut", "Mehmet Karabulut", "Karabulut"]) == [
        "PERSON 1", "PERSON 1", "PERSON 2", "PERSON 2"]


def test_given_a_hyphenated_surname_then_it_is_one_name():
    assert numbers(["Camille Roussel-Adjovi", "Roussel-Adjovi", "Théo Roussel"]) == ["PERSON 1", "PERSON 1", "PERSON 2"]


def test_given_entity_ids_then_they_decide():
    assert numbers(["Mary Forbes", "Ethel Louise Young", "Forbes"], ["e1", "e1", "e1"]) == ["PERSON 1"] * 3
    assert numbers(["Bobby Aylward", "Bob Aylward"], ["e1", "e33"]) == ["PERSON 1", "PERSON 2"]


def test_given_titles_accents_and_possessives_then_names_fold():
    assert name_tokens("Dr. José Müller's") == ["jose", "muller"]
    assert same_person(["jose", "muller"], ["muller"])
    assert not same_person(["anna", "muller"], ["jose", "muller"])
