"""Entity types from the knowledge graph and from the date and number parsers.

The entity type of a detected span picks its replacement ladder, so it must be one the
reader can trust ("Copenhagen" is no organisation, "Stavanger" no date). Three checks,
applied after the rules of :mod:`engine.detect.retype` and after the persons are linked:

- **the graph decides names it knows**: a span whose whole text is the label or alias of
  store items takes the type of their classes' *kind* — the kinds and their root classes
  are those of the truth rules (``ontology/entity_types.ttl``: a place class → LOC, an
  organisation class → ORG, a work, event or field → MISC, a person attribute or language
  → DEM); only when every matched item with a kind agrees, so a homonym keeps the layers'
  type (no list of names: any store);
- **a DATETIME or QUANTITY type needs its parser**: a span typed DATETIME that the date
  parser (:func:`engine.generate.sources.datetime.datetime_ladder`) reads only as the
  generic "DATE", and holds no number, is not a date; a QUANTITY with no number token
  (:func:`engine.generate.sources.numbers.is_number_token`) is not a quantity; it takes
  the graph's type, or its NER label's, or MISC;
- **a name "X of Y" is not Y**: a proper name typed by a place or organisation it names
  after "of" ("Geological Survey of Denmark and Greenland" typed LOC by "Denmark") is an
  organisation, unless its head noun names a place class (``tg:headNoun``: "Province of
  Ontario", or a place in the graph: "Region") or a role ("Mayor of Zagreb": DEM);
- **a title whose head noun is a role** ("Minister of Tourism and Trade", "Australian
  Public Service Commissioner", "Senator") is DEM when the graph types the head noun so;
- **an organisation's head word** (:func:`engine.detect.retype.org_head`) ends a capitalised
  name typed MISC or DEM, not a work: ORG ("Pontypool RFC", "Croatian Football Federation",
  "1. FC Magdeburg");
- **an acronym in brackets** after a name takes the name's type ("National Defence
  Academy (NDA)").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Iterable

from engine.detect.retype import org_head
from engine.detect.spans import DetectedSpan
from engine.generate.sources.datetime import datetime_ladder
from engine.generate.sources.numbers import is_number_token
from engine.knowledge import pattern, words
from engine.types import EntityType

if TYPE_CHECKING:  # pragma: no cover
    from engine.generate.truth import TruthRules

#: truth-rule kind → the entity type a name of that kind takes (a structure is a place)
KIND_ENTITY_TYPE: dict[str, EntityType] = {
    "kindPlace": EntityType.LOC, "kindStructure": EntityType.LOC, "kindOrganization": EntityType.ORG,
    "kindWork": EntityType.MISC, "kindEvent": EntityType.MISC, "kindField": EntityType.MISC,
    "kindPersonAttribute": EntityType.DEM, "kindLanguage": EntityType.DEM,
}
#: types the graph may correct (a person, a nationality or a role keeps its layers' type)
GRAPH_TYPED = frozenset({EntityType.LOC, EntityType.ORG, EntityType.MISC, EntityType.DATETIME, EntityType.QUANTITY})
#: NER labels → type, for a span the parsers reject and the graph does not know
_NER_TYPE = {"GPE": EntityType.LOC, "LOC": EntityType.LOC, "FAC": EntityType.LOC, "ORG": EntityType.ORG,
             "NORP": EntityType.DEM, "LANGUAGE": EntityType.DEM, "PERSON": EntityType.PERSON}
_WORD = re.compile(r"[^\s/–—-]+")
#: the date parser's months and time units, and the periods of a year or a day
_TIME_WORDS = words("detect_dates.time_words")
#: words before a name that place it ("born in Copenhagen"): NER's ORG gives way to the graph's place
_LOCATIVE_BEFORE = pattern("detect_places.locative_before")


def parses_as_date(text: str) -> bool:
    """The date parser gives ``text`` a rung other than the generic "DATE" (a year, a month,
    a decade, a duration, an age; not an ordinal alone: "Six"), or it holds digits, a month or a time unit or
    period ("the following year", "next season", "summer"); a number word alone is no
    date ("Five Nations")."""
    labels, rule = datetime_ladder(text)
    if (labels and rule != "generic") or any(ch.isdigit() for ch in text):
        return True
    return any(w in _TIME_WORDS for w in _WORD.findall(text.casefold()))


def parses_as_number(text: str) -> bool:
    """``text`` holds a number: digits, a number word ("two", "twice"), an ordinal."""
    return any(ch.isdigit() for ch in text) or any(is_number_token(w) for w in _WORD.findall(text))


def parser_accepts(text: str, entity_type: EntityType) -> bool:
    """Whether the parser of ``entity_type`` accepts ``text`` (always, for other types)."""
    if entity_type is EntityType.DATETIME:
        return parses_as_date(text)
    if entity_type is EntityType.QUANTITY:
        return parses_as_number(text)
    return True


class GraphTyper:
    """The entity type of store items from the truth rules' class kinds.

    ``kinds_of(qid)`` gives the kinds (``kindPlace`` …) of one item; build one over a
    taxonomy view with :meth:`from_taxonomy`.
    """

    def __init__(self, kinds_of: Callable[[str], frozenset[str]], *, head_kinds: dict[str, frozenset[str]] | None = None,
                 max_items: int = 8) -> None:
        self.kinds_of = kinds_of
        self.head_kinds = head_kinds or {}
        self.max_items = max_items

    @classmethod
    def from_taxonomy(cls, taxonomy, rules: "TruthRules | None" = None, *, hops: int = 6) -> "GraphTyper":
        """Kinds read from ``taxonomy`` (any view with ``parents(qid, prop)``): an item is of a
        kind when it, or a class above it over P31/P279 within ``hops``, is a root of the kind."""
        from engine.detect.gazetteer import KindOf
        from engine.generate.truth import TruthRules

        rules = rules or TruthRules.load()
        roots = {k: v for k, v in rules.kinds.items() if k in KIND_ENTITY_TYPE}
        ancestors = KindOf(taxonomy, hops)
        memo: dict[str, frozenset[str]] = {}

        def kinds_of(qid: str) -> frozenset[str]:
            hit = memo.get(qid)
            if hit is None:
                up = ancestors.ancestors(qid, hops) | {qid}
                hit = memo[qid] = frozenset(k for k, r in roots.items() if up & r)
            return hit

        return cls(kinds_of, head_kinds=rules.head_kinds)

    def item_type(self, qid: str) -> EntityType | None:
        """The one entity type the kinds of ``qid`` give, or None (no kind, or kinds of two types)."""
        types = {KIND_ENTITY_TYPE[k] for k in self.kinds_of(qid)}
        if EntityType.LOC in types:
            # a place that is also an organisation (a country, a municipal corporation) or a
            # "work" of its founders is read as the place
            return EntityType.LOC
        return types.pop() if len(types) == 1 else None

    def items_type(self, items: Iterable[str]) -> EntityType | None:
        """The type every matched item with a kind agrees on (None when they disagree or none has one)."""
        types = {t for q in list(items)[:self.max_items] if (t := self.item_type(q)) is not None}
        return types.pop() if len(types) == 1 else None

    def head_type(self, name: str, lookup: Callable[[str], Iterable[str]] | None = None) -> EntityType | None:
        """The type of the head noun of ``name`` (its last word before "of"): a place class
        by ``tg:headNoun``, else the graph type of the items ``lookup`` finds for the word
        ("Region" → geographic region → LOC, "Mayor" → a position → DEM)."""
        head = name.split(" of ", 1)[0].split()
        if not head:
            return None
        word = head[-1].casefold()
        if "kindPlace" in self.head_kinds.get(word, frozenset()):
            return EntityType.LOC
        return self.items_type(lookup(word)) if lookup is not None else None


def graph_retype(text: str, spans: list[DetectedSpan], gazetteer_spans: list[DetectedSpan],
                 typer: GraphTyper | None, lookup: Callable[[str], Iterable[str]] | None = None) -> list[DetectedSpan]:
    """``spans`` with the checks of the module docstring applied (a retyped span keeps
    its former type in ``retyped_from``). ``gazetteer_spans`` are the gazetteer layer's own
    spans (their items belong to their whole text); ``lookup`` gives the items of one
    folded word (the head noun of "X of Y")."""
    whole = {(g.start, g.end): g for g in gazetteer_spans}
    out: list[DetectedSpan] = []
    for s in spans:
        new = _checked_type(text, s, whole.get((s.start, s.end)), typer, lookup)
        if new is None and out and _abbreviation_of(text, out[-1], s):
            new = out[-1].entity_type  # "National Defence Academy (NDA)": the name's type
        if new is not None and new is not s.entity_type:
            s = s.with_(entity_type=new, retyped_from=s.retyped_from or s.entity_type)
        out.append(s)
    return out


_ACRONYM = re.compile(r"[A-Z][A-Za-z]?[A-Z]{1,6}")


def _abbreviation_of(text: str, name: DetectedSpan, s: DetectedSpan) -> bool:
    """``s`` is an acronym in brackets right after a multi-word name of a place,
    organisation or thing, no layer but the parse having typed it."""
    return (s.sources == frozenset({"syntax"}) and bool(_ACRONYM.fullmatch(s.text))
            and name.entity_type in (EntityType.ORG, EntityType.LOC, EntityType.MISC) and " " in name.text
            and text[name.end:s.start].strip() == "(" and text[s.end:s.end + 1] == ")")


def _checked_type(text: str, s: DetectedSpan, gaz: DetectedSpan | None, typer: GraphTyper | None,
                  lookup: Callable[[str], Iterable[str]] | None) -> EntityType | None:
    et = s.entity_type
    if et in (EntityType.MISC, EntityType.DEM) and _organisation_name(text, s) and (
            et is EntityType.DEM or gaz is None or typer is None or typer.items_type(gaz.items) is None):
        return EntityType.ORG  # "Pontypool RFC", "Croatian Football Federation": a name ending in an organisation's head word
    if et not in GRAPH_TYPED:
        return None
    graph = None
    # a capitalised name matched in lower case ("other") is not that name; a demonym is DEM;
    # an acronym of four letters or fewer is too ambiguous for its homonyms to decide
    if typer is not None and gaz is not None and gaz.gaz_kind != "nationality" and not (
            gaz.gaz_kind == "other" and s.text[:1].islower()) and not (s.text.isupper() and len(s.text) <= 4):
        graph = typer.items_type(gaz.items)
    if not parser_accepts(s.text, et):
        return graph or _NER_TYPE.get(s.ner_label or "") or EntityType.MISC
    if et in (EntityType.DATETIME, EntityType.QUANTITY):
        return None
    if graph is not None and _graph_may_override(text, s, graph):
        return graph
    if typer is None or gaz is not None:
        return None
    if " " not in s.text.strip():
        # a capitalised word no layer typed ("Senator"): a role when the graph says so
        if s.sources == frozenset({"syntax"}) and s.text[:1].isupper() and not s.text.isupper():
            return EntityType.DEM if typer.items_type(lookup(s.text.casefold()) if lookup else ()) is EntityType.DEM else None
        return None
    head = typer.head_type(s.text, lookup)
    if et is EntityType.LOC and _name_of_complement(s.text):
        return head if head in (EntityType.LOC, EntityType.DEM) else EntityType.ORG
    if head is EntityType.DEM and _name_of_complement(s.text) or head is EntityType.DEM and " of " not in s.text:
        # a title whose head noun is a role: "Minister of Tourism and Trade", "Australian
        # Public Service Commissioner" are positions (DEM), not the bodies they name
        return EntityType.DEM
    return None


def _organisation_name(text: str, s: DetectedSpan) -> bool:
    """A capitalised name ending in an organisation's head word, not a quoted work."""
    return org_head(s) and all(w[:1].isupper() or w[:1].isdigit() for w in s.text.split()) \
        and s.ner_label not in ("WORK_OF_ART", "EVENT", "PRODUCT", "LAW") and text[s.start - 1:s.start] not in ("\"", "“")


def _graph_may_override(text: str, s: DetectedSpan, graph: EntityType) -> bool:
    """NER and the graph disagree only where the text says which: a name NER read as an
    organisation is the graph's place after "in" / "born in" ("born … in Copenhagen"),
    and otherwise NER's place or organisation stands (a club named after its town)."""
    ner = _NER_TYPE.get(s.ner_label or "")
    if ner is None or ner is graph or ner not in (EntityType.LOC, EntityType.ORG):
        return True
    if ner is EntityType.ORG and graph in (EntityType.MISC, EntityType.DEM):
        return True  # NER's ORG is its catch-all for capitalised names: a work, an award, a role
    return ner is EntityType.ORG and graph is EntityType.LOC and bool(_LOCATIVE_BEFORE.search(text[max(0, s.start - 24):s.start]))


def _name_of_complement(name: str) -> bool:
    """A proper name "X of Y" (every word of X capitalised), which the store does not know
    as a whole: typed LOC, its type came from the place Y it names after "of"."""
    head = name.split(" of ", 1)[0].split()
    return len(head) >= 1 and all(w[:1].isupper() for w in head) and name.count(" of ") == 1
