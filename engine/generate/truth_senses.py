"""Truth rules on which sense of a name or a word a span takes (see :mod:`engine.generate.truth`).

A class the words of a name cannot give (``tg:notFromHeadNoun`` in ``ontology/entity_types.ttl``),
read in one place for every reading of a name's words: its head noun, an item's description, the
store's names sharing its head word (:mod:`engine.generate.name_heads`); and the
links a span's words do not vouch for: an item Wikidata files as an institution and as its
building, an approximate match of another word, the bare word of a homonym class.
"""

from __future__ import annotations

from engine.generate.truth import GRAPH_TYPES, MARKER_KINDS, TruthFilter
from engine.generate.truth_text import span_words
from engine.knowledge import rule
from engine.types import Candidate, EntityType, Link, LinkMethod, Span


@rule("barred-from-name", stage="ladder", types=GRAPH_TYPES, off=False,
      purpose="a class the type takes not from a name's words (tg:notFromHeadNoun: an ORG \"… Church\" is no church building)")
def barred_from_name(truth: TruthFilter, qid: str, entity_type: EntityType) -> bool:
    """The class is not taken from the words of a span's name or of what names it (its head
    noun, an item's description, the store's names sharing its head word):
    every kind it has that the type does not forbid is one the type takes not from a head
    noun (``tg:notFromHeadNoun``: an ORG span "Methodist Church of Southern Africa" is no
    "church building", a kind of structure that Wikidata also files under "activity", a field
    an ORG span forbids; a MISC title "A House on Ogui Road" no "house")."""
    return _not_from_head(truth, qid, entity_type)


def _not_from_head(truth: TruthFilter, qid: str, entity_type: EntityType) -> bool:
    rule = truth.rules.types.get(entity_type)
    if rule is None or not rule.not_from_head:
        return False
    kinds = truth.class_kinds(qid) - MARKER_KINDS - rule.forbids
    return bool(kinds) and kinds <= rule.not_from_head


@rule("institution-not-building", stage="ladder", types=GRAPH_TYPES, off=False,
      purpose="a rung of a linked item that the type takes not from a name (a building for an ORG span) is another sense: \"Trinity College\" is no building")
def other_sense(truth: TruthFilter, cand: Candidate, entity_type: EntityType) -> bool:
    """The rung's class is one the type takes not from a name (:func:`barred_from_name`: only a
    structure for an ORG span): the span names the institution, not its building, whether or
    not Wikidata files the two under one item ("Trinity College", a college of a university,
    is no "university building"; a museum that holds collections is no "building" to a
    reader either, though Wikidata gives "museum" both kinds)."""
    return cand.qid is not None and bool(cand.link_qid) and _not_from_head(truth, cand.qid, entity_type)


@rule("approximate-link-unvouched", stage="link", types=("DEM",), off=False,
      purpose="an approximate match (\"Buddhist\" → \"Buddhism\") for a strict type, to an item of none of its kinds, is not the referent")
def unvouched_approximate(truth: TruthFilter, span: Span, link: Link) -> bool:
    """A link found by an approximate match (another word: "Buddhist" → "Buddhism") for a type
    whose classes must be of its kinds (``tg:strictKinds``: DEM), to an item of none of them:
    the store does not say the item is what the span names (the religion is no person
    attribute, and its classes "religion", "ideology" are not what a Buddhist is)."""
    rule = truth.rules.types.get(span.entity_type)
    if rule is None or not rule.strict or link.method is not LinkMethod.APPROXIMATE:
        return False
    return not truth.item_kinds(link.qid) & rule.allows


@rule("bare-homonym-word", stage="link", types=GRAPH_TYPES, off=False,
      purpose="a span that is only the bare word of a homonym class (tg:homonymHead: \"captain\") is not linked to it")
def bare_homonym(truth: TruthFilter, span: Span, qid: str) -> bool:
    """The span is the bare word of a homonym class (``tg:homonymHead``) it links to: one word,
    which says not which sense is meant ("captain" of a club is no military rank); a span that
    says more ("army captain") is read on its other words."""
    return qid in truth.rules.homonym_heads and len(span_words(span.text)) == 1
