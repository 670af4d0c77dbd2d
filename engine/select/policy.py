"""Which rung a prepared document shows for a mention: the one selection policy.

The select stage (:mod:`engine.select.stages`), the privacy guard (:mod:`engine.privacy.guard`)
and the evaluations all choose through :class:`SelectionPolicy`, so a rule holds in one
place:

- a rung equal to the mention's own text is never shown (:meth:`SelectionPolicy.refusal`);
- a DIRECT PERSON identifier never gets a graph rung (only its placeholder or ``***``);
- a rung that would leak another masked mention (:mod:`engine.privacy.leaks`) is never
  chosen nor shown among the alternatives;
- a category of roles is passed over in a role's slot (:mod:`engine.select.role_slot`);
- a name whose sentence states its class next to it ("the television series *MacGyver*")
  shows ``***``, not a rung that would repeat the sentence (:mod:`engine.select.stated`);
- the privacy guard's forced choice, where it made one, wins over the ranker's order.

Two modes (:class:`Selection`): ``meaning`` (the default) shows the ranker's best rung
other than ``***``, the most meaning the ladder offers in the ranker's order, and leaves
it to the privacy guard to generalize as far as the document's k requires;
``annotators`` shows the ranker's first choice, ``***`` included: it imitates the
annotators of WikiReplace, who masked most places and organisations.

Under ``meaning`` a ladder with at most one rung besides ``***`` leaves the ranker nothing
to choose: that rung is shown unless a rule refuses it or it would leak, whatever the
scores. :meth:`SelectionPolicy.ranks` says so, and the rank stage does not rank such
mentions (no sentence embeddings): their rungs keep the ladder's order, scored
``n, n-1, …, 1`` as without a ranker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from kg.vocab import TAXONOMY_PROPS
from engine.doc import Doc, DocMention
from engine.generate.sources.datetime import GENERIC as GENERIC_DATE
from engine.generate.sources.datetime import DatetimeSource
from engine.knowledge import rule
from engine.select.role_slot import SLOT_REASONS, category_in_role_slot
from engine.select.stated import STATED, repeats_stated, stated_noun
from engine.select.superlative import period_of_a_superlative, picked_out
from engine.types import (
    MASK, Candidate, Choice, EntityType, IdentifierType, Ladder, Mention, ScoredCandidate, Selection, Skipped,
)


class LeakCheck(Protocol):
    """What the policy asks of a leak guard (:class:`engine.privacy.leaks.DocumentLeakGuard`):
    the leak showing ``label`` for ``entity`` would cause, or None."""

    def check(self, entity: int, label: str): ...

#: Why a rung equal to the span's own text is refused.
SAME_TEXT = "the span's own text"
#: Why a graph rung is refused for a direct PERSON identifier.
DIRECT_PERSON = "a class of a directly identifying name"
#: Why a class is refused after "the first", "the only", "the youngest" … (:mod:`engine.select.superlative`).
PICKED_OUT = "a class is not true where a superlative picks the span out"
#: The source of the date rungs.
DATE_SOURCE = DatetimeSource.name
#: Why the generic date is passed over for a period the ladder also offers.
A_PERIOD_SAYS_MORE = "the ladder offers a period, which says more than a date"
#: Why a date rung is refused for a period a superlative is scoped to (:mod:`engine.select.superlative`).
SUPERLATIVE_PERIOD = "a wider period changes the claim of a superlative scoped to it"
#: Every reason a rung is passed over in its slot, not withheld as a leak (``Skipped.reason``).
PASSED_OVER_REASONS = (*SLOT_REASONS, PICKED_OUT, A_PERIOD_SAYS_MORE, SUPERLATIVE_PERIOD)


@rule("a-period-over-the-generic-date", stage="select", types=(EntityType.DATETIME,),
      purpose='the generic date ("at one time") is not shown where the ladder offers a period it may show ("in [1970]" → "in the 20th century" where "the 1970s" would leak, not "at one time")')
def generic_date_passed_over(candidate: Candidate, others: Sequence[Candidate]) -> bool:
    """``candidate`` is the generic date and one of ``others`` (the rungs that may be shown
    beside it) is a period: the ranker's order between a date and a period is no choice of
    meaning."""
    return candidate.label == GENERIC_DATE and any(c.label != GENERIC_DATE and not c.is_mask and c.source == candidate.source for c in others)


#: The note of a class shown where the ranker put ``***`` first.
KEPT_MEANING = "the ranker put *** first; kept the best rung with meaning"


@dataclass(frozen=True, slots=True)
class SelectionPolicy:
    """Chooses a mention's rung from its ladder and the ranker's scores."""

    selection: Selection = Selection.MEANING

    def ranks(self, ladder: Ladder) -> bool:
        """Whether the ranker's order can change the rung this policy shows for ``ladder``
        (``annotators``: always, ``***`` may come first; ``meaning``: only when the ladder
        offers more than one rung besides ``***``)."""
        if self.selection is not Selection.MEANING:
            return True
        return sum(1 for c in ladder.candidates if not c.is_mask) > 1

    @staticmethod
    def refusal(candidate: Candidate, original: str, mention: Mention | DocMention, text: str = "",
                others: Sequence[Candidate] = ()) -> str | None:
        """Why ``candidate`` may never replace ``mention`` (text ``original``, in the document
        ``text``: the words around it say whether it stands in a role's slot), or None.
        ``others``: the other rungs that may be shown for it (a period passes over the generic date)."""
        if candidate.label.strip().lower() == original.strip().lower():
            return SAME_TEXT
        if others and generic_date_passed_over(candidate, others):
            return A_PERIOD_SAYS_MORE
        if candidate.source == DATE_SOURCE and mention.entity_type is EntityType.DATETIME and period_of_a_superlative(text[:mention.start], original):
            return SUPERLATIVE_PERIOD
        if (mention.identifier_type is IdentifierType.DIRECT and mention.entity_type is EntityType.PERSON
                and candidate.source in TAXONOMY_PROPS):
            return DIRECT_PERSON
        if candidate.source in TAXONOMY_PROPS and mention.entity_type.is_graph and (word := picked_out(text[:mention.start])):
            return f"{PICKED_OUT} ('{word}')"
        return category_in_role_slot(candidate, mention.entity_type, text[:mention.start], text[mention.end:mention.end + 40])

    def choose(self, doc: Doc, k: int, guard: LeakCheck | None = None, skipped: list[Skipped] | None = None) -> Choice:
        """The rung shown for mention ``k`` (an entity's first mention) of ``doc``.

        With ``guard``, leaking rungs are withheld and, with ``skipped``, listed there
        with the reason (so are categories of roles passed over in a role's slot).
        """
        mention = doc.mentions[k]
        original = doc.original(k)
        forced = mention.forced
        if forced is not None:  # the privacy guard moved this span (engine.privacy.guard)
            cand = forced.candidate
            leak = guard.check(mention.entity, forced.label) if guard is not None and cand is not None and not cand.is_mask else None
            if leak is None:
                return forced
            if skipped is not None:
                skipped.append(Skipped(mention.start, mention.end, cand.label, cand.source, cand.level, leak.reason()))
            return Choice(MASK, None, forced.alternatives, "the privacy guard's rung would leak; masked")
        ladder = mention.ladder
        if mention.failed or ladder is None:
            return Choice(MASK, None, (), "failed closed")
        scores = mention.scores
        if scores is None:
            return Choice(MASK, None, (), "no scores; masked")
        ranked = sorted(zip(ladder.candidates, scores), key=lambda cs: -cs[1])
        leaks = {id(c): guard.check(mention.entity, c.label) for c, _ in ranked if not c.is_mask} if guard else {}
        alts = tuple(ScoredCandidate(c, s) for c, s in ranked if leaks.get(id(c)) is None)  # a leaking label is never shown
        if skipped is not None:  # every withheld rung is listed, whether it ranked above the chosen one or below
            skipped.extend(Skipped(mention.start, mention.end, c.label, c.source, c.level, leak.reason())
                           for c, _ in ranked if (leak := leaks.get(id(c))) is not None)
        if repeats_stated((c.label for c in ladder.candidates if not c.is_mask),
                          stated_noun(doc.text, mention.start, mention.end, mention.entity_type)):
            return Choice(MASK, None, alts, STATED)  # "the television series ***", not "… a television series"
        meaning = self.selection is Selection.MEANING
        mask_first = False
        # the rungs that may be shown: a period among them passes over the generic date
        showable = [c for c, _ in ranked if not c.is_mask and leaks.get(id(c)) is None
                    and self.refusal(c, original, mention, doc.text) is None] \
            if meaning and any(c.label == GENERIC_DATE for c, _ in ranked) else []
        for n, (cand, _) in enumerate(ranked):
            if leaks.get(id(cand)) is not None:
                continue
            refused = self.refusal(cand, original, mention, doc.text, showable)
            if refused is not None:
                if skipped is not None and refused not in (SAME_TEXT, DIRECT_PERSON):  # a category of roles in a role's slot
                    skipped.append(Skipped(mention.start, mention.end, cand.label, cand.source, cand.level, refused))
                continue
            if meaning and cand.is_mask:
                mask_first = mask_first or n == 0
                continue
            return Choice(cand.label, cand, alts, KEPT_MEANING if mask_first else "")
        if meaning and any(c.is_mask for c, _ in ranked):
            if all(c.is_mask for c, _ in ranked):
                return Choice(MASK, None, alts, "the ladder offers nothing but ***")
            return Choice(MASK, None, alts, "every rung with meaning was refused or would leak; masked")
        return Choice(MASK, None, alts, "only the original text was offered; masked")
