"""Training items from the product's own ladders ("train on what is served").

For every annotated mention of a WikiReplace document, the ladder and the ranker's
view (:class:`engine.select.features.RankItem`) are built exactly as ``Engine.sanitize``
builds them — same candidate sources, document state, sentence and document facts —
and the annotators' choice is mapped onto our rungs with
:func:`taxogen_tools.evaluation.labels.map_selection` (equivalent labels included). A mention
whose majority choice (a class) is not in our ladder is labelled with the offered rung
nearest above that class in the graph (:func:`taxogen_tools.evaluation.ancestry.ancestor_rung`:
"country in Central Europe" → "country"), and left out when no offered rung generalizes
it (``***`` is always offered). Leaving all of them out made the training items of
graph types mostly ``***`` (the mentions whose annotators chose a class we do not offer
were the ones dropped), one reason the ranker answered ``***`` for nearly every place,
organisation and nationality.

Every mention gets its own ladder (the sanitizer ranks only the first mention of an
entity and reuses its choice; for training, later mentions are examples too).

:data:`SERVED_ROUNDS`: boosting rounds for served ladders. With 1,033 training items,
fewer rounds than the WikiReplace default (100) generalise better: grouped 5-fold CV on
the served items (three fold seeds) gave 85.3 % at 100 rounds, 86.1 % at 50, 86.4 % at
30–40, 86.3 % at 10–20.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from engine.select.features import SERVED_GROUPS, FeatureBuilder, RankItem
from engine.doc import Doc
from engine.types import EntityType, Mention
from engine.io.wikireplace import WRDocument, load_wikireplace

SERVED_ROUNDS = 40


@dataclass(frozen=True, slots=True)
class ServedItem:
    """An annotated mention as the product ranks it, with the annotators' choice on our rungs."""

    item: RankItem
    labels: tuple[str, ...]
    gold_index: int
    votes: tuple[int, ...]
    chosen: frozenset[int]
    doc_id: str
    #: the annotators' class is not offered; ``gold_index`` is the nearest offered ancestor
    mapped: bool = False

    @property
    def entity_type(self) -> EntityType:
        return self.item.entity_type


@dataclass
class ServedItems:
    """Items per document plus what was left out and why."""

    items: list[ServedItem] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)
    mapped: Counter = field(default_factory=Counter)
    annotated: int = 0


def prepare_document(engine, text: str, mentions: Sequence[Mention]) -> Doc:
    """The document as the pipeline prepares it for the ranker: through the stages up to
    verify, then each entity's first mention given its rank item (what the rank stage
    scores) — so that training sees what serving sees."""
    from engine.select.stages import RankStage

    doc = engine.run([Doc(text, list(mentions))], until="verify")[0]
    RankStage.attach_items(doc)
    return doc


def served_items(engine, docs: Sequence[WRDocument], progress: Callable[[str], None] | None = None, *,
                 ancestors: bool = True) -> ServedItems:
    """Served-ladder items of every annotated mention of ``docs`` (see the module docstring);
    ``ancestors=False`` leaves out every mention whose majority choice is not offered."""
    from taxogen_tools.evaluation.ancestry import ancestor_rung, engine_lookups
    from taxogen_tools.evaluation.labels import majority_label, map_selection

    parents, lookup = engine_lookups(engine) if ancestors else (None, None)
    out = ServedItems()
    for n, doc in enumerate(docs, start=1):
        for mentions in doc.mentions.values():
            own = [Mention(m.start, m.end, m.entity_type, m.identifier_type) for m in mentions]
            by_offsets = {(m.start, m.end): m for m in mentions if m.annotated}
            out.annotated += len(by_offsets)
            p = prepare_document(engine, doc.text, own)
            found = set()
            for k, item in ((k, m.rank_item) for k, m in enumerate(p.mentions) if m.rank_item is not None):
                vm = p.mentions[k]
                wm = by_offsets.get((vm.start, vm.end))
                if wm is None:
                    continue
                found.add((vm.start, vm.end))
                labels = tuple(p.mentions[k].ladder.labels)
                gold, votes = map_selection(wm.selection, labels)
                mapped = False
                if gold is None and parents is not None:
                    gold = ancestor_rung(majority_label(wm.selection) or "", p.mentions[k].ladder.candidates, parents, lookup)
                    mapped = gold is not None
                if gold is None:
                    out.skipped[f"{wm.entity_type.value}: choice not in our ladder"] += 1
                    continue
                if mapped:
                    out.mapped[wm.entity_type.value] += 1
                chosen = frozenset(i for i, v in enumerate(votes) if v)
                out.items.append(ServedItem(replace(item, group=doc.doc_id), labels, gold, votes, chosen, doc.doc_id, mapped))
            for key in set(by_offsets) - found:
                out.skipped[f"{by_offsets[key].entity_type.value}: no ladder (merged or failed)"] += 1
        if progress and n % 25 == 0:
            progress(f"served ladders: {n}/{len(docs)} documents")
    return out


def prepare_served(data, engine, *, progress: Callable[[str], None] | None = None, groups: Sequence[str] = SERVED_GROUPS):
    """:class:`taxogen_tools.training.ranker.PreparedData` of served-ladder items: what ``taxogen train``
    fits by default (features from the same builder as ``Engine.rank_items``)."""
    import time

    from taxogen_tools.training.ranker import FeatureTable, PreparedData

    t0 = time.perf_counter()
    docs = load_wikireplace(data)
    served = served_items(engine, docs, progress)
    if progress:
        skipped = ", ".join(f"{k} {v}" for k, v in sorted(served.skipped.items())) or "none"
        mapped = ", ".join(f"{k} {v}" for k, v in sorted(served.mapped.items())) or "none"
        progress(f"{len(docs)} documents, {served.annotated} annotated mentions, {len(served.items)} on our ladders "
                 f"(labelled with the nearest offered ancestor of the annotators' class: {mapped}; left out: {skipped})")
    builder = FeatureBuilder(engine.embedder, groups=groups, graph=engine.graph_stats)
    table = FeatureTable.build(builder, served.items)
    return PreparedData(served.items, table, builder, time.perf_counter() - t0)
