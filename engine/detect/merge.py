"""Merging the spans of the three layers into one non-overlapping list.

Overlapping spans are grouped (transitively). A group becomes one span over the union of
its members' characters (so "15 November 2013" wins over "November 2013" and "Nigerian
government" over "Nigerian"); its type is the longest member's (ties: NER, then rules,
then the gazetteer); it keeps every member's source and the gazetteer kind and items of
its members. A position from the gazetteer followed by "of (the) <Name>" takes the name
in ("President of Cyprus", "Speaker of the Parliament of Ghana"). No span runs over a line
break: a layer's span that does is split into its lines' parts first.
"""

from __future__ import annotations

import re

from engine.detect.spans import DetectedSpan
from engine.detect.syntax import COMPOUND, PROPN
from engine.knowledge import pattern, rule
from engine.types import EntityType

#: a sentence end written without a space ("… in 1958.Forbes was born …", "1913.She")
_GLUED_SENTENCE = re.compile(r"(?:(?<=[a-z0-9)])|(?<=[A-Z]{2}))\.(?=[A-Z][a-z])")  # "1958.Forbes", "LTTE.He"
_PRIORITY = {"ner": 0, "rule": 1, "title": 1, "coref": 2, "gazetteer": 3, "syntax": 4}
#: "of (the) <Name>" after a position ("President of Cyprus")
_OF_NAME = pattern("detect_grammar.of_name")
#: the text of a span on one line, without the blanks around it
_LINE_PART = re.compile(r"[^\s](?:[^\n]*[^\s])?")


def _rank(span: DetectedSpan) -> tuple[int, int, int]:
    return (-(span.end - span.start), min(_PRIORITY.get(s, 9) for s in span.sources), span.start)


def cut_at_sentence_glue(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """Spans that ran over a sentence end written without a space, cut before its period
    (NER reads "1958.Forbes" as one date; masking it would take the next sentence's subject;
    also after an acronym, "LTTE.He"), and without an unmatched closing bracket ("NDA)")."""
    out = []
    for s in spans:
        m = _GLUED_SENTENCE.search(text, s.start, s.end)
        if m is not None:
            if not text[s.start:m.start()].strip():
                continue
            s = s.with_(end=m.start(), text=text[s.start:m.start()])
        if s.text.endswith(")") and s.text.count(")") > s.text.count("(") and len(s.text) > 1:
            s = s.with_(end=s.end - 1, text=s.text[:-1])  # "(NDA).The": the bracket closes the sentence, not the name
        s = span_ends_before_a_dash(text, s)
        out.append(s)
    return out


_TRAILING_DASH = re.compile(r"\s*[–—-]+\s*$")


@rule("span-ends-before-a-dash", stage="detect", types=(), pack="core", off=None,
      purpose='a span ends before a dash it ran onto ("(29 April 1948 – 17 November 2001)": the first date is "29 April 1948", the dash joins the two)')
def _without_trailing_dash(text: str, s: DetectedSpan) -> DetectedSpan | None:
    """``s`` cut before a dash (and the spaces around it) that ends it, or None when none does."""
    m = _TRAILING_DASH.search(s.text)
    if m is None or m.start() == 0:
        return None
    return s.with_(end=s.start + m.start(), text=s.text[:m.start()])


def span_ends_before_a_dash(text: str, s: DetectedSpan) -> DetectedSpan:
    """``s`` without a dash that ends it (:func:`_without_trailing_dash`)."""
    return _without_trailing_dash(text, s) or s


@rule("name-within-its-line", stage="detect", types=(), pack="core", off=None,
      purpose="a span never runs over a line break: a signature's name and the department on the next line are two spans")
def _line_parts(text: str, s: DetectedSpan) -> list[DetectedSpan] | None:
    """The parts of ``s`` on each of its lines, or None when it holds no line break."""
    if "\n" not in s.text:
        return None
    parts = []
    for m in _LINE_PART.finditer(s.text):
        a, b = s.start + m.start(), s.start + m.end()
        parts.append(s.with_(start=a, end=b, text=text[a:b]))
    return parts


def cut_at_line_breaks(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """Spans split where they run over a line break (:func:`_line_parts`)."""
    out = []
    for s in spans:
        parts = _line_parts(text, s)
        out.extend([s] if parts is None else parts)
    return out


def merge_spans(text: str, *layers: list[DetectedSpan]) -> list[DetectedSpan]:
    """One list of non-overlapping spans from several layers (see the module docstring)."""
    layers = tuple(cut_at_line_breaks(text, cut_at_sentence_glue(text, layer)) for layer in layers)
    typed = [s for layer in layers for s in layer if "syntax" not in s.sources]
    parsed = [s for layer in layers for s in layer if "syntax" in s.sources]
    # a parse span that would glue two spans of the other layers together is dropped
    parsed = [p for p in parsed if _may_glue(p, [t for t in typed if t.start < p.end and p.start < t.end])]
    spans = sorted(typed + parsed, key=lambda s: (s.start, -s.end))
    groups: list[list[DetectedSpan]] = []
    end = -1
    for s in spans:
        if groups and s.start < end:
            groups[-1].append(s)
            end = max(end, s.end)
        else:
            groups.append([s])
            end = s.end
    out = [_combine(text, g) for g in groups]
    return _ages_with_their_numbers(text, _extend_positions(text, out))


def _may_glue(parsed: DetectedSpan, typed: list[DetectedSpan]) -> bool:
    """Whether a parse span may join the typed spans it overlaps into one.

    A noun phrase or quoted title never glues two spans; a proper-noun run ("Tales from the
    Crypt", "LXI Legislature of the Mexican Congress") may, unless it would join two
    persons or swallow a date or code.
    """
    if len(typed) < 2:
        return True
    if parsed.ner_label == COMPOUND:
        return True
    if parsed.ner_label != PROPN:
        return False
    if any(t.entity_type in (EntityType.DATETIME, EntityType.CODE) for t in typed):
        return False
    return len({(t.start, t.end) for t in typed if t.entity_type is EntityType.PERSON}) < 2


def _combine(text: str, group: list[DetectedSpan]) -> DetectedSpan:
    if len(group) == 1:
        return group[0]
    typed = [s for s in group if s.sources != frozenset({"syntax"})]
    best = min(typed or group, key=_rank)
    if any(s.ner_label == COMPOUND for s in group):  # "tennis coach": the head noun's type
        end_ = max(s.end for s in group)
        best = next((s for s in typed if s.end == end_ and s.gaz_kind), best)
    start, end = min(s.start for s in group), max(s.end for s in group)
    sources = frozenset().union(*(s.sources for s in group))
    gaz = [s for s in group if s.gaz_kind]
    gaz_best = max(gaz, key=lambda s: s.end - s.start) if gaz else None
    if best.gaz_kind and any(s.ner_label == COMPOUND for s in group):
        gaz_best = best  # "tennis coach": the role's kind, not the longer modifier's
    ner = [s for s in group if "ner" in s.sources and s.ner_label]
    inner = tuple(sorted({f"{s.entity_type.value}:{s.gaz_kind or s.ner_label or ''}" for s in group if s is not best}))
    return DetectedSpan(
        start, end, text[start:end], best.entity_type, sources,
        ner_label=best.ner_label or (ner[0].ner_label if ner else None),
        gaz_kind=gaz_best.gaz_kind if gaz_best else None,
        items=gaz_best.items if gaz_best else (),
        inner=inner,
    )


def _extend_positions(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    out: list[DetectedSpan] = []
    i = 0
    while i < len(spans):
        s = spans[i]
        if s.gaz_kind == "position":
            m = _OF_NAME.match(text, s.end)
            if m:
                end = m.end()
                j = i + 1
                while j < len(spans) and spans[j].start < end:
                    end = max(end, spans[j].end)
                    j += 1
                out.append(s.with_(end=end, text=text[s.start:end], inner=s.inner + tuple(f"{x.entity_type.value}:of" for x in spans[i + 1:j])))
                i = j
                continue
        out.append(s)
        i += 1
    return out


#: A span of age words alone ("age of", "the age of", "aged"), ``detect_dates.age_words``.
_AGE_WORDS = pattern("detect_dates.age_words")


@rule("age-words-take-their-number", stage="detect", types=("DATETIME",), pack="core", off=None,
      purpose='a date span of age words alone ("age of") followed by a number is one age with it ("at the age of 17": one DATETIME span "age of 17", not "age of" and "17")')
def _age_with_number(text: str, words_span: DetectedSpan, number: DetectedSpan) -> DetectedSpan | None:
    """``words_span`` and ``number`` as one DATETIME span, or None when ``words_span`` is no
    span of age words or ``number`` does not follow it after blanks."""
    if words_span.entity_type is not EntityType.DATETIME or not _AGE_WORDS.fullmatch(words_span.text) \
            or number.entity_type not in (EntityType.QUANTITY, EntityType.DATETIME) or text[words_span.end:number.start].strip():
        return None
    return words_span.with_(end=number.end, text=text[words_span.start:number.end], sources=words_span.sources | number.sources,
                            inner=words_span.inner + (f"{number.entity_type.value}:age",))


def _ages_with_their_numbers(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    out: list[DetectedSpan] = []
    i = 0
    while i < len(spans):
        joined = _age_with_number(text, spans[i], spans[i + 1]) if i + 1 < len(spans) else None
        out.append(joined or spans[i])
        i += 2 if joined else 1
    return out

