"""What the reader keeps of a masked mention: whether it is shown as a true class, and how
much information about the original that replacement still carries.

Information kept of the replacement shown for a masked mention (0 to 1):

- the original text: 1; ``***``: 0;
- a placeholder that names nothing beyond the entity type — ``PERSON n``, ``X``, ``DATE``: 0;
- a graph class ``c``: ``log(N / n_c) / log(N)`` with ``n_c`` the items under ``c`` in the
  store and ``N`` the typed items (:mod:`taxogen_tools.evaluation.class_sizes`; ``n_c`` below 1 is
  taken as 1). A rung reached over "part of" (P361) counts the things part of it; a
  composed rung ("city in Norway") the items under its class with that place;
- a date: by the share of the time line it still pins down,
  ``1 − log(width) / log(reference)``, the width in days of the period the label names
  and the reference :data:`REFERENCE_DAYS` (3000 years): a day 1, a month ≈ 0.75, a year
  ≈ 0.58, a decade ≈ 0.41, a century ≈ 0.24, a millennium ≈ 0.08; a month without a year
  pins down a twelfth of the time line (≈ 0.18);
- a unit kept with its number hidden ("X km", "$X million") or a duration or age ("X years",
  "age X"): a true class (the kind of quantity) but 0 — the scale weighs the value only.

A label with no class id (an annotator's label; a rung without a candidate) is matched to
the mention's ladder (equivalent labels, :func:`taxogen_tools.evaluation.labels.canonical`), then
looked up as the exact label or alias of a class of the store (the broadest such class,
the smaller information), then as "<class> in/of <place>" (the composed rule of that class
gives the property; otherwise P17, P131 or P361). A label none of these place is
*unknown*: counted apart and as 0 in the mean (so the mean is a lower bound).

*Kept as a true class*: the replacement is a rung above the placeholders (a class, a
part-of rung, a composed rung, a date period, a unit) and not judged false. Judgments come
from the truth set (:mod:`taxogen_tools.evaluation.truth`, keyed by span, type and equivalent
label): a rung judged false is not true; a rung not in the set is *unjudged* and counted
as its own figure. Our own rungs passed the generation's truth rules
(:mod:`engine.generate.truth`) on the way into the ladder, so an unjudged rung of ours is
presumed true only in that sense; an annotator's label is presumed true unless judged false.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from taxogen_tools.evaluation.class_sizes import ClassSizes
from taxogen_tools.evaluation.labels import PERSON_KEY, canonical
from engine.generate.linking import fold
from engine.types import MASK, Candidate, EntityType

#: The time line a date is placed on: 3000 years, in days.
REFERENCE_DAYS = 3000 * 365.25
GRAPH_GROUP = "LOC+ORG+DEM+MISC"
TYPES = ("LOC", "ORG", "DEM", "MISC", "PERSON", "DATETIME", "QUANTITY", "CODE")
#: Kinds of replacement that keep a class of the original (the rest: original, mask, placeholder).
CLASS_KINDS = ("class", "part", "composed", "date", "unit", "unknown")
_PLACEHOLDERS = {"x", "date"}
_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
_DAY = 1.0
_MONTH_DAYS = 365.25 / 12
_YEAR_DAYS = 365.25


@dataclass(frozen=True, slots=True)
class MentionUtility:
    """One masked mention's replacement, as the reader keeps it."""

    entity_type: str
    span: str
    shown: str
    #: original, mask, placeholder, class, part, composed, date, unit, unknown
    kind: str
    #: information kept, 0 to 1 (None: unknown)
    information: float | None
    #: true / false / unjudged (a class kind), "" otherwise
    judged: str = ""
    qid: str | None = None
    size: int | None = None

    @property
    def true_class(self) -> bool:
        return self.kind in CLASS_KINDS and self.judged != "false"

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("entity_type", "span", "shown", "kind", "information", "judged", "qid", "size")}


@dataclass
class UtilitySummary:
    """Masked mentions of one group: kept as a true class, unjudged, information kept."""

    masked: int = 0
    kept_class: int = 0
    unjudged: int = 0
    judged_false: int = 0
    unknown: int = 0
    #: class rungs of at most one item in the store (information 1 by the clamp: the store is a sample)
    thin: int = 0
    information: float = 0.0

    def add(self, u: MentionUtility) -> None:
        self.masked += 1
        self.kept_class += u.true_class
        self.unjudged += u.true_class and u.judged == "unjudged"
        self.judged_false += u.kind in CLASS_KINDS and u.judged == "false"
        self.unknown += u.information is None
        self.thin += u.size is not None and u.size <= 1
        self.information += u.information or 0.0

    @property
    def kept_share(self) -> float:
        return self.kept_class / self.masked if self.masked else 0.0

    @property
    def mean_information(self) -> float:
        """Mean over the masked mentions, unknown replacements as 0."""
        return self.information / self.masked if self.masked else 0.0

    @property
    def mean_information_scored(self) -> float:
        """Mean over the masked mentions whose replacement could be scored (unknown left out)."""
        scored = self.masked - self.unknown
        return self.information / scored if scored else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"masked": self.masked, "kept_class": self.kept_class, "kept_share": round(self.kept_share, 4),
                "unjudged": self.unjudged, "judged_false": self.judged_false, "unknown": self.unknown, "thin": self.thin,
                "mean_information": round(self.mean_information, 4), "mean_information_scored": round(self.mean_information_scored, 4)}


def summarize(mentions: Iterable[MentionUtility]) -> dict[str, UtilitySummary]:
    """Per entity type present, the four graph types together, and all."""
    out: dict[str, UtilitySummary] = defaultdict(UtilitySummary)
    for u in mentions:
        out[u.entity_type].add(u)
        if EntityType.parse(u.entity_type).is_graph:
            out[GRAPH_GROUP].add(u)
        out["ALL"].add(u)
    order = [t for t in TYPES if t in out] + [g for g in (GRAPH_GROUP, "ALL") if g in out]
    return {g: out[g] for g in order}


# --- dates -----------------------------------------------------------------------------
def period_days(label: str) -> float | None:
    """Width in days of the period a date label names (None: not a date label)."""
    s = " ".join(label.lower().strip(" .,").split())
    s = re.sub(r"^(?:date in|in|on)\s+", "", s)
    s = re.sub(r"^the\s+", "", s)
    if re.fullmatch(rf"\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTH},? \d{{3,4}}|{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?,? \d{{3,4}}"
                    r"|\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4}", s):
        return _DAY
    if re.fullmatch(rf"{_MONTH},? \d{{3,4}}", s):
        return _MONTH_DAYS
    if re.fullmatch(r"\d{3,4}(?: ad| ce)?", s):
        return _YEAR_DAYS
    if re.fullmatch(r"(?:early |mid |late |mid-)?\d{2,3}0['’]?s", s):
        return 10 * _YEAR_DAYS
    if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th) century", s):
        return 100 * _YEAR_DAYS
    if re.fullmatch(r"\d(?:st|nd|rd|th) millennium", s):
        return 1000 * _YEAR_DAYS
    m = re.fullmatch(r"between the (\d{3,4})s and the (\d{3,4})s", s)
    if m:
        return (int(m.group(2)) - int(m.group(1)) + 10) * _YEAR_DAYS
    m = re.fullmatch(r"between the (\d{1,2})(?:st|nd|rd|th) century and the (\d{1,2})(?:st|nd|rd|th) century", s)
    if m:
        return (int(m.group(2)) - int(m.group(1)) + 1) * 100 * _YEAR_DAYS
    if re.fullmatch(_MONTH, s):
        return REFERENCE_DAYS / 12
    return None


def date_information(label: str) -> float | None:
    """Information a date label keeps: ``1 − log(width)/log(REFERENCE_DAYS)``, clamped to [0, 1]."""
    days = period_days(label)
    if days is None:
        return None
    return _clamp(1.0 - math.log(max(days, 1.0)) / math.log(REFERENCE_DAYS))


def _clamp(x: float) -> float:
    return min(1.0, max(0.0, x))


_DURATION = re.compile(r"(?:age X|X[- ](?:years?|months?|weeks?|days?|decades?|centuries|century|hours?|minutes?|seasons?)\b.*)", re.I)


# --- scoring ---------------------------------------------------------------------------
class UtilityScorer:
    """Scores replacements of masked mentions against one store and one truth set."""

    def __init__(self, engine, judgments: Sequence[Any] | None = None, sizes: ClassSizes | None = None) -> None:
        self.engine = engine
        self.sizes = sizes if sizes is not None else ClassSizes.for_store(engine.kg, engine.chains.view)
        self._log_n = math.log(max(self.sizes.typed, 2))
        if judgments is None:
            from taxogen_tools.evaluation.truth import load_truth_set

            judgments = load_truth_set()
        #: (span, type, canonical label) → judged true; equivalent labels judged apart: false wins
        self.truth: dict[tuple[str, str, str], bool] = {}
        for j in judgments:
            key = (j.span, j.entity_type, canonical(j.replacement))
            self.truth[key] = self.truth.get(key, True) and j.true
        self._rules = {r.name: r for r in engine.chains.rules.composed}
        self._by_class = {r.applies_to: r for r in engine.chains.rules.composed}
        self._labels: dict[str, list[str]] | None = None

    def information_of_class(self, size: int) -> float:
        """``log(N / n) / log(N)`` for a class of ``size`` items (at least 1)."""
        return _clamp(math.log(self.sizes.typed / max(size, 1)) / self._log_n)

    def score(self, entity_type: EntityType | str, span: str, shown: str, candidate: Candidate | None = None,
              ladder: Sequence[Candidate] = ()) -> MentionUtility:
        """The utility of ``shown`` for a masked mention ``span`` (its ladder candidate if known)."""
        etype = EntityType.parse(entity_type).value
        kind, info, qid, size = self._kind(etype, span, shown, candidate, ladder)
        judged = ""
        if kind in CLASS_KINDS:
            verdict = self.truth.get((span, etype, canonical(shown)))
            judged = "unjudged" if verdict is None else ("true" if verdict else "false")
        return MentionUtility(etype, span, shown, kind, info, judged, qid, size)

    def _kind(self, etype: str, span: str, shown: str, candidate: Candidate | None,
              ladder: Sequence[Candidate]) -> tuple[str, float | None, str | None, int | None]:
        if shown == MASK:
            return "mask", 0.0, None, None
        if fold(shown) == fold(span):
            return "original", 1.0, None, None
        key = canonical(shown)
        if key == PERSON_KEY or key in _PLACEHOLDERS:
            return "placeholder", 0.0, None, None
        if etype == "DATETIME" or period_days(shown) is not None:
            info = date_information(shown)
            if info is not None:
                return "date", info, None, None
        if _DURATION.fullmatch(shown.strip()) or (etype in ("QUANTITY", "CODE") and "X" in shown):
            return "unit", 0.0, None, None
        if candidate is None or (candidate.qid is None and candidate.rule not in self._rules):
            candidate = next((c for c in ladder if c.label != MASK and canonical(c.label) == key), candidate)
        if candidate is not None:
            found = self._candidate_size(candidate)
            if found is not None:
                kind, qid, size = found
                return kind, self.information_of_class(size), qid, size
        found = self._label_size(shown)
        if found is not None:
            kind, qid, size = found
            return kind, self.information_of_class(size), qid, size
        return "unknown", None, None, None

    def _candidate_size(self, c: Candidate) -> tuple[str, str | None, int] | None:
        if c.qid and c.source == "P361":
            return "part", c.qid, self.sizes.size(c.qid, "P361")
        if c.qid:
            return "class", c.qid, self.sizes.size(c.qid)
        rule = self._rules.get(c.rule or "")
        if rule is None or not c.link_qid:
            return None
        via = rule.via.rsplit("/", 1)[-1]
        tax = self.engine.chains.view
        for place in (tax.values(c.link_qid, via) if tax is not None else ()):
            label = self.engine.chains.label(place)
            if label and rule.template.replace("{label}", label) == c.label:
                return "composed", rule.applies_to, self.sizes.size_with_value(rule.applies_to, (via,), place)
        return "class", rule.applies_to, self.sizes.size(rule.applies_to)

    def _class_labels(self) -> dict[str, list[str]]:
        """Canonical label (:func:`canonical`) → class nodes bearing it (the class graph's labels after the
        overlay's overrides), built on first use: one pass over the labelled class nodes."""
        if self._labels is None:
            view = self.engine.chains.view
            table: dict[str, list[str]] = defaultdict(list)
            overrides = self.engine.chains.rules.label_overrides
            for q in list(view.labels) if view is not None else ():
                if self.sizes.node(q) >= 0:
                    table[canonical(overrides.get(q) or view.labels.get(q) or "")].append(q)
            for q, text in overrides.items():
                if self.sizes.node(q) >= 0 and q not in table[canonical(text)]:
                    table[canonical(text)].append(q)
            self._labels = dict(table)
        return self._labels

    def class_of_label(self, label: str) -> tuple[str, int] | None:
        """The broadest class of the store whose label is equivalent to ``label`` (failing
        that: whose label or alias in the linker's index is ``label``), with its size."""
        qids = self._class_labels().get(canonical(label), [])
        if not qids:
            key, index = fold(label), self.engine.linker.index
            qids = [q for q in dict.fromkeys(list(index.labels.get(key, ())) + list(index.aliases.get(key, ()))) if self.sizes.node(q) >= 0]
        if not qids:
            return None
        n, q = max((self.sizes.size(q), q) for q in qids)
        return q, n

    def _label_size(self, label: str) -> tuple[str, str, int] | None:
        found = self.class_of_label(label)
        if found is not None:
            return "class", found[0], found[1]
        m = re.fullmatch(r"(.+?)\s+(?:in|of)\s+(?:the\s+)?(.+)", " ".join(label.split()))
        if not m:
            return None
        head = self.class_of_label(m.group(1))
        if head is None:
            return None
        cls, size = head
        index = self.engine.linker.index
        places = list(index.labels.get(fold(m.group(2)), ())) + list(index.aliases.get(fold(m.group(2)), ()))
        rule = self._by_class.get(cls)
        props = (rule.via.rsplit("/", 1)[-1],) if rule is not None else ("P17", "P131", "P361")
        best = max((self.sizes.size_with_value(cls, props, p) for p in dict.fromkeys(places)), default=0)
        return ("composed", cls, best) if best > 0 else ("class", cls, size)


# --- releases of a sanitized document ---------------------------------------------------
def shown_of(replacement) -> tuple[str, Candidate | None]:
    """What the reader is shown for a replacement — its rung, or ``***`` when rendering
    shows the rung as ``***`` (a class in a list of masks) — and the rung's candidate."""
    label = MASK if replacement.replacement == MASK else (replacement.rung or replacement.replacement)
    cand = next((a.candidate for a in replacement.alternatives if a.candidate.label == label), None)
    return label, cand


@dataclass
class ReleaseUtility:
    """Scored mentions per release (``original``, ``annotators``, ``full masking``, ``taxogen``…)."""

    mentions: dict[str, list[MentionUtility]] = field(default_factory=lambda: defaultdict(list))

    def summaries(self) -> dict[str, dict[str, UtilitySummary]]:
        return {name: summarize(ms) for name, ms in self.mentions.items()}

    def to_dict(self) -> dict[str, Any]:
        return {name: {g: s.to_dict() for g, s in groups.items()} for name, groups in self.summaries().items()}

    def kept(self, graph_only: bool = True) -> dict[str, list[dict[str, Any]]]:
        """Per release (the original and full masking apart), the mentions kept as a true
        class — of the graph types only, by default — for a reader to check."""
        return {name: [u.to_dict() for u in ms if u.true_class and (not graph_only or EntityType.parse(u.entity_type).is_graph)]
                for name, ms in self.mentions.items() if name not in ("original", "full masking")}


def annotated_replacements(doc, result) -> list[tuple[Any, Any]]:
    """(WikiReplace mention, replacement) of the annotated, masked mentions of one sanitized
    document — the mentions ``evaluate sanitize`` scores."""
    wr = {(m.start, m.end): m for m in doc.all_mentions()}
    out = []
    for r in result.replacements:
        m = wr.get((r.mention.start, r.mention.end))
        if not r.kept and m is not None and m.annotated:
            out.append((m, r))
    return out


def score_document(scorer: UtilityScorer, doc, result, into: ReleaseUtility, release: str = "taxogen", *,
                   baselines: bool = True) -> None:
    """Score one sanitized document's annotated, masked mentions into ``into``: the
    ``release`` row, and with ``baselines`` the original, the annotators' majority and full masking."""
    from taxogen_tools.evaluation.labels import majority_label

    for m, r in annotated_replacements(doc, result):
        etype = m.entity_type.value
        label, cand = shown_of(r)
        ladder = [a.candidate for a in r.alternatives]
        into.mentions[release].append(scorer.score(etype, m.text, label, cand, ladder))
        if baselines:
            into.mentions["original"].append(scorer.score(etype, m.text, m.text))
            gold = majority_label(m.selection) or MASK
            into.mentions["annotators"].append(scorer.score(etype, m.text, gold, None, ladder))
            into.mentions["full masking"].append(scorer.score(etype, m.text, MASK))


def score_labels(scorer: UtilityScorer, text: str, mentions: Sequence[Any], labels: Sequence[str], masked: Sequence[bool],
                 result, into: ReleaseUtility, release: str) -> None:
    """Score one release of a document given as one shown label per mention (``masked``:
    which mentions count). ``result`` is a sanitized output of the document: for a release
    named ``taxogen…`` its replacements give what is shown (:func:`shown_of`); for the
    others their ladders place the labels."""
    by_offset = {(r.mention.start, r.mention.end): r for r in result.replacements}
    for m, label, mk in zip(mentions, labels, masked):
        if not mk:
            continue
        r = by_offset.get((m.start, m.end))
        cand = None
        if r is not None and release.startswith("taxogen") and not r.kept:
            label, cand = shown_of(r)
        ladder = [a.candidate for a in r.alternatives] if r is not None else []
        into.mentions[release].append(scorer.score(m.entity_type, text[m.start:m.end], label, cand, ladder))


RELEASE_NAMES = {"original": "original", "annotators": "annotators' majority", "full masking": "full masking"}


def format_utility(table: dict[str, dict[str, dict[str, Any]]], groups: Sequence[str] | None = None) -> list[str]:
    """Text lines of a :meth:`ReleaseUtility.to_dict` table: per group, one row per release."""
    order = [r for r in ("original", "annotators", "full masking") if r in table] + [r for r in table if r not in RELEASE_NAMES]
    present = list(dict.fromkeys(g for rows in table.values() for g in rows))
    lines = [f"    {'group':<17}{'release':<22}{'masked':>7}{'true class':>11}{'%':>8}{'unjudged':>9}{'false':>6}"
             f"{'unknown':>8}{'n_c≤1':>6}{'info kept':>10}{'(scored)':>9}"]
    for g in (groups or present):
        for r in order:
            s = table[r].get(g)
            if s is None:
                continue
            lines.append(f"    {g:<17}{RELEASE_NAMES.get(r, r):<22}{s['masked']:>7}{s['kept_class']:>11}{s['kept_share']:>8.1%}"
                         f"{s['unjudged']:>9}{s['judged_false']:>6}{s['unknown']:>8}{s['thin']:>6}{s['mean_information']:>10.3f}"
                         f"{s['mean_information_scored']:>9.3f}")
    return lines
