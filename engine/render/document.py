"""Building the sanitized text of a document from the chosen rungs: the entry point.

The mentions' decisions (:class:`Decision`: the rung chosen for each mention, or the
original text for NO_MASK) are laid into the text left to right:

0. **The two ends of a date range are shown at one grain** (:func:`engine.render.merge.ranges_at_one_grain`):
   the finer end is made coarser ("(early 1647 – the late 1710s)" → "(the late 1640s – the late
   1710s)"), so both read as one kind of period, and ends that became one period read once.
1. **Adjacent replacements are merged** (:mod:`engine.render.merge`) (only spaces between them in the original): two
   masks become one ``***`` (also across "/" or a dash: "***/***"); a title before a
   person ("[President] [John Mahama]" → "position PERSON 3") becomes the person;
   otherwise the last one, the head of the phrase, stands for both ("[2002] [Gujarat
   riots]" → "state of India", "[DATE] [***]" → "***"). A date before or after a person
   is kept, separated by a comma ("In 2015 Crystal …" → "In the 2010s, PERSON 1 …"),
   unless both sit in one noun phrase ("the [1957] [Roger Corman] film" → "the PERSON 2
   film"). A season's two-digit year joins the date before it ("[1998]–[99]"), and
   "from [the 1990s] to (or through) [the 1990s]" reads "in the 1990s" ("(1804–1806)": "(the 1800s)").
2. **Each unit is rendered by the rewrite rules** (:mod:`engine.render.rewrites`, applied
   in order): its phrase fitted to its slot (:func:`engine.render.phrase.render_phrase`:
   date phrases, articles, modifiers dropped, sentence-initial capitals), and the English
   around it rewritten (two class labels joined by "of" read with "in": "a baseball team
   of a sports league" → "a baseball team in a sports league"; a decade after its noun …).
3. The output and its offset map are built by :class:`engine.render.builder.TextBuilder`.

Every change is listed in ``edits`` and every changed region mapped back to the original
in ``segments``. Each mention's :class:`engine.types.Replacement` carries its rung and the
phrase shown for it; merged mentions share the phrase and its region.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from engine.render.builder import OffsetMap, TextBuilder
from engine.render.merge import Decision, merge_units, ranges_at_one_grain
from engine.render.phrase import RungKind, load_lemma_tables
from engine.render.rewrites import OutputState, SpanState, apply_rules
from engine.types import MASK, Replacement, Segment

__all__ = ["Decision", "RenderedDocument", "render_document"]


@dataclass
class RenderedDocument:
    """The sanitized text, each mention's replacement, the edits made and the changed regions."""

    text: str
    replacements: list[Replacement] = field(default_factory=list)
    edits: list[str] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)


def render_document(text: str, decisions: Sequence[Decision], *, readability: bool = True, parse: object = None) -> RenderedDocument:
    """The sanitized text of ``text`` for ``decisions`` (one per mention, in text order);
    ``parse``: the spaCy parse of ``text`` where detection made one (the rules read its syntax)."""
    if readability:
        # with the first document, whatever its words: not inside a later one (0.2 s of
        # gzip lines read on the first word the rules look up)
        load_lemma_tables()
        decisions = ranges_at_one_grain(text, decisions)
    masked = [d for d in decisions if not d.kept]
    units = merge_units(text, masked, readability)
    b = TextBuilder(text)
    doc = OutputState(text, b, parse)
    for n, u in enumerate(units):
        next_start = units[n + 1].start if n + 1 < len(units) else len(text)
        next_end = units[n + 1].end if n + 1 < len(units) else None
        b.copy_to(u.start)
        label = MASK if u.shown_as_mask else u.head.rung
        if readability:
            kind = RungKind.MASK if u.shown_as_mask else u.head.kind
            apply_rules(doc, SpanState(u, label, kind, u.end, next_start, next_end, text[u.end:u.end + 80]))
        else:
            s, e = b.emit(label, u.start, u.end)
            for d in u.decisions:
                doc.placed[id(d)] = (label, s, e, d.note)
        doc.prev_unit = u
    if doc.pending is not None:
        doc.flush()
    b.copy_to(len(text))
    replacements = []
    offsets = OffsetMap(b.segments)
    for d in decisions:
        m = d.mention
        if d.kept:
            s = offsets.new_offset(m.start)
            replacements.append(Replacement(m, d.original, d.original, (), s, s + (m.end - m.start), kept=True, note="; ".join(filter(None, ("NO_MASK", d.note))), rung=d.original))
            continue
        phrase, s, e, note = doc.placed[id(d)]
        replacements.append(Replacement(m, d.original, phrase, d.alternatives, s, e, kept=False, note=note, rung=d.rung))
    return RenderedDocument(b.out, replacements, b.edits, sorted(b.segments, key=lambda g: g.new_start))
