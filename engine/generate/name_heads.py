"""Classes a name's head word vouches for, learned from the store's own names.

A span whose item the store lacks (or whose item has no class there), and whose head noun
names no class (:meth:`engine.generate.truth.TruthFilter.head_classes`), is generalized by
what the store's named items that share its head word are: "Kilkenny County *Council*",
"Radioactive *Records*", "Nigerian *Senate*" get the classes that the items named
"… Council", "… Records", "… Senate" (or "… Senate of …") have in common. No list of
words is written down: the store's labels and classes say which head words name what.

The rule keeps every rung true of the span:

- only names count: the span's head word and the items' are capitalised ("First Wave" is
  not compared with the genre "new wave"), no item is a person (a surname is no head
  noun: "David Cross" says nothing of the "Victoria Cross") and no person class is offered;
- only items that may stand for a span of the entity type count (an ORG span is compared
  with organisations named so, not with the albums), and only when they are at least
  :attr:`NameHeads.type_share` of the items named so ("… Award" names awards: the award
  ceremonies named so say nothing of an ORG span "Ramon Magsaysay Award"); none whose name
  starts with an ordinal (the "108th United States Congress" is one term, not a congress); nor is a span
  numbered in its sentence generalized so ("the 18th Party Congress" is one meeting);
- a class is offered when at least :attr:`NameHeads.share` of those items are one
  (over "is a" edges, :meth:`TruthFilter.is_a_closure`) and at least
  :attr:`NameHeads.min_items` items agree (101 of the seed's 102 "… Records" are record
  labels); a head word whose items are of several kinds keeps only what they share
  ("… Congress": a party, a legislature → "organization");
- a homonym head noun (``tg:homonymHead``: "college") gives nothing: the store's names
  do not hold every sense ("Electoral College" is no educational institution);
- the class must belong to a kind the entity type allows, have a lower-case label (a
  capitalised one names one thing) and pass the truth rules of the span's sentence.

A place's classes depend on the country it lies in ("Shou County", a county of China, is
no second-level subdivision as the store's many counties of the United States are), and a
DEM span is a common noun or an adjective: LOC and DEM spans are not generalized so.

A name marker before the name ("*FC* Haka") is read the same way when the head word says
nothing, but only an abbreviation in capitals that names no place and no person in the
store: a place before a name ("*NYC* Ballet", "*Madurai* Central") names no kind, whatever
the store's other "NYC …" items are.

The rules are registered by name: ``name-head-classes`` (the whole reading), ``numbered-name``,
``name-head-homonym`` and ``name-marker``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from kg.class_sets import named_class
from engine.generate.linking import fold, normalised_forms
from engine.generate.truth import PERSON_ATTRIBUTE, TruthFilter
from engine.generate.truth_rules import ORGANIZATION, PLACE, WORK
from engine.generate.truth_senses import barred_from_name
from engine.generate.truth_text import WORD, head_index, is_ordinal, span_words
from engine.knowledge import current, rule
from engine.types import EntityType, Span


#: Types whose spans are not generalized by their name's words: a place's classes depend on
#: the country it lies in ("Shou County", a county of China, is no second-level subdivision
#: as the store's many counties of the United States are), which its head word does not say.
UNSHARED = frozenset({EntityType.LOC, EntityType.DEM})
#: award (``tg:awardClass``): "… Prize", "… Medal" name awards.
AWARD = named_class("awardClass")


#: Kinds of item a word before a name may stand for without marking a kind of name.
NAMING_KINDS = frozenset({PLACE, PERSON_ATTRIBUTE})


def written_words(text: str) -> list[str]:
    """The span's words as written (case kept), aligned with :func:`span_words`."""
    return [w.strip(".,;:'’\"") for w in WORD.findall(re.sub(r"\([^)]*\)", " ", text)) if w.strip(".,;:'’\"")]


@rule("numbered-name", stage="ladder", types=("ORG", "MISC"), off=False,
      purpose="a name numbered in its sentence (\"the 18th Party Congress\") is one edition: not generalized by the store's names sharing its head")
def numbered(span: Span) -> bool:
    """An ordinal stands right before the span in its sentence ("after the *18th* Party Congress")."""
    before = re.findall(rf"(\S+)\s+{re.escape(span.text)}(?!\w)", span.context or "")
    return any(is_ordinal(word) for word in before)


@dataclass(frozen=True, slots=True)
class SharedClasses:
    """The classes the items named with ``word`` (at ``position``: "head" or "first") share."""

    word: str
    position: str
    items: int
    classes: tuple[str, ...]


class NameHeads:
    """Classes shared by the store's items whose names have a given head (or first) word."""

    def __init__(self, truth: TruthFilter, *, min_items: int = 4, share: float = 0.9, type_share: float = 0.5) -> None:
        self.truth = truth
        self.min_items = min_items
        self.share = share
        self.type_share = type_share
        self._cache: dict[tuple, SharedClasses] = {}

    @rule("name-head-classes", stage="ladder", types=("ORG", "MISC"), off=None,
          purpose="a name whose head noun names no class gets the classes the store's items named with the same head word share (\"… Records\")")
    def for_span(self, span: Span) -> SharedClasses | None:
        """The shared classes of the span's head word, else of its first word when that is a
        name marker; ``None`` when neither vouches for a class."""
        if span.entity_type in UNSHARED:
            return None
        words = span_words(span.text)
        raw = written_words(span.text)
        if len(words) < 2 or len(raw) != len(words) or is_ordinal(raw[0]):
            return None  # a bare word is no name with a head; "15th Legislative Assembly": one term
        at = head_index(words)
        if at == len(words) - 1 and at > 0 and self._names_place(raw[at]):
            at -= 1  # "Royal Philatelic Society London": the place after a name says where, the head stands before it
        if self._homonym(words[at]):
            return None  # "Electoral College": a homonym head says nothing its senses share of a name
        if not any(ch.isalpha() for ch in words[at]) or not raw[at][:1].isupper():
            return None  # "Hamlet 2": a number ends the name; a common noun's head is read as a class (head_classes)
        if numbered(span):
            return None  # "the 18th Party Congress": one edition, not one of the bodies named so
        later = self.truth.later_head(words)
        if later is not None and raw[later][:1].isupper():  # "University of the Philippines College of Medicine": a college
            if self._homonym(words[later]):
                return None
            found = self.shared(words[later], "head", span.entity_type)
            if found.classes:
                return found
        found = self.shared(words[at], "head", span.entity_type)
        if found.classes:
            return found
        if at > 0 and self.marker(raw[0], words[0]):
            found = self.shared(words[0], "first", span.entity_type)
            if found.classes:
                return found
        return None

    @rule("name-marker", stage="ladder", types=("ORG", "MISC"), off=False,
          purpose="a first word in capitals that names no place or person (\"FC Haka\") marks a kind of name: the store's names starting so say which")
    def marker(self, written: str, word: str) -> bool:
        """A first word that may mark a kind of name ("*FC* Haka", "*AC* Milan"): an
        abbreviation (two letters or more, all capitals) that names no place and no person
        in the store ("*NYC* Ballet" is a place before a name, not a marker)."""
        if len(written) < 2 or not (written.isalpha() and written.isupper()):
            return False
        return not any(self.truth.item_kinds(qid) & NAMING_KINDS for qid, _ in self.truth.index.lookup(word))

    def _names_place(self, written: str) -> bool:
        """A capitalised word that is the exact name of a place in the store ("London")."""
        return written[:1].isupper() and self.truth.names_place(fold(written))

    @rule("name-head-homonym", stage="ladder", types=("ORG", "MISC"), off=False,
          purpose="a head word that names a homonym class (tg:homonymHead: \"college\") says nothing its senses share of a name")
    def _homonym(self, word: str) -> bool:
        """The word names a class the reader rules call a homonym head (``tg:homonymHead``)."""
        homonyms = self.truth.rules.homonym_heads
        return any(qid in homonyms for form in [word] + normalised_forms(word) for qid, _ in self.truth.index.lookup(form))

    def shared(self, word: str, position: str, entity_type: EntityType) -> SharedClasses:
        """The classes at least :attr:`share` of the fitting items named with ``word`` at
        ``position`` are (none under :attr:`min_items` items), most specific first. None either
        when fewer than :attr:`type_share` of the items named so may stand for a span of the
        type: the word mostly names something else ("… Award" names awards, of which an ORG
        span is none: the award ceremonies named so say nothing of it)."""
        key = (word, position, entity_type, current().key)  # rules shape the classes offered
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        truth = self.truth
        named = self.items_named(word, position)
        items = [q for q in named if truth.item_fits(q, entity_type)]
        counts: Counter[str] = Counter()
        if len(items) >= self.type_share * len(named):
            for qid in items:
                counts.update(c for c in truth.is_a_closure(qid, "P31") if self._offerable(c, entity_type))
        need = max(self.min_items, self.share * len(items))
        classes = [c for c, n in counts.items() if n >= need]
        # most specific first: a class below another goes before it, then the more common first
        classes.sort(key=lambda c: (-len(truth.superclasses(c) & set(classes)), -counts[c], c))
        result = SharedClasses(word, position, len(items), tuple(classes))
        if len(self._cache) < 50_000:
            self._cache[key] = result
        return result

    def items_named(self, word: str, position: str) -> list[str]:
        """Items with a class of some kind, no person, whose label is a name with ``word`` as
        its head word (``position`` "head") or first word ("first"), written capitalised ("New
        Wave" is a name, the genre "new wave" is none), and not starting with an ordinal."""
        truth = self.truth
        found: dict[str, None] = {}
        for key, qid in truth.index.names_with_word(word):
            words = span_words(key)
            if len(words) < 2 or qid in found:
                continue
            at = head_index(words) if position == "head" else 0
            if words[at] == word:
                found[qid] = None
        labels = truth.index.main_labels(list(found))
        out = []
        for qid in found:
            raw = written_words(labels.get(qid, ""))
            if len(raw) != len(span_words(labels.get(qid, ""))) or not raw or is_ordinal(raw[0]):
                continue
            at = head_index(span_words(labels[qid])) if position == "head" else 0
            if fold(raw[at]) != word or not raw[at][:1].isupper():
                continue
            kinds = truth.item_kinds(qid) if truth.taxonomy.parents(qid, "P31") else frozenset()
            if kinds and PERSON_ATTRIBUTE not in kinds:
                out.append(qid)  # a person's name has no head noun ("David Cross" says nothing of a cross)
        return out

    def _offerable(self, qid: str, entity_type: EntityType) -> bool:
        """A class that may be a rung: labelled in lower case, of a kind the entity type allows;
        for a MISC span (a work, an event, an award) no class of organisations ("the 2018
        International Congress of Mathematicians" is one meeting, whatever the store's other
        "… Congress" items are) and no class of works but awards (:meth:`_award`)."""
        label = self.truth.taxonomy.label(qid)
        kinds = self.truth.class_kinds(qid)
        return (bool(label) and label[:1].islower() and self.truth.class_fits(qid, entity_type, strict=True)
                and PERSON_ATTRIBUTE not in kinds and not barred_from_name(self.truth, qid, entity_type)
                and not (entity_type is EntityType.MISC and (ORGANIZATION in kinds or (WORK in kinds and not self._award(qid)))))

    def _award(self, qid: str) -> bool:
        """The class is an award or below one: "… Prize", "… Medal" name awards, while a work's
        title ends in any word ("Ogene Love", a song; "IRB Sevens World Series", a tournament)."""
        return AWARD in self.truth.superclasses(qid)
