"""What the layout of a dialogue, an e-mail or a note says about its candidate spans.

Applied before the persons are linked; each rule one function of the text around a span:

- **a line's label**: a label that opens a line before a colon ("Agent:", "Customer:",
  "Subject:", "History:") is a speaker's role or a heading when its words are a role
  (``detect_dialogue.speaker_roles``) or a heading (``detect_dialogue.field_labels``, which a
  domain pack extends): no span is left in it, and it stays as written. Any other label
  that opens two lines or more is a speaker's name ("Maja:" … "Maja:"), one person span,
  unless NER read it as a body or a place;
- **a greeting's name**: a span that starts with a greeting ("Hi Tom", "Dear Ms Berg",
  "Thanks, Anna") loses the greeting, which stays as written; the capitalised name after a
  greeting is a person's, unless it is a role ("Dear Customer": no span), and so is the
  same name written elsewhere ("My name is Eskil." … "Hi Eskil");
- **courtesy words**: a span that is only a greeting, thanks, an apology or assent
  ("Sorry", "Thanks", "Best regards"), or a word of a greeting that opens a clause ("Good"
  of "Good morning"), names no one: no span; and a document that opens with
  one ("Dear Customer,", "Thanks, Anna") does not open with its subject's name (the
  biography's rule of :mod:`engine.detect.coref.persons`).

The words are entries of ``packs/core/detect_dialogue.yaml``; a domain pack adds its headings
(``packs/clinical/detect_dialogue.yaml``).
"""

from __future__ import annotations

import re
from collections import Counter

from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule, words
from engine.types import EntityType

_LINE_LABEL = pattern("detect_dialogue.line_label")
_ROLES = words("detect_dialogue.speaker_roles")
_FIELDS = words("detect_dialogue.field_labels")
_GREETINGS = words("detect_dialogue.greetings")
_COURTESY = words("detect_dialogue.courtesy_words")
#: a greeting opening a clause ("Good morning", "Hi")
_GREETING_OPENING = pattern("detect_dialogue.greeting_opening")
_EDGE = " \t,.;:!?-–—"
#: the types a greeted name may have been given (a name NER read as a place: "Hi Eskil")
_NAME_TYPES = (EntityType.PERSON, EntityType.MISC, EntityType.DEM, EntityType.ORG, EntityType.LOC)
_CLAUSE_END = re.compile(r"[:.!?;()\[\]\n]")


def _folded(text: str) -> str:
    return " ".join(text.replace("’", "'").casefold().strip(_EDGE).split())


def _role_words(label: str) -> bool:
    """``label`` is a role or a heading, or every word of it is one ("Support Agent")."""
    folded = _folded(label)
    roles, fields = _ROLES.get(), _FIELDS.get()
    return folded in roles or folded in fields or all(w in roles or w in fields for w in folded.split())


def _labels(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(1), m.end(1), _folded(m.group(1))) for m in _LINE_LABEL.finditer(text)]


@rule("line-label-is-no-name", stage="detect", types=(EntityType.PERSON, EntityType.DEM, EntityType.MISC), pack="core", off=[],
      purpose="a label opening a line before a colon whose words are a role or a heading ('Agent:', 'Customer:', 'Subject:') is no name: no span, kept as written")
def role_labels(text: str) -> list[tuple[int, int]]:
    """(start, end) of the line labels that are roles or headings (see the module docstring)."""
    return [(a, b) for a, b, folded in _labels(text) if _role_words(folded)]


@rule("speaker-name-is-a-person", stage="detect", types=("PERSON",), pack="core", off=[],
      purpose="a label opening two lines or more of a dialogue that is no role or heading is a speaker's name, a person ('Maja:' … 'Maja:')")
def speaker_names(text: str, spans: list[DetectedSpan]) -> list[tuple[int, int]]:
    """(start, end) of the line labels that name a speaker (see the module docstring)."""
    labels = [(a, b, folded) for a, b, folded in _labels(text) if not _role_words(folded)]
    lines = Counter(folded for _, _, folded in labels)
    out = []
    for a, b, folded in labels:
        named = [s for s in spans if s.start < b and a < s.end]
        if lines[folded] < 2 or not all(w[:1].isupper() or w[:1].isdigit() for w in text[a:b].split()):
            continue
        if any("ner" in s.sources and s.entity_type in (EntityType.ORG, EntityType.LOC) for s in named):
            continue  # a body speaking ("Nordlys Broadband:"), a place
        out.append((a, b))
    return out


def _greeting_end(text: str, s: DetectedSpan, before: str) -> int | None:
    """Where the name begins in a span that opens its clause with a greeting ("Hi Tom" → at
    "Tom"), or None."""
    if _clause(before).strip():
        return None
    words = s.text.split()
    for n in (2, 1):
        if len(words) > n and _folded(" ".join(words[:n])) in _GREETINGS.get():
            m = re.match(r"\s*(?:\S+\s+){%d}" % n, s.text)
            rest = m.end() if m else 0
            while rest < len(s.text) and s.text[rest] in _EDGE:
                rest += 1
            return s.start + rest if rest < len(s.text) else None
    return None


@rule("greeting-keeps-its-word", stage="detect", types=("PERSON",), pack="core", off=None,
      purpose="a span opening with a greeting ('Hi Tom', 'Dear Ms Berg') keeps the greeting out; the name greeted is a person's, a role ('Dear Customer') none")
def greeted_name(text: str, s: DetectedSpan, before: str) -> list[DetectedSpan] | None:
    """The spans that stand for ``s`` when it is greeted (none: a role or a courtesy word; the
    name, a person), or None when no greeting opens it or comes before it. ``before``: the
    text of its line before it."""
    start = _greeting_end(text, s, before)
    if start is not None:
        s = s.with_(start=start, text=text[start:s.end])
    elif not _greeting_before(before):
        return None
    if _role_words(s.text) or _folded(s.text) in _COURTESY.get():
        return []
    if all(w[:1].isupper() for w in s.text.split()) and len(s.text.split()) <= 3 \
            and s.entity_type in _NAME_TYPES:
        return [s.with_(entity_type=EntityType.PERSON)]  # the greeting is the evidence the decider reads
    return [s]


def _clause(before: str) -> str:
    """The clause the text ``before`` a span ends with (after a colon or a sentence's end)."""
    return _CLAUSE_END.split(before)[-1]


def _greeting_before(before: str) -> bool:
    """The clause so far is a greeting ("Hi ", "Dear ", "Customer: Thanks, ")."""
    clause = _clause(before)
    return bool(clause.strip()) and _folded(clause) in _GREETINGS.get()


@rule("courtesy-word-names-no-one", stage="detect", types=(), pack="core", off=False,
      purpose="a span that is only a greeting, thanks, an apology or assent ('Sorry', 'Thanks', 'Best regards'), or a word of a greeting ('Good' of 'Good morning'), names no one: no span")
def courtesy_only(text: str, s: DetectedSpan, greetings: list[tuple[int, int]]) -> bool:
    if any(a <= s.start and s.end <= b for a, b in greetings):
        return True
    quoted = text[s.start - 1:s.start] in ("\"", "“", "'", "‘")  # a work's title: "Sorry"
    named = "ner" in s.sources and s.entity_type in (EntityType.LOC, EntityType.ORG)  # "Tulsa, OK"
    return not quoted and not named and _folded(s.text) in _COURTESY.get()


@rule("greeting-opens-no-subject", stage="detect", types=("PERSON",), pack="core", off=False,
      purpose="a document opening with a greeting or a courtesy word ('Dear Customer,', 'Thanks,') does not open with its subject's name")
def opens_with_courtesy(opening: str) -> bool:
    """``opening``, the run of capitalised words a document opens with, starts with a greeting
    or a courtesy word."""
    words_ = _folded(opening).split()
    return any(" ".join(words_[:n]) in _COURTESY.get() for n in (1, 2, 3) if len(words_) >= n)


def dialogue_retype(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """``spans`` with the rules of the module docstring applied."""
    labels = role_labels(text)
    speakers = speaker_names(text, spans)
    greetings = [m.span(1) for m in _GREETING_OPENING.finditer(text)]
    whole = {(s.start, s.end): s for s in spans}
    out = [whole[(a, b)].with_(entity_type=EntityType.PERSON) if (a, b) in whole
           else DetectedSpan(a, b, text[a:b], EntityType.PERSON, frozenset({"coref"})) for a, b in speakers]
    for s in spans:
        if any(a <= s.start and s.end <= b for a, b in labels):
            continue
        if any(s.start < b and a < s.end for a, b in speakers):
            continue  # the speaker's name stands for it
        if courtesy_only(text, s, greetings):
            continue
        line_start = text.rfind("\n", 0, s.start) + 1
        greeted = greeted_name(text, s, text[line_start:s.start])
        out.extend([s] if greeted is None else greeted)
    # the name greeted is a person's wherever else it is written ("My name is Eskil." … "Hi Eskil")
    names = {s.text for s in out if s.entity_type is EntityType.PERSON and s not in spans}
    return sorted((s.with_(entity_type=EntityType.PERSON) if s.text in names and s.entity_type in _NAME_TYPES else s
                   for s in out), key=lambda s: (s.start, -s.end))
