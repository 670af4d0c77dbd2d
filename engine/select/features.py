"""Features of (span, candidate) pairs, computed in one place for training and ranking.

Groups (names are what ``--groups``/ablation refer to):

- ``structure``: rung level, relative level, number of candidates, is ``***``, source
  (rule / P31 / P279 / P8225 / P361 / mask), how the span was linked (exact, contained,
  approximate), entity type, DIRECT/QUASI, span and candidate lengths, token overlap,
  the shape of the candidate ("date in the …", a year, "X …", "PERSON n", "DATE") and of
  a DATETIME span (year, full date, month-year, duration…);
- ``embedding``: cosine of span and candidate, of the original context and the context
  with the candidate in place (context-aware, after Zhang & Qiu), of candidate and
  context — the context being the span's sentence cut to :data:`CONTEXT_WORDS` words on
  each side; each also as its rank and its gap to the best within the mention, and the
  best of the mention (how well any candidate fits: low when the span was mislinked);
- ``embedding-mention`` (the default for training, instead of ``embedding``): the same
  features without those of the context with the candidate in place — one context per
  mention is embedded, not one sentence per candidate (``cos_sentence*`` and
  ``mention_best_cos_sentence`` are left out);
- ``embedding-pooled`` (the default, instead of ``embedding-mention``): the same features
  as ``embedding-mention``, with the span's vector taken from its window's forward pass
  (the mean of the span's contextual token vectors) instead of embedding the span's text
  alone: one text per mention runs through the model, plus the labels, which are kept
  across documents (:meth:`Embedder.encode_labels`);
- ``graph``: when the candidate is a graph class — log number of direct instances and of
  subclasses (how many things fit the replacement: a k-anonymity signal), whether the
  overlay prunes it, whether it is known at all;
- ``prior`` (served training's default, :data:`SERVED_GROUPS`): how often annotators
  chose the rung's label when it was offered, counted on the training documents and kept
  with the model (:mod:`engine.select.label_prior`);
- ``document``: position of the span in the document, number of spans in the document,
  share of them of the same entity type, and what the span detection said of the others
  (shares marked NO_MASK and DIRECT, number to be masked) — a document-level signal of
  how much is to be hidden, available as input at run time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

import numpy as np

from kg.vocab import TAXONOMY_PROPS

from engine.select.embeddings import Embedder
from engine.select.label_prior import NEUTRAL, PRIOR_COLUMNS, LabelPrior
from engine.generate.sources.datetime import datetime_ladder
from engine.types import MASK, EntityType, IdentifierType

#: Words kept on each side of the span in the context used for sentence embeddings.
CONTEXT_WORDS = 5
SOURCES = ("rule", *TAXONOMY_PROPS, "mask")
LINK_METHODS = ("none", "exact", "contained", "approximate")
DT_SHAPES = ("year", "full-date", "month-year", "day-month", "decade", "range", "age", "duration", "contains-year", "generic")
CAND_SHAPES = ("date_in", "year", "DATE", "X", "PERSON", "mask", "other")


@dataclass(frozen=True, slots=True)
class RankCandidate:
    """A candidate as the ranker sees it."""

    label: str
    source: str = "rule"
    link_method: str = "none"
    qid: str | None = None
    #: the rung stands for a number the span gives ("a few years", "under GBP 100", "aged 40–49")
    stands_for_a_number: bool = False


@dataclass(frozen=True, slots=True)
class RankItem:
    """One mention to rank: its span, sentence, candidates and document facts."""

    span: str
    entity_type: EntityType
    identifier_type: IdentifierType
    sentence: str
    candidates: tuple[RankCandidate, ...]
    span_start: int = -1  # offset of the span in ``sentence`` (-1: not inside)
    doc_position: float = 0.0
    doc_mentions: int = 1
    doc_type_share: float = 0.0
    doc_nomask_share: float = 0.0
    doc_direct_share: float = 0.0
    doc_masked: int = 0
    group: str = ""

    def replaced(self, label: str) -> str:
        """The sentence with the span replaced by ``label``."""
        if self.span_start >= 0:
            return self.sentence[: self.span_start] + label + self.sentence[self.span_start + len(self.span):]
        return self.sentence.replace(self.span, label, 1) if self.span in self.sentence else f"{self.sentence} {label}".strip()

    def window(self, words: int = CONTEXT_WORDS) -> "RankItem":
        """The same item with its sentence cut to ``words`` words on each side of the span."""
        start = self.span_start if self.span_start >= 0 else self.sentence.find(self.span)
        if start < 0:
            return self
        left = " ".join(self.sentence[:start].split()[-words:])
        right = " ".join(self.sentence[start + len(self.span):].split()[:words])
        text = (left + " " if left else "") + self.span + (" " + right if right else "")
        return replace(self, sentence=text, span_start=len(left) + 1 if left else 0)


@dataclass(frozen=True, slots=True)
class DocumentFacts:
    """What the input says about a whole document, shared by every span of it.

    Built from the entity and identifier types of *all* its mentions, so training
    (WikiReplace) and sanitization compute the ``document`` features the same way.
    """

    length: int
    mentions: int
    types: dict[EntityType, int]
    no_mask: int
    direct: int

    @classmethod
    def of(cls, text_length: int, kinds: Sequence[tuple[EntityType, IdentifierType]]) -> "DocumentFacts":
        types: dict[EntityType, int] = {}
        for entity_type, _ in kinds:
            types[entity_type] = types.get(entity_type, 0) + 1
        no_mask = sum(1 for _, ident in kinds if ident is IdentifierType.NO_MASK)
        direct = sum(1 for _, ident in kinds if ident is IdentifierType.DIRECT)
        return cls(text_length, len(kinds), types, no_mask, direct)

    def fields(self, entity_type: EntityType, start: int) -> dict[str, float]:
        """The ``doc_*`` fields of :class:`RankItem` for a span of ``entity_type`` at ``start``."""
        n = max(1, self.mentions)
        return {
            "doc_position": start / max(1, self.length), "doc_mentions": self.mentions,
            "doc_type_share": self.types.get(entity_type, 0) / n, "doc_nomask_share": self.no_mask / n,
            "doc_direct_share": self.direct / n, "doc_masked": self.mentions - self.no_mask,
        }


@dataclass
class GraphStats:
    """Per-label graph facts: direct instances, subclasses, pruned by the overlay."""

    by_label: dict[str, tuple[int, int, bool]] = field(default_factory=dict)
    #: computes a label's facts on first lookup (stores with indices: nothing is read up front)
    resolver: Callable[[str], tuple[int, int, bool] | None] | None = None

    @classmethod
    def of(cls, taxonomy, never_offer, index) -> "GraphStats":
        """The facts of every label of ``index`` over ``taxonomy`` (``never_offer``: classes the overlay prunes)."""
        tax = taxonomy
        never = never_offer
        labels = index.labels

        def facts(qids) -> tuple[int, int, bool] | None:
            if not qids:
                return None
            best = max(qids, key=lambda q: tax.instance_count.get(q, 0) + tax.children_count.get(q, 0))
            return (tax.instance_count.get(best, 0), tax.children_count.get(best, 0), any(q in never for q in qids))

        if not isinstance(labels, dict):
            return cls({}, resolver=lambda key: facts(labels.get(key, ())))
        return cls({key: facts(qids) for key, qids in labels.items()})

    def lookup(self, label: str) -> tuple[int, int, bool] | None:
        key = " ".join(label.lower().split())
        if self.resolver is not None and key not in self.by_label:
            if len(self.by_label) > 500_000:
                self.by_label.clear()
            self.by_label[key] = self.resolver(key)
        return self.by_label.get(key)


FEATURE_GROUPS: dict[str, list[str]] = {
    "structure": (
        ["level", "rel_level", "n_candidates", "from_end", "is_mask", "is_first"]
        + [f"source={s}" for s in SOURCES]
        + [f"link={m}" for m in LINK_METHODS]
        + [f"type={t.value}" for t in EntityType]
        + [f"ident={i.value}" for i in IdentifierType]
        + ["span_chars", "span_tokens", "cand_chars", "cand_tokens", "token_overlap", "span_has_digit", "span_capitalised", "cand_capitalised"]
        + [f"dt_shape={s}" for s in DT_SHAPES]
        + [f"cand_shape={s}" for s in CAND_SHAPES]
    ),
    "embedding": [
        "cos_span_cand", "cos_span_cand_rank", "cos_span_cand_gap",
        "cos_sentence", "cos_sentence_rank", "cos_sentence_gap",
        "cos_cand_sentence", "cos_cand_sentence_rank",
        "mention_best_cos_span_cand", "mention_best_cos_sentence",
    ],
    "graph": ["kg_known", "kg_log_instances", "kg_log_subclasses", "kg_pruned"],
    "document": ["doc_position", "doc_mentions", "doc_type_share", "doc_nomask_share", "doc_direct_share", "doc_masked"],
    # the embedding features that need one context per mention (span, window, labels),
    # not one sentence per candidate: an alternative to "embedding" (engine.scale)
    "embedding-mention": [
        "cos_span_cand", "cos_span_cand_rank", "cos_span_cand_gap",
        "cos_cand_sentence", "cos_cand_sentence_rank", "mention_best_cos_span_cand",
    ],
    # the same columns, the span's vector pooled from its window's pass (engine.scale)
    "embedding-pooled": [
        "cos_span_cand", "cos_span_cand_rank", "cos_span_cand_gap",
        "cos_cand_sentence", "cos_cand_sentence_rank", "mention_best_cos_span_cand",
    ],
    # how often annotators chose the label when offered, learned from the training
    # documents and kept with the model (engine.select.label_prior)
    "prior": list(PRIOR_COLUMNS),
}
#: The default groups (``embedding-mention`` is an alternative to ``embedding``, not an addition).
ALL_GROUPS = ("structure", "embedding", "graph", "document")
#: Alternatives to one another: a ranker uses at most one of them.
EMBEDDING_GROUPS = ("embedding", "embedding-mention", "embedding-pooled")
#: Groups whose features are one context per mention (no sentence per candidate).
PER_MENTION_GROUPS = ("embedding-mention", "embedding-pooled")
#: What ``taxogen train`` and the evaluations train on by default: one window per mention,
#: the span pooled from it, labels kept across documents (docs/performance.md).
DEFAULT_GROUPS = ("structure", "embedding-pooled", "graph", "document")
#: What ``taxogen train`` and ``evaluate sanitize`` train on our own (served) ladders by
#: default: the default groups and the label prior (docs/evaluation.md).
SERVED_GROUPS = DEFAULT_GROUPS + ("prior",)


def feature_names(groups: Sequence[str] = ALL_GROUPS) -> list[str]:
    return [name for g in groups for name in FEATURE_GROUPS[g]]


def _cand_shape(label: str, number: bool = False) -> str:
    """The shape of a rung: new rungs map onto the shapes the shipped ranker knows — a period
    ("date in mid-2005", "between 1993 and 1994") is ``date_in``, a rung standing for a number
    ("a few years", "under GBP 100", "aged 40–49") is ``X``."""
    if label == MASK:
        return "mask"
    if label.startswith("date in ") or label.startswith("between "):
        return "date_in"
    if number:
        return "X"
    if re.fullmatch(r"\d{3,4}", label):
        return "year"
    if label == "DATE":
        return "DATE"
    if re.search(r"(^|\W)X(\W|$)", label):
        return "X"
    if label.startswith("PERSON"):
        return "PERSON"
    return "other"


def _ranks(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Rank (1 = highest) of each value among the valid ones; 0 for invalid."""
    out = np.zeros(len(values))
    idx = [i for i in range(len(values)) if valid[i]]
    order = sorted(idx, key=lambda i: -values[i])
    for r, i in enumerate(order, start=1):
        out[i] = r
    return out


class FeatureBuilder:
    """Builds the feature matrix of many :class:`RankItem` at once (one embedding batch)."""

    def __init__(self, embedder: Embedder | None, *, groups: Sequence[str] = ALL_GROUPS, graph: GraphStats | None = None,
                 prior: LabelPrior | None = None) -> None:
        unknown = [g for g in groups if g not in FEATURE_GROUPS]
        if unknown:
            raise ValueError(f"unknown feature groups {unknown}; known: {list(FEATURE_GROUPS)}")
        if len(set(EMBEDDING_GROUPS) & set(groups)) > 1:
            raise ValueError(f"the groups {', '.join(EMBEDDING_GROUPS)} are alternatives; choose one")
        if set(EMBEDDING_GROUPS) & set(groups) and embedder is None:
            raise ValueError("the embedding groups need an Embedder")
        self.embedder = embedder
        self.groups = tuple(groups)
        self.graph = graph or GraphStats()
        #: the model's label prior; without one the ``prior`` columns are neutral (a training
        #: table: :func:`taxogen_tools.evaluation.selection.train_ranker` fills them per fold)
        self.prior = prior
        self.names = feature_names(self.groups)
        self._col = {name: j for j, name in enumerate(self.names)}

    def build(self, items: Sequence[RankItem]) -> tuple[np.ndarray, list[int]]:
        """(matrix with one row per candidate, candidates per item)."""
        vec: dict = {}
        items = [it.window() for it in items]
        per_candidate = "embedding" in self.groups  # one sentence per candidate, or one context per mention
        pooled = "embedding-pooled" in self.groups  # the span's vector from its window's pass
        if set(EMBEDDING_GROUPS) & set(self.groups):
            texts: list[str] = []
            labels: list[str] = []
            windows: list[tuple[str, int, int]] = []
            for it in items:
                if not per_candidate and all(c.label == MASK for c in it.candidates):
                    continue  # a mention offering only *** has every embedding feature 0: nothing to embed
                if pooled and it.span_start >= 0 and it.sentence[it.span_start : it.span_start + len(it.span)] == it.span:
                    windows.append((it.sentence, it.span_start, it.span_start + len(it.span)))
                else:
                    texts.append(it.span)
                    texts.append(it.sentence)
                for c in it.candidates:
                    if c.label != MASK:  # *** is never compared (its cosines are 0)
                        labels.append(c.label)
                    if per_candidate:
                        texts.append(it.replaced(c.label))
            uniq = list(dict.fromkeys(texts))
            mat = self.embedder.encode(uniq)
            vec = {t: mat[i] for i, t in enumerate(uniq)}
            uniq_labels = list(dict.fromkeys(labels))
            # the label table where the embedder has one (kept across documents)
            encode_labels = getattr(self.embedder, "encode_labels", self.embedder.encode)
            vec.update(zip(uniq_labels, encode_labels(uniq_labels)))
            uniq_windows = list(dict.fromkeys(windows))
            if uniq_windows:
                wmat, smat = self.embedder.encode_windows(uniq_windows)
                for w, wv, sv in zip(uniq_windows, wmat, smat):
                    vec[w[0]] = wv
                    vec[("span",) + w] = sv
        blocks = [self._item_rows(it, vec) for it in items]
        sizes = [len(b) for b in blocks]
        if not blocks:
            return np.zeros((0, len(self.names)), dtype=np.float64), sizes
        return np.concatenate(blocks).astype(np.float64, copy=False), sizes

    def _item_rows(self, it: RankItem, vec: dict) -> np.ndarray:
        """The rows of one item's candidates, written by column (a feature absent from
        ``names`` is ignored; one not set is 0)."""
        n = len(it.candidates)
        labels = [c.label for c in it.candidates]
        valid = np.array([l != MASK for l in labels])
        col = self._col
        block = np.zeros((n, len(self.names)), dtype=np.float64)

        def put(name: str, values) -> None:
            j = col.get(name)
            if j is not None:
                block[:, j] = values

        def put_at(i: int, name: str, value: float) -> None:
            j = col.get(name)
            if j is not None:
                block[i, j] = value

        if set(PER_MENTION_GROUPS) & set(self.groups) and not valid.any():
            pass  # only ***: every embedding-mention column is 0 (cosines, ranks, gaps, best)
        elif set(EMBEDDING_GROUPS) & set(self.groups):
            pooled = ("span", it.sentence, it.span_start, it.span_start + len(it.span))
            s, sent = vec[pooled] if pooled in vec else vec[it.span], vec[it.sentence]
            cos_sc = np.array([float(vec[l] @ s) if l != MASK else 0.0 for l in labels])
            if "embedding" in self.groups:
                cos_sent = np.array([float(vec[it.replaced(l)] @ sent) for l in labels])
            else:
                cos_sent = np.zeros(n)  # not a feature of embedding-mention
            cos_cs = np.array([float(vec[l] @ sent) if l != MASK else 0.0 for l in labels])
            best_sc = cos_sc[valid].max() if valid.any() else 0.0
            best_sent = cos_sent[valid].max() if valid.any() else 0.0
            emb_cols = {
                "cos_span_cand": cos_sc, "cos_span_cand_rank": _ranks(cos_sc, valid), "cos_span_cand_gap": np.where(valid, best_sc - cos_sc, 0),
                "cos_sentence": cos_sent, "cos_sentence_rank": _ranks(cos_sent, np.ones(n, bool)), "cos_sentence_gap": best_sent - cos_sent,
                "cos_cand_sentence": cos_cs, "cos_cand_sentence_rank": _ranks(cos_cs, valid),
                "mention_best_cos_span_cand": np.full(n, best_sc), "mention_best_cos_sentence": np.full(n, best_sent),
            }
            for name, values in emb_cols.items():
                put(name, values)
        if "structure" in self.groups:
            span_tokens = set(re.findall(r"\w+", it.span.lower()))
            put(f"type={it.entity_type.value}", 1.0)
            put(f"ident={it.identifier_type.value}", 1.0)
            put("span_chars", len(it.span))
            put("span_tokens", len(it.span.split()))
            put("span_has_digit", float(any(ch.isdigit() for ch in it.span)))
            put("span_capitalised", float(it.span[:1].isupper()))
            put("n_candidates", n)
            dt_shape = datetime_ladder(it.span)[1] if it.entity_type is EntityType.DATETIME else None
            if dt_shape:
                put(f"dt_shape={dt_shape}", 1.0)
            for i, c in enumerate(it.candidates):
                cand_tokens = set(re.findall(r"\w+", c.label.lower()))
                put_at(i, "level", i + 1)
                put_at(i, "rel_level", i / max(1, n - 1))
                put_at(i, "from_end", n - 1 - i)
                put_at(i, "is_mask", float(c.label == MASK))
                put_at(i, "is_first", float(i == 0))
                put_at(i, f"source={c.source if c.source in SOURCES else 'rule'}", 1.0)
                put_at(i, f"link={c.link_method if c.link_method in LINK_METHODS else 'none'}", 1.0)
                put_at(i, "cand_chars", len(c.label))
                put_at(i, "cand_tokens", len(c.label.split()))
                put_at(i, "token_overlap", len(span_tokens & cand_tokens) / max(1, len(span_tokens | cand_tokens)))
                put_at(i, "cand_capitalised", float(c.label[:1].isupper()))
                put_at(i, f"cand_shape={_cand_shape(c.label, c.stands_for_a_number)}", 1.0)
        if "graph" in self.groups:
            for i, c in enumerate(it.candidates):
                st = self.graph.lookup(c.label) if c.label != MASK else None
                put_at(i, "kg_known", float(st is not None))
                put_at(i, "kg_log_instances", math.log1p(st[0]) if st else -1.0)
                put_at(i, "kg_log_subclasses", math.log1p(st[1]) if st else -1.0)
                put_at(i, "kg_pruned", float(bool(st and st[2])))
        if "document" in self.groups:
            for name in FEATURE_GROUPS["document"]:
                put(name, getattr(it, name))
        if "prior" in self.groups:
            for i, c in enumerate(it.candidates):
                rate, offered = self.prior.fields(it.entity_type, c.label) if self.prior is not None else NEUTRAL
                put_at(i, "label_prior_rate", rate)
                put_at(i, "label_prior_log_offered", offered)
        return block
