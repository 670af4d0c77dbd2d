"""Which rules the verifier makes unnecessary: each generate rule switched off in turn, the verifier in place.

For every registered rule of the stages that shape a ladder (``link``, ``ladder``, ``verify``;
``taxogen rules list``), the rule is switched off entirely — neither a filter of the ladders
nor, for a rule the verifier reads, a feature — and the verifier is cross-validated again
(grouped by document and batch, :mod:`taxogen_tools.training.verifier`) at the shipped
operating point: the false rate among the judged rungs offered, among the class replacements
shown in the judged documents (and in those judged blind), and the class share kept on the
75 shared biographies (:mod:`taxogen_tools.evaluation.verifier_curve`). A rule whose removal
changes no ladder of the judged spans changes nothing and is not cross-validated again.

    python tools/verifier_rule_ablation.py --store /work/stores/seed --data ../shared/data/wikireplace/wikireplace_dev.json
    python tools/verifier_rule_ablation.py --store store --rule former-class --rule read-as-is-a

The verifier *covers* a rule when switching it off raises neither false rate by more than
``--tolerance`` (percentage points) and lowers the class share by no more than it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("link", "ladder", "verify")


def generate_rules() -> list[str]:
    """The registered rules of the stages that shape a ladder, defined in ``engine.generate``."""
    from engine.knowledge import registered_rules

    return [n for n, r in registered_rules().items() if r.stage in STAGES and r.module.startswith("engine.generate")]


def measure(engine, judgments, shared: Path, rules: tuple[str, ...], groups: tuple[str, ...], point: float, *, seed: int = 13,
            extra=(), base_labels: list[list[str]] | None = None, progress=None) -> dict:
    """The cross-validated figures at ``point`` of a verifier reading ``rules``, over ``engine``'s
    other rules; ``None`` figures when the ladders equal ``base_labels`` (nothing changed)."""
    from taxogen_tools.evaluation.verifier_curve import curve
    from taxogen_tools.training.verifier_fit import build_dataset, cross_validate

    data = build_dataset(engine, judgments, rules, shared=shared, feature_groups=groups, extra=extra)
    labels = [ladder.labels for ladder in data.ladders]
    out = {"matched": data.rows.matched, "false_rows": int((data.y == 0).sum()), "labels": labels}
    if base_labels is not None and labels == base_labels:
        out["unchanged"] = True
        return out
    cv = cross_validate(data, seed=seed)
    (pt,) = curve(engine, data, cv, judgments, shared=shared, thresholds=(point,), progress=progress)
    out.update(pt.to_dict())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "wikireplace" / "wikireplace_dev.json"),
                        help="the shared WikiReplace documents")
    parser.add_argument("--rule", action="append", help="only this rule (repeatable)")
    parser.add_argument("--tolerance", type=float, default=0.3, help="percentage points within which a change is none")
    parser.add_argument("--json", help="also write every figure to this file")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from engine.engine import Engine
    from engine.generate.verifier import Verifier, shipped_verifier_dir
    from taxogen_tools.evaluation.truth import load_truth_set

    model = Verifier.load(shipped_verifier_dir())
    point, soft, groups = model.min_truth, tuple(model.rules), tuple(model.groups)
    judgments = load_truth_set()
    from taxogen_tools.training.verifier_data import judged_batch

    # the judged batches the shipped verifier was trained with (training rows only), where present
    extra = [j for d in model.info.get("trained_on", {}).get("judged_batches", []) if Path(d).is_dir() for j in judged_batch(d)]
    shared = Path(args.data)
    rules = args.rule or generate_rules()
    t0 = time.perf_counter()
    base_engine = Engine.from_config(None, store=args.store, verifier="none")
    base = measure(base_engine, judgments, shared, soft, groups, point, extra=extra)
    print(f"verifier reading {len(soft)} rules, min_truth {point:g}: offered false {_pct(base['offered_false_rate'])}, "
          f"shown false {_pct(base['shown_false_rate'])} (blind {_pct(base['blind_false_rate'])}), class share {base['class_share']:.1%} "
          f"({time.perf_counter() - t0:.0f} s)", flush=True)
    rows = {"": base}
    for name in rules:
        engine = Engine.from_config(None, store=args.store, verifier="none", **{"rules.disable": (name,)})
        got = measure(engine, judgments, shared, tuple(r for r in soft if r != name), groups, point, extra=extra,
                      base_labels=None if name in soft else base["labels"])
        rows[name] = got
        print(_line(name, name in soft, got, base, args.tolerance) + f"  ({time.perf_counter() - t0:.0f} s)", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({k: {kk: vv for kk, vv in v.items() if kk != "labels"} for k, v in rows.items()}, indent=1))
    return 0


def _pct(x) -> str:
    return "—" if x is None else f"{x:.2%}"


def _line(name: str, read: bool, got: dict, base: dict, tolerance: float) -> str:
    kind = "feature" if read else "filter "
    if got.get("unchanged"):
        return f"{name:<28} {kind} off: no ladder of the judged spans changes — covered (nothing to cover)"
    d_off = 100 * ((got["offered_false_rate"] or 0) - (base["offered_false_rate"] or 0))
    d_shown = 100 * ((got["shown_false_rate"] or 0) - (base["shown_false_rate"] or 0))
    d_blind = 100 * ((got["blind_false_rate"] or 0) - (base["blind_false_rate"] or 0))
    d_share = 100 * (got["class_share"] - base["class_share"])
    covered = d_shown <= tolerance and d_blind <= tolerance and d_share >= -tolerance
    return (f"{name:<28} {kind} off: offered false {_pct(got['offered_false_rate'])} ({d_off:+.2f}), shown false "
            f"{_pct(got['shown_false_rate'])} ({d_shown:+.2f}), blind {_pct(got['blind_false_rate'])} ({d_blind:+.2f}), class share "
            f"{got['class_share']:.1%} ({d_share:+.2f}) — {'covered' if covered else 'NOT covered'}")


if __name__ == "__main__":
    sys.exit(main())
