"""WikiReplace mentions as ranking items, following the protocol of EVALUATION.md."""

from __future__ import annotations

from dataclasses import dataclass

from engine.select.features import DocumentFacts, RankCandidate, RankItem
from engine.types import MASK
from engine.io.wikireplace import WRDocument, WRMention
from engine.text.sentences import sentence_bounds


@dataclass(frozen=True, slots=True)
class LabelledItem:
    """A ranking item with what the annotators chose."""

    item: RankItem
    mention: WRMention
    gold_index: int
    chosen: frozenset[int]
    votes: tuple[int, ...]


def _candidate(label: str, source: str) -> RankCandidate:
    if label == MASK:
        return RankCandidate(MASK, "mask", "none")
    if source == "heuristics":
        return RankCandidate(label, "rule", "none")
    if ":" in source:
        outer, inner = source.split(":", 1)
        method = {"contained": "contained", "levenshtein": "approximate"}.get(outer, "exact")
        return RankCandidate(label, inner, method)
    return RankCandidate(label, source, "exact")


def labelled_items(docs: list[WRDocument]) -> list[LabelledItem]:
    """Every mention with a non-empty selection (1,220 on the shared 75 documents)."""
    out: list[LabelledItem] = []
    for doc in docs:
        for annotator, mentions in doc.mentions.items():
            facts = DocumentFacts.of(len(doc.text), [(m.entity_type, m.identifier_type) for m in mentions])
            for m in mentions:
                if not m.annotated:
                    continue
                cands = m.candidates
                labels = [l for l, _ in cands]
                left, right = sentence_bounds(doc.text, m.start, m.end)
                item = RankItem(
                    span=m.text, entity_type=m.entity_type, identifier_type=m.identifier_type, sentence=doc.text[left:right],
                    candidates=tuple(_candidate(l, s) for l, s in cands), span_start=m.start - left,
                    group=doc.doc_id, **facts.fields(m.entity_type, m.start),
                )
                gold = m.gold
                votes = tuple(len(m.selection.get(l, [])) for l in labels)
                out.append(LabelledItem(item, m, labels.index(gold) if gold in labels else len(labels) - 1,
                                        frozenset(i for i, l in enumerate(labels) if l in m.chosen), votes))
    return out
