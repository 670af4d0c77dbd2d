"""What the verifier (:mod:`engine.generate.verifier`) reads of a graph rung: one row of
named numbers per rung of a LOC/ORG/DEM/MISC ladder (``***`` apart).

=============  ===================================================================================
group          features
=============  ===================================================================================
link           the method and score of the link the rung comes from (:attr:`Ladder.links`), its
               place among the span's links, the score gap to the next, how many items of the
               store share the span's name, the item's prominence
provenance     the rung's property (P31, P279, P361, P8225), depth, place in the ladder, how it was
               made (a walk — direct, first or longest —, a composed label, the head noun, the
               store's names, a nationality, the classes every homonym holds)
kinds          the class's kinds and the linked item's (``ontology/entity_types.ttl``) against the
               span's entity type: allowed, forbidden, of no kind; a holder class ("person") and
               whether the item is one of it over "is a" edges only; the entity type
store          the store's statistics: instances and subclasses of the class, of the item
lexical        the span's shape (capitals, plural, digits, words), its sentence (an article or a
               preposition before it, a noun after it, a field of study, a team slot, the years it
               names) and the rung's words against the span's and the sentence's
embedding      the packaged MiniLM (the ranker's embedder, its caches shared): the sentence around the
               span with the rung in its place against the original sentence, and the rung's label
               against the span in it (cosines)
shape          the span's shape (characters, tokens, letters, initials) and place (a sentence's start,
               lower-case words beside it)
namesakes      the store's other items of the span's name (:data:`NAMESAKES` of them, the links'
               first): how many, how many kinds they hold, how many share the item's kinds, the item's
               share of their prominence; whether the item is of a former kind, of former kinds only
context        the ranker's embedder: the sentence around the span without it (and the :data:`NEAR`
               words either side of it) against the labels of the linked item's classes, of each
               namesake's (the best one's) and the rung's (cosines, and the margins between them)
rules          for each rule the verifier reads (:data:`RULE_VERDICTS`), whether it would drop the
               rung: the rule's own predicate, run with the rule on
=============  ===================================================================================

The rules of ``rules`` are switched off while ladders are built (the verifier weighs their
verdicts instead of obeying them): :func:`rule_verdicts` runs each rule's registered
function under a knowledge where it is on (:meth:`engine.knowledge.Knowledge.with_rules_on`),
so a rule a config switches off never fires here either.
"""

from __future__ import annotations

import math
import re
from enum import StrEnum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kg.chains import ChainIndex
from engine.generate.linking import fold
from engine.generate.sense import acronym_for_common_noun, stated_otherwise, team_not_place, team_of_other_sport, wreck_not_work
from engine.generate.sources.base import DocumentState
from engine.generate.teams import in_team_slot
from engine.generate.truth import TruthFilter
from engine.generate.truth_rules import FORMER
from engine.generate.truth_senses import bare_homonym, other_sense, unvouched_approximate
from engine.generate.truth_text import (
    ARTICLES, NOT_PLURAL_ENDINGS, PREPOSITIONS, TIME_BOUND_BEFORE, YEAR, after_in, attributive, in_field_slot, is_ordinal, span_words,
)
from engine.knowledge import Knowledge, current
from engine.types import GRAPH_TYPES, MASK, Candidate, Ladder, Link, LinkMethod, Span

class FeatureGroup(StrEnum):
    """The feature groups (module docstring), in the order their columns come."""

    LINK = "link"
    PROVENANCE = "provenance"
    KINDS = "kinds"
    STORE = "store"
    LEXICAL = "lexical"
    EMBEDDING = "embedding"
    SHAPE = "shape"
    NAMESAKES = "namesakes"
    CONTEXT = "context"
    RULES = "rules"


class Made(StrEnum):
    """How a rung was made (:func:`_made`); the first three are also the names of the rules that
    make a name's own class, a name's head-noun class and a nationality."""

    HEAD_NOUN = "head-noun"
    NAME_HEAD = "name-head"
    NATIONALITY = "nationality"
    WALK = "walk"
    COMPOSED = "composed"
    HOMONYMS = "homonyms"
    DESCRIPTION = "description"
    TEAM = "team"
    FOLLOWER = "follower"
    OTHER = "other"


class Walk(StrEnum):
    """Which walk of the chain index reached a rung's class (``none``: none of them)."""

    DIRECT = "direct"
    FIRST = "first"
    LONGEST = "longest"
    NONE = "none"


class Position(StrEnum):
    """Where a rung stands in its ladder: its depth in the graph, its level, how many rungs the
    ladder has, how many of its classes are below and above the rung's."""

    DEPTH = "depth"
    LEVEL = "level"
    RUNGS = "rungs"
    BELOW = "below"
    ABOVE = "above"


FEATURE_GROUPS: tuple[str, ...] = tuple(g.value for g in FeatureGroup)
#: How much of the sentence around the span the embedding group reads (characters either side).
WINDOW = 120
_SOURCES = ("P31", "P279", "P361", "P8225")
#: How many of the store's other items of the span's name the context group weighs (most prominent first).
NAMESAKES = 8
#: How many words either side of the span the context group's near cosines read.
NEAR = 3
#: How many classes of an item stand for it in the context group's cosines.
ITEM_CLASSES = 4


@dataclass(frozen=True, slots=True)
class RungCase:
    """One rung as a rule's predicate sees it: the span, its ladder, the rung, the link it comes
    from, the class it stands for, and the document's state."""

    span: Span
    ladder: Ladder
    cand: Candidate
    link: Link | None
    qid: str | None
    truth: TruthFilter
    state: DocumentState | None


def _rung_fits_parts(c: RungCase) -> bool:
    """Whether rule 2's checks of a rung (:meth:`TruthFilter.rung_fits`) apply: a class
    reached over the graph, not the head noun's own class, a name's or a nationality."""
    return c.qid is not None and c.cand.rule not in (Made.HEAD_NOUN, Made.NAME_HEAD, Made.NATIONALITY)


def _is_p361(c: RungCase) -> bool:
    return c.cand.source == "P361"


#: Rule name → whether the rule, on, would drop the rung (its predicate on the rung, or on the
#: link the rung comes from). The rules that choose what a name's words say (the head-noun rules),
#: that make rungs (nationality, team slot, followers) or that say which link is read (a part's)
#: stay rules the ladder obeys; these are the ones that only take rungs away.
RULE_VERDICTS: dict[str, Callable[[RungCase], bool]] = {
    # the link stage's: the link the rung comes from would not be used
    "entity-type-fits-item": lambda c: c.link is not None and not c.truth.item_fits(c.link.qid, c.span.entity_type),
    "acronym-not-common-noun": lambda c: c.link is not None and acronym_for_common_noun(c.span.text, c.link),
    "approximate-link-unvouched": lambda c: c.link is not None and unvouched_approximate(c.truth, c.span, c.link),
    "bare-homonym-word": lambda c: c.link is not None and bare_homonym(c.truth, c.span, c.link.qid),
    "language-before-noun": lambda c: c.link is not None and c.truth.language_as_adjective(c.span, c.link),
    "noun-before-name": lambda c: c.link is not None and bool(c.span.context) and stated_otherwise(c.span, c.link, c.truth) is not None,
    "wreck-not-work": lambda c: c.link is not None and bool(c.span.context) and wreck_not_work(c.span, c.link, c.truth) is not None,
    "team-not-place": lambda c: c.link is not None and bool(c.span.context) and team_not_place(c.span, c.link, c.truth, c.state) is not None,
    "team-of-other-sport": lambda c: (c.link is not None and bool(c.span.context)
                                      and team_of_other_sport(c.span, c.link, c.truth, c.state) is not None),
    # the ladder stage's: the rung would not be offered
    "entity-type-fits-rung": lambda c: _rung_fits_parts(c) and not c.truth.kind_fits(c.cand, c.qid or "", c.span.entity_type),
    "former-class": lambda c: _rung_fits_parts(c) and c.truth.former_class(c.cand, c.qid or ""),
    "misc-no-person-class": lambda c: c.qid is not None and c.truth.person_class_for_title(c.qid, c.span.entity_type),
    "part-is-not-whole": lambda c: _is_p361(c) and c.truth.part_not_whole(c.cand),
    "strict-type-whole": lambda c: _is_p361(c) and c.qid is not None and c.truth.strict_whole(c.cand, c.qid, c.span.entity_type),
    "named-thing-not-class": lambda c: (not _is_p361(c) and c.cand.qid is not None
                                        and c.truth.named_individual(c.cand.qid, c.cand.label)),
    "read-as-is-a": lambda c: not c.truth.reached_as_is_a(c.cand),
    "non-subsective-modifier": lambda c: c.truth.negated_by_modifier(fold(c.span.text), c.cand.label),
    "institution-not-building": lambda c: other_sense(c.truth, c.cand, c.span.entity_type),
    # the sentence's (stage verify)
    "role-qualifies-noun": lambda c: c.truth.role_qualifies_noun(c.cand, c.span),
    "demonym-qualifies-noun": lambda c: c.qid is not None and c.truth.demonym_qualifies_noun(c.qid, c.span),
    "time-bound-status": lambda c: c.qid is not None and c.truth.time_bound_status(c.qid, c.span),
    "regime-status": lambda c: c.qid is not None and c.truth.regime_status(c.qid, c.span),
    "field-of-study-slot": lambda c: c.qid is not None and c.truth.field_of_study(c.qid, c.span),
    "plural-names-holders": lambda c: c.qid is not None and c.truth.plural_holders(c.cand, c.qid, c.span),
}


def _log(n: float) -> float:
    return math.log1p(max(0.0, float(n)))


def _made(cand: Candidate) -> str:
    """How the rung was made (one of :class:`Made`)."""
    path, rule = cand.path or "", cand.rule or ""
    if rule == "head-noun" or path == "head noun":
        return "head-noun"
    if rule == "name-head" or path.startswith("name "):
        return "name-head"
    if rule == "nationality" or path == "demonym":
        return "nationality"
    if path == "a class every homonym is":
        return "homonyms"
    if "description" in path:
        return "description"
    if "team" in rule or "team" in path:
        return "team"
    if "follower" in rule or "follower" in path:
        return "follower"
    if cand.qid is None or path.startswith("P31/P279+"):
        return "composed"
    if path[:1] == "P":
        return "walk"
    return "other"


def _window(span: Span) -> tuple[str, int, int] | None:
    """(the text around the span's first place in its sentence, the span's start and end in it),
    cut at spaces at most :data:`WINDOW` characters either side; None without a sentence naming it."""
    context = span.context or ""
    at = context.find(span.text) if span.text else -1
    if at < 0:
        return None
    lo, hi = max(0, at - WINDOW), min(len(context), at + len(span.text) + WINDOW)
    if lo > 0:
        cut = context.find(" ", lo, at)
        lo = cut + 1 if cut >= 0 else lo
    if hi < len(context):
        cut = context.rfind(" ", at + len(span.text), hi)
        hi = cut if cut >= 0 else hi
    return context[lo:hi], at - lo, at - lo + len(span.text)


def _shape(span: Span) -> dict[str, float]:
    """The span's shape and place in its sentence (the shape group)."""
    text, context = span.text, span.context or ""
    letters = [ch for ch in text if ch.isalpha()]
    at = context.find(text) if text else -1
    before = context[:at].replace("(", " ").replace("\"", " ").split() if at > 0 else []
    after = context[at + len(text):].split() if at >= 0 else []
    return {
        "span_chars": len(text),
        "span_tokens": len(text.split()),
        "span_letters": len(letters),
        "span_initials": float(bool(letters) and len(letters) <= 5 and not any(ch.islower() for ch in letters)),
        "span_at_start": float(at >= 0 and (not before or before[-1][-1:] in ".!?")),
        "prev_lower": float(bool(before) and before[-1][:1].islower()),
        "next_lower": float(bool(after) and after[0][:1].islower()),
    }


class RungFeatures:
    """Computes the feature rows of a ladder's graph rungs over one store."""

    def __init__(self, truth: TruthFilter, chains: ChainIndex, *, rules: Sequence[str] = (), knowledge: Knowledge | None = None,
                 embedder: Callable[[], object] | None = None) -> None:
        unknown = sorted(set(rules) - set(RULE_VERDICTS))
        if unknown:
            raise ValueError(f"the verifier reads no verdict of rule {unknown[0]!r}; it reads {', '.join(RULE_VERDICTS)}")
        self.truth = truth
        self.chains = chains
        self.index = truth.index
        self.rules = tuple(rules)
        #: the knowledge the rules' predicates run under (those of ``rules`` on); None: the current one
        self.knowledge = knowledge
        self.kinds: tuple[str, ...] = tuple(sorted(truth.rules.kinds))
        #: builds the sentence embedder on first need (the ranker's); None: the embedding group reads 0
        self._make_embedder = embedder

    # --- names ------------------------------------------------------------------------------
    def names(self, groups: Sequence[str] = FEATURE_GROUPS) -> list[str]:
        """The feature names of ``groups``, in column order."""
        out: list[str] = []
        for g in groups:
            out += self._group_names(g)
        return out

    def _group_names(self, group: str) -> list[str]:
        if group == "link":
            return ([f"link={m.value}" for m in LinkMethod] + ["link=none", "link_score", "links", "link_rank", "link_gap",
                    "link_first", "name_items", "item_prominence", "link_label_is_span"])
        if group == "provenance":
            return ([f"source={s}" for s in _SOURCES] + ["source=other"] + [f"made={m}" for m in Made]
                    + [f"walk={w}" for w in Walk] + list(Position) + ["path_hops", "rel_level"])
        if group == "kinds":
            return ([f"class_kind={k}" for k in self.kinds] + [f"item_kind={k}" for k in self.kinds]
                    + [f"type={t.value}" for t in GRAPH_TYPES]
                    + ["class_allowed", "class_forbidden", "class_kindless", "item_allowed", "item_forbidden", "item_kindless",
                       "holder", "held_only", "is_a", "past_disjoint"])
        if group == "store":
            return ["class_instances", "class_subclasses", "class_parents", "class_ancestors", "item_instances", "item_classes",
                    "item_is_class", "item_has_classes"]
        if group == "lexical":
            return ["span_words", "span_capitalised", "span_upper", "span_lower", "span_plural", "span_digit", "span_ordinal",
                    "article_before", "preposition_before", "in_before", "noun_after", "field_slot", "team_slot", "years",
                    "year_before", "year_since", "earliest_year", "sentence_words", "span_in_sentence",
                    "label_words", "label_capitalised", "label_overlap", "label_head_in_span", "span_head_in_label",
                    "label_in_sentence", "label_composed"]
        if group == "embedding":
            return ["emb_sentence", "emb_label_span", "emb_label_sentence"]
        if group == "shape":
            return ["span_chars", "span_tokens", "span_letters", "span_initials", "span_at_start", "prev_lower", "next_lower"]
        if group == "namesakes":
            return ["namesakes", "namesake_kinds", "namesake_same_kinds", "item_prominence_share", "item_most_prominent", "item_former",
                    "item_former_only"]
        if group == "context":
            return ["fit_item", "fit_namesake", "fit_margin", "near_item", "near_namesake", "near_margin", "fit_rung", "near_rung",
                    "fit_rung_margin"]
        if group == "rules":
            return [f"rule={r}" for r in self.rules]
        raise ValueError(f"unknown verifier feature group {group!r}; known: {', '.join(FEATURE_GROUPS)}")

    # --- rows -------------------------------------------------------------------------------
    def graph_rungs(self, ladder: Ladder) -> list[int]:
        """Indices of the rungs the verifier weighs: every rung of a graph type's ladder but ``***``."""
        if not ladder.span.entity_type.is_graph:
            return []
        return [i for i, c in enumerate(ladder.candidates) if c.label != MASK]

    def rows(self, ladder: Ladder, state: DocumentState | None = None, groups: Sequence[str] = FEATURE_GROUPS) -> list[dict[str, float]]:
        """One row (feature name → value) per rung of :meth:`graph_rungs`."""
        at = self.graph_rungs(ladder)
        if not at:
            return []
        span = ladder.span
        shared: dict[str, float] = {}
        if "lexical" in groups:
            shared.update(self._sentence(span))
        if "link" in groups:
            shared["links"] = len(ladder.links)
            shared["link_gap"] = ladder.links[0].score - ladder.links[1].score if len(ladder.links) > 1 else 1.0
            shared["name_items"] = _log(len(self.index.lookup(fold(span.text))))
        rungs = [ladder.candidates[i] for i in at]
        out = []
        for cand in rungs:
            row = dict(shared)
            link = self._link_of(ladder, cand)
            qid = self.truth.candidate_class(cand)
            case = RungCase(span, ladder, cand, link, qid, self.truth, state)
            for g in groups:
                if g == "link":
                    self._link(row, ladder, cand, link)
                elif g == "provenance":
                    self._provenance(row, cand, rungs)
                elif g == "kinds":
                    self._kinds(row, case)
                elif g == "store":
                    self._store(row, qid, cand.link_qid)
                elif g == "lexical":
                    self._words(row, span, cand)
            out.append(row)
        if "embedding" in groups:
            self._embedding(out, span, rungs)
        if "shape" in groups:
            shape = _shape(span)
            for row in out:
                row.update(shape)
        if "namesakes" in groups or "context" in groups:
            self._context(out, ladder, rungs, groups)
        if "rules" in groups and self.rules:
            self._rules(out, [RungCase(span, ladder, c, self._link_of(ladder, c), self.truth.candidate_class(c), self.truth, state)
                              for c in rungs])
        return out

    @staticmethod
    def _link_of(ladder: Ladder, cand: Candidate) -> Link | None:
        for link in ladder.links:
            if link.qid == cand.link_qid:
                return link
        return ladder.links[0] if ladder.links else None

    def _link(self, row: dict[str, float], ladder: Ladder, cand: Candidate, link: Link | None) -> None:
        row[f"link={link.method.value}" if link is not None else "link=none"] = 1.0
        if link is None:
            return
        row["link_score"] = link.score
        row["link_rank"] = next((i for i, l in enumerate(ladder.links) if l is link), 0)
        row["link_first"] = float(ladder.links[0] is link)
        row["item_prominence"] = _log(self.index.prominence(link.qid))
        row["link_label_is_span"] = float(fold(link.label) == fold(ladder.span.text))

    def _walk(self, cand: Candidate) -> str:
        if cand.qid is None or not cand.link_qid or cand.source not in _SOURCES or _made(cand) != "walk":
            return "none"
        try:
            ladders = self.chains.chains(cand.link_qid).ladders.get(cand.source)
        except ValueError:
            return "none"
        if ladders is None:
            return "none"
        for walk in (Walk.DIRECT, Walk.FIRST, Walk.LONGEST):
            if any(r.qid == cand.qid for r in getattr(ladders, walk.value)):
                return walk.value
        return "none"

    def _provenance(self, row: dict[str, float], cand: Candidate, rungs: list[Candidate]) -> None:
        row[f"source={cand.source}" if cand.source in _SOURCES else "source=other"] = 1.0
        row[f"made={_made(cand)}"] = 1.0
        row[f"walk={self._walk(cand)}"] = 1.0
        row["depth"] = cand.depth
        row["path_hops"] = (cand.path or "").count("/") + 1 if cand.path else 0
        row["level"] = cand.level
        row["rungs"] = len(rungs)
        row["rel_level"] = (cand.level - 1) / max(1, len(rungs) - 1)
        truth = self.truth
        mine = truth.candidate_class(cand)
        below = above = 0
        for other in rungs:
            theirs = truth.candidate_class(other)
            if other is cand or theirs is None or mine is None or theirs == mine:
                continue
            if mine in truth.superclasses(theirs):
                below += 1  # a rung below this one
            elif theirs in truth.superclasses(mine):
                above += 1
        row["below"], row["above"] = below, above

    def _kinds(self, row: dict[str, float], c: RungCase) -> None:
        truth, etype = c.truth, c.span.entity_type
        row[f"type={etype.value}"] = 1.0
        rule = truth.rules.types.get(etype)
        allows = rule.allows if rule is not None else frozenset()
        forbids = rule.forbids if rule is not None else frozenset()
        if c.qid is not None:
            kinds = truth.class_kinds(c.qid)
            for k in kinds:
                row[f"class_kind={k}"] = 1.0
            row["class_allowed"] = float(bool(kinds & allows))
            row["class_forbidden"] = float(bool(kinds & forbids))
            row["class_kindless"] = float(not kinds)
            row["holder"] = float(c.qid in truth.all_holders)
        item = c.cand.link_qid
        if item:
            ikinds = truth.item_kinds(item)
            for k in ikinds:
                row[f"item_kind={k}"] = 1.0
            row["item_allowed"] = float(bool(ikinds & allows))
            row["item_forbidden"] = float(bool(ikinds & forbids))
            row["item_kindless"] = float(not ikinds)
            row["held_only"] = float(truth.held_only(c.cand))
            first = (c.cand.path or "").split("/")[0]
            if c.cand.qid is not None and first in ("P31", "P279"):
                row["is_a"] = float(c.cand.qid in truth.is_a_closure(item, first))
                blocked = truth.blocked_for(item)
                row["past_disjoint"] = float(bool(blocked and blocked & truth.superclasses(c.cand.qid)))

    def _store(self, row: dict[str, float], qid: str | None, item: str | None) -> None:
        t = self.truth.taxonomy
        if qid is not None:
            row["class_instances"] = _log(t.instance_count.get(qid, 0))
            row["class_subclasses"] = _log(t.children_count.get(qid, 0))
            row["class_parents"] = len(t.parents(qid, "P279"))
            row["class_ancestors"] = _log(len(self.truth.superclasses(qid)))
        if item:
            row["item_instances"] = _log(t.instance_count.get(item, 0))
            row["item_classes"] = len(t.parents(item, "P31"))
            row["item_is_class"] = float(self.truth.is_class(item))
            row["item_has_classes"] = float(self.truth.has_class_facts(item))

    def _sentence(self, span: Span) -> dict[str, float]:
        text, context = span.text, span.context or ""
        words = span_words(text)
        raw = text.split()
        row: dict[str, float] = {
            "span_words": len(words),
            "span_capitalised": float(text[:1].isupper()),
            "span_upper": float(sum(ch.isalpha() for ch in text) > 1 and not any(ch.islower() for ch in text)),
            "span_lower": float(text == text.lower()),
            "span_plural": float(bool(words) and words[-1].endswith("s") and not any(words[-1].endswith(e) for e in NOT_PLURAL_ENDINGS)),
            "span_digit": float(any(ch.isdigit() for ch in text)),
            "span_ordinal": float(bool(raw) and is_ordinal(raw[0])),
            "sentence_words": len(context.split()),
        }
        at = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(text)}(?!\w)", context)] if text else []
        row["span_in_sentence"] = float(bool(at))
        before = [context[:a].split()[-1].lower().strip("(\"'“‘,") if context[:a].split() else "" for a in at]
        row["article_before"] = float(any(w in ARTICLES for w in before))
        row["preposition_before"] = float(any(w in PREPOSITIONS for w in before))
        row["in_before"] = float(after_in(text, context))
        row["noun_after"] = float(attributive(text, context))
        row["field_slot"] = float(in_field_slot(text, context))
        row["team_slot"] = float(bool(context) and in_team_slot(span))
        years = [int(m.group(1) or m.group(2)) for m in YEAR.finditer(context)]
        row["years"] = len(years)
        row["year_before"] = float(any(y < TIME_BOUND_BEFORE for y in years))
        row["year_since"] = float(bool(years) and min(years) >= TIME_BOUND_BEFORE)
        row["earliest_year"] = float(min(years)) if years else math.nan
        return row

    @staticmethod
    def _words(row: dict[str, float], span: Span, cand: Candidate) -> None:
        label = cand.label
        lw, sw = span_words(label), span_words(span.text)
        row["label_words"] = len(lw)
        row["label_capitalised"] = float(label[:1].isupper())
        union = set(lw) | set(sw)
        row["label_overlap"] = len(set(lw) & set(sw)) / len(union) if union else 0.0
        row["label_head_in_span"] = float(bool(lw) and lw[-1] in sw)
        row["span_head_in_label"] = float(bool(sw) and sw[-1] in lw)
        context = fold((span.context or "").replace(span.text, " "))
        row["label_in_sentence"] = float(bool(label) and re.search(rf"(?<!\w){re.escape(fold(label))}(?!\w)", context) is not None)
        row["label_composed"] = float(cand.qid is None)

    def _embedding(self, rows: list[dict[str, float]], span: Span, rungs: list[Candidate]) -> None:
        """Cosines of the MiniLM vectors (module docstring); nothing without an embedder or a sentence."""
        window = _window(span)
        if self._make_embedder is None or window is None:
            return
        text, start, end = window
        emb = self._make_embedder()
        placed = [text[:start] + c.label + text[end:] for c in rungs]
        vecs = emb.encode([text, *placed])
        labels = emb.encode_labels([c.label for c in rungs])
        _, span_vec = emb.encode_windows([window])
        for row, v, lv in zip(rows, vecs[1:], labels):
            row["emb_sentence"] = float(vecs[0] @ v)
            row["emb_label_span"] = float(span_vec[0] @ lv)
            row["emb_label_sentence"] = float(vecs[0] @ lv)

    def _context(self, rows: list[dict[str, float]], ladder: Ladder, rungs: list[Candidate], groups: Sequence[str]) -> None:
        """The namesakes and context groups (module docstring)."""
        span = ladder.span
        items = {c.link_qid for c in rungs if c.link_qid}
        namesakes = self._namesakes(ladder)
        kinds = {q: self.truth.item_kinds(q) for q in {*items, *namesakes}}
        weight = dict(zip(namesakes, self.index.prominences(namesakes)))
        per_item: dict[str, dict[str, float]] = {}
        for item in items:
            others = [q for q in namesakes if q != item]
            mine = self.index.prominence(item)
            total = mine + sum(weight[q] for q in others)
            former = FORMER in kinds[item]
            per_item[item] = {
                "namesakes": _log(len(others)),
                "namesake_kinds": len({kinds[q] for q in others}),
                "namesake_same_kinds": sum(kinds[q] == kinds[item] for q in others) / len(others) if others else math.nan,
                "item_prominence_share": mine / total if total else math.nan,
                "item_most_prominent": float(all(mine >= weight[q] for q in others)),
                "item_former": float(former),
                "item_former_only": float(former and not self.truth.exists_today(item)),
            }
        fits = self._fits(span, rungs, items, namesakes) if "context" in groups else {}
        for row, cand in zip(rows, rungs):
            if "namesakes" in groups:
                row.update(per_item.get(cand.link_qid or "", {}))
            row.update(fits.get(cand.label, {}))

    def _namesakes(self, ladder: Ladder) -> list[str]:
        """The items the span's links and its name point to, the links' first, then the most
        prominent of the name's (at most :data:`NAMESAKES`)."""
        found = list(dict.fromkeys([link.qid for link in ladder.links] + [q for q, _ in self.index.lookup(fold(ladder.span.text))]))
        linked = {link.qid for link in ladder.links}
        rest = [q for q in found if q not in linked]
        rest = [q for _, q in sorted(zip(self.index.prominences(rest), rest), key=lambda t: -t[0])]
        return [q for q in found if q in linked][:NAMESAKES] + rest[:max(0, NAMESAKES - len(linked))]

    def _class_labels(self, item: str) -> list[str]:
        t = self.truth.taxonomy
        classes = list(t.parents(item, "P31")) or list(t.parents(item, "P279"))
        return [label for q in classes[:ITEM_CLASSES] if (label := t.label(q))]

    def _fits(self, span: Span, rungs: list[Candidate], items: set[str], namesakes: list[str]) -> dict[str, dict[str, float]]:
        """Per rung label: the cosines of the context group (module docstring); nothing without
        an embedder or a sentence naming the span."""
        window = _window(span)
        if self._make_embedder is None or window is None:
            return {}
        text, start, end = window
        words = text[:start].split()[-NEAR:] + text[end:].split()[:NEAR]
        emb = self._make_embedder()
        around, near = emb.encode([text[:start] + " " + text[end:], " ".join(words) or text])
        labels = {q: self._class_labels(q) for q in {*items, *namesakes}}
        known = sorted({label for ls in labels.values() for label in ls} | {c.label for c in rungs})
        vec = dict(zip(known, emb.encode_labels(known))) if known else {}

        def item_vec(q: str):
            if not labels.get(q):
                return None
            v = sum(vec[label] for label in labels[q])
            n = float((v @ v) ** 0.5)
            return v / n if n else None

        vecs = {q: item_vec(q) for q in labels}
        out: dict[str, dict[str, float]] = {}
        for cand in rungs:
            row: dict[str, float] = {"fit_rung": float(around @ vec[cand.label]), "near_rung": float(near @ vec[cand.label])}
            mine = vecs.get(cand.link_qid or "")
            others = [v for q in namesakes if q != cand.link_qid and (v := vecs[q]) is not None]
            best = max((float(around @ v) for v in others), default=math.nan)
            best_near = max((float(near @ v) for v in others), default=math.nan)
            row["fit_namesake"], row["near_namesake"] = best, best_near
            row["fit_rung_margin"] = row["fit_rung"] - best
            if mine is not None:
                row["fit_item"], row["near_item"] = float(around @ mine), float(near @ mine)
                row["fit_margin"], row["near_margin"] = row["fit_item"] - best, row["near_item"] - best_near
            out[cand.label] = row
        return out

    def _rules(self, rows: list[dict[str, float]], cases: list[RungCase]) -> None:
        knowledge = self.knowledge if self.knowledge is not None else current()
        with knowledge.active():
            for row, case in zip(rows, cases):
                for name in self.rules:
                    try:
                        row[f"rule={name}"] = float(bool(RULE_VERDICTS[name](case)))
                    except Exception:  # a predicate that cannot read this rung says nothing of it
                        row[f"rule={name}"] = math.nan
