"""WikiReplace documents and the evaluation protocol of ``../shared/EVALUATION.md``.

- Unit: every mention with a non-empty ``generalization_selection``.
- Candidates: nested sources flattened; sources in the order heuristics, P31, P279,
  P8225, P361, then any other; each list's labels in order, skipping ``***`` and labels
  already taken; one ``***`` last. Level = 1-based position.
- Gold: the label with most votes (ties: first in dict order).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from kg.vocab import TAXONOMY_PROPS

from engine.errors import InputError
from engine.types import MASK, EntityType, IdentifierType

SOURCE_ORDER = ("heuristics", *TAXONOMY_PROPS)


@dataclass(frozen=True, slots=True)
class WRMention:
    """One annotated mention of a WikiReplace document."""

    doc_id: str
    annotator: str
    mention_id: str
    text: str
    start: int
    end: int
    entity_type: EntityType
    identifier_type: IdentifierType
    entity_id: str | None
    related: tuple[str, ...]
    generalizations: dict[str, Any]
    selection: dict[str, list[str]]
    masked: bool

    @property
    def annotated(self) -> bool:
        """Counts in the selection protocol (non-empty selection)."""
        return bool(self.selection)

    @property
    def candidates(self) -> list[tuple[str, str]]:
        """(label, source) per the protocol, ``***`` last."""
        return protocol_candidates(self.generalizations)

    @property
    def gold(self) -> str | None:
        return majority(self.selection)

    @property
    def chosen(self) -> set[str]:
        return {label for label, voters in self.selection.items() if voters}


@dataclass
class WRDocument:
    """A document and its mentions grouped by annotator."""

    doc_id: str
    text: str
    mentions: dict[str, list[WRMention]] = field(default_factory=dict)

    def all_mentions(self) -> Iterator[WRMention]:
        for ms in self.mentions.values():
            yield from ms


def flatten_sources(generalizations: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """(source, labels) pairs with nested ``contained``/``levenshtein`` dicts flattened."""
    flat: list[tuple[str, list[str]]] = []
    for source, value in generalizations.items():
        if isinstance(value, dict):
            for inner, labels in value.items():
                flat.append((f"{source}:{inner}", list(labels)))
        else:
            flat.append((source, list(value)))
    order = {s: i for i, s in enumerate(SOURCE_ORDER)}
    return sorted(flat, key=lambda kv: order.get(kv[0], len(order)))


def protocol_candidates(generalizations: dict[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for source, labels in flatten_sources(generalizations):
        for label in labels:
            if label == MASK or label in seen:
                continue
            seen.add(label)
            out.append((label, source))
    out.append((MASK, "mask"))
    return out


def majority(selection: dict[str, list[str]]) -> str | None:
    best, votes = None, -1
    for label, voters in selection.items():
        if len(voters) > votes:
            best, votes = label, len(voters)
    return best


def load_wikireplace(path: str | Path) -> list[WRDocument]:
    """Read a WikiReplace-format JSON file; raises :class:`InputError` on a bad record."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read WikiReplace file {p}: {exc}", position=str(p)) from exc
    if not isinstance(data, list):
        raise InputError(f"{p}: expected a JSON list of documents", position=str(p))
    docs = []
    for i, raw in enumerate(data):
        try:
            doc = WRDocument(doc_id=str(raw["doc_id"]), text=raw["text"])
            for annotator, ann in raw.get("annotations", {}).items():
                ms = []
                for m in ann.get("entity_mentions", []):
                    rep = m.get("replacement") or {}
                    ms.append(
                        WRMention(
                            doc_id=doc.doc_id, annotator=annotator, mention_id=str(m.get("entity_mention_id", "")),
                            text=m["span_text"], start=int(m["start_offset"]), end=int(m["end_offset"]),
                            entity_type=EntityType.parse(m["entity_type"]),
                            identifier_type=IdentifierType.parse(m.get("identifier_type")),
                            entity_id=m.get("entity_id"), related=tuple(m.get("related_mentions") or ()),
                            generalizations=rep.get("generalizations") or {},
                            selection=rep.get("generalization_selection") or {},
                            masked=bool(rep),
                        )
                    )
                doc.mentions[annotator] = sorted(ms, key=lambda x: (x.start, x.end))
        except (KeyError, TypeError, ValueError, InputError) as exc:
            raise InputError(f"{p}: document #{i} is malformed: {exc}", position=f"{p}#{i}") from exc
        docs.append(doc)
    return docs
