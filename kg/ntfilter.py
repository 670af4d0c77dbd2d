"""The dump filter of one block of whole N-Triples lines (run in the worker processes).

It keeps exactly what :func:`kg.dumps.read_ntriples` keeps: a block is checked with one
multi-line regular expression (every line an N-Triples statement, a comment or blank) and
only the lines naming a kept predicate are looked at one by one; a block with a malformed
or non-UTF-8 line falls back to the line-by-line reader for that block. ``schema:about``
lines are counted per item (sitelinks, for the prominence prior).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import numpy as np

from kg.dumps import NT_LINE
from kg.vocab import KEPT_PREDICATES, TEXT_PREDICATES, WD, WDT

SCHEMA_ABOUT = "http://schema.org/about"

_WS = r"[ \t]"
_IRI = r"<[^<>\"{}|^`\\\x00-\x20]*>"
_ECHAR = r"\\[tbnrf\"'\\]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_LITERAL = rf"\"(?:[^\"\\\n\r]++|{_ECHAR})*+\"(?:@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*|\^\^{_IRI})?"
_BNODE = r"_:[A-Za-z0-9_][A-Za-z0-9_.\-]*"
# Predicates factored by their common prefix (the regex engine tries alternatives one by one).
_ITEM_PREDS = rf"{re.escape(WDT)}(?:" + "|".join(
    re.escape(p[len(WDT):]) for p in sorted(KEPT_PREDICATES - {WDT + "P1549"}, key=lambda p: (-len(p), p))
) + ")"
_TEXT_PREDS = "|".join(re.escape(p) for p in sorted(TEXT_PREDICATES))
_WD_IRI = rf"<{re.escape(WD)}[^<>\"{{}}|^`\\\x00-\x20]*>"
_STRING = rf"\"(?:[^\"\\\n\r]++|{_ECHAR})*+\""
_NOT_LANG = r"(?![-a-zA-Z0-9])"
_KEEP_BODY = (
    rf"(?:{_IRI}|{_BNODE}){_WS}+(?:"
    rf"<(?:{_ITEM_PREDS})>{_WS}+(?:{_WD_IRI}|{_BNODE})"
    rf"|<{re.escape(WDT)}P1549>{_WS}+(?:{_WD_IRI}|{_BNODE}|{_STRING}(?:@en{_NOT_LANG}|\^\^{_IRI})?)"
    rf"|<(?:{_TEXT_PREDS})>{_WS}+{_STRING}@[eE][nN]{_NOT_LANG}"
    rf"){_WS}*\.(?:{_WS}*#[^\n]*?)?"
)
_ANY_BODY = rf"(?:{_IRI}|{_BNODE}){_WS}+{_IRI}{_WS}+(?:{_IRI}|{_BNODE}|{_LITERAL}){_WS}*\.(?:{_WS}*#[^\n]*)?"
#: A ``schema:about`` line as the dump writes it (single spaces, an ASCII IRI subject):
#: a valid statement, never kept, checked in one step; group 1 is its item's Q-number.
#: Any other sitelink line is checked by the general rule below.
_SITELINK = (
    rf"<[!#-;=?-\[\]_a-z~]*+> <{re.escape(SCHEMA_ABOUT)}> <{re.escape(WD)}Q([0-9]{{1,18}})> \."
)
#: Every line of a block: group 2 holds the (stripped) statement when ``keep_line`` keeps
#: it, is empty for other valid lines (statements, comments, blanks); invalid lines do not
#: match; group 1 holds the Q-number of a sitelink line of the form ``_SITELINK``.
_LINE = re.compile(rf"^(?:{_SITELINK}|{_WS}*(?:({_KEEP_BODY})|{_ANY_BODY}|#[^\n]*)?{_WS}*\r?)$", re.M)
#: The same for the prefilter's output, whose lines start with their line number (``N:``).
_NUMBERED_LINE = re.compile(rf"^[0-9]+:(?:{_SITELINK}|{_WS}*(?:({_KEEP_BODY})|{_ANY_BODY}|#[^\n]*)?{_WS}*\r?)$", re.M)
#: The object of a ``schema:about`` statement (in a block whose lines are all valid).
_ABOUT = re.compile(rf"<{re.escape(SCHEMA_ABOUT)}>{_WS}+<{re.escape(WD)}Q([0-9]+)>{_WS}*\.")


def keep_line(line: str) -> bool | None:
    """``True``/``False`` for a stripped statement line (the rules of ``read_ntriples``);
    ``None`` when it is not an N-Triples statement."""
    m = NT_LINE.match(line)
    if m is None:
        return None
    pred = m.group(2)[1:-1]
    obj = m.group(3)
    if pred in KEPT_PREDICATES:
        if obj.startswith("<") and not obj[1:].startswith(WD):
            return False
        if obj.startswith('"') and pred != WDT + "P1549":
            return False
        if obj.startswith('"') and m.group(4) not in ("en", None):
            return False
        return True
    if pred in TEXT_PREDICATES:
        return m.group(4) is not None and m.group(4).lower() == "en"
    return False


@dataclass
class BlockResult:
    """What a worker found in one block."""

    lines: int
    kept: bytes
    n_kept: int
    malformed: list[tuple[int, str, str]] = field(default_factory=list)
    n_malformed: int = 0
    about: np.ndarray | None = None
    cpu_s: float = 0.0


def filter_block(block: bytes) -> BlockResult:
    """Filter one block of whole lines (ends with a newline)."""
    t0 = time.process_time()
    res = _filter_block(block, _LINE) or _filter_slow(block, block.count(b"\n"))
    res.cpu_s = time.process_time() - t0
    return res


def _filter_block(block: bytes, line_re: re.Pattern[str]) -> BlockResult | None:
    """The fast path: ``None`` when the block holds a malformed or non-UTF-8 line."""
    n_lines = block.count(b"\n")
    about = None
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        return None
    found = line_re.findall(text)
    # ``^…$`` also matches the empty string after the final newline (not numbered)
    if len(found) != n_lines + (line_re is _LINE):
        return None
    kept = [line for _, line in found if line]
    if SCHEMA_ABOUT in text:
        items = [q for q, _ in found if q]
        if len(items) != text.count(f"<{SCHEMA_ABOUT}>"):  # not all in ``_SITELINK`` lines
            items = _ABOUT.findall(text)
        about = item_numbers(items)
    out = ("\n".join(kept) + "\n").encode("utf-8") if kept else b""
    return BlockResult(n_lines, out, len(kept), about=about)


def item_numbers(digits: list[str]) -> np.ndarray | None:
    """The int32 Q-numbers of ``schema:about`` objects (decimal strings); a number beyond
    int32 (no item the index can hold) is left out; ``None`` for none."""
    if not digits:
        return None
    if max(map(len, digits)) > 9:
        digits = [q for q in digits if int(q) <= 2**31 - 1]
    return np.array(digits, dtype=np.int64).astype(np.int32) if digits else None


_NUMBER = re.compile(rb"^([0-9]+):", re.M)


def filter_numbered_block(block: bytes) -> BlockResult:
    """Filter a block of the prefilter's output: lines ``N:line`` (``N`` the dump's line number).

    ``lines`` of the result is the dump line number of the block's last line; malformed
    lines carry their dump line numbers."""
    t0 = time.process_time()
    res = _filter_block(block, _NUMBERED_LINE)
    if res is None:  # a malformed line: line by line, with the dump's line numbers
        numbers = _NUMBER.findall(block)
        res = _filter_slow(_NUMBER.sub(b"", block), block.count(b"\n"))
        res.malformed = [(int(numbers[no - 1]), reason, line) for no, reason, line in res.malformed]
    m = _NUMBER.match(block, block.rfind(b"\n", 0, len(block) - 1) + 1)
    res.lines = int(m.group(1)) if m else 0
    res.cpu_s = time.process_time() - t0
    return res


def _filter_slow(block: bytes, n_lines: int) -> BlockResult:
    """Line by line, recording malformed lines (local line numbers from 1)."""
    res = BlockResult(n_lines, b"", 0)
    kept: list[str] = []
    about: list[str] = []
    for no, raw in enumerate(block.split(b"\n")[:n_lines], start=1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            res.n_malformed += 1
            res.malformed.append((no, f"invalid UTF-8 ({exc.reason})", ""))
            continue
        if not line or line.startswith("#"):
            continue
        verdict = keep_line(line)
        if verdict is None:
            res.n_malformed += 1
            if len(res.malformed) < 20:
                res.malformed.append((no, "not an N-Triples statement", line[:200]))
        elif verdict:
            kept.append(line)
        else:
            m = _ABOUT.search(line)
            if m:
                about.append(m.group(1))
    res.kept = ("\n".join(kept) + "\n").encode("utf-8") if kept else b""
    res.n_kept = len(kept)
    res.about = item_numbers(about)
    return res
