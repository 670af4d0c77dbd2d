"""Training the verifier (:mod:`engine.generate.verifier`, ``taxogen train-verifier``): the
rules it reads and its feature groups, its cross-validated curve (grouped by document and
batch: :mod:`taxogen_tools.evaluation.verifier_curve`), the default operating point chosen on
it, and the model fitted on every judged rung (:mod:`taxogen_tools.training.verifier_fit`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from engine.generate.verifier import Verifier
from engine.generate.verify_features import FEATURE_GROUPS
from taxogen_tools.training.verifier_data import judged_batch
from taxogen_tools.training.verifier_fit import CrossValidation, Dataset, build_dataset, cross_validate, fit, verifier_of

#: The rules whose verdicts the shipped verifier reads as features (switched off while ladders
#: are built): none — every rule still filters and the verifier drops further rungs. Reading
#: entity-type-fits-item, team-not-place, institution-not-building and read-as-is-a instead
#: (``--rules``) cross-validates about as well on the seed (docs/evaluation.md), but on the
#: small stores of the rules' own tests the verifier does not take their decisions.
DEFAULT_RULES: tuple[str, ...] = ()
#: The feature groups of the shipped verifier: all of them (the edge path and depth among them)
#: but ``shape``, ``namesakes`` and ``context``: reading ``shape`` raised the cross-validated AUC
#: on the seed by 0.002 only, ``namesakes`` and ``context`` lowered it (docs/evaluation.md);
#: ``--groups`` reads them.
DEFAULT_GROUPS: tuple[str, ...] = tuple(g for g in FEATURE_GROUPS if g not in ("shape", "namesakes", "context"))


def chosen_rules(text: str | None) -> tuple[str, ...]:
    """``--rules a,b`` checked against the rules the verifier can read (None: :data:`DEFAULT_RULES`)."""
    from engine.errors import InputError
    from engine.generate.verify_features import RULE_VERDICTS

    if text is None:
        return DEFAULT_RULES
    names = tuple(r.strip() for r in text.split(",") if r.strip())
    unknown = [r for r in names if r not in RULE_VERDICTS]
    if unknown:
        raise InputError(f"the verifier reads no verdict of rule {unknown[0]!r}; it reads {', '.join(RULE_VERDICTS)}")
    return names


def chosen_groups(text: str | None) -> tuple[str, ...]:
    """``--groups a,b`` checked against the verifier's feature groups (None: :data:`DEFAULT_GROUPS`)."""
    from engine.cli.common import checked_groups

    return checked_groups(text, FEATURE_GROUPS, DEFAULT_GROUPS, "verifier feature groups")


def cross_validated_curve(engine, judgments, *, shared: str | Path, rules: Sequence[str], groups: Sequence[str] = FEATURE_GROUPS,
                          extra: Sequence = (), judged_docs: Sequence[str | Path] = (), k: int | None = None, seed: int = 13,
                          thresholds: Sequence[float] | None = None,
                          progress: Callable[[str], None] | None = None):
    """The dataset, its grouped cross-validation and the curve of every operating point
    (:mod:`taxogen_tools.evaluation.verifier_curve`); ``engine`` without a verifier, ``shared``
    the shared WikiReplace documents, ``extra`` judgments that are training rows only (the
    sanitized figures read ``judgments`` alone), ``judged_docs`` the documents of those
    judgments (their document state: :func:`taxogen_tools.training.verifier_data.document_states`)."""
    from taxogen_tools.evaluation.verifier_curve import THRESHOLDS, curve

    data = build_dataset(engine, judgments, rules, shared=shared, feature_groups=groups, extra=extra,
                         judged_docs=judged_docs, progress=progress)
    if progress:
        progress(f"{data.rows.matched} of {data.rows.judgments} graph-type judgments matched to a rung "
                 f"({int((data.y == 0).sum())} false); cross-validating over {len(set(data.groups.tolist()))} groups …")
    cv = cross_validate(data, seed=seed, progress=progress)
    if progress:
        progress("sanitizing the judged documents at each operating point …")
    return data, cv, curve(engine, data, cv, judgments, shared=shared, k=k, thresholds=thresholds or THRESHOLDS, progress=progress)


def summary_lines(data: Dataset, cv: CrossValidation, points, default: float | None) -> list[str]:
    """What a run of the curve prints: the matched judgments, the groups, the curve."""
    from sklearn.metrics import roc_auc_score

    from taxogen_tools.evaluation.verifier_curve import format_curve

    unmatched = ", ".join(f"{t} {n}" for t, n in sorted(data.rows.unmatched.items()))
    lines = [f"truth set: {data.rows.judgments} judgments of LOC/ORG/DEM/MISC spans; {data.rows.matched} matched to a rung of "
             f"their span's ladder ({int((data.y == 0).sum())} false), not found: {unmatched}",
             f"rules read as features: {', '.join(data.rules) or 'none'}; feature groups: {', '.join(data.feature_groups)}",
             f"cross-validation: leave one group out, {len(set(data.groups.tolist()))} groups (a document and a batch never split); "
             f"AUC {roc_auc_score(data.y, cv.probabilities):.3f}" if len(set(data.y.tolist())) > 1 else "",
             "offered: the judged rungs kept; shown: class replacements of the judged documents' masked LOC/ORG/DEM/MISC mentions "
             "(blind: of the batches judged blind); class share: kept as a true class, 75 shared biographies"]
    return [line for line in lines if line] + format_curve(points, default)


def train_verifier(engine, *, shared: str | Path, truth: str | None = None, rules: str | None = None, groups: str | None = None,
                   judged: Sequence[str | Path] = (), judged_docs: Sequence[str | Path] = (), target: float = 0.05, k: int | None = None, seed: int = 13,
                   progress: Callable[[str], None] | None = None) -> tuple[Verifier, list[str]]:
    """Cross-validate, choose the default operating point (false among the class replacements
    shown at most ``target``, the largest class share kept: :func:`operating_point`), fit the
    model on every judged rung and return it with the lines to print."""
    from taxogen_tools.evaluation.truth import load_truth_set
    from taxogen_tools.evaluation.verifier_curve import operating_point

    judgments = load_truth_set(truth)
    extra = [j for d in judged for j in judged_batch(d)]
    data, cv, points = cross_validated_curve(engine, judgments, shared=shared, rules=chosen_rules(rules), groups=chosen_groups(groups),
                                             extra=extra, judged_docs=judged_docs, k=k, seed=seed, progress=progress)
    chosen = operating_point(points, target) or max(points, key=lambda p: p.min_truth)
    if progress:
        progress("fitting the model on every judged rung …")
    booster, calibration = fit(data.X, data.y, data.groups, data.names, seed=seed)
    info = {
        "trained_on": {"judgments": data.rows.judgments, "matched": data.rows.matched, "false": int((data.y == 0).sum()),
                       "unmatched": data.rows.unmatched, "groups": sorted(set(data.groups.tolist())),
                       "judged_batches": [str(Path(d).resolve()) for d in judged],
                       "judged_documents": [str(Path(d).resolve()) for d in judged_docs]},
        "operating_point": {"target_false_shown": target, **chosen.to_dict()},
        "curve": [p.to_dict() for p in points],
        "seed": seed,
    }
    verifier = verifier_of(booster, calibration, data, chosen.min_truth, info=info)
    return verifier, summary_lines(data, cv, points, chosen.min_truth)
