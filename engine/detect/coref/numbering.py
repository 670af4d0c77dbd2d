"""One person id per person once every type is settled: the PERSON numbers follow it.

The person linker (:mod:`engine.detect.coref.persons`) gives the persons their ids
(``person-1`` …) before the graph, the context and a name's own words have corrected the
types. A span those later checks make a PERSON ("President Nixon" that NER read as a work,
"Crystal Nicole" that the gazetteer read as a place) still holds the id of its former type
(``misc-3``), so it got a PERSON number of its own: "President Richard Nixon" was PERSON 4
and "President Nixon" PERSON 5. Rule ``person-numbered-by-name``, last of the detect stage:

- such a span joins the person whose name its name words fit (all its words are words of
  the person's name, titles, possessives and initials as the linker reads them: "Nixon's",
  "Mr Nixon", "R. Nixon"); not a person whose name is a part of its own ("Túpac Amaru II"
  is not the "Túpac Amaru" mentioned before: a longer name is another person's as often);
- among several persons it fits, the subject when it fits, else the one mentioned most
  recently before it (:func:`engine.detect.coref.persons.chosen_person`): a bare "Silva"
  after "Ana Silva" and then "João Silva" is João Silva, never a third person and never a
  silent merger of the two;
- a span that fits no person is a new person, and later spans of the same name join it
  (two spans "Alfa Romeo" typed ORG and MISC before they became persons are one).
"""

from __future__ import annotations

from engine.detect.coref.persons import chosen_person, name_words, names_fit
from engine.detect.spans import DetectedSpan
from engine.knowledge import rule
from engine.types import EntityType

_PREFIX = "person-"


def _number(entity_id: str | None) -> int | None:
    """The n of ``person-n``; None for another id."""
    if entity_id and entity_id.startswith(_PREFIX) and entity_id[len(_PREFIX):].isdigit():
        return int(entity_id[len(_PREFIX):])
    return None


@rule("person-numbered-by-name", stage="detect", types=("PERSON",), pack="core", off=None,
      purpose="a span made a PERSON after the persons were linked joins the person its name words fit ('President Nixon' after 'President Richard Nixon')")
def persons_renumbered(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` with every PERSON's id a person's id (see the module docstring)."""
    persons = [s for s in spans if s.entity_type is EntityType.PERSON]
    if all(_number(s.entity_id) is not None for s in persons):
        return spans
    names: dict[int, list[str]] = {}
    for s in persons:
        n = _number(s.entity_id)
        if n is not None:
            words = name_words(s.text)
            if len(words) > len(names.get(n, [])):
                names[n] = words
    numbers = sorted(names)
    last_seen: dict[int, int] = {}
    out: list[DetectedSpan] = []
    for s in sorted(spans, key=lambda x: x.start):
        if s.entity_type is EntityType.PERSON:
            n = _number(s.entity_id)
            if n is None:
                words = name_words(s.text)
                fitting = [i for i, m in enumerate(numbers)
                           if names_fit(words, names[m], fuzzy=m == 1)]
                seen = [last_seen.get(m, -1) for m in numbers]
                i = chosen_person(fitting, seen) if fitting and numbers[0] == 1 else (
                    max(fitting, key=lambda j: seen[j]) if fitting else None)
                if i is None:
                    n = max(numbers, default=0) + 1
                    names[n] = words
                    numbers.append(n)
                else:
                    n = numbers[i]
                s = s.with_(entity_id=f"{_PREFIX}{n}")
            last_seen[n] = s.start
        out.append(s)
    return out
