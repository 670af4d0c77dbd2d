"""A person word linked to a religion names a follower of it: "Catholic" → "follower of
Christianity", not "Christianity".

A DEM span says what a person is. When the store links it to a religion ("Catholic" is an
alias of Catholicism, "Jewish" of Judaism), the religion's rungs ("Christianity", "Abrahamic
religion", "religion") name the faith, not the person: "a devout Catholic" would read "a
devout Christianity". Each rung is said of its follower instead ("a devout follower of an
Abrahamic religion"), which is as true of the person as the rung is of the faith.
"""

from __future__ import annotations

from dataclasses import replace

from engine.generate.truth import RELIGION, TruthFilter
from engine.knowledge import rule, table
from engine.text.articles import indefinite_article
from engine.types import Candidate

#: How a rung of a religion is said of its follower ("follower of {}").
PHRASING = table("adherents.phrasing")


@rule("religion-names-follower", stage="ladder", types=("DEM",), off=False,
      purpose="a DEM span linked to a religion (\"a devout Catholic\") names a follower: each rung is said of its follower")
def names_follower(truth: TruthFilter, item: str) -> bool:
    """The item a DEM span links to is a religion: its rungs name the faith, not the person."""
    return RELIGION in truth.superclasses_of_item(item)


def as_followers(candidates: list[Candidate], truth: TruthFilter, item: str) -> list[Candidate]:
    """``candidates`` said of a follower when ``item`` is a religion (:func:`names_follower`), else unchanged."""
    if not names_follower(truth, item):
        return candidates
    said = PHRASING.get("follower", "{}")
    return [replace(c, label=said.format(_with_article(c.label))) for c in candidates]


def _with_article(label: str) -> str:
    """"Christianity" as it is, "an Abrahamic religion", "a religion"."""
    words = label.split()
    if label[:1].isupper() and not any(w[:1].islower() for w in words[1:]):
        return label  # a name: "Christianity", "Sunni Islam"
    return f"{indefinite_article(label)} {label}"
