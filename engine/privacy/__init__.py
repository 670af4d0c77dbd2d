"""Privacy checks on the chosen replacements.

- :mod:`engine.privacy.leaks` — no replacement reveals what another mask hides;

k-anonymity against the knowledge graph: who else could a sanitized text be about?

- :mod:`engine.privacy.background` — persons of the store and their quasi-identifying
  facts, as roaring bitmaps per (property, anchor);
- :mod:`engine.privacy.disclosure` — the constraints a shown rung discloses, with
  provenance;
- :mod:`engine.privacy.anonymity` — the anonymity set and k (a lower bound);
- :mod:`engine.privacy.guard` — the climbing guard behind ``--k`` / ``privacy.k``, and
  :mod:`engine.privacy.report`, what it reports;
- :mod:`engine.privacy.stage` — the pipeline's guard stage: k, then no leaking rung.
"""

from engine.privacy.anonymity import AnonymitySet, anonymity_set
from engine.privacy.background import Background
from engine.privacy.disclosure import Constraint
from engine.privacy.guard import PrivacyGuard
from engine.privacy.report import Climb, PrivacyReport
from engine.privacy.leaks import DocumentLeakGuard, ItemNames, Leak

__all__ = [
    "AnonymitySet", "Background", "Climb", "Constraint", "DocumentLeakGuard", "ItemNames", "Leak",
    "PrivacyGuard", "PrivacyReport", "anonymity_set",
]
