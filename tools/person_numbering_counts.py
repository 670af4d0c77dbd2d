"""Count how raw-text sanitizing numbers persons: one person under several PERSON numbers,
one number over several persons, and spans shown as PERSON that name no person.

    python tools/person_numbering_counts.py --store STORE [--docs bios.jsonl] [--list]

Spans are detected on the raw text (the documents' own mentions are not given). On the
shared WikiReplace biographies the first annotator's mentions score the numbers: a
detected span shown as "PERSON n" is matched to the annotated mentions it overlaps, whose
``entity_id`` says which person it is and whose ``entity_type`` says whether it is one.
``--docs`` adds JSON-lines documents (``id``, ``text``) without annotations: for those the
tool counts numbers whose names are all words of another number's name ("Zevon" as
PERSON 5 beside "Warren Zevon" as PERSON 2), and ``--list`` prints every number with the
surface forms it covers, for reading.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import defaultdict
from pathlib import Path

from blind_batch import read_docs, sanitized

ROOT = Path(__file__).resolve().parent.parent
WIKIREPLACE = Path(os.environ.get("TAXOGEN_SHARED_DIR", ROOT.parent / "shared")) / "data" / "wikireplace" / "wikireplace_dev.json"
_NUMBER = re.compile(r"^PERSON (\d+)$")
_WORD = re.compile(r"[^\W\d_]+")


def annotated(path: Path) -> list[tuple[str, str, list[dict]]]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for row in rows:
        notes = row["annotations"]
        first = notes[sorted(notes)[0]]["entity_mentions"]
        out.append((row["doc_id"], row["text"], first))
    return out


def plain(path: Path) -> list[tuple[str, str, list[dict]]]:
    return [(doc_id, text, []) for doc_id, text in read_docs(path)]


def shown_persons(result) -> list[tuple[int, int, int, str]]:
    """(start, end, number, surface) of every mention shown as "PERSON n"."""
    out = []
    for rep in result.replacements:
        m = _NUMBER.match(rep.rung or "")
        if m and not rep.kept:
            out.append((rep.mention.start, rep.mention.end, int(m.group(1)), rep.original))
    return out


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text.replace("'s", "").replace("’s", "")) if len(w) > 1}


def score(docs, results, listing: bool) -> dict[str, int]:
    counts = {"documents": len(docs), "shown as PERSON": 0, "split persons": 0, "merged numbers": 0,
              "non-persons as PERSON": 0, "name-part numbers": 0}
    for (doc_id, text, gold), result in zip(docs, results):
        shown = shown_persons(result)
        counts["shown as PERSON"] += len(shown)
        forms: dict[int, list[str]] = defaultdict(list)
        for _, _, n, surface in shown:
            forms[n].append(surface)
        numbers_of: dict[str, set[int]] = defaultdict(set)
        persons_of: dict[int, set[str]] = defaultdict(set)
        wrong = []
        for a, b, n, surface in shown:
            over = [g for g in gold if g["start_offset"] < b and a < g["end_offset"]]
            for g in over:
                if g["entity_type"] == "PERSON":
                    numbers_of[g["entity_id"]].add(n)
                    persons_of[n].add(g["entity_id"])
            if over and not any(g["entity_type"] == "PERSON" for g in over):
                wrong.append(f"{surface!r} ({'/'.join(sorted({g['entity_type'] for g in over}))})")
        split = {e: ns for e, ns in numbers_of.items() if len(ns) > 1}
        merged = {n: es for n, es in persons_of.items() if len(es) > 1}
        words = {n: set().union(*(_words(f) for f in fs)) for n, fs in forms.items()}
        parts = [n for n in words if words[n] and any(m != n and words[n] <= words[m] for m in words)]
        counts["split persons"] += len(split)
        counts["merged numbers"] += len(merged)
        counts["non-persons as PERSON"] += len(wrong)
        counts["name-part numbers"] += len(parts)
        if listing and (split or merged or wrong or parts or not gold):
            print(f"== {doc_id}")
            for n in sorted(forms):
                flag = " <- name part of another number" if n in parts else ""
                print(f"  PERSON {n}: {sorted(set(forms[n]))}{flag}")
            for e, ns in split.items():
                print(f"  split: {e} -> {sorted(ns)}")
            for n, es in merged.items():
                print(f"  merged: PERSON {n} -> {sorted(es)}")
            for w in wrong:
                print(f"  not a person: {w}")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", default=None, help="store directory (default: the engine's default graph)")
    parser.add_argument("--docs", type=Path, default=None, help="JSON-lines documents without annotations")
    parser.add_argument("--list", action="store_true", help="print each document's numbers and the forms they cover")
    args = parser.parse_args(argv)

    from engine import Engine

    engine = Engine.from_config(store=args.store)
    sets = [("shared biographies", annotated(WIKIREPLACE))]
    if args.docs:
        sets.append((args.docs.name, plain(args.docs)))
    for name, docs in sets:
        results = sanitized(engine, [text for _, text, _ in docs])
        counts = score(docs, results, args.list)
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
