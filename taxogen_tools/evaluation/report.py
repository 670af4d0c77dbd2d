"""Plain-text printing of ``evaluate sanitize`` reports."""

from __future__ import annotations

from typing import Callable

from taxogen_tools.evaluation.flags import FLAG_NAMES
from taxogen_tools.evaluation.miss_causes import CAUSES, miss_causes
from taxogen_tools.evaluation.sanitize_eval import SanitizeEvaluation
from taxogen_tools.evaluation.utility import GRAPH_GROUP, TYPES, format_utility


def echo_sanitize_report(report: SanitizeEvaluation, data_name: str, echo: Callable[[str], None]) -> None:
    """Print the figures of ``report`` line by line through ``echo``."""
    d = report.to_dict()
    echo(f"sanitize on {data_name} — {report.mode} — {report.documents} documents, {len(report.mentions)} annotated mentions"
         + (f" ({report.unmatched} not found in the output)" if report.unmatched else ""))
    if report.training.get("ladders") == "served":
        t = report.training
        echo(f"  training items: {t['training_items']} of {t['annotated']} annotated mentions on our ladders; left out: "
             + (", ".join(f"{k} {v}" for k, v in sorted(t["skipped"].items())) or "none"))
        if t.get("mapped_to_ancestor"):
            echo("  labelled with the nearest offered ancestor of the annotators' class: "
                 + ", ".join(f"{k} {v}" for k, v in sorted(t["mapped_to_ancestor"].items())))
    echo("  agreement of the replacement with the annotators (labels compared without case, articles, 'date in', PERSON numbers):")
    echo(f"    {'type':<10}{'mentions':>9}{'majority':>10}{'any':>8}{'ceiling':>9}{'*** ours':>10}{'*** annot.':>12}")
    for t, st in d["per_type"].items():
        echo(f"    {t:<10}{st['mentions']:>9}{st['majority']:>10.2%}{st['any']:>8.2%}{st['ceiling']:>9.2%}{st['mask_ours']:>10.2%}{st['mask_annotators']:>12.2%}")
    echo("    ceiling = the annotators' majority choice is offered by our ladder")
    if "utility" in d:
        echo_utility(d["utility"], echo)
    echo("  how far agreement can go (taxogen_tools.evaluation.agreement_bound): one annotator against the others' majority,")
    echo("  on the mentions with 3+ annotators; estimate = a ranker always picking the consensus, on our ladders:")
    echo(f"    {'type':<10}{'multi':>6}{'one-vs-others':>15}{'ours multi':>12}{'ours single':>13}{'estimate':>10}")
    for t, a in d["annotator_agreement"].items():
        echo(f"    {t:<10}{a['multi']:>6}{a['one_vs_others']:>15.2%}{a['ours_multi']:>12.2%}{a['ours_single']:>13.2%}{a['estimate']:>10.2%}")
    _echo_miss_causes(report, echo)
    echo(f"  leaks: {len(report.leaks)} of {report.replacements} replacements reveal another masked mention "
         f"(text {sum(l.kind == 'text' for l in report.leaks)}, linked item {sum(l.kind == 'linked item' for l in report.leaks)})")
    r = d["readability"]
    echo(f"  readability: {r['flagged_sentences']} of {r['sentences']} output sentences flagged ({r['flagged_share']:.2%}); "
         f"{r['flagged_sentences_with_replacement']} of {r['sentences_with_replacement']} sentences with a replacement "
         f"({r['flagged_share_of_sentences_with_replacement']:.2%})")
    for name in FLAG_NAMES:
        echo(f"    {name:<26}{r['flags'][name]:>6}")
    if report.examples:
        echo("  sample sentences:")
        for ex in report.examples:
            echo(f"    [{ex['doc']}] {ex['sentence']}" + (f"   <{'; '.join(ex['flags'])}>" if ex["flags"] else ""))
            if ex.get("source"):
                echo(f"        source: {ex['source']}")
        if report.leaks:
            echo("  leaks:")
            for l in report.leaks:
                echo(f"    [{l.doc_id}] {l.span!r} → {l.replacement!r} reveals {l.other!r} ({l.kind}: {l.name!r})")


def _echo_miss_causes(report: SanitizeEvaluation, echo: Callable[[str], None]) -> None:
    """The missed mentions per cause and type (taxogen_tools.evaluation.miss_causes)."""
    mc = miss_causes(report.mentions)
    types = sorted({m.entity_type for m in report.mentions})
    echo("  why the replacement differs from the majority (taxogen_tools.evaluation.miss_causes), missed mentions per cause:")
    echo(f"    {'cause':<45}" + "".join(f"{t[:8]:>9}" for t in types) + f"{'ALL':>7}{'share':>8}")
    for cause in CAUSES:
        if cause not in mc.counts:
            continue
        row = mc.counts[cause]
        echo(f"    {cause:<45}" + "".join(f"{row.get(t, 0):>9}" for t in types)
             + f"{mc.total(cause):>7}{mc.total(cause) / max(1, mc.mentions):>8.2%}")
    echo(f"    a better ranker could remove at most the 'ranker:' rows ({mc.ranker_share():.2%} of the mentions); "
         "the others are the ladders' (store coverage, leak guard) or the annotation's")


def echo_utility(table: dict, echo: Callable[[str], None]) -> None:
    """The utility table (taxogen_tools.evaluation.utility): the graph types together first."""
    echo("  what the reader keeps of the masked mentions (taxogen_tools.evaluation.utility): shown as a true class, and the")
    echo("  information kept (class: log(N/n_c)/log N over the store's typed items; date: share of the time line; *** 0):")
    for line in format_utility(table, [GRAPH_GROUP, *TYPES, "ALL"]):
        echo(line)
    echo("    true class = a class, part-of, composed, date or unit rung not judged false in the truth set (unjudged: not in it);")
    echo("    unknown = a label the store cannot place (counted as 0 in 'info kept', left out of '(scored)'); "
         "n_c≤1 = class rungs of at most one item in the store (information 1)")
