"""WikiReplace mentions as ranking items, following the protocol of EVALUATION.md."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.features import RankCandidate, RankItem
from engine.types import MASK
from engine.wikireplace import WRDocument, WRMention, sentence_around


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
            types = Counter(m.entity_type for m in mentions)
            idents = Counter(m.identifier_type.value for m in mentions)
            n_all = max(1, len(mentions))
            for m in mentions:
                if not m.annotated:
                    continue
                cands = m.candidates
                labels = [l for l, _ in cands]
                sentence = sentence_around(doc.text, m.start, m.end)
                offset = doc.text.find(sentence)
                span_start = m.start - offset if offset >= 0 and offset <= m.start <= offset + len(sentence) else -1
                item = RankItem(
                    span=m.text, entity_type=m.entity_type, identifier_type=m.identifier_type, sentence=sentence,
                    candidates=tuple(_candidate(l, s) for l, s in cands), span_start=span_start,
                    doc_position=m.start / max(1, len(doc.text)), doc_mentions=len(mentions),
                    doc_type_share=types[m.entity_type] / n_all, doc_nomask_share=idents["NO_MASK"] / n_all,
                    doc_direct_share=idents["DIRECT"] / n_all, doc_masked=sum(1 for x in mentions if x.masked), group=doc.doc_id,
                )
                gold = m.gold
                votes = tuple(len(m.selection.get(l, [])) for l in labels)
                out.append(LabelledItem(item, m, labels.index(gold) if gold in labels else len(labels) - 1,
                                        frozenset(i for i, l in enumerate(labels) if l in m.chosen), votes))
    return out
