"""PERSON spans → "PERSON n", numbered per document in order of first mention.

Mentions of one person share the number: the same ``entity_id`` first; otherwise name
matching — the same name, a name whose tokens are a subset of a known one ("Lewis",
"Percy Lewis" after "Percy Parke Lewis"), but never two names that differ in their
first names ("Théodolinde de Beauharnais" and "Joséphine de Beauharnais" are two people),
nor through a surname alone that already stands for another full name ("Mehmet Karabulut"
is not the "Karabulut" that stood for "Ayşe Nurhan Karabulut").
"""

from __future__ import annotations

import heapq
import re
import unicodedata

from engine.generate.sources.base import CandidateSource, DocumentState, SourceResult
from engine.knowledge import words
from engine.types import Candidate, Span

_TITLES = words("persons.name_titles")
_PARTICLES = words("persons.name_particles")


def name_tokens(name: str) -> list[str]:
    """Lower-cased, accent-folded name tokens without titles or possessives."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = re.sub(r"['’]s\b", "", text)
    tokens = [t.strip("-") for t in re.split(r"[^\w-]+", text) if t.strip("-")]  # "roussel-adjovi" is one name
    return [t for t in tokens if t not in _TITLES]


def same_person(a: list[str], b: list[str]) -> bool:
    """Whether two token lists can name the same person (see module docstring)."""
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if not set(short) <= set(long_):
        return False
    # the first given name must agree when both names have one
    core_short = [t for t in short if t not in _PARTICLES]
    core_long = [t for t in long_ if t not in _PARTICLES]
    if len(core_short) >= 2 and core_short[0] != core_long[0]:
        return False
    return True


def person_number(state: DocumentState, text: str, entity_id: str | None) -> int:
    """The document-level number of the person named ``text`` (new numbers count up)."""
    if entity_id is not None and entity_id in state.entity_numbers:
        return state.entity_numbers[entity_id]
    tokens = name_tokens(text)
    number = None
    # a name matching this one shares a token with it (one's tokens are a subset of the
    # other's): the most recent such name, as a scan of every known name would find
    lists = [reversed(state.person_tokens[t]) for t in set(tokens) if t in state.person_tokens]
    last = -1
    for i in heapq.merge(*lists, reverse=True):  # most recent first, lazily
        if i == last:
            continue
        last = i
        known_id, known_tokens, known_number = state.persons[i]
        if entity_id is not None and known_id is not None and known_id != entity_id:
            continue
        if same_person(tokens, known_tokens) and all(
                same_person(tokens, list(other)) for other in state.names_of_number.get(known_number, ()) if len(other) > len(known_tokens)):
            # "Karabulut" alone is PERSON 1, "Ayşe Nurhan Karabulut": "Mehmet Karabulut" is another person
            number = known_number
            break
    if number is None:
        number = 1 + state.top_person
    state.top_person = max(state.top_person, number)
    for t in set(tokens):
        state.person_tokens.setdefault(t, []).append(len(state.persons))
    state.persons.append((entity_id, tokens, number))
    state.names_of_number.setdefault(number, set()).add(tuple(tokens))
    if entity_id is not None:
        state.entity_numbers[entity_id] = number
    return number


class PersonSource(CandidateSource):
    """PERSON → ["PERSON n"]."""

    name = "person"

    def generate(self, span: Span, state: DocumentState) -> SourceResult:
        n = person_number(state, span.text, span.entity_id)
        return SourceResult([Candidate(f"PERSON {n}", source=self.name, rule="person-number")])
