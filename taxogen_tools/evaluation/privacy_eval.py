"""``taxogen evaluate privacy``: k per document, and the utility kept, for five releases.

Releases of each WikiReplace document (the mentions of its first annotator):

- ``original``: every span kept;
- ``annotators``: every masked mention shows its majority-vote label;
- ``taxogen, no guard``: the engine's selection policy (``privacy.selection``), k only measured;
- ``taxogen --k K``: the same, then the privacy guard (:mod:`engine.privacy.guard`), as
  sanitizing does by default (``privacy.k`` = 10);
- ``full masking``: every masked mention becomes ``***``.

NO_MASK mentions stay as they are in every release except where the guard climbs them.
For each: the distribution of k (the anonymity set's size, a lower bound: see
:mod:`engine.privacy.anonymity`), the share of documents with k ≥ 10, the agreement with
the annotators (the shown label equals the majority label, over the annotated mentions)
and the share of masked mentions shown above ``***``; and what the reader keeps of the
masked mentions (:mod:`taxogen_tools.evaluation.utility`: shown as a true class, information kept).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from engine.io.docio import DocRecord, read_documents
from engine.errors import InputError
from taxogen_tools.evaluation.labels import canonical
from taxogen_tools.evaluation.utility import GRAPH_GROUP, TYPES, ReleaseUtility, UtilityScorer, format_utility, score_labels
from engine.generate.linking import fold
from engine.privacy.anonymity import LOWER_BOUND_NOTE
from engine.doc import Doc
from engine.types import MASK, IdentifierType
from engine.io.wikireplace import load_wikireplace

RELEASES = ("original", "annotators", "taxogen", "taxogen --k", "full masking")


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))]


def _summary(ks: list[int], threshold: int) -> dict[str, Any]:
    return {
        "documents": len(ks), "min": min(ks), "p25": _quantile(ks, 0.25), "median": _quantile(ks, 0.5),
        "p75": _quantile(ks, 0.75), "max": max(ks), "k0": sum(k == 0 for k in ks) / len(ks),
        "k_lt_10": sum(k < 10 for k in ks) / len(ks), "k_ge_threshold": sum(k >= threshold for k in ks) / len(ks),
        "buckets": {b: sum(lo <= k < hi for k in ks) for b, lo, hi in (
            ("0", 0, 1), ("1", 1, 2), ("2-9", 2, 10), ("10-99", 10, 100), ("100-999", 100, 1000), (">=1000", 1000, 1 << 62))},
    }


def evaluate_privacy(engine, data: str | Path, *, k: int = 10, threshold: int = 10,
                     progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The table of the module docstring, as a dict (``rows`` in release order)."""
    records: list[DocRecord] = []
    for rec in read_documents(data, "wikireplace"):
        if not isinstance(rec, DocRecord):
            raise InputError(f"{rec.position}: {rec.reason}")
        records.append(rec)
    gold: dict[tuple[str, int, int], str] = {}
    for doc in load_wikireplace(data):
        first = next(iter(doc.mentions), None)
        for m in doc.mentions.get(first, []) if first else []:
            if m.annotated and m.gold is not None:
                gold[(doc.doc_id, m.start, m.end)] = m.gold
    guard = engine.privacy_guard
    t0 = time.perf_counter()
    pairs = [(r.text, r.mentions) for r in records]
    default = engine.sanitize_many(pairs, k=0)
    guarded = engine.sanitize_many(pairs, k=k)
    if progress:
        progress(f"sanitized {len(records)} documents twice in {time.perf_counter() - t0:.1f} s")
    scorer, utility = UtilityScorer(engine), ReleaseUtility()
    rows: dict[str, dict[str, list]] = {r: {"k": [], "agree": [], "kept": [], "in_set": []} for r in RELEASES}
    in_store = 0
    climbs = 0
    climbed_masked = 0
    guard_seconds: list[float] = []
    unread = [0, 0]  # annotators' labels with a property to speak about; of those, not readable
    for rec, r_def, r_k in zip(records, default, guarded):
        p = engine.run([Doc(rec.text, list(rec.mentions))], until="verify")[0]
        ms = p.mentions
        originals = [rec.text[m.start:m.end] for m in ms]
        masked = [m.identifier_type is not IdentifierType.NO_MASK for m in ms]
        golds = [gold.get((rec.doc_id, m.start, m.end)) for m in ms]
        shown_labels: dict[str, list[str]] = {
            "original": originals,
            "annotators": [(g if g is not None else MASK) if mk else o for g, mk, o in zip(golds, masked, originals)],
            "full masking": [MASK if mk else o for mk, o in zip(masked, originals)],
        }
        for name, res in (("taxogen", r_def), ("taxogen --k", r_k)):
            by_offset = {(rp.mention.start, rp.mention.end): rp.rung or rp.replacement for rp in res.replacements}  # the rung, as evaluate sanitize
            shown_labels[name] = [by_offset.get((m.start, m.end), MASK) for m in ms]
        reports = {"taxogen": r_def.privacy, "taxogen --k": r_k.privacy}
        for name in RELEASES:
            score_labels(scorer, rec.text, ms, shown_labels[name], masked, r_k if name == "taxogen --k" else r_def, utility, name)
        for name in ("original", "annotators", "full masking"):
            shown = _shown(p, shown_labels[name], originals)
            reports[name] = guard.measure(p, shown)
            if name == "annotators":  # labels the rules could not read (they disclose nothing counted)
                views, _ = guard.views(p)
                for j, (lab, cand, kept) in shown.items():
                    if lab != MASK and not kept and views[j].props and views[j].entity_type.value != "PERSON":
                        unread[0] += 1
                        unread[1] += not guard.discloser.constraints(views[j], lab, cand)
        for name in RELEASES:
            rep = reports[name]
            row = rows[name]
            row["k"].append(rep.k_after)
            row["in_set"].append(rep.subject_in_set)
            labels = shown_labels[name]
            for lab, g, mk, o in zip(labels, golds, masked, originals):
                if mk:
                    row["kept"].append(lab != MASK)
                if mk and g is not None:
                    row["agree"].append(canonical(lab) == canonical(g))
        in_store += bool(r_k.privacy.subject_in_store)
        climbs += len(r_k.privacy.climbs)
        climbed_masked += sum(c.identifier_type != "NO_MASK" for c in r_k.privacy.climbs)
        guard_seconds.append(r_k.privacy.seconds)
    out_rows = []
    for name in RELEASES:
        row = rows[name]
        out_rows.append({
            "release": {"taxogen --k": f"taxogen --k {k}", "taxogen": "taxogen, no guard"}.get(name, name),
            "k": _summary(row["k"], threshold),
            "agreement": round(sum(row["agree"]) / max(1, len(row["agree"])), 4), "agreement_mentions": len(row["agree"]),
            "kept_above_mask": round(sum(row["kept"]) / max(1, len(row["kept"])), 4), "masked_mentions": len(row["kept"]),
            "subject_in_own_set": sum(row["in_set"]),
        })
    bg = guard.background.stats
    return {
        "data": str(data), "documents": len(records), "k": k, "threshold": threshold, "rows": out_rows,
        "subjects_in_store": in_store, "annotator_labels": unread[0], "annotator_labels_unread": unread[1], "forced_climbs": climbs, "forced_climbs_of_masked_spans": climbed_masked,
        "guard_ms": {"p50": round(1000 * _quantile(guard_seconds, 0.5), 2), "p99": round(1000 * _quantile(guard_seconds, 0.99), 2),
                     "max": round(1000 * max(guard_seconds), 2)},
        "background": {"persons": bg.persons, "facts": bg.facts, "coverage": bg.coverage},
        "note": LOWER_BOUND_NOTE,
        "utility": {{"taxogen --k": f"taxogen --k {k}", "taxogen": "taxogen, no guard"}.get(name, name): rows
                    for name, rows in utility.to_dict().items()},
    }


def _shown(p: Doc, labels: list[str], originals: list[str]) -> dict:
    """(label, ladder candidate or None, kept) per mention, matching labels to the ladder."""
    shown = {}
    for k, (lab, orig) in enumerate(zip(labels, originals)):
        if lab == orig:
            shown[k] = (lab, None, True)
            continue
        ladder = p.mentions[p.first_of(k)].ladder
        cand = None
        if ladder is not None:
            cand = next((c for c in ladder.candidates if fold(c.label) == fold(lab)), None)
        shown[k] = (lab, cand, False)
    return shown


def format_table(report: dict[str, Any]) -> list[str]:
    """The report as text lines."""
    lines = [f"{report['documents']} documents, {report['data']}; k per document (anonymity set in the store)",
             f"{'release':<18}{'min':>6}{'p25':>7}{'median':>8}{'p75':>8}{'max':>8}{'k=0':>7}{'k≥' + str(report['threshold']):>7}"
             f"{'agreement':>11}{'kept>***':>10}{'subj∈set':>10}"]
    for row in report["rows"]:
        s = row["k"]
        lines.append(f"{row['release']:<18}{s['min']:>6}{s['p25']:>7}{s['median']:>8}{s['p75']:>8}{s['max']:>8}"
                     f"{s['k0']:>7.0%}{s['k_ge_threshold']:>7.0%}{row['agreement']:>11.2%}{row['kept_above_mask']:>10.2%}"
                     f"{row['subject_in_own_set']:>10}")
    lines.append(f"agreement over {report['rows'][0]['agreement_mentions']} annotated mentions; kept>*** over "
                 f"{report['rows'][0]['masked_mentions']} masked mentions; subjects found in the store: {report['subjects_in_store']}")
    lines.append(f"guard with --k {report['k']}: {report['forced_climbs']} forced climbs ({report['forced_climbs_of_masked_spans']} of masked spans, "
                 f"the rest NO_MASK); guard time per document p50 {report['guard_ms']['p50']} ms, p99 {report['guard_ms']['p99']} ms")
    lines.append(f"annotators' labels on spans with a modelled property: {report['annotator_labels']}, of which "
                 f"{report['annotator_labels_unread']} could not be read as a constraint (not in our ladder, no item of that name)")
    cov = ", ".join(f"{p} {n:,}" for p, n in report["background"]["coverage"].items())
    lines.append(f"background: {report['background']['persons']:,} persons, {report['background']['facts']:,} facts; persons per property: {cov}")
    lines.append("note: " + report["note"])
    if "utility" in report:
        lines.append("what the reader keeps of the masked mentions (taxogen_tools.evaluation.utility; true class: not judged false in the truth set):")
        lines.extend(format_utility(report["utility"], [GRAPH_GROUP, *TYPES, "ALL"]))
    return lines
