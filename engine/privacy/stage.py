"""The guard stage: k-anonymity, and no rung that would leak another masked mention.

1. With ``SanitizeOptions.k`` set, the privacy guard (:class:`engine.privacy.guard.PrivacyGuard`)
   moves spans up their ladders, from the select stage's choices, until the document's k
   reaches the target (``k=0`` only measures); its moves are ``DocMention.forced`` and its
   report ``Doc.privacy``. A failure masks every mention that has a ladder (fail closed).
2. Every entity's rung is then chosen once more with the leak guard
   (:class:`engine.privacy.leaks.DocumentLeakGuard`): a rung that would name another masked
   mention of the document is withheld, never shown nor listed among the alternatives
   (``Doc.skipped`` says why); the guard's forced choices win over the ranker's order.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from engine.doc import Doc, SanitizeOptions
from engine.privacy.guard import PrivacyGuard
from engine.privacy.leaks import DocumentLeakGuard, ItemNames
from engine.select.policy import SelectionPolicy
from engine.types import IdentifierType

log = logging.getLogger(__name__)


class GuardStage:
    """Enforces k and withholds leaking rungs.

    ``guard`` and ``item_names`` build the privacy guard (the store's persons) and the
    store's names (for the leak check) on first need."""

    name = "guard"

    def __init__(self, guard: Callable[[], PrivacyGuard], item_names: Callable[[], ItemNames]) -> None:
        self._make_guard = guard
        self._make_item_names = item_names
        self._guard: PrivacyGuard | None = None
        self._item_names: ItemNames | None = None

    @property
    def guard(self) -> PrivacyGuard:
        """The k-anonymity guard over the store's persons (built on first use)."""
        if self._guard is None:
            self._guard = self._make_guard()
        return self._guard

    @guard.setter
    def guard(self, guard: PrivacyGuard) -> None:
        self._guard = guard

    @property
    def item_names(self) -> ItemNames:
        """Every name of every item (labels, aliases, demonyms), for the leak check (built on first use)."""
        if self._item_names is None:
            self._item_names = self._make_item_names()
        return self._item_names

    def __call__(self, docs: Sequence[Doc], options: SanitizeOptions) -> None:
        policy = SelectionPolicy(options.selection)
        for doc in docs:
            if options.k is not None:
                self.enforce(doc, policy, options.k)
            self.withhold_leaks(doc, policy)

    def enforce(self, doc: Doc, policy: SelectionPolicy, k: int) -> None:
        """Move spans until the document's k ≥ ``k`` (``k=0`` measures); fail closed."""
        try:
            doc.privacy = self.guard.apply(doc, policy, k)
        except Exception as exc:  # fail closed: every ranked span becomes ***
            log.exception("privacy guard failed")
            doc.errors.append(f"privacy guard failed ({type(exc).__name__}: {exc}); every span masked")
            for m in doc.mentions:
                if m.ladder is not None:
                    m.failed = True

    def withhold_leaks(self, doc: Doc, policy: SelectionPolicy) -> None:
        """The rung each entity shows, leaking rungs withheld (``DocMention.choice``, ``Doc.skipped``)."""
        ms = doc.mentions
        leaks = DocumentLeakGuard.build(doc.text, ms, doc.entity, doc.ladders, self.item_names,
                                        hidden=[k for k, m in enumerate(ms) if m.forced is not None])
        chosen: set[int] = set()
        for k, m in enumerate(ms):
            if m.identifier_type is IdentifierType.NO_MASK and m.forced is None:
                continue
            first = doc.first_of(k)
            if first not in chosen:
                chosen.add(first)
                ms[first].choice = policy.choose(doc, first, leaks, doc.skipped)
