"""The split of the shared court judgments (TAB) into a part rules and models may be built from
and a part kept for measuring.

A judgment is in the **measure** part when the SHA-1 of its ``doc_id`` is 0 or 1 modulo 5
(32 of the 94), otherwise in the **build** part (62). Rules, packs and readers' judgments
that feed a model come from the build part only; the figures reported for generalization on
court cases come from the measure part, whose replacements are judged by readers who never
saw the code. Detection, a learned model, is cross-validated over all 94 by document.
"""

from __future__ import annotations

import hashlib
from typing import Iterable, Literal

Part = Literal["build", "measure"]


def tab_part(doc_id: str) -> Part:
    """Which part of the TAB split the judgment ``doc_id`` is in."""
    return "measure" if int(hashlib.sha1(doc_id.encode("utf-8")).hexdigest(), 16) % 5 in (0, 1) else "build"


def in_part(doc_ids: Iterable[str], part: Part) -> list[str]:
    """The ids of ``doc_ids`` in ``part``, in their order."""
    return [d for d in doc_ids if tab_part(d) == part]
