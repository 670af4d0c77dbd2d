"""``taxogen evaluate generation``: how our ladders compare with WikiReplace's options.

Rule types (PERSON, DATETIME, QUANTITY, CODE): a mention *agrees* when every WikiReplace
heuristic option (except ``***``) appears in our ladder in the same relative order; our
extra rungs (a century, a month) are allowed. Disagreements are listed, those where our
output is deliberately different (the documented errors of the thesis' heuristics) apart.

Graph types (LOC, ORG, DEM, MISC), over masked mentions: share linked; share whose
ladder offers a class (any rung before ``***``); share whose majority choice (when not ``***``) is in our ladder; mean ladder length; candidates more
specific than their span (must be 0); and the seed's ceiling — the majority choice is the
label of an ancestor (1–12 hops over P31/P279/P361) of an item whose label or alias
equals the span (case-insensitive).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from engine.engine import Engine
from engine.generate.linking import contains_words, fold
from engine.generate.context import document_state
from engine.generate.sources.datetime import GENERIC, datetime_ladder
from engine.types import MASK, EntityType, Span
from engine.io.wikireplace import WRDocument
from engine.text.sentences import sentence_around

RULE_TYPES = (EntityType.PERSON, EntityType.DATETIME, EntityType.QUANTITY, EntityType.CODE)


def in_order(expected: list[str], ladder: list[str]) -> bool:
    """Every ``expected`` label occurs in ``ladder`` in the same relative order."""
    pos = -1
    for label in expected:
        try:
            pos = ladder.index(label, pos + 1)
        except ValueError:
            return False
    return True


def deliberate(span: str, heuristic: list[str]) -> str | None:
    """Why a disagreement is a deliberate improvement, or None."""
    if any(h == "" or h.endswith(" ") or h == "date in " for h in heuristic):
        return "heuristic produced an empty or truncated label"
    if re.fullmatch(r"\w+ \d{3}", span.strip()) and heuristic and heuristic[0] != span.split()[-1]:
        return "heuristic cut a 3-digit year to two digits"
    if re.fullmatch(r"(early |mid |late )?\d{3}0s", span.strip().lower()) and heuristic == [span.strip()]:
        return "heuristic offers the decade unchanged; ours says 'date in the <decade>'"
    if re.search(r"\d\s*(ft|in|m)\b.*\d", span) and any(re.search(r"\d", h) for h in heuristic):
        return "heuristic leaks a number of the span ('X ft 11')"
    if heuristic and len(heuristic[0]) < 4 and heuristic[0].startswith("t "):
        return "heuristic keeps a stray token"
    if heuristic == ["t X"]:
        return "heuristic keeps a stray token and drops the units"
    if any(re.search(r"(?<![\w-])X(?![\w-])", h) for h in heuristic) and not any("X" in r for r in datetime_ladder(span)[0]):
        return "heuristic hides the number as X; ours bounds it or says its order in words (true of it, less specific)"
    if heuristic[-1:] == [GENERIC] and datetime_ladder(span)[1] == "day-month":
        return "heuristic ends a day of a month with DATE; ours stops at the month (a month says no year)"
    if heuristic == [GENERIC] and datetime_ladder(span)[1] in ("duration", "age", "ordinal", "century"):
        return "heuristic calls a duration, an age or a bare number a DATE; ours does not (truth rule)"
    return None


@dataclass
class GenerationReport:
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    graph: dict[str, dict[str, Any]] = field(default_factory=dict)
    differences: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "graph": self.graph, "differences": self.differences}


def ceiling_hit(engine: Engine, span: str, gold: str, max_hops: int = 12) -> tuple[bool, bool]:
    """(span matches a label/alias, gold is the label of an ancestor of a matching item)."""
    idx = engine.linker.index
    key = fold(span)
    items = [q for q, _ in idx.lookup(key)]
    if not items:
        return False, False
    taxonomy = engine.linker.taxonomy
    target = fold(gold)
    seen = set(items)
    frontier = list(items)
    for _ in range(max_hops):
        nxt = []
        for node in frontier:
            for prop in ("P31", "P279", "P361"):
                for parent in taxonomy.parents(node, prop):
                    if parent in seen:
                        continue
                    seen.add(parent)
                    nxt.append(parent)
                    label = taxonomy.labels.get(parent)
                    if label is not None and fold(label) == target:
                        return True, True
        frontier = nxt
    return True, False


def evaluate_generation(engine: Engine, docs: list[WRDocument], *, progress: bool = False) -> GenerationReport:
    """Run the comparison over ``docs`` (every annotator's mentions, in text order)."""
    from tqdm import tqdm

    rule_stats: dict[str, dict[str, Any]] = defaultdict(lambda: {"mentions": 0, "agree": 0, "deliberate": 0})
    graph_stats: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"masked": 0, "linked": 0, "with_class": 0, "with_choice": 0, "choice_in_ladder": 0, "ladder_len_sum": 0,
                 "more_specific": 0, "ceiling_linked": 0, "ceiling_reachable": 0}
    )
    report = GenerationReport()
    for doc in tqdm(docs, desc="documents", disable=not progress):
        for annotator, mentions in doc.mentions.items():
            # the state sanitizing builds its ladders in: the document's countries and text
            state = document_state(engine.linker, (Span(m.text, m.entity_type) for m in mentions), doc.text)
            heuristic_entities: dict[str, set[str | None]] = defaultdict(set)
            for m in mentions:
                if not m.masked:
                    continue
                span = Span(m.text, m.entity_type, m.identifier_type, context=sentence_around(doc.text, m.start, m.end), start=m.start, end=m.end, entity_id=m.entity_id)
                ladder = engine.candidates(span, state=state)
                ours = ladder.labels
                t = m.entity_type.value
                if m.entity_type in RULE_TYPES:
                    heur = [h for h in m.generalizations.get("heuristics", []) if h != MASK]
                    if "heuristics" not in m.generalizations:
                        continue
                    st = rule_stats[t]
                    st["mentions"] += 1
                    if m.entity_type is EntityType.PERSON and heur:
                        heuristic_entities[heur[0]].add(m.entity_id)
                    if in_order(heur, ours):
                        st["agree"] += 1
                    else:
                        why = deliberate(m.text, heur)
                        if why is None and m.entity_type is EntityType.PERSON and heur:
                            if len(heuristic_entities[heur[0]]) > 1:
                                why = "heuristic gave one number to different entity_ids (surname match)"
                            elif any(len(v) > 1 for v in heuristic_entities.values()):
                                why = "numbering shifted by an earlier surname merge of the heuristic"
                        if why:
                            st["deliberate"] += 1
                        report.differences.append({"type": t, "doc": m.doc_id, "span": m.text, "heuristic": heur, "ours": ours[:-1], "deliberate": why})
                else:
                    st = graph_stats[t]
                    st["masked"] += 1
                    st["linked"] += bool(ladder.links)
                    st["ladder_len_sum"] += len(ours) - 1
                    st["with_class"] += len(ours) > 1
                    key = fold(m.text)
                    st["more_specific"] += sum(1 for c in ours[:-1] if contains_words(fold(c), key))
                    gold = m.gold
                    if gold and gold != MASK:
                        st["with_choice"] += 1
                        st["choice_in_ladder"] += gold in ours
                        linked, reach = ceiling_hit(engine, m.text, gold)
                        st["ceiling_linked"] += linked
                        st["ceiling_reachable"] += reach
    for t, st in rule_stats.items():
        n = st["mentions"]
        st["agree_share"] = round(st["agree"] / n, 4) if n else None
        st["agree_or_deliberate_share"] = round((st["agree"] + st["deliberate"]) / n, 4) if n else None
    total = {k: sum(st[k] for st in graph_stats.values()) for k in ("masked", "linked", "with_class", "with_choice", "choice_in_ladder", "ladder_len_sum", "more_specific", "ceiling_reachable")}
    if graph_stats:
        graph_stats["ALL"] = dict(total, ceiling_linked=sum(st["ceiling_linked"] for st in graph_stats.values()))
    for t, st in graph_stats.items():
        st["linked_share"] = round(st["linked"] / st["masked"], 4) if st["masked"] else None
        st["with_class_share"] = round(st["with_class"] / st["masked"], 4) if st["masked"] else None
        st["choice_in_ladder_share"] = round(st["choice_in_ladder"] / st["with_choice"], 4) if st["with_choice"] else None
        st["ceiling_reachable_share"] = round(st["ceiling_reachable"] / st["with_choice"], 4) if st["with_choice"] else None
        st["mean_ladder_length"] = round(st["ladder_len_sum"] / st["masked"], 2) if st["masked"] else None
    report.rules = dict(rule_stats)
    report.graph = dict(graph_stats)
    return report
