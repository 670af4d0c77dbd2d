"""Features of one candidate span for the masking decision (:mod:`engine.detect.decide`).

Groups: the span's type and evidence (entity type, NER label or rule, gazetteer kind,
which layers found it, how many store items its text names and how general the first one
is), its form (length, capitals, digits, date parts), its place (relative position,
sentence index, sentence start), its document (how often its text and its entity occur,
first mention or not; whether it is a court judgment, :func:`engine.detect.legal.is_court_judgment`),
its relation to the subject (the person the biography is about, the first person; an
attribute of a person — "worked as a", "the applicant, who is a", "diagnosed with"; a
nationality held — "a Turkish national"), and its syntax (spaCy POS/dependency of its head,
the words before).

The vocabularies of the categorical features and the cue patterns are entries of
``packs/core/detect_features.yaml``: the trained decider codes a value by its place in its
list, so those lists keep their order.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Mapping

from engine.detect.gazetteer import KINDS
from engine.detect.legal import is_court_judgment
from engine.detect.ner import LABEL_MAP
from engine.detect.spans import DetectedSpan
from engine.detect.syntax import SYNTAX_KINDS
from engine.knowledge import Words, pattern, words
from engine.types import EntityType

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

ETYPES = tuple(t.value for t in EntityType)
#: the kinds of the rule layer's spans (:mod:`engine.detect.rules`: ``datetime0`` …) and of the parse's (:mod:`engine.detect.syntax`)
RULE_LABELS = tuple(f"{t.value.lower()}{i}" for t in (EntityType.DATETIME, EntityType.QUANTITY, EntityType.CODE) for i in range(8))
NER_LABELS = tuple(LABEL_MAP) + RULE_LABELS + SYNTAX_KINDS
#: vocabularies read from the core pack (``packs/core/detect_features.yaml``); the decider codes a value by its place in them
POS = words("detect_features.pos_tags")
DEPS = words("detect_features.dependencies")
PREV_WORDS = words("detect_features.previous_words")
SOURCES = ("ner", "gazetteer", "rule", "coref", "title", "syntax")
_MONTH = pattern("detect_dates.month_word")
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_DESCRIPTION = pattern("detect_features.subject_description")
_LIST_AFTER = pattern("detect_features.list_after")
_LIST_BEFORE = pattern("detect_features.list_before")
_ROLE_AFTER = pattern("detect_features.role_after")
_BIRTH_WORDS = words("detect_features.birth_words")
_ATTRIBUTE_BEFORE = pattern("detect_features.attribute_before")
_NATIONAL_AFTER = pattern("detect_features.national_after")
_DAYNUM = re.compile(r"\b([12][0-9]|3[01]|0?[1-9])(st|nd|rd|th)?\b")

CATEGORICAL = {"etype": ETYPES, "ner_label": NER_LABELS, "gaz_kind": KINDS, "root_pos": POS, "root_dep": DEPS,
               "prev_pos": POS, "next_pos": POS, "prev_word": PREV_WORDS}
NUMERIC = (
    "src_ner", "src_gazetteer", "src_rule", "src_coref", "src_title", "src_syntax", "n_sources", "n_items", "item_degree",
    "len_chars", "n_words", "cap_first", "all_upper", "all_lower", "has_digit", "all_digits", "cap_ratio",
    "sent_start", "rel_pos", "sent_index", "first_sentence", "freq_text", "freq_entity", "first_of_entity",
    "is_subject", "person_rank", "inner_n", "inner_dem", "inner_loc", "inner_org", "has_year", "has_month", "has_day",
    "doc_len", "doc_spans", "doc_persons", "in_parens", "after_born",
    "next_is_person", "prev_is_person", "subject_description", "in_role_list", "nationality_role",
    "court_document", "attribute_cue", "national_after",
)
FEATURES = tuple(CATEGORICAL) + NUMERIC


def _code(value: str | None, vocab: "tuple[str, ...] | Words") -> int:
    """Index in ``vocab`` (a pack's word list: in its order); ``len(vocab)`` for an unknown value, ``len(vocab) + 1`` for none."""
    values = vocab.in_order() if isinstance(vocab, Words) else vocab
    if value is None:
        return len(values) + 1
    try:
        return values.index(value)
    except ValueError:
        return len(values)


def span_features(text: str, doc: "Doc", spans: list[DetectedSpan], degree: Mapping[str, int] | None = None) -> list[list[float]]:
    """One feature row per span, in :data:`FEATURES` order (categoricals as integer codes).

    A span retyped by :mod:`engine.detect.retype` is described by the type the layers gave
    it: the decider learned from that evidence, and the retype only picks the ladder.
    """
    degree = degree or {}
    spans = [s.with_(entity_type=s.retyped_from) if s.retyped_from is not None else s for s in spans]
    sents = [(s.start_char, s.end_char) for s in doc.sents] or [(0, len(text))]
    texts = Counter(s.text.casefold() for s in spans)
    entities = Counter(s.entity_id for s in spans)
    seen: set[str | None] = set()
    persons = [s.entity_id for s in spans if s.entity_type is EntityType.PERSON]
    person_order = list(dict.fromkeys(persons))
    rows = []
    first_end = sents[0][1]
    desc = _DESCRIPTION.search(text, 0, first_end)
    court = float(is_court_judgment(text))
    for idx, s in enumerate(spans):
        nxt_span = spans[idx + 1] if idx + 1 < len(spans) else None
        prv_span = spans[idx - 1] if idx > 0 else None
        after = text[s.end:s.end + 40]
        si = next((i for i, (a, b) in enumerate(sents) if a <= s.start < b), len(sents) - 1)
        root = doc.char_span(s.start, s.end, alignment_mode="expand")
        head = root.root if root is not None and len(root) else None
        first_tok = root[0] if root is not None and len(root) else None
        prev_tok = doc[first_tok.i - 1] if first_tok is not None and first_tok.i > 0 else None
        next_tok = doc[root[-1].i + 1] if root is not None and len(root) and root[-1].i + 1 < len(doc) else None
        words = s.text.split()
        letters = [c for c in s.text if c.isalpha()]
        caps = [w for w in words if w[:1].isupper()]
        before = text[max(0, s.start - 25):s.start].lower()
        cat = {
            "etype": _code(s.entity_type.value, ETYPES),
            "ner_label": _code(s.ner_label, NER_LABELS),
            "gaz_kind": _code(s.gaz_kind, KINDS),
            "root_pos": _code(head.pos_ if head is not None else None, POS),
            "root_dep": _code(head.dep_ if head is not None else None, DEPS),
            "prev_pos": _code(prev_tok.pos_ if prev_tok is not None else None, POS),
            "next_pos": _code(next_tok.pos_ if next_tok is not None else None, POS),
            "prev_word": _code(prev_tok.lower_ if prev_tok is not None else None, PREV_WORDS),
        }
        inner = " ".join(s.inner)
        num = {
            **{f"src_{k}": float(k in s.sources) for k in SOURCES},
            "n_sources": float(len(s.sources)),
            "n_items": float(len(s.items)),
            "item_degree": float(degree.get(s.items[0], 0)) if s.items else -1.0,
            "len_chars": float(len(s.text)),
            "n_words": float(len(words)),
            "cap_first": float(s.text[:1].isupper()),
            "all_upper": float(bool(letters) and all(c.isupper() for c in letters)),
            "all_lower": float(bool(letters) and all(c.islower() for c in letters)),
            "has_digit": float(any(c.isdigit() for c in s.text)),
            "all_digits": float(s.text.replace(",", "").replace(".", "").isdigit()),
            "cap_ratio": len(caps) / max(1, len(words)),
            "sent_start": float(s.start == sents[si][0]),
            "rel_pos": s.start / max(1, len(text)),
            "sent_index": float(si),
            "first_sentence": float(si == 0),
            "freq_text": float(texts[s.text.casefold()]),
            "freq_entity": float(entities[s.entity_id]),
            "first_of_entity": float(s.entity_id not in seen),
            "is_subject": float(bool(person_order) and s.entity_id == person_order[0] and person_order[0] == "person-1"),
            "person_rank": float(person_order.index(s.entity_id) + 1) if s.entity_id in person_order else -1.0,
            "inner_n": float(len(s.inner)),
            "inner_dem": float("DEM:" in inner),
            "inner_loc": float("LOC:" in inner),
            "inner_org": float("ORG:" in inner),
            "has_year": float(bool(_YEAR.search(s.text))),
            "has_month": float(bool(_MONTH.search(s.text))),
            "has_day": float(bool(_MONTH.search(s.text)) and bool(_DAYNUM.search(_YEAR.sub("", s.text)))),
            "doc_len": float(len(text)),
            "doc_spans": float(len(spans)),
            "doc_persons": float(len(person_order)),
            "in_parens": float(text[:s.start].count("(") > text[:s.start].count(")")),
            "after_born": float(any(w in before for w in _BIRTH_WORDS)),
            # "Soviet defender Eduard Dubinsky", "British actor Charles Quartermaine": a role of another person
            "next_is_person": float(nxt_span is not None and nxt_span.entity_type is EntityType.PERSON
                                    and nxt_span.start - s.end <= 2 and s.entity_type is not EntityType.PERSON),
            "prev_is_person": float(prv_span is not None and prv_span.entity_type is EntityType.PERSON
                                    and 0 <= s.start - prv_span.end <= 3),
            # the subject's description in the opening sentence: "… is a Serbian artist, fashion photographer …"
            "subject_description": float(desc is not None and desc.end() <= s.start < first_end),
            "in_role_list": float(bool(_LIST_AFTER.match(after)) or bool(_LIST_BEFORE.search(before))),
            "nationality_role": float(s.gaz_kind == "nationality" and bool(_ROLE_AFTER.match(after))),
            "court_document": court,
            # "The applicant is a university professor", "worked as a ballet dancer", "diagnosed with …"
            "attribute_cue": float(_ATTRIBUTE_BEFORE.search(text, max(sents[si][0], s.start - 60), s.start) is not None),
            "national_after": float(_NATIONAL_AFTER.match(text, s.end) is not None),
        }
        seen.add(s.entity_id)
        rows.append([float(cat[k]) for k in CATEGORICAL] + [num[k] for k in NUMERIC])
    return rows
