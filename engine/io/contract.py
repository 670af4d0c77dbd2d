"""The one input contract of taxogen: what a document, a mention and a request may hold.

The HTTP API (``engine.api``) and the command line (``engine.io.docio`` → ``taxogen
sanitize``, ``taxogen generalize``) both validate through this module, so they accept and
reject exactly the same inputs, with the same one-line messages:

- offsets ``start``/``end`` are JSON integers (``25``; never ``25.0``, ``"25"`` or
  ``true``), code-point indices with ``0 <= start < end <= len(text)``;
- ``entity_type`` is one of :class:`engine.types.EntityType` (case-insensitive),
  ``identifier_type`` one of :class:`engine.types.IdentifierType` (default QUASI);
- ``span_text`` (WikiReplace) or ``text`` on a mention, when present, must equal the
  document text between the offsets;
- a document's ``mentions`` is a list (an empty list is fine: nothing to mask); a document
  **without** the key is detected (``mentions`` is ``None``, see
  :mod:`engine.detect`); two mentions with the same offsets are an error;
- a ``generalize`` span is a non-blank string.

Limits (:data:`LIMITS`): text 200,000 characters, 5,000 mentions per document, span 1,000
characters, context 10,000 characters, ``alternatives`` 0–50.

Messages never quote the submitted text or any submitted string value (only offsets,
lengths, counts and type names), so an error answer or an error line on stderr cannot
leak personal data. Every error is an :class:`engine.errors.InputError` whose message
does not repeat the record's position (``file:line``): callers print the position once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.errors import InputError
from engine.types import EntityType, IdentifierType, Mention, Selection

#: Hard limits of one request or record (characters, counts).
LIMITS = {"text_chars": 200_000, "mentions": 5_000, "span_chars": 1_000, "context_chars": 10_000, "alternatives": 50, "k": 1_000_000}

_ENTITY_TYPES = ", ".join(t.value for t in EntityType)
_IDENTIFIER_TYPES = ", ".join(t.value for t in IdentifierType)
OVERLAP_POLICIES = ("merge", "reject")


@dataclass(frozen=True, slots=True)
class SanitizeRequest:
    """A validated document to sanitize, with its options (HTTP ``POST /sanitize`` body)."""

    text: str
    mentions: tuple[Mention, ...] | None  # None: no "mentions" key, detect the spans
    overlap: str = "merge"
    readability: bool = True
    with_originals: bool = False
    alternatives: int = 5
    k: int | None = None  # privacy guard (engine.privacy); None: the engine's privacy.k
    selection: str | None = None  # "meaning" or "annotators" (engine.select.policy); None: privacy.selection
    min_truth: float | None = None  # the verifier's operating point (engine.generate.verifier); None: the engine's


@dataclass(frozen=True, slots=True)
class GeneralizeRequest:
    """A validated span to generalize (HTTP ``POST /generalize`` body, ``taxogen generalize``)."""

    span: str
    entity_type: EntityType
    identifier_type: IdentifierType = IdentifierType.QUASI
    context: str | None = None
    rank: bool = True
    min_truth: float | None = None  # the verifier's operating point; None: the engine's


def parse_json(raw: str | bytes) -> Any:
    """A JSON value from text or UTF-8 bytes (a BOM is allowed; no other encoding is guessed).

    Failures are one-line :class:`InputError` messages that never quote the input.
    """
    try:
        return json.loads(raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 (byte {exc.start})") from None
    except RecursionError:
        raise InputError("invalid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise InputError(f"invalid JSON: {str(exc).split(':')[0]}") from None


def _kind(value: Any) -> str:
    """The JSON kind of a value, for messages (never the value itself)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction part" if value == value and value not in (float("inf"), float("-inf")) else "a non-finite number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _err(message: str, where: str | None) -> InputError:
    return InputError(f"{where}: {message}" if where else message, position=where)


def strict_int(value: Any, name: str, where: str | None = None) -> int:
    """``value`` if it is a JSON integer (not a bool, float or string)."""
    if type(value) is not int:
        raise _err(f"{name} must be an integer, got {_kind(value)}", where)
    return value


def optional_str(d: dict, key: str, where: str | None, *, max_chars: int | None = None) -> str | None:
    value = d.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _err(f"{key} must be a string, got {_kind(value)}", where)
    if max_chars is not None and len(value) > max_chars:
        raise _err(f"{key} has {len(value):,} characters; the limit is {max_chars:,}", where)
    return value


def _flag(d: dict, key: str, default: bool) -> bool:
    value = d.get(key, default)
    if not isinstance(value, bool):
        raise _err(f"{key} must be true or false, got {_kind(value)}", None)
    return value


def entity_type(value: Any, where: str | None = None) -> EntityType:
    """An :class:`EntityType` from its name; the message lists the known ones, not the value."""
    if isinstance(value, EntityType):
        return value
    if not isinstance(value, str) or value.upper() not in EntityType.__members__:
        raise _err(f"unknown entity type ({_kind(value)}); expected one of {_ENTITY_TYPES}", where)
    return EntityType[value.upper()]


def identifier_type(value: Any, where: str | None = None) -> IdentifierType:
    """An :class:`IdentifierType` from its name (``None``: QUASI)."""
    if value is None:
        return IdentifierType.QUASI
    if isinstance(value, IdentifierType):
        return value
    if not isinstance(value, str) or value.upper() not in IdentifierType.__members__:
        raise _err(f"unknown identifier type ({_kind(value)}); expected one of {_IDENTIFIER_TYPES}", where)
    return IdentifierType[value.upper()]


def parse_mention(d: Any, text: str | None, where: str) -> Mention:
    """One mention of ``text`` from its JSON form (``where`` names it, e.g. ``mention #2``).

    With ``text=None`` (a mention without its document) offsets and span text are only
    type-checked.
    """
    if not isinstance(d, dict):
        raise _err(f"a mention must be an object, got {_kind(d)}", where)
    for key in ("start", "end", "entity_type"):
        if key not in d:
            raise _err(f"mention lacks {key!r}", where)
    start, end = strict_int(d["start"], "start", where), strict_int(d["end"], "end", where)
    if text is not None and not 0 <= start < end <= len(text):
        raise _err(f"offsets {start}–{end} are not a non-empty range inside the text (length {len(text)})", where)
    if text is None and not 0 <= start < end:
        raise _err(f"offsets {start}–{end} are not a non-empty range", where)
    etype = entity_type(d["entity_type"], where)
    ident = identifier_type(d.get("identifier_type"), where)
    for key in ("span_text", "text"):
        given = d.get(key)
        if given is None:
            continue
        if not isinstance(given, str):
            raise _err(f"{key} must be a string, got {_kind(given)}", where)
        if text is not None and given != text[start:end]:
            raise _err(f"{key} does not match the text at offsets {start}–{end} "
                       f"({len(given)} characters given, {end - start} at the offsets)", where)
    entity_id = d.get("entity_id")
    if entity_id is not None and not isinstance(entity_id, (str, int)):
        raise _err(f"entity_id must be a string, got {_kind(entity_id)}", where)
    mention_id = d.get("id", d.get("entity_mention_id"))
    if mention_id is not None and not isinstance(mention_id, (str, int)):
        raise _err(f"id must be a string, got {_kind(mention_id)}", where)
    related = d.get("related", d.get("related_mentions")) or []
    if not isinstance(related, list) or not all(isinstance(r, (str, int)) and not isinstance(r, bool) for r in related):
        raise _err("related must be a list of mention ids", where)
    return Mention(start, end, etype, ident, None if entity_id is None else str(entity_id), tuple(str(r) for r in related),
                   None if mention_id is None else str(mention_id))


def parse_mentions(raw: Any, text: str) -> tuple[Mention, ...]:
    """Every mention of a document; a missing list, too many or repeated offsets are errors."""
    if raw is None:
        raise _err("'mentions' must be a list of spans (an empty list is fine; leave the key out to detect them)", None)
    if not isinstance(raw, list):
        raise _err(f"'mentions' must be a list, got {_kind(raw)}", None)
    if len(raw) > LIMITS["mentions"]:
        raise _err(f"{len(raw):,} mentions; the limit is {LIMITS['mentions']:,}", None)
    out = tuple(parse_mention(m, text, f"mention #{i}") for i, m in enumerate(raw))
    seen: dict[tuple[int, int], int] = {}
    for i, m in enumerate(out):
        first = seen.setdefault((m.start, m.end), i)
        if first != i:
            raise _err(f"repeats mention #{first} (offsets {m.start}–{m.end})", f"mention #{i}")
    return out


def check_text_size(text: str) -> str:
    """``text`` when it is within the one size limit of a document (``LIMITS["text_chars"]``,
    for every input: JSON, JSON lines, plain text, HTTP); else a one-line :class:`InputError`."""
    if len(text) > LIMITS["text_chars"]:
        raise _err(f"text has {len(text):,} characters; the limit is {LIMITS['text_chars']:,}", None)
    return text


def document_text(d: dict) -> str:
    text = d.get("text")
    if not isinstance(text, str):
        raise _err("document lacks a string 'text'" if text is None else f"'text' must be a string, got {_kind(text)}", None)
    return check_text_size(text)


def parse_document(d: Any) -> tuple[str | None, str, tuple[Mention, ...] | None]:
    """``(id or None, text, mentions)`` of one document object (JSONL line, JSON file, HTTP body).

    ``mentions`` is ``None`` when the object has no ``mentions`` key: its spans are to be
    detected; ``"mentions": null`` is still an error.
    """
    if not isinstance(d, dict):
        raise _err(f"a document must be a JSON object, got {_kind(d)}", None)
    text = document_text(d)
    doc_id = d.get("id", d.get("doc_id"))
    if doc_id is not None and (isinstance(doc_id, bool) or not isinstance(doc_id, (str, int))):
        raise _err(f"id must be a string, got {_kind(doc_id)}", None)
    if "mentions" not in d:  # raw text in: the spans are detected
        return (None if doc_id is None else str(doc_id)), text, None
    return (None if doc_id is None else str(doc_id)), text, parse_mentions(d.get("mentions"), text)


def parse_sanitize_request(d: Any) -> SanitizeRequest:
    """The body of ``POST /sanitize``: a document plus options."""
    _, text, mentions = parse_document(d)
    overlap = d.get("overlap", "merge")
    if overlap not in OVERLAP_POLICIES:
        raise _err("overlap must be 'merge' or 'reject'", None)
    alternatives = strict_int(d.get("alternatives", 5), "alternatives")
    if not 0 <= alternatives <= LIMITS["alternatives"]:
        raise _err(f"alternatives must be between 0 and {LIMITS['alternatives']}", None)
    k = d.get("k")
    if k is not None and not 0 <= strict_int(k, "k") <= LIMITS["k"]:
        raise _err(f"k must be between 0 and {LIMITS['k']:,}", None)
    selection = d.get("selection")
    if selection is not None and selection not in Selection.names():
        raise _err("selection must be 'meaning' or 'annotators'", None)
    return SanitizeRequest(text, mentions, overlap, _flag(d, "readability", True), _flag(d, "with_originals", False), alternatives, k,
                           selection, min_truth(d))


def min_truth(d: dict) -> float | None:
    """The optional ``min_truth`` of a request: a probability (0 keeps every rung)."""
    value = d.get("min_truth")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise _err(f"min_truth must be a number between 0 and 1, got {_kind(value) if not isinstance(value, (int, float)) else value}", None)
    return float(value)


def parse_generalize_request(d: Any) -> GeneralizeRequest:
    """The body of ``POST /generalize`` (and the arguments of ``taxogen generalize``)."""
    if not isinstance(d, dict):
        raise _err(f"the body must be a JSON object, got {_kind(d)}", None)
    span = d.get("span")
    if not isinstance(span, str):
        raise _err("'span' is required" if span is None else f"span must be a string, got {_kind(span)}", None)
    if not span.strip():
        raise _err("span is empty", None)
    if len(span) > LIMITS["span_chars"]:
        raise _err(f"span has {len(span):,} characters; the limit is {LIMITS['span_chars']:,}", None)
    if "entity_type" not in d:
        raise _err("'entity_type' is required", None)
    return GeneralizeRequest(
        span, entity_type(d["entity_type"]), identifier_type(d.get("identifier_type")),
        optional_str(d, "context", None, max_chars=LIMITS["context_chars"]), _flag(d, "rank", True), min_truth(d),
    )
