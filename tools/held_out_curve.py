"""The verifier's curve on a held-out calibration batch: false rate and class share of the class
replacements readers judged, at each operating point the batch was sanitized at.

    python tools/held_out_curve.py --batch DIR [--target 0.05] [--write engine/models/verifier/verifier.json]

``DIR`` holds one sub-directory per operating point, ``p<min_truth>/`` (``classes.jsonl`` and
``summary.json`` as ``tools/blind_batch.py`` writes them, sanitized with ``TAXOGEN_MIN_TRUTH``
set to that point), and the readers' verdicts on the union of their rows:
``classes.part*.jsonl`` (``doc_id``, ``sentence``, ``span``, ``replacement``) beside
``classes.part*.judged.jsonl`` (``id``, ``true``). A row is judged once however many points
show it.

For each point it prints the class rows shown, the false among them (a row no verdict reached
is counted apart), and the class share (class rows / masked LOC/ORG/DEM/MISC mentions). The
default operating point is the lowest point whose false rate is at most ``--target``; with
``--write`` it is stored in the verifier's ``verifier.json`` (``operating_point.min_truth``,
and the held-out curve under ``operating_point.held_out``); ``--kind court=0.5`` stores the
point of a document kind measured on other documents (``operating_point.by_kind``: a court
judgment's rungs are kept from it, :func:`engine.text.document_kind.document_kind`).

A calibration batch feeds the operating point only: no rule, no model is written from it, and
the figures reported for the product come from other batches.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _key(row: dict) -> tuple[str, str, str, str]:
    return row["doc_id"], row["sentence"], row["span"], row["replacement"]


def verdicts(batch: Path) -> dict[tuple[str, str, str, str], bool]:
    """The readers' verdict per row (``_key``) of the parts judged in ``batch``."""
    out: dict[tuple[str, str, str, str], bool] = {}
    for part in sorted(batch.glob("classes.part*.jsonl")):
        if part.name.endswith(".judged.jsonl"):
            continue
        judged_path = part.with_name(part.name.replace(".jsonl", ".judged.jsonl"))
        if not judged_path.exists():
            raise SystemExit(f"error: {part.name} has no verdicts ({judged_path.name} missing)")
        rows = {r["id"]: r for r in map(json.loads, part.read_text(encoding="utf-8").splitlines()) if r}
        for line in judged_path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                j = json.loads(line)
                if j["id"] in rows:
                    out[_key(rows[j["id"]])] = bool(j["true"])
    return out


def curve(batch: Path) -> list[dict]:
    """One point per ``p<min_truth>`` directory of ``batch``, lowest first."""
    judged = verdicts(batch)
    points = []
    for d in sorted(batch.glob("p*"), key=lambda p: float(p.name[1:])):
        rows = [json.loads(l) for l in (d / "classes.jsonl").read_text(encoding="utf-8").splitlines() if l.strip()]
        summary = json.loads((d / "summary.json").read_text(encoding="utf-8"))
        masked = sum(v["masked"] for v in summary.values())
        seen = [judged[_key(r)] for r in rows if _key(r) in judged]
        false = sum(1 for v in seen if not v)
        points.append({"min_truth": float(d.name[1:]), "shown_class": len(rows), "judged": len(seen),
                       "false": false, "false_rate": round(false / len(seen), 4) if seen else None,
                       "masked": masked, "class_share": round(len(rows) / masked, 4) if masked else 0.0})
    return points


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=Path, required=True)
    parser.add_argument("--target", type=float, default=0.05)
    parser.add_argument("--write", type=Path, default=None, help="verifier.json to store the chosen default in")
    parser.add_argument("--kind", action="append", default=[], metavar="KIND=P",
                        help="with --write: the operating point of a document kind measured elsewhere (court=0.5), repeatable")
    parser.add_argument("--kind-note", default="", help="with --kind: where that point was measured")
    args = parser.parse_args(argv)
    kinds: dict[str, float] = {}
    for item in args.kind:
        name, _, value = item.partition("=")
        try:
            kinds[name.strip()] = float(value)
        except ValueError:
            print(f"error: --kind takes KIND=P, not {item!r}", file=sys.stderr)
            return 2
        if not name.strip() or not 0.0 <= kinds[name.strip()] <= 1.0:
            print(f"error: --kind takes KIND=P with P between 0 and 1, not {item!r}", file=sys.stderr)
            return 2
    points = curve(args.batch)
    if not points:
        print(f"error: {args.batch} holds no p<min_truth> directories", file=sys.stderr)
        return 2
    ok = [p for p in points if p["false_rate"] is not None and p["false_rate"] <= args.target]
    chosen = ok[0] if ok else None
    print(f"held-out batch {args.batch.name}: class replacements judged by readers who saw no code")
    print(f"  {'min_truth':>9}  {'shown':>5}  {'judged':>6}  {'false':>5}  {'false rate':>10}  {'class share':>11}")
    for p in points:
        rate = "—" if p["false_rate"] is None else f"{100 * p['false_rate']:.1f}%"
        mark = "  ← default" if p is chosen else ""
        print(f"  {p['min_truth']:>9.2f}  {p['shown_class']:>5}  {p['judged']:>6}  {p['false']:>5}  {rate:>10}  "
              f"{100 * p['class_share']:>10.1f}%{mark}")
    if chosen is None:
        print(f"no point keeps the false rate at or below {100 * args.target:.1f}%")
    if args.write:
        if chosen is None:
            print("error: nothing written: no point reaches the target", file=sys.stderr)
            return 1
        meta = json.loads(args.write.read_text(encoding="utf-8"))
        op = meta["operating_point"]
        op["cross_validated_min_truth"] = op.get("cross_validated_min_truth", op["min_truth"])
        op["min_truth"] = chosen["min_truth"]
        op["held_out"] = {"batch": args.batch.name, "target_false_shown": args.target, "chosen": chosen["min_truth"],
                          "curve": points}
        for name, value in kinds.items():
            op.setdefault("by_kind", {})[name] = {"min_truth": value, "measured": args.kind_note}
        args.write.write_text(json.dumps(meta, indent=2, ensure_ascii=False), encoding="utf-8")
        print(f"default operating point {chosen['min_truth']} written to {args.write}"
              + "".join(f"; {name}: {value}" for name, value in kinds.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
