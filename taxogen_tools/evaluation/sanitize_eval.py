"""``taxogen evaluate sanitize``: what a reader receives, measured end to end.

The documents are sanitized by the product itself (``Engine.sanitize_many``: its own
ladders, ranker and rendering). In cross-validation the ranker of each fold is trained
on the other folds' documents (folds grouped by document, the same assignment as
``evaluate selection``); with ``--model`` one existing model sanitizes every document.

Scored per entity type and overall, over the annotated mentions (non-empty selection):

- **agreement**: the replacement the reader sees equals the annotators' majority choice
  / any annotator's choice, labels compared by :func:`taxogen_tools.evaluation.labels.canonical`
  (case, articles, "date in the" and PERSON numbering ignored);
- **ceiling**: the majority choice is offered by our ladder (``***`` always is);
- **``***`` share**: ours beside the annotators' majority;

and over every replacement of the documents:

- **leaks**: a replacement holding the text of another masked mention of the document
  (another entity), or a name (label, alias of 4+ characters, demonym) of the item the
  linker links that mention to (exact, alias, normalised or demonym links) or of the
  country the mention is a demonym of;
- **readability flags** (:mod:`taxogen_tools.evaluation.flags`): each named construction
  counted, and the share of sentences holding one — of all output sentences and of
  those holding a replacement;

and what the reader keeps of the annotated mentions (:mod:`taxogen_tools.evaluation.utility`):
shown as a true class, and the information kept, for the original, the annotators'
majority, full masking, our output and our output under the privacy guard at each ``k``.
"""

from __future__ import annotations

import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Sequence

from engine.io.docio import BadRecord, DocRecord, read_documents
from engine.errors import InputError
from taxogen_tools.evaluation.agreement_bound import agreement_estimate, one_vs_others
from taxogen_tools.evaluation.flags import FLAG_NAMES, Flag, Region, count_sentences, flag_text
from taxogen_tools.evaluation.mention_score import MentionScore
from taxogen_tools.evaluation.miss_causes import miss_causes
from taxogen_tools.evaluation.utility import ReleaseUtility, UtilityScorer
from taxogen_tools.evaluation.utility import score_document as score_utility
from taxogen_tools.evaluation.labels import (
    PERSON_KEY,
    canonical,
    canonical_set,
    majority_label,
)
from engine.generate.linking import LinkMethod, contains_words, fold
from engine.select.policy import PASSED_OVER_REASONS
from engine.doc import SanitizeResult
from engine.types import MASK, EntityType
from engine.io.wikireplace import WRDocument, WRMention, load_wikireplace

TRAIN_MODES = ("served", "wikireplace")
_NAMING_LINKS = (LinkMethod.EXACT, LinkMethod.ALIAS, LinkMethod.NORMALISED, LinkMethod.DEMONYM)


@dataclass(frozen=True, slots=True)
class Leak:
    """A replacement that reveals another masked mention."""

    doc_id: str
    span: str
    replacement: str
    other: str
    kind: str  # "text" or "linked item"
    name: str


@dataclass
class SanitizeEvaluation:
    """Everything ``evaluate sanitize`` prints."""

    mode: str
    documents: int
    mentions: list[MentionScore] = field(default_factory=list)
    unmatched: int = 0
    leaks: list[Leak] = field(default_factory=list)
    replacements: int = 0
    flags: Counter = field(default_factory=Counter)
    sentences: int = 0
    sentences_with_replacement: int = 0
    flagged_sentences: int = 0
    flagged_sentences_with_replacement: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)
    training: dict[str, Any] = field(default_factory=dict)
    #: what the reader keeps per release (taxogen_tools.evaluation.utility); None when not measured
    utility: ReleaseUtility | None = None

    def per_type(self) -> dict[str, dict[str, float]]:
        groups: dict[str, list[MentionScore]] = defaultdict(list)
        for m in self.mentions:
            groups[m.entity_type].append(m)
        out = {t: _type_figures(ms) for t, ms in sorted(groups.items())}
        out["ALL"] = _type_figures(self.mentions)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode, "documents": self.documents, "annotated_mentions": len(self.mentions),
            "unmatched_mentions": self.unmatched, "per_type": self.per_type(),
            "leaks": {"count": len(self.leaks), "replacements": self.replacements,
                      "list": [_leak_dict(l) for l in self.leaks]},
            "readability": {
                "flags": {name: self.flags.get(name, 0) for name in FLAG_NAMES},
                "sentences": self.sentences, "sentences_with_replacement": self.sentences_with_replacement,
                "flagged_sentences": self.flagged_sentences,
                "flagged_sentences_with_replacement": self.flagged_sentences_with_replacement,
                "flagged_share": _share(self.flagged_sentences, self.sentences),
                "flagged_share_of_sentences_with_replacement": _share(self.flagged_sentences_with_replacement, self.sentences_with_replacement),
            },
            "training": self.training,
            "annotator_agreement": {t: a.to_dict() for t, a in agreement_estimate(self.mentions).items()},
            "miss_causes": miss_causes(self.mentions).to_dict(),
        } | ({"utility": self.utility.to_dict(), "utility_kept": self.utility.kept()} if self.utility is not None else {})


def _leak_dict(leak: Leak) -> dict[str, str]:
    return {k: getattr(leak, k) for k in ("doc_id", "span", "replacement", "other", "kind", "name")}


def _share(a: int, b: int) -> float:
    return round(a / b, 4) if b else 0.0


def _type_figures(ms: Sequence[MentionScore]) -> dict[str, float]:
    n = len(ms)
    return {
        "mentions": n,
        "majority": _share(sum(m.agrees for m in ms), n),
        "any": _share(sum(m.agrees_any for m in ms), n),
        "ceiling": _share(sum(m.in_ladder for m in ms), n),
        "mask_ours": _share(sum(m.output == MASK for m in ms), n),
        "mask_annotators": _share(sum(m.majority == MASK for m in ms), n),
    }


# --- leaks -----------------------------------------------------------------------------
class _PerItemNames:
    """``.get(qid)`` of an item's names (labels, aliases of 4+ characters, demonyms) from ``names_of``."""

    def __init__(self, index) -> None:
        self.index = index

    def get(self, qid: str, default=()) -> set[str]:
        names = {k for k, kind in self.index.names_of(qid) if kind != "alias" or len(k) >= 4}
        return names or set(default)


class LeakChecker:
    """Names that reveal a masked mention: its own text, and its linked item's names.

    As in the sanitizer's guard (:mod:`engine.privacy.leaks`), a class ("producer",
    "university") linked from a mention is no name of it: naming a class reveals nothing
    about one mention.
    """

    def __init__(self, engine) -> None:
        self.linker = engine.linker
        self.item_names = engine.item_names
        self._names: dict[str, set[str]] | None = None

    def _reverse(self) -> dict[str, set[str]]:
        idx = self.linker.index
        if hasattr(idx, "names_of"):  # a store's SQLite index: looked up per item
            return _PerItemNames(idx)  # type: ignore[return-value]
        if self._names is None:
            names: dict[str, set[str]] = defaultdict(set)
            idx = self.linker.index
            for key, qids in idx.labels.items():
                for q in qids:
                    names[q].add(key)
            for key, qids in idx.aliases.items():
                if len(key) >= 4:
                    for q in qids:
                        names[q].add(key)
            for key, qids in idx.demonyms.items():
                for q in qids:
                    names[q].add(key)
            self._names = names
        return self._names

    def linked_names(self, text: str, entity_type: EntityType, context: str) -> set[str]:
        """Names of the item ``text`` links to (only links that name the item)."""
        if not entity_type.is_graph:
            return set()
        from engine.types import Span

        names: set[str] = set()
        for country in self.linker.index.demonyms.get(fold(text), ()):  # "French" names France
            names |= self._reverse().get(country, set())
        links = self.linker.link(Span(text, entity_type, context=context))
        if links and links[0].method in _NAMING_LINKS and not self.item_names.is_class(links[0].qid):
            names |= set(self._reverse().get(links[0].qid, ())) | {fold(links[0].label)}
        return names

    def leaks(self, doc_id: str, result: SanitizeResult, entity_of: dict[int, str]) -> list[Leak]:
        """Leaks of one sanitized document; ``entity_of`` maps a replacement's index to its entity key."""
        masked = [(i, r) for i, r in enumerate(result.replacements) if not r.kept]
        forms: dict[int, tuple[set[str], set[str]]] = {}
        for i, r in masked:
            context = result.original[max(0, r.mention.start - 200): r.mention.end + 200]
            forms[i] = ({fold(r.original)}, self.linked_names(r.original, r.mention.entity_type, context))
        out = []
        for i, r in masked:
            shown = fold(r.replacement)
            if r.replacement == MASK or canonical(r.replacement) == PERSON_KEY:
                continue
            for j, other in masked:
                if j == i or entity_of.get(j) == entity_of.get(i):
                    continue
                texts, linked = forms[j]
                hit = next(((k, n) for k, ns in (("text", texts), ("linked item", linked)) for n in sorted(ns) if n and contains_words(shown, n)), None)
                if hit:
                    out.append(Leak(doc_id, r.original, r.replacement, other.original, hit[0], hit[1]))
                    break
        return out


# --- folds and models ------------------------------------------------------------------
def document_folds(docs: Sequence[WRDocument], k: int, seed: int = 13) -> list[set[str]]:
    """Document ids per fold — the assignment of ``evaluate selection`` (same seed, same sizes)."""
    from taxogen_tools.evaluation.selection import grouped_folds

    stubs = [SimpleNamespace(item=SimpleNamespace(group=d.doc_id)) for d in docs for m in d.all_mentions() if m.annotated]
    return [{stubs[i].item.group for i in fold_idx} for fold_idx in grouped_folds(stubs, k, seed)]


class Trainer:
    """Trains rankers on a subset of documents, from served or WikiReplace ladders."""

    def __init__(self, engine, data: Path, docs: Sequence[WRDocument], mode: str, *, seed: int = 13, progress: Callable[[str], None] | None = None,
                 groups: Sequence[str] | None = None) -> None:
        from engine.select.features import DEFAULT_GROUPS, SERVED_GROUPS, FeatureBuilder

        groups = tuple(groups) if groups else (SERVED_GROUPS if mode == "served" else DEFAULT_GROUPS)
        from taxogen_tools.training.ranker import FeatureTable

        if mode not in TRAIN_MODES:
            raise InputError(f"unknown training ladders {mode!r}; expected one of {', '.join(TRAIN_MODES)}")
        self.mode, self.seed = mode, seed
        if mode == "served":
            from taxogen_tools.evaluation.served import served_items

            served = served_items(engine, docs, progress)
            self.items = served.items
            builder = FeatureBuilder(engine.embedder, groups=groups, graph=engine.graph_stats)
            self.table = FeatureTable.build(builder, self.items)
            self.summary = {"ladders": "served", "annotated": served.annotated, "training_items": len(self.items), "skipped": dict(served.skipped),
                            "mapped_to_ancestor": dict(served.mapped)}
        else:
            from taxogen_tools.training.ranker import prepare

            prepared = prepare(data, engine, groups=groups, progress=progress)
            self.items, self.table = prepared.items, prepared.table
            self.summary = {"ladders": "wikireplace", "training_items": len(self.items)}
        self.groups = groups
        self.summary["rounds"] = self.rounds = rounds_for(mode)

    def train(self, doc_ids: set[str]):
        from taxogen_tools.training.ranker import train_ranker

        idx = [i for i, it in enumerate(self.items) if it.item.group in doc_ids]
        return train_ranker(self.items, self.table, idx, groups=self.groups, seed=self.seed, rounds=self.rounds)


def rounds_for(ladders: str) -> int:
    """Default boosting rounds of a training mode (see :data:`taxogen_tools.evaluation.served.SERVED_ROUNDS`)."""
    from taxogen_tools.evaluation.served import SERVED_ROUNDS
    from engine.select.ranker import DEFAULT_ROUNDS

    return SERVED_ROUNDS if ladders == "served" else DEFAULT_ROUNDS


def with_ranker(engine, ranker):
    """An engine sharing ``engine``'s store, linker and sources, ranking with ``ranker``."""
    from engine.engine import Engine

    out = Engine(kg=engine.kg, chains=engine.chains, linker=engine.linker, sources=engine.sources, config=engine.config, ranker=ranker,
                 truth=engine.truth)
    out.remote = engine.remote
    return out


# --- scoring ---------------------------------------------------------------------------
def _records(data: Path) -> dict[str, DocRecord]:
    out = {}
    for rec in read_documents(data, "wikireplace"):
        if isinstance(rec, BadRecord):
            raise InputError(f"{rec.position}: {rec.reason}")
        if isinstance(rec, DocRecord):
            out[rec.doc_id] = rec
    return out


def score_document(report: SanitizeEvaluation, doc: WRDocument, result: SanitizeResult, checker: LeakChecker | None, examples: int = 0) -> None:
    """Add one sanitized document's figures to ``report``."""
    wr: dict[tuple[int, int], WRMention] = {(m.start, m.end): m for m in doc.all_mentions()}
    annotated = {k for k, m in wr.items() if m.annotated}
    entity_of: dict[int, str] = {}
    regions, persons = [], []
    seen = set()
    skipped: dict[tuple[int, int], list[str]] = defaultdict(list)
    passed_over: dict[tuple[int, int], list[str]] = defaultdict(list)
    for sk in result.skipped:
        (passed_over if any(r in sk.reason for r in PASSED_OVER_REASONS) else skipped)[(sk.mention_start, sk.mention_end)].append(sk.label)
    for i, r in enumerate(result.replacements):
        key = (r.mention.start, r.mention.end)
        m = wr.get(key)
        entity_of[i] = (m.entity_id if m and m.entity_id else f"mention-{key}")
        if r.kept:
            continue
        report.replacements += 1
        region = Region(r.new_start, r.new_end, r.mention.entity_type.value)
        regions.append(region)
        if r.mention.entity_type is EntityType.PERSON:
            persons.append((region, entity_of[i]))
        if key in annotated:
            seen.add(key)
            report.mentions.append(MentionScore(
                doc.doc_id, m.entity_type.value, m.text, majority_label(m.selection) or MASK, tuple(m.chosen),
                r.rung or r.replacement, tuple(dict.fromkeys(a.candidate.label for a in r.alternatives)),
                one_vs_others(m.selection), tuple(skipped.get(key, ())), _mask_rule(r), tuple(passed_over.get(key, ())),
            ))
    report.unmatched += len(annotated - seen)
    if checker is not None:
        report.leaks.extend(checker.leaks(doc.doc_id, result, entity_of))
    flags = flag_text(result.text, regions, persons)
    report.flags.update(f.name for f in flags)
    counts = count_sentences(result.text, regions, flags)
    report.sentences += counts.sentences
    report.sentences_with_replacement += counts.with_replacement
    report.flagged_sentences += counts.flagged
    report.flagged_sentences_with_replacement += counts.flagged_with_replacement
    if examples:
        _collect_examples(report, doc.doc_id, result, regions, flags, examples)


def _mask_rule(r) -> str:
    """The reason a replacement's ladder holds only ``***`` (the rule of its ``***`` rung)."""
    for a in r.alternatives:
        if a.candidate.label == MASK:
            return a.candidate.rule or ""
    return ""


def _collect_examples(report: SanitizeEvaluation, doc_id: str, result: SanitizeResult, regions: list[Region], flags: list[Flag], limit: int) -> None:
    """The output sentences holding a replacement, each with its flags and the source
    text it stands for (through the result's offset map), for a reader to judge."""
    from taxogen_tools.evaluation.flags import sentences

    text = result.text
    for a, b in sentences(text):
        if len(report.examples) >= limit:
            return
        if any(r.start < b and r.end > a for r in regions):
            names = sorted({f.name for f in flags if f.start < b and f.end > a})
            source = result.original[result.original_offset(a):result.original_offset(b)].strip()
            report.examples.append({"doc": doc_id, "sentence": text[a:b], "source": source, "flags": names})


def evaluate_sanitize(
    engine,
    data: Path,
    *,
    folds: int = 5,
    model: str | None = None,
    train_on: str = "served",
    seed: int = 13,
    groups: Sequence[str] | None = None,
    examples: int = 0,
    sample_seed: int | None = None,
    leaks: bool = True,
    utility: bool = True,
    ks: Sequence[int] = (),
    progress: Callable[[str], None] | None = None,
) -> SanitizeEvaluation:
    """Sanitize every document of ``data`` and score the output (see the module docstring).

    ``engine`` must be built with ``model="none"``; ``model`` (a directory or
    ``"shipped"``) scores one existing ranker, otherwise ``folds``-fold CV trains one
    ranker per fold on ``train_on`` ladders (``served`` or ``wikireplace``).

    ``examples`` output sentences with a replacement are kept for reading: the first ones
    sanitized, or, with ``sample_seed``, a random sample of that many drawn with
    that seed from all of them (listed in the order they were sanitized).

    With ``utility`` what the reader keeps is measured (:mod:`taxogen_tools.evaluation.utility`):
    the original, the annotators' majority, full masking and our output; each of ``ks``
    sanitizes the documents once more with the privacy guard at that k
    (``SanitizeOptions.k``) and adds a row ``taxogen --k K`` (the other figures stay
    those of the default output).
    """
    from engine.select.ranker import Ranker, shipped_model_dir

    docs = load_wikireplace(data)
    records = _records(data)
    if folds < 2 and model is None:
        raise InputError("--folds must be at least 2 (or use --model)")
    checker = LeakChecker(engine) if leaks else None
    plan: list[tuple[Any, set[str]]] = []
    all_ids = {d.doc_id for d in docs}
    if model is not None:
        ranker = Ranker.load(shipped_model_dir() if model == "shipped" else Path(model))
        plan.append((ranker, all_ids))
        seen = all_ids & set(ranker.info.get("doc_ids", []))
        report = SanitizeEvaluation(f"model {model}", len(docs), training={"model": model, "in_sample_documents": len(seen)})
        if seen and progress:
            progress(f"warning: {len(seen)} of the {len(docs)} documents were in the model's training data — in-sample figures")
    else:
        trainer = Trainer(engine, data, docs, train_on, seed=seed, progress=progress, groups=groups)
        report = SanitizeEvaluation(f"{folds}-fold grouped CV, trained on {train_on} ladders", len(docs), training=trainer.summary)
        for f, test_ids in enumerate(document_folds(docs, folds, seed)):
            t0 = time.perf_counter()
            plan.append((trainer.train(all_ids - test_ids), test_ids))
            if progress:
                progress(f"fold {f + 1}/{folds}: trained on {len(all_ids - test_ids)} documents ({time.perf_counter() - t0:.1f} s)")
    scorer = UtilityScorer(engine) if utility else None
    report.utility = ReleaseUtility() if utility else None
    for ranker, doc_ids in plan:
        served = with_ranker(engine, ranker)
        batch = [d for d in docs if d.doc_id in doc_ids and d.doc_id in records]
        pairs = [(records[d.doc_id].text, records[d.doc_id].mentions) for d in batch]
        results = served.sanitize_many(pairs, alternatives=10_000)
        for d, result in zip(batch, results):
            score_document(report, d, result, checker, examples if sample_seed is None else (1 << 62) if examples else 0)
            if scorer is not None:
                score_utility(scorer, d, result, report.utility)
        for k in ks if scorer is not None else ():
            for d, result in zip(batch, served.sanitize_many(pairs, alternatives=10_000, k=k)):
                score_utility(scorer, d, result, report.utility, f"taxogen --k {k}", baselines=False)
    if sample_seed is not None and len(report.examples) > examples:
        keep = sorted(random.Random(sample_seed).sample(range(len(report.examples)), examples))
        report.examples = [report.examples[i] for i in keep]
    return report
