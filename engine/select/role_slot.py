"""A rung that names a *kind of role* does not stand for the role itself.

"He served as both Vice President and …" generalized to "occupation" reads "served as
both occupation and …"; "she is a lawyer" to "profession" reads "she is a profession".
The annotators chose such categories for occupations now and then, but in the role's
slot the sentence no longer says what the person is: the category ("occupation",
"profession", "position", …) is a class of roles, not a role. It reads only where the
sentence talks about the role as a thing ("his profession", "the position of …").

:func:`category_in_role_slot` tells the sanitizer to pass over such a rung for a DEM
mention unless a possessive or "the" stands before the mention; the next rung is used
and the result's ``skipped`` says why (as for a leaking rung). Its three rules are
registered (stage ``select``); their words are ``packs/core/select.yaml``.
"""

from __future__ import annotations

import re

from engine.knowledge import pattern, rule, words
from engine.types import Candidate, EntityType

#: Head nouns of class labels that name a category of roles rather than a role: "occupation",
#: "filmmaking occupation", "public office", "academic rank", "title of honor".
ROLE_CATEGORIES = words("select.role_categories")
#: Words before the mention after which a category reads as a noun about the role.
_AS_A_THING = words("select.role_as_a_thing")
#: The words every such ``skipped`` reason holds.
ROLE_SLOT_REASON = "names a kind of role, not the role"
#: The words a ``skipped`` reason holds when a holder class is passed over after "former".
ONCE_HELD_REASON = "reads as no longer a person"
#: … and when a holder class would stand for the role after "as" ("worked as a person").
AS_ROLE_REASON = "says no role"
#: Every reason for passing over a rung in a role's slot (not a leak).
SLOT_REASONS = (ROLE_SLOT_REASON, ONCE_HELD_REASON, AS_ROLE_REASON)
_AS_A = pattern("select.as_a")
_COPULA_AND_THE = pattern("select.copula_and_the")
_WORD_BEFORE = re.compile(r"([A-Za-z'’]+)\W*$")
#: A capitalised word (a name, or its placeholder "PERSON 2") right after the mention.
_NAME_AFTER = re.compile(r"\s+[A-Z]")


#: Rungs that name whoever holds a role, and the words before a role that say it was held
#: once: "a former *person*" reads as someone no longer alive, not a former skier.
_HOLDERS = words("select.role_holders")
_ONCE = words("select.held_once")


def category_in_role_slot(cand: Candidate, entity_type: EntityType, before: str, after: str = "") -> str | None:
    """Why ``cand`` must not stand for a DEM mention preceded by ``before`` (the text up to
    the mention) and followed by ``after``, or ``None`` when it may. A role before a name
    ("married *the architect* Erik Lindqvist") is the role's slot whatever stands before it;
    "person" does not follow "former" ("a former *cross-country skier*") nor "as" ("worked
    as a *commentator*": "as a person" says no role)."""
    if entity_type is not EntityType.DEM:
        return None
    m = _WORD_BEFORE.search(before[-40:])
    prev = m.group(1).lower() if m else ""
    return (holder_after_held_once(cand, prev, before) or holder_after_as(cand, before)
            or category_of_roles_in_the_role_slot(cand, prev, after, before))


@rule("holder-after-held-once", stage="select", types=("DEM",),
      purpose='"person" does not stand for a role after "former", "late", "ex-" … ("a former person" reads as someone no longer alive)')
def holder_after_held_once(cand: Candidate, prev: str, before: str) -> str | None:
    """Why a holder class may not follow ``prev``, the word before the mention, or None."""
    if cand.label.lower() in _HOLDERS and (prev in _ONCE or before.rstrip().lower().endswith("ex-")):
        return f"'{cand.label}' after '{prev}' {ONCE_HELD_REASON}"
    return None


@rule("holder-after-as", stage="select", types=("DEM",),
      purpose='"person" does not stand for a role after "as" ("worked as a person" says no role)')
def holder_after_as(cand: Candidate, before: str) -> str | None:
    """Why a holder class may not follow "as" (and an article) in ``before``, or None."""
    if cand.label.lower() in _HOLDERS and _AS_A.search(before[-40:]):
        return f"'{cand.label}' after 'as' {AS_ROLE_REASON}"
    return None


@rule("category-of-roles-in-the-role-slot", stage="select", types=("DEM",),
      purpose='a class naming a kind of role ("occupation", "profession") does not stand for the role, unless the sentence talks of the role as a thing ("his profession")')
def category_of_roles_in_the_role_slot(cand: Candidate, prev: str, after: str, before: str = "") -> str | None:
    """Why a category of roles may not stand in the role's slot after ``prev`` (the word
    before the mention) and before ``after``, or None. After a verb that states what someone
    is ("was the *manager*", ``before``: the text up to the mention) the determiner does not
    make the role a thing: "was the profession" says it of a person."""
    if label_head(cand.label) not in ROLE_CATEGORIES:
        return None
    if prev in _AS_A_THING and not _NAME_AFTER.match(after) and not _COPULA_AND_THE.search(before[-40:]):
        return None
    return f"'{cand.label}' {ROLE_SLOT_REASON}, after '{prev or 'the start'}'"


def label_head(label: str) -> str:
    """The head noun of a class label: its last word before "of" ("title of honor" → "title")."""
    parts = label.lower().split(" of ")[0].split()
    return parts[-1] if parts else ""
