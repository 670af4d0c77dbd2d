"""Which truth rule removes which rungs: each registered rule switched off alone, the ladders compared.

Every rule of the stages that shape a ladder (``link``, ``ladder``, ``verify``; ``taxogen rules
list`` names them) is switched off by name (:meth:`engine.knowledge.Knowledge.with_rules_off`),
one at a time. For every LOC/ORG/DEM/MISC span of the truth set (with its sentence) and every
masked one of the shared documents, the ladder without the rule is compared with the engine's:
the rungs only the switched-off engine offers are the rule's removals, the rungs only the
engine offers its additions; each is counted as judged true, judged false
(``tests/data/truth_set.jsonl``) or unjudged. With ``--truth-figures`` the judged truth set is
also scored without each rule (as ``taxogen evaluate truth`` scores it): the graph types' rungs
offered, false, and the false rate, against the engine's.

    python tools/truth_rule_ablation.py --store /work/stores/seed                  # every rule, counts
    python tools/truth_rule_ablation.py --store store --rule first-walk-only --show 50
    python tools/truth_rule_ablation.py --store store --truth-figures

A rule whose removals hold true rungs along with the false ones is a candidate for
narrowing (README, "Rungs the rules gave back").
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT.parent / "shared" / "data" / "wikireplace" / "wikireplace_dev.json"
GRAPH_TYPES = ("LOC", "ORG", "DEM", "MISC")
#: The stages whose rules decide what a ladder offers.
STAGES = ("link", "ladder", "verify")

#: (text, entity type, sentence) of a span
SpanKey = tuple[str, str, str]
#: (type, span, rung, judged true/false/None)
Rung = tuple[str, str, str, "bool | None"]


def rule_names(stages: Iterable[str] = STAGES) -> list[str]:
    """The registered rules of ``stages``, by name."""
    from engine.knowledge import registered_rules

    wanted = set(stages)
    return [name for name, info in registered_rules().items() if info.stage in wanted]


def spans_of(judgments, docs_path: Path | None) -> dict[SpanKey, str]:
    """The graph-type spans of the truth set and of the documents' masked mentions (→ where from)."""
    out: dict[SpanKey, str] = {}
    for j in judgments:
        if j.entity_type in GRAPH_TYPES:
            out.setdefault((j.span, j.entity_type, j.context), "truth set")
    if docs_path is not None and docs_path.is_file():
        from engine.io.wikireplace import load_wikireplace
        from engine.text.sentences import sentence_around

        for doc in load_wikireplace(docs_path):
            for mentions in doc.mentions.values():
                for m in mentions:
                    if m.masked and m.entity_type.value in GRAPH_TYPES:
                        out.setdefault((m.text, m.entity_type.value, sentence_around(doc.text, m.start, m.end)), "documents")
    return out


def ladders(engine, spans: Iterable[SpanKey]) -> dict[SpanKey, list[str]]:
    """The offered labels (``***`` apart) of each span, under the engine's knowledge."""
    from engine.types import MASK, EntityType, Span

    return {k: [c.label for c in engine.candidates(Span(k[0], EntityType.parse(k[1]), context=k[2])).candidates if c.label != MASK]
            for k in spans}


def _only_in(got: dict[SpanKey, list[str]], other: dict[SpanKey, list[str]], table: dict) -> list[Rung]:
    from taxogen_tools.evaluation.truth import judgment_key

    extra = set()
    for key, labels in got.items():
        seen = set(other[key])
        for label in labels:
            if label not in seen:
                judged = table.get(judgment_key(key[0], key[1], label))
                extra.add((key[1], key[0], label, None if judged is None else judged.true))
    return sorted(extra, key=lambda e: (e[0], e[1], e[2]))


def effects(make_engine: Callable, spans: dict[SpanKey, str], table: dict, rules: Iterable[str]) -> dict[str, tuple[list[Rung], list[Rung]]]:
    """Per rule: (the rungs only the engine without it offers, the rungs only the engine with it offers)."""
    engine = make_engine()
    base_knowledge = engine.knowledge
    base = ladders(engine, spans)
    out: dict[str, tuple[list[Rung], list[Rung]]] = {}
    for name in rules:
        engine.knowledge = base_knowledge.with_rules_off([name])
        try:
            got = ladders(engine, spans)
        finally:
            engine.knowledge = base_knowledge
        out[name] = (_only_in(got, base, table), _only_in(base, got, table))
    return out


def removals(make_engine: Callable, spans: dict[SpanKey, str], table: dict, rules: Iterable[str]) -> dict[str, list[Rung]]:
    """Per rule: the (type, span, rung, judged true/false/None) only the engine without it offers."""
    return {name: removed for name, (removed, _) in effects(make_engine, spans, table, rules).items()}


def truth_figures(engine, judgments, contexts, rules: Iterable[str]) -> dict[str, dict]:
    """The graph types' figures of the judged truth set (``taxogen evaluate truth``), with every
    rule on (``""``) and with each rule of ``rules`` off."""
    from taxogen_tools.evaluation.truth import evaluate_truth

    base_knowledge = engine.knowledge
    out = {"": evaluate_truth(engine, judgments, contexts=contexts).per_type["GRAPH"]}
    for name in rules:
        engine.knowledge = base_knowledge.with_rules_off([name])
        try:
            out[name] = evaluate_truth(engine, judgments, contexts=contexts).per_type["GRAPH"]
        finally:
            engine.knowledge = base_knowledge
    return out


def _counts(rungs: list[Rung]) -> str:
    c = Counter("true" if e[3] else "false" if e[3] is False else "unjudged" for e in rungs)
    return f"{len(rungs):>4} rungs: judged true {c['true']:>3}, false {c['false']:>3}, unjudged {c['unjudged']:>3}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--docs", default=str(DOCS), help="WikiReplace documents (skipped if absent)")
    parser.add_argument("--truth", default=None, help="truth set (default tests/data/truth_set.jsonl)")
    parser.add_argument("--rule", action="append", help="only this rule (repeatable; 'taxogen rules list' names them)")
    parser.add_argument("--show", type=int, default=0, help="rungs listed per rule")
    parser.add_argument("--truth-figures", action="store_true", help="also score the judged truth set without each rule")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from engine.engine import Engine
    from taxogen_tools.evaluation.truth import document_contexts, load_truth_set

    known = rule_names()
    unknown = sorted(set(args.rule or ()) - set(known))
    if unknown:
        print(f"error: no rule {unknown[0]!r} of the stages {', '.join(STAGES)}; known: {', '.join(known)}", file=sys.stderr)
        return 1
    rules = args.rule or known
    judgments = load_truth_set(args.truth)
    table = {j.key: j for j in judgments}
    spans = spans_of(judgments, Path(args.docs))
    print(f"{len(spans)} spans (truth set and masked document mentions), store {args.store}")
    engine = Engine.from_config(None, store=args.store)
    found = effects(lambda: engine, spans, table, rules)
    for name, (removed, added) in found.items():
        print(f"{name:<28} removes {_counts(removed)}")
        if added:
            print(f"{'':<28} gives   {_counts(added)}")
        for e in removed[: args.show]:
            print(f"    {e[0]:<5} {e[1]!r} → {e[2]!r}  {({True: 'true', False: 'FALSE', None: '?'})[e[3]]}")
    if args.truth_figures:
        contexts = document_contexts(engine, args.docs, {j.doc_id for j in judgments})
        figures = truth_figures(engine, judgments, contexts, rules)
        on = figures.pop("")
        print(f"\ntruth set, graph types: {on['offered']} rungs offered, {on['false']} of {on['judged']} judged false "
              f"(rate {on['false_rate']}) with every rule on; each rule off:")
        for name, st in figures.items():
            print(f"{name:<28} offered {st['offered'] - on['offered']:>+5}  false {st['false'] - on['false']:>+4}  "
                  f"judged {st['judged'] - on['judged']:>+5}  false rate {st['false_rate']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
