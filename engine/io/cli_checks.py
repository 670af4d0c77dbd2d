"""Checks of command-line options that run before the engine (model, store) loads.

Each raises :class:`ValueError` with a one-line message; the CLI prints it and exits 1.
"""

from __future__ import annotations

from pathlib import Path

from engine.io.contract import OVERLAP_POLICIES
from engine.io.files import unwritable_reason

INPUT_SUFFIXES = (".json", ".jsonl", ".ndjson", ".txt", ".md", "")  # .txt, .md, no extension: one raw document
#: What ``taxogen sanitize`` writes (``--format``); ``auto``: text for a plain-text input, else jsonl;
#: ``tab``: the masked character ranges of every document, ``{doc_id: [[start, end], …]}``, as
#: TAB's evaluation scores them.
OUTPUT_FORMATS = ("auto", "jsonl", "json", "text", "tab")
OUTPUT_SUFFIXES = {"jsonl": ".jsonl", "json": ".json", "text": ".txt", "tab": ".json"}


def plural(n: int, noun: str) -> str:
    """``"1 document"``, ``"2 documents"``."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def output_format(fmt: str, source: Path, input_format: str) -> str:
    """The output format of ``source``: ``fmt``, or for ``auto`` text when the input is plain text."""
    from engine.io.docio import detect_format

    if fmt != "auto":
        return fmt
    kind = input_format if input_format != "auto" else detect_format(source)
    return "text" if kind in ("text", "txt") else "jsonl"


def sanitize_pairs(source: Path, out: Path | None, *, fmt: str, overlap: str, batch: int, out_format: str = "auto",
                   encoding: str = "utf-8") -> list[tuple[Path, Path]]:
    """``(input, output)`` files of ``taxogen sanitize``, after checking every option; an output
    of ``-`` (also for ``out=None``) is standard output.

    Refused: an unknown input format, output ``--format``, ``--overlap`` or ``--encoding``,
    ``--batch`` below 1, a missing input, a directory input without ``--out DIR`` or ``-``,
    an output that would overwrite an input, an output that cannot be written.
    """
    from engine.errors import InputError
    from engine.io.docio import FORMATS, STDOUT, check_encoding

    if fmt not in FORMATS:
        raise ValueError(f"unknown --input-format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if out_format not in OUTPUT_FORMATS:
        raise ValueError(f"unknown --format {out_format!r}; expected one of {', '.join(OUTPUT_FORMATS)}")
    if overlap not in OVERLAP_POLICIES:
        raise ValueError(f"unknown --overlap {overlap!r}; expected one of {', '.join(OVERLAP_POLICIES)}")
    if batch < 1:
        raise ValueError("--batch must be at least 1")
    try:
        check_encoding(encoding)
    except InputError as exc:
        raise ValueError(f"--encoding: {exc}") from None
    to_stdout = out is None or str(out) == STDOUT
    if source.is_dir():
        files = sorted(p for p in source.iterdir() if p.is_file() and not p.name.startswith(".")
                       and p.suffix.lower() in INPUT_SUFFIXES)
        if not files:
            raise ValueError(f"no .json/.jsonl/.txt/.md or extensionless files in {source}")
        if to_stdout:
            return [(f, Path(STDOUT)) for f in files]
        reason = unwritable_reason(out, directory=True)
        pairs = [(f, out / (f.stem + OUTPUT_SUFFIXES[output_format(out_format, f, fmt)])) for f in files]
    elif source.is_file():
        if to_stdout:
            return [(source, Path(STDOUT))]
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
