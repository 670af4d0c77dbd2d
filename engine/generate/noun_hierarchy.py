"""Rungs of a common noun the graph does not know, from WordNet's hypernyms.

Court judgments and case files name people by their trade and things by common nouns the
taxonomy store may lack ("pharmacist", "reindeer", "watchman", "paranoid schizophrenia").
WordNet 3.0 (Princeton; ``kg/data/wordnet/nouns.json.gz``, made by
``tools/make_wordnet_nouns.py`` from Debian's ``wordnet-base``) files each sense of a noun
under a more general one, true of everything the sense names::

    "pharmacist" → "health professional"
    "reindeer"   → "deer"

:func:`wordnet_hypernyms` gives a lower-case DEM or MISC span that WordNet holds as a noun
those rungs, where the store names nothing by the whole span
(:meth:`engine.generate.sources.graph.GraphSource._common_noun`). A compound WordNet lacks
keeps its head noun alone (:func:`engine.generate.common_nouns.compound_head_noun`): WordNet
may know only another sense of the head ("opening batsman", a cricketer; WordNet's batsman
plays baseball). A noun has several senses: of those of a kind its entity type can name
(``truth.wordnet_kinds``: a DEM span a person, a group, a state or an attribute), the ones
WordNet's tagged corpora find at least a fifth as often as the most frequent
(``truth.wordnet_settings``: ``dominance``) may be meant, and only the hypernyms they all share
are offered ("nurse": the health professional or the nanny, a person; too general, so none). A
sense too general to say anything ("entity", "abstraction", "person":
``truth.wordnet_too_general``) ends the climb; at most ``rungs`` of ``truth.wordnet_settings``
are offered (one: WordNet's second step up is often a word no reader uses of the span,
"accountant" → "businessperson" → "capitalist"). Each rung's provenance names the synset it
comes from. The table is read on first use (a fifth of a second; :func:`engine.warmup.warm_up` reads it ahead).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lemminflect import getLemma

from engine.knowledge import rule, table, words
from engine.types import Candidate, EntityType, Span

#: Where the table of WordNet's nouns lies (package data of ``kg``).
TABLE = Path(str(resources.files("kg") / "data" / "wordnet" / "nouns.json.gz"))
#: Where the rungs come from, for their provenance.
SOURCE = "WordNet 3.0 (Princeton University)"

_TOO_GENERAL = words("truth.wordnet_too_general")
_KINDS = table("truth.wordnet_kinds")
_SETTINGS = table("truth.wordnet_settings")


@dataclass(frozen=True)
class NounSense:
    """A sense of a noun: its synset, the synset's label and lexicographer file."""

    synset: str
    label: str
    kind: str


class NounHierarchy:
    """WordNet's noun lemmas, their senses (most frequent first, with tagged counts) and hypernyms.

    ``lemmas``: lemma → ``"synset,count;…"``; ``synsets``: synset → ``"label\tfile\thypernym"``
    (the shipped table's flat strings, parsed on lookup)."""

    def __init__(self, lemmas: dict[str, str], synsets: dict[str, str]) -> None:
        self.lemmas = lemmas
        self.synsets = synsets

    @classmethod
    def load(cls, path: Path = TABLE) -> "NounHierarchy":
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        return cls(data["lemmas"], data["synsets"])

    def sense_list(self, lemma: str) -> list[tuple[str, int]]:
        """The senses of ``lemma``, most frequent first: (synset, tagged count)."""
        raw = self.lemmas.get(lemma)
        if not raw:
            return []
        return [(offset, int(count)) for offset, count in (part.split(",") for part in raw.split(";"))]

    def synset(self, offset: str) -> NounSense:
        label, kind, _ = self.synsets[offset].split("\t")
        return NounSense(offset, label, kind)

    def hypernym_of(self, offset: str) -> str | None:
        return self.synsets[offset].split("\t")[2] or None

    def lemma_of(self, noun: str) -> str | None:
        """The lemma ``noun`` is a form of ("gendarmes" → "gendarme"), if WordNet has it."""
        low = " ".join(noun.lower().split())
        if low in self.lemmas:
            return low
        *rest, last = low.split(" ")
        for lemma in getLemma(last, upos="NOUN") or ():
            form = " ".join(rest + [lemma])
            if form in self.lemmas:
                return form
        return None

    def senses(self, lemma: str, kinds: frozenset[str] | None, dominance: float) -> list[NounSense]:
        """The senses ``lemma`` may have in running text: those of ``kinds`` (None: any) tagged at
        least 1/``dominance`` as often as the most frequent of them (all of them, where none was tagged)."""
        senses = [(self.synset(s), c) for s, c in self.sense_list(lemma)]
        senses = [(s, c) for s, c in senses if kinds is None or s.kind in kinds]
        if not senses:
            return []
        top = max(c for _, c in senses)
        return [s for s, c in senses if c * dominance >= top]

    def common_hypernyms(self, senses: list[NounSense]) -> list[NounSense]:
        """The synsets above every one of ``senses``, nearest first: true whichever sense is meant."""
        if not senses:
            return []
        chains = [self.hypernyms(s.synset) for s in senses]
        others = [{h.synset for h in chain} | {s.synset} for chain, s in zip(chains[1:], senses[1:])]
        return [h for h in chains[0] if all(h.synset in o for o in others)]

    def hypernyms(self, synset: str) -> list[NounSense]:
        """The synsets above ``synset``, nearest first (each one's first hypernym)."""
        out = []
        seen = {synset}
        parent = self.hypernym_of(synset)
        while parent is not None and parent not in seen:
            seen.add(parent)
            out.append(self.synset(parent))
            parent = self.hypernym_of(parent)
        return out


@lru_cache(maxsize=1)
def noun_hierarchy() -> NounHierarchy:
    """The shipped table, read once."""
    return NounHierarchy.load()


@rule("wordnet-hypernyms-of-a-common-noun", stage="ladder", types=(EntityType.DEM, EntityType.MISC), off=[],
      purpose='a common noun the graph does not know climbs WordNet\'s hypernyms of its dominant sense ("pharmacist" → "health professional")')
def wordnet_hypernyms(span: Span) -> list[Candidate]:
    """The hypernym rungs of the span's words, nearest first."""
    noun = span.text
    if not noun or not noun[0].islower():
        return []
    hierarchy = noun_hierarchy()
    lemma = hierarchy.lemma_of(noun)
    if lemma is None:
        return []
    kinds = _KINDS.get(span.entity_type.value)
    senses = hierarchy.senses(lemma, frozenset(kinds) if kinds else None, float(_SETTINGS["dominance"]))
    out: list[Candidate] = []
    shown = {lemma, noun.lower()}
    meant = "its one sense" if len(senses) == 1 else f"what its {len(senses)} senses share"
    for up in hierarchy.common_hypernyms(senses):
        if up.label in _TOO_GENERAL or len(out) >= int(_SETTINGS["rungs"]):
            break
        if up.label in shown:
            continue
        shown.add(up.label)
        out.append(Candidate(up.label, source="wordnet", rule="wordnet-hypernyms-of-a-common-noun", depth=len(out) + 1,
                             path=f"{SOURCE}: {lemma!r} → {up.label!r} ({meant}; synset {up.synset}, {up.kind})"))
    return out
