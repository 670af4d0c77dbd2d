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

Rule ``other-name-same-person`` (biography pack) then gives a person's other names the
person's id: "Traci Lords (born Nora Kuzma; …)", "Karl Kehrle (…), known as Brother Adam",
"Sithu Aung (…; also spelled Si Thu Aung)", "credited as Cristyle or Cri$tyle" — the
cue words are ``detect_persons.own_other_name_before``, and between the person's name and
them only brackets, commas and semicolons may stand; no cue, no other name ("Seacole was
born in Kingston, the daughter of a soldier, James Grant": the father).
"""

from __future__ import annotations

import re

from engine.detect.coref.persons import chosen_person, name_words, names_fit
from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule
from engine.types import EntityType

_PREFIX = "person-"
_OTHER_NAME_BEFORE = pattern("detect_persons.own_other_name_before")
_OTHER_NAME_OR = pattern("detect_persons.other_name_or")
_OTHER_NAME_GAP = pattern("detect_persons.other_name_gap")
_BRACKETS = re.compile(r"\([^()]*\)")
_SENTENCE_END = re.compile(r"[.!?]\s+[A-Z]")


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
                same = [j for j in fitting if names[numbers[j]] == words]
                i = chosen_person(fitting, seen, same, subject=0 if numbers and numbers[0] == 1 else None)
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


@rule("other-name-same-person", stage="detect", types=("PERSON",), pack="biography", off=None,
      purpose="a person's other name right after the person ('born Nora Kuzma', 'known as Brother Adam', 'also spelled Si Thu Aung') is the same person")
def other_names_joined(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` with each person's other names holding the person's id: a PERSON after the
    words that introduce a person's own other name (``detect_persons.own_other_name_before``),
    the person's name before them in its sentence with nothing but brackets, commas and
    semicolons between, or after "or" right after such a name ("credited as Cristyle or
    Cri$tyle"). The spans of the other name's id that are that name or a part of it move with it."""
    moved: dict[str, tuple[str, list[list[str]]]] = {}
    aliases: set[int] = set()
    persons = [i for i, s in enumerate(spans) if s.entity_type is EntityType.PERSON]
    for k, i in enumerate(persons):
        s = spans[i]
        if k == 0 or not s.text[:1].isupper():
            continue
        prev = spans[persons[k - 1]]
        between = text[prev.end:s.start]
        owner = None
        if persons[k - 1] in aliases and _OTHER_NAME_OR.match(between):
            owner = prev
        else:
            cue = _OTHER_NAME_BEFORE.search(between)
            if cue and len(between) <= 250 and not _SENTENCE_END.search(between) \
                    and _OTHER_NAME_GAP.match(_BRACKETS.sub("", between[:cue.start()])):
                owner = prev
        if owner is None or not owner.entity_id or not s.entity_id:
            continue
        target = moved[owner.entity_id][0] if owner.entity_id in moved else owner.entity_id
        if s.entity_id != target and _number(s.entity_id) != 1:  # the subject is never someone's other name
            moved.setdefault(s.entity_id, (target, []))[1].append(name_words(s.text))
        aliases.add(i)
    if not moved:
        return spans
    return [s.with_(entity_id=moved[s.entity_id][0]) if s.entity_id in moved and _part_of_any(s, moved[s.entity_id][1]) else s
            for s in spans]


def _part_of_any(s: DetectedSpan, names: list[list[str]]) -> bool:
    """``s`` is one of the other names ``names`` or a part of one ("Kuzma" of "Nora Louise Kuzma";
    not "James Grant", whose bare "Grant" was the subject's birth name)."""
    words = name_words(s.text)
    return any(names_fit(words, name) for name in names)
