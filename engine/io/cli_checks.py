"""Checks of command-line options that run before the engine (model, store) loads.

Each raises :class:`ValueError` with a one-line message; the CLI prints it and exits 1.
"""

from __future__ import annotations

from pathlib import Path

from engine.io.contract import OVERLAP_POLICIES
from engine.io.files import unwritable_reason

INPUT_SUFFIXES = (".json", ".jsonl", ".ndjson", ".txt")  # .txt: one raw document


def plural(n: int, noun: str) -> str:
    """``"1 document"``, ``"2 documents"``."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def sanitize_pairs(source: Path, out: Path, *, fmt: str, overlap: str, batch: int) -> list[tuple[Path, Path]]:
    """``(input, output)`` files of ``taxogen sanitize``, after checking every option.

    Refused: an unknown ``--format`` or ``--overlap``, ``--batch`` below 1, a missing
    input, an output that would overwrite an input, an output that cannot be written.
    """
    from engine.io.docio import FORMATS

    if fmt not in FORMATS:
        raise ValueError(f"unknown --format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if overlap not in OVERLAP_POLICIES:
        raise ValueError(f"unknown --overlap {overlap!r}; expected one of {', '.join(OVERLAP_POLICIES)}")
    if batch < 1:
        raise ValueError("--batch must be at least 1")
    if source.is_dir():
        files = sorted(p for p in source.iterdir() if p.is_file() and p.suffix.lower() in INPUT_SUFFIXES)
        if not files:
            raise ValueError(f"no .json/.jsonl/.txt files in {source}")
        reason = unwritable_reason(out, directory=True)
        pairs = [(f, out / (f.stem + ".jsonl")) for f in files]
    elif source.is_file():
        reason = unwritable_reason(out)
        pairs = [(source, out)]
    else:
        raise ValueError(f"no such file or directory: {source}")
    if reason:
        raise ValueError(f"--out: {reason}")
    for src, dst in pairs:
        if dst.resolve() == src.resolve():
            raise ValueError(f"--out {dst} would overwrite the input {src}; choose another output")
    return pairs
