"""Which truth rule removes which rungs: each rule switched off alone, the ladders compared.

For every LOC/ORG/DEM/MISC span of the truth set (with its sentence) and every masked one
of the shared documents, the ladder with one rule switched off is compared with the
engine's; the rungs only the switched-off engine offers are the rule's removals, counted
as judged true, judged false (``tests/data/truth_set.jsonl``) or unjudged:

    python tools/truth_rule_ablation.py --store /work/seedstore3            # every rule, counts and rungs
    python tools/truth_rule_ablation.py --store store --rule "longest walk" --show 50

A rule whose removals hold true rungs along with the false ones is a candidate for
narrowing (README, "Rungs the rules gave back"). Rules are switched off through public
names only (a method of the engine's :class:`TruthFilter`, a field of its rules, a
public function the graph source calls).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT.parent / "shared" / "data" / "wikireplace" / "wikireplace_dev.json"
GRAPH_TYPES = ("LOC", "ORG", "DEM", "MISC")

#: (text, entity type, sentence) of a span
SpanKey = tuple[str, str, str]


def _switch(name: str) -> Callable:
    """A function that switches rule ``name`` off in an engine, returning an undo function."""
    import engine.generate.sources.graph as graph
    import engine.generate.truth as truthmod

    def on_module(module, attr, value):
        def apply(_engine):
            old = getattr(module, attr)
            setattr(module, attr, value)
            return lambda: setattr(module, attr, old)
        return apply

    def on_filter(attr, value):
        def apply(engine):
            setattr(engine.sources.get("graph").truth, attr, value)
            return lambda: None
        return apply

    def on_rules(**fields):
        def apply(engine):
            tr = engine.sources.get("graph").truth
            tr.rules = dataclasses.replace(tr.rules, **fields)
            return lambda: None
        return apply

    def longest(engine):
        engine.sources.get("graph").truth_longest = True
        return lambda: None

    def loose_head(engine):
        tr = engine.sources.get("graph").truth
        fits = tr.class_fits
        tr.class_fits = lambda q, t, strict=False: fits(q, t)
        return lambda: None

    table = {
        "item_fits": on_filter("item_fits", lambda q, t: True),
        "language_as_adjective": on_filter("language_as_adjective", lambda s, l: False),
        "sense_contradiction": on_module(graph, "contradiction", lambda *a: None),
        "rung_fits": on_filter("rung_fits", lambda c, t: True),
        "named_individual": on_filter("named_individual", lambda q, l: False),
        "exists_today(former)": on_filter("exists_today", lambda q: False),
        "negated_by_modifier": on_filter("negated_by_modifier", lambda *a: False),
        "not_is_a edges": on_rules(not_is_a=frozenset()),
        "disjoint": on_rules(disjoint=frozenset()),
        "in_context": on_filter("in_context", lambda c, s: True),
        "longest walk": longest,
        "is_nationality": on_filter("is_nationality", lambda s, l: False),
        "homonym_heads": on_rules(homonym_heads=frozenset()),
        "ordinal": on_module(truthmod, "is_ordinal", lambda w: False),
        "plural_name_head": on_module(truthmod, "plural_name_head", lambda *a: False),
        "head strict fit": loose_head,
    }
    return table[name]


RULES = ("item_fits", "language_as_adjective", "sense_contradiction", "rung_fits", "named_individual",
         "exists_today(former)", "negated_by_modifier", "not_is_a edges", "disjoint", "in_context",
         "longest walk", "is_nationality", "homonym_heads", "ordinal", "plural_name_head", "head strict fit")


def spans_of(judgments, docs_path: Path | None) -> dict[SpanKey, str]:
    """The graph-type spans of the truth set and of the documents' masked mentions (→ where from)."""
    out: dict[SpanKey, str] = {}
    for j in judgments:
        if j.entity_type in GRAPH_TYPES:
            out.setdefault((j.span, j.entity_type, j.context), "truth set")
    if docs_path is not None and docs_path.is_file():
        from engine.io.wikireplace import load_wikireplace, sentence_around

        for doc in load_wikireplace(docs_path):
            for mentions in doc.mentions.values():
                for m in mentions:
                    if m.masked and m.entity_type.value in GRAPH_TYPES:
                        out.setdefault((m.text, m.entity_type.value, sentence_around(doc.text, m.start, m.end)), "documents")
    return out


def ladders(engine, spans: Iterable[SpanKey]) -> dict[SpanKey, list[str]]:
    """The offered labels (``***`` apart) of each span."""
    from engine.types import MASK, EntityType, Span

    return {k: [c.label for c in engine.candidates(Span(k[0], EntityType.parse(k[1]), context=k[2])).candidates if c.label != MASK]
            for k in spans}


def removals(make_engine: Callable, spans: dict[SpanKey, str], table: dict, rules: Iterable[str]) -> dict[str, list[tuple]]:
    """Per rule: the (type, span, rung, judged true/false/None) only the engine without it offers."""
    from taxogen_tools.evaluation.truth import judgment_key

    base = ladders(make_engine(), spans)
    out: dict[str, list[tuple]] = {}
    for name in rules:
        engine = make_engine()
        undo = _switch(name)(engine)
        try:
            got = ladders(engine, spans)
        finally:
            undo()
        extra = set()
        for key, labels in got.items():
            seen = set(base[key])
            for label in labels:
                if label not in seen:
                    judged = table.get(judgment_key(key[0], key[1], label))
                    extra.add((key[1], key[0], label, None if judged is None else judged.true))
        out[name] = sorted(extra, key=lambda e: (e[0], e[1], e[2]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--docs", default=str(DOCS), help="WikiReplace documents (skipped if absent)")
    parser.add_argument("--truth", default=None, help="truth set (default tests/data/truth_set.jsonl)")
    parser.add_argument("--rule", action="append", choices=RULES, help="only this rule (repeatable)")
    parser.add_argument("--show", type=int, default=0, help="rungs listed per rule")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from engine.engine import Engine
    from taxogen_tools.evaluation.truth import load_truth_set

    judgments = load_truth_set(args.truth)
    table = {j.key: j for j in judgments}
    spans = spans_of(judgments, Path(args.docs))
    print(f"{len(spans)} spans (truth set and masked document mentions), store {args.store}")
    found = removals(lambda: Engine.from_config(None, store=args.store), spans, table, args.rule or RULES)
    for name, extra in found.items():
        c = Counter("true" if e[3] else "false" if e[3] is False else "unjudged" for e in extra)
        print(f"{name:<24} removes {len(extra):>4} rungs: judged true {c['true']:>3}, false {c['false']:>3}, unjudged {c['unjudged']:>3}")
        for e in extra[: args.show]:
            print(f"    {e[0]:<5} {e[1]!r} → {e[2]!r}  {({True: 'true', False: 'FALSE', None: '?'})[e[3]]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
