"""Entity types from the words around a span and its head noun, after the graph's checks.

Applied last (after :mod:`engine.detect.graph_types`), each rule one function of the text
around a span; a retyped span keeps the layers' type in ``retyped_from``, so the masking
decision (which reads that type) is unchanged:

- **an award, a prize, an event or an agreement**: a capitalised name of two words or more
  ending in Award, Trophy, Prize, Medal, Cross, Olympics, War, Accord(s), Championship(s),
  Games or Hall of Fame ("Victoria Cross", "Helsinki Accords", "Sri Lankan Civil War",
  "Guelph Gryphons Sports Hall of Fame") is MISC, not the organisation NER reads;
- **a team named after its place**: a place-typed name right after what a player does with
  a team ("played for", "made … appearances for", "against", "joined", "traded to",
  "represented", "moved from") is the team, an organisation ("against Scotland",
  "traded to Kenosha", "has represented Bermuda"); a name NER read as a person after
  "played for", "joined", "returned to", "researcher with" is one too ("played for Velež
  Mostar", "returned to Haka");
- **a person's other name**: a name NER read as an organisation after "known as",
  "courtesy name", "spouse of", "credited as" … is a person ("courtesy name Gongxiu");
- **a list of works**: the capitalised names of a comma list that follows a work noun in
  the same sentence ("the television series MacGyver, Married... with Children, Tales from
  the Crypt, Roseanne, Melrose Place, Profiler") are works (MISC), where a name inside a
  title ("Married... with Children", "Hamlet 2") breaks the plain list of
  :mod:`engine.detect.retype`.

Neither a DATETIME nor a QUANTITY is made here, and no span changes its boundaries.
"""

from __future__ import annotations

import re

from engine.detect.spans import DetectedSpan
from engine.types import EntityType

P, L, O, D, M = EntityType.PERSON, EntityType.LOC, EntityType.ORG, EntityType.DEM, EntityType.MISC

_AWARD_HEAD = re.compile(
    r"\s(?:Awards?|Trophy|Prize|Medal|Cross|Cup|Olympics|War|Accords?|Championships?|Games|Hall of Fame)$")
#: what a player does with a team, right before its name
_TEAM_VERBS = (r"(?:played|playing|plays|signed|appeared|appearances|debut|début|captained|goals|caps|matches|games|"
               r"season|seasons|innings)\s+(?:[\w'’]+\s+){0,3}?for")
_TEAM_BEFORE = re.compile(
    rf"\b(?:{_TEAM_VERBS}|against|joined|to join|returned to|transferred to|traded to|represented|representing|"
    r"moved from|(?:seasons?|years|spell|career) with|(?:club|side)|(?:club|team)s? such as)\s+(?:the\s+)?(?:newly promoted\s+)?$",
    re.I)
_CLUB_BEFORE = re.compile(
    rf"\b(?:{_TEAM_VERBS}|joined|returned to|transferred to|traded to|researcher with|contributor to)\s+(?:the\s+)?$", re.I)
_NAME_BEFORE = re.compile(
    r"\b(?:known as|courtesy name|spouse of|wife of|husband of|credited as|stage name|married name:?|pen name)\s+[\"'“]?"
    r"(?:[^\s,;()]+(?:\s[^\s,;()]+)?\s+or\s+[\"'“]?)?$", re.I)
_STAGE_NAME_BEFORE = re.compile(r"\b(?:stage name|pen name|credited as|married name:?)\s+[\"'“]?$", re.I)
_WORK_NOUN = re.compile(
    r"\b(?:films?|movies?|(?:television |TV )?series|sitcoms?|shows?|albums?|singles?|songs?|novels?|books?|plays|operas?)"
    r"\s+(?:such as\s+|including\s+)?$", re.I)
_SENTENCE_END = re.compile(r"[.!?]\s+[A-Z]|[;:()\n]")


def _before(text: str, s: DetectedSpan, width: int = 60) -> str:
    return text[max(0, s.start - width):s.start]


def context_type(text: str, s: DetectedSpan) -> EntityType | None:
    """The type the words around ``s`` (and its head noun) give it, or None."""
    et = s.entity_type
    words = s.text.split()
    if et in (P, L, O, D) and len(words) >= 2 and s.text[:1].isupper() and _AWARD_HEAD.search(s.text):
        return M
    before = _before(text, s)
    if et is L and _TEAM_BEFORE.search(before):
        return O
    if et is P and "coref" not in s.sources and _CLUB_BEFORE.search(before):
        return O
    if et in (O, D, M) and s.text[:1].isupper() and _NAME_BEFORE.search(before) or et is L and _STAGE_NAME_BEFORE.search(before):
        return P
    return None


def _work_list(text: str, spans: list[DetectedSpan]) -> set[int]:
    """Indices of the person- or organisation-typed names in a list of works (see the module docstring)."""
    out: set[int] = set()
    i = 0
    while i < len(spans):
        s = spans[i]
        if not _WORK_NOUN.search(_before(text, s, 40)) or not s.text[:1].isupper():
            i += 1
            continue
        run, j = [i], i + 1
        while j < len(spans):
            gap = text[spans[j - 1].end:spans[j].start]
            if len(gap) > 12 or _SENTENCE_END.search(gap) or not spans[j].text[:1].isupper():
                break
            run.append(j)
            j += 1
        if len(run) >= 4 and sum("," in text[spans[a].end:spans[b].start] for a, b in zip(run, run[1:])) >= 2:
            out.update(k for k in run if spans[k].entity_type in (P, O) and "title" not in spans[k].sources)
        i = j
    return out


def context_retype(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` with the rules of the module docstring applied."""
    works = _work_list(text, spans)
    out = []
    changed: dict[tuple[str, EntityType], EntityType] = {}
    for i, s in enumerate(spans):
        new = M if i in works else context_type(text, s)
        if new is not None and new is not s.entity_type:
            changed.setdefault((s.text, s.entity_type), new)
            s = s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
        out.append(s)
    # one text, one type: the other person-typed mentions of a retyped name follow it ("Haka won the league")
    for i, s in enumerate(out):
        new = changed.get((s.text, s.entity_type))
        if new is not None and s.entity_type is P and "coref" not in s.sources:
            out[i] = s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
    return out
