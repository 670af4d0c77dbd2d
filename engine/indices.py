"""The indices the engine derives from a store, registered with :mod:`kg.derived` so that every
store build writes them (``kg build``, the starter graph, ``taxogen kg index``) and a run only
reads them: the gazetteer's entries (:mod:`engine.detect.entry_cache`) and the privacy
guard's persons and facts (:mod:`engine.privacy.background`).

Importing the ``engine`` package registers them (:func:`register_engine_indices`).
"""

from __future__ import annotations

from kg.derived import DerivedIndex, register

from engine.detect.entry_cache import GAZETTEER_INDEX
from engine.privacy.background import PRIVACY_INDEX

#: what the engine derives from a store
ENGINE_INDICES: tuple[DerivedIndex, ...] = (GAZETTEER_INDEX, PRIVACY_INDEX)


def register_engine_indices() -> None:
    """Have every store build write :data:`ENGINE_INDICES`."""
    for index in ENGINE_INDICES:
        register(index)
