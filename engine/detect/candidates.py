"""The candidate spans of a raw text: spaCy NER + gazetteer + rules (+ parse), merged, persons linked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.detect.amounts import join_amounts
from engine.detect.context_types import context_retype
from engine.detect.coref.numbering import other_names_joined, persons_renumbered
from engine.detect.coref.persons import link_persons
from engine.detect.dialogue import dialogue_retype
from engine.detect.eras import drop_era_markers
from engine.detect.graph_types import GraphTyper, graph_retype
from engine.detect.joined_names import joined_names_split, joined_places_split, place_names
from engine.detect.legal import judgment_spans
from engine.detect.relative_dates import drop_relative_dates
from engine.detect.merge import merge_spans
from engine.detect.name_parts import name_parts_retype
from engine.detect.name_types import name_retype
from engine.detect.ner import DEFAULT_MODEL, load_pipeline, ner_spans
from engine.detect.non_persons import non_person_retype
from engine.detect.retype import retype
from engine.detect.rules import rule_spans
from engine.detect.spans import DetectedSpan
from engine.detect.syntax import syntax_spans, uncovered
from engine.detect.terms import drop_term_spans
from engine.detect.usage_types import usage_retype

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

    from engine.detect.gazetteer import Gazetteer


@dataclass
class Candidates:
    """A parsed text and its merged candidate spans (before the masking decision)."""

    text: str
    doc: "Doc"
    spans: list[DetectedSpan]


class CandidateFinder:
    """Runs the three layers over a text. ``layers`` picks which (default all three)."""

    def __init__(self, gazetteer: "Gazetteer | None", *, model: str = DEFAULT_MODEL,
                 layers: tuple[str, ...] = ("ner", "gazetteer", "rules", "syntax"), typer: GraphTyper | None = None) -> None:
        self.gazetteer = gazetteer
        self.model = model
        self.layers = layers
        self.typer = typer  # entity types from the graph's classes (engine.detect.graph_types)

    def lookup(self, word: str) -> list[str]:
        """The items whose label or alias is the folded ``word`` as a whole."""
        if self.gazetteer is None:
            return []
        return [e.item for h in self.gazetteer.hits(word) if h.start == 0 and h.end == len(word) for e in h.entries]

    @property
    def nlp(self):
        return load_pipeline(self.model)

    def find(self, text: str) -> Candidates:
        doc = self.nlp(text)
        return self.from_doc(doc)

    def find_many(self, texts: list[str], batch_size: int = 16) -> list[Candidates]:
        return [self.from_doc(doc) for doc in self.nlp.pipe(texts, batch_size=batch_size)]

    def from_doc(self, doc: "Doc") -> Candidates:
        text = doc.text  # read once (it joins every token), given to the layers
        layers = []
        gazetteer: list[DetectedSpan] = []
        if "ner" in self.layers:
            layers.append(ner_spans(doc, text))
        if "rules" in self.layers:
            layers.append(rule_spans(text))
        if "gazetteer" in self.layers and self.gazetteer is not None:
            gazetteer = self.gazetteer.spans(text)
            layers.append(gazetteer)
        if "syntax" in self.layers:
            layers.append(uncovered(syntax_spans(doc, text), [s for layer in layers for s in layer]))
        # amounts of money whole (engine.detect.amounts); a judgment's roles, headings and citations out (engine.detect.legal)
        spans = judgment_spans(text, join_amounts(text, merge_spans(text, *layers)))
        spans = joined_names_split(text, retype(text, spans))  # "Jock Stein for Celtic": two names (engine.detect.joined_names)
        spans = drop_relative_dates(spans)  # "the following year": no date (engine.detect.relative_dates)
        # numbers inside terms, a year's era marker, a dialogue's labels and greetings, a name's parts
        # (engine.detect.terms, .eras, .dialogue, .name_parts)
        spans = name_parts_retype(text, dialogue_retype(text, drop_era_markers(text, drop_term_spans(text, spans))))
        spans = link_persons(text, spans)
        # after the persons are linked (which reads the layers' types), so that is unchanged
        spans = graph_retype(text, spans, gazetteer, self.typer, self.lookup)
        spans = joined_places_split(spans, place_names(self.typer, self.lookup))  # "Liverpool and London": two places
        spans = context_retype(text, spans)  # the words around a span (engine.detect.context_types)
        spans = usage_retype(text, spans)  # how a name is used in its sentence (engine.detect.usage_types)
        spans = name_retype(text, spans)  # a name's own words and its phrase (engine.detect.name_types)
        spans = non_person_retype(text, spans, self.typer, self.lookup)  # a prize, a mountain, a feast, a place named like a person (engine.detect.non_persons)
        spans = persons_renumbered(text, spans) or spans  # the persons' ids once the types are settled
        spans = other_names_joined(text, spans) or spans  # "born Nora Kuzma", "known as Brother Adam": the same person
        return Candidates(text, doc, spans)
