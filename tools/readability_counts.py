"""Count the sanitized sentences that do not read as English, by kind of failure.

    python tools/readability_counts.py sanitize --docs bios.jsonl --store STORE --out out.jsonl
    python tools/readability_counts.py count out.jsonl [--show]

``sanitize`` sanitizes raw documents (spans detected, as readers receive them: JSON lines
``{"id", "text"}``, or a WikiReplace ``.json`` list whose annotations are dropped) and writes
one JSON line per document: ``id``, ``text`` (original) and ``sanitized``. ``count`` prints,
for each file, how many sanitized sentences hold

- a **raw placeholder**: "DATE", or "X" standing for a number ("X goals", "a X-time
  medalist"), other than "PERSON X";
- a **class in a modifier slot**: an article, a class phrase and a lower-case noun it
  modifies ("the a company factory", "a human settlement filmmaking" — two articles in a
  row, or the class's article right after another determiner);
- a **half range**: one end of a date range kept, the other generalized ("between 2012 and
  the 2010s", "1985–the 1980s"), or a range whose two ends read the same ("from the 1990s to
  the 1990s").

The counts are pattern-based: a measure of the failures, not a proof of their absence.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from blind_batch import read_docs, sanitized

_PERIOD = r"(?:the (?:early |mid-|late )?\d{1,4}0s|the \d+(?:st|nd|rd|th)[- ]century|mid-\d{4})"
_YEAR = r"(?<![\w-])\d{4}(?![\w-])"

KINDS: dict[str, re.Pattern[str]] = {
    "raw placeholder": re.compile(r"\bDATE\b|(?<!PERSON )(?<![\w*])X(?=[\s\-–,.;:)%]|$)"),
    "class in a modifier slot": re.compile(
        r"\b(?:the|a|an|his|her|their|its)\s+(?:a|an)\s+[a-z]", re.I),
    "half range": re.compile(
        rf"\bbetween {_YEAR} and {_PERIOD}|\bbetween {_PERIOD} and {_YEAR}"
        rf"|\bfrom {_YEAR} (?:to|until|till|through) {_PERIOD}|\bfrom {_PERIOD} (?:to|until|till|through) {_YEAR}"
        rf"|{_YEAR}\s*[–—-]\s*{_PERIOD}|{_PERIOD}\s*[–—-]\s*{_YEAR}"
        rf"|\b(?:from|between) ({_PERIOD}) (?:to|until|till|through|and) \1\b"
        rf"|({_PERIOD})\s*[–—-]\s*\2\b"),
}


def sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z*\"“(])|\n+", text) if s.strip()]


def sanitize(docs: Path, store: str | None, out: Path) -> None:
    from engine import Engine

    engine = Engine.from_config(store=store) if store else Engine.from_config()
    rows = read_docs(docs)
    with out.open("w", encoding="utf-8") as f:
        for (doc_id, text), res in zip(rows, sanitized(engine, [text for _, text in rows])):
            classes = [[r.new_start, r.new_end] for r in res.replacements if _shown_as_class(r)]
            f.write(json.dumps({"id": doc_id, "text": text, "sanitized": res.text, "classes": classes}, ensure_ascii=False) + "\n")


def _shown_as_class(rep) -> bool:
    """A replacement shown as a class label of the graph (not a mask, a person or kept)."""
    return (not rep.kept and rep.mention.entity_type.is_graph and rep.replacement not in ("", "***")
            and rep.rung[:1].islower() and not rep.rung.startswith("date in "))


_NEXT = re.compile(r"[ \t]+([a-z][\w'’-]*)(?:[ \t]+(\S+))?")


def class_modifiers(row: dict) -> list[tuple[int, int]]:
    """The class phrases of ``row`` that modify a noun after them ("a company factory")."""
    from engine.render.phrase import is_noun_like

    out = []
    text = row["sanitized"]
    for start, end in row.get("classes", []):
        m = _NEXT.match(text, end)
        if m and is_noun_like(m.group(1), m.group(2) or "") and text[start:end]:
            out.append((start, m.end(1)))
    return out


def count(path: Path, show: bool) -> dict[str, int]:
    counts = {k: 0 for k in KINDS}
    total = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        modifiers = [row["sanitized"][s:e] for s, e in class_modifiers(row)]
        for s in sentences(row["sanitized"]):
            total += 1
            for kind, pat in KINDS.items():
                if pat.search(s) or (kind == "class in a modifier slot" and any(m in s for m in modifiers)):
                    counts[kind] += 1
                    if show:
                        print(f"[{kind}] {row['id']}: {s}")
    print(f"{path}: {total} sentences; " + "; ".join(f"{k}: {v}" for k, v in counts.items()))
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sanitize")
    s.add_argument("--docs", type=Path, required=True)
    s.add_argument("--store", default=None)
    s.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("count")
    c.add_argument("files", type=Path, nargs="+")
    c.add_argument("--show", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "sanitize":
        sanitize(args.docs, args.store, args.out)
    else:
        for f in args.files:
            count(f, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
