"""TAB's own measures of masked spans (Pilán et al. 2022; ``evaluation.py`` of
NorskRegnesentral/text-anonymization-benchmark), computed as that script computes them.

- **Entities**: the mentions of one ``entity_id``. An entity *needs masking* when any of its
  mentions is DIRECT or QUASI; it is a **direct** identifier when its first mention is
  DIRECT; its type is its first mention's.
- A **mention is masked** when every one of its characters is masked, not counting the
  tokens of the parse whose part of speech is ADP, PART, CCONJ or DET or whose lower-case
  form is "mr", "mrs", "ms", "no", "nr" or "about", nor spaces and the punctuation of
  :data:`IGNORED_CHARACTERS`.
- **Entity-level recall** (DIRECT, QUASI, both): the share of the entities needing masking
  whose mentions needing masking are all masked.
- **Mention-level** and **token-level recall**: over every mention of those entities
  (tokens: ``\\w+`` runs of a mention), the share masked.
- **Token-level precision**: the masked spans cut into ``\\w+`` tokens; a token counts when
  a DIRECT or QUASI mention covers it whole. **Mention-level precision**: the same for whole
  masked spans.

One annotator per document (the first), so the script's micro-average over annotators is
that annotator's figure. The part of speech is read from the detector's own spaCy parse of
the text (the script loads ``en_core_web_md``; the small model's tags differ on a few
tokens).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.types import IdentifierType

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

    from engine.io.wikireplace import WRMention

#: Parts of speech whose tokens a mention may leave unmasked.
IGNORED_POS = frozenset({"ADP", "PART", "CCONJ", "DET"})
#: Tokens a mention may leave unmasked (lower case).
IGNORED_TOKENS = frozenset({"mr", "mrs", "ms", "no", "nr", "about"})
#: Characters a mention may leave unmasked.
IGNORED_CHARACTERS = frozenset(" ,.-;:/&()[]–'\" ’“”")
_TOKEN = re.compile(r"\w+")
MASKED = (IdentifierType.DIRECT, IdentifierType.QUASI)


@dataclass
class Entity:
    """The mentions of one annotated entity, in the annotation's order."""

    entity_id: str
    entity_type: str
    direct: bool
    mentions: list[tuple[int, int]] = field(default_factory=list)
    to_mask: list[bool] = field(default_factory=list)

    @property
    def needs_masking(self) -> bool:
        return any(self.to_mask)


def entities(mentions: Iterable["WRMention"]) -> list[Entity]:
    """The entities of one document's annotation (see the module docstring)."""
    out: dict[str, Entity] = {}
    for k, m in enumerate(mentions):
        key = m.entity_id or f"mention-{k}"
        e = out.get(key)
        if e is None:
            e = out[key] = Entity(key, m.entity_type.value, m.identifier_type is IdentifierType.DIRECT)
        e.mentions.append((m.start, m.end))
        e.to_mask.append(m.identifier_type in MASKED)
    return list(out.values())


class MaskedText:
    """One document: its text, its parse, its annotated entities and the spans a system masks."""

    def __init__(self, text: str, parse: "Doc | None", annotated: Sequence[Entity], masked: Iterable[tuple[int, int]]) -> None:
        self.text = text
        self.parse = parse
        self.entities = list(annotated)
        self.spans = [(s, e) for s, e in masked]
        self.offsets = {i for s, e in self.spans for i in range(s, e)}
        self.gold_spans = [(s, e) for ent in self.entities for (s, e), m in zip(ent.mentions, ent.to_mask) if m]

    def mention_masked(self, start: int, end: int) -> bool:
        """Every character of ``text[start:end]`` is masked, but for the ones TAB ignores."""
        left = set(range(start, end)) - self.offsets
        if left and self.parse is not None:
            span = self.parse.char_span(start, end, alignment_mode="expand")
            for tok in span if span is not None else ():
                if tok.pos_ in IGNORED_POS or tok.lower_ in IGNORED_TOKENS:
                    left -= set(range(tok.idx, tok.idx + len(tok)))
        return not {i for i in left if self.text[i] not in IGNORED_CHARACTERS}

    def entity_masked(self, entity: Entity) -> bool:
        return all(self.mention_masked(s, e) for (s, e), m in zip(entity.mentions, entity.to_mask) if m)

    def tokens(self, start: int, end: int) -> list[tuple[int, int]]:
        return [(start + t.start(), start + t.end()) for t in _TOKEN.finditer(self.text[start:end])]

    def covered(self, start: int, end: int) -> bool:
        """A mention to mask covers ``[start, end)`` whole."""
        return any(s <= start and e >= end for s, e in self.gold_spans)


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 4) if b else None


def tab_measures(docs: Sequence[MaskedText]) -> dict:
    """Recall (entity, mention, token level; per identifier type and entity type) and precision
    (token and mention level) of the masked spans of ``docs``, as TAB's script counts them."""
    ent = defaultdict(lambda: [0, 0])  # key -> [masked, total]
    mention = [0, 0]
    token = [0, 0]
    token_by_type = defaultdict(lambda: [0, 0])
    prec_token = [0, 0]
    prec_mention = [0, 0]
    for d in docs:
        for e in d.entities:
            if not e.needs_masking:
                continue
            ok = d.entity_masked(e)
            for key in ("ALL", "DIRECT" if e.direct else "QUASI", f"ALL:{e.entity_type}"):
                ent[key][0] += ok
                ent[key][1] += 1
            for s, t in e.mentions:
                mention[0] += d.mention_masked(s, t)
                mention[1] += 1
                for a, b in d.tokens(s, t):
                    hit = d.mention_masked(a, b)
                    token[0] += hit
                    token[1] += 1
                    token_by_type[e.entity_type][0] += hit
                    token_by_type[e.entity_type][1] += 1
        for s, t in d.spans:
            for a, b in d.tokens(s, t):
                prec_token[0] += d.covered(a, b)
                prec_token[1] += 1
            prec_mention[0] += d.covered(s, t)
            prec_mention[1] += 1
    p, r = _ratio(*prec_token), _ratio(*token)
    return {
        "entity_recall": _ratio(*ent["ALL"]), "entity_recall_direct": _ratio(*ent["DIRECT"]),
        "entity_recall_quasi": _ratio(*ent["QUASI"]), "mention_recall": _ratio(*mention), "token_recall": r,
        "token_precision": p, "mention_precision": _ratio(*prec_mention),
        "token_f1": round(2 * p * r / (p + r), 4) if p and r else None,
        "entities": {k: {"entities": v[1], "recall": _ratio(*v)} for k, v in sorted(ent.items())},
        "token_recall_by_type": {k: _ratio(*v) for k, v in sorted(token_by_type.items())},
        "masked_tokens": prec_token[1],
    }
