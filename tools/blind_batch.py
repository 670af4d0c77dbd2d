"""Sanitize raw documents and write what readers judge blind: the class replacements they
receive, and the sanitized sentences.

    python tools/blind_batch.py --docs bios.jsonl --store STORE --out DIR [--seed 3 --sentences 120]

``--docs``: JSON lines ``{"id", "text"}`` (raw text: spans are detected) or a directory of
``.txt``/``.md`` files. Writes into ``DIR``:

- ``classes.jsonl`` — every LOC, ORG, DEM or MISC mention shown as a class (not ``***``, not a
  placeholder, not kept): ``id``, ``doc_id``, ``entity_type``, ``sentence`` (original),
  ``span``, ``replacement`` (the phrase the reader sees), ``rung``. Neighbours merged into one
  phrase are one row, its span all their words ("Bolivian labour leader" → "leader"). A reader marks each
  ``true`` (the class is true of what the span names, in its sentence) or false, with a reason.
- ``sentences.jsonl`` — ``--sentences`` sanitized sentences that hold a replacement, drawn at
  random, each beside its original: a reader marks each false, unreadable or revealing.
- ``summary.json`` — per type, the masked mentions and how many were shown as a class.

Nothing here feeds a rule or a model: a batch judged from these files is a test set.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRAPH = ("LOC", "ORG", "DEM", "MISC")


def read_docs(path: Path) -> list[tuple[str, str]]:
    """``(id, text)`` of a directory of text files, a JSON list of documents (``doc_id``,
    ``text``: WikiReplace, TAB) or JSON lines of ``id`` and ``text``."""
    if path.is_dir():
        return [(p.name, p.read_text(encoding="utf-8")) for p in sorted(path.iterdir()) if p.is_file()]
    if path.suffix == ".json":
        return [(str(d.get("doc_id", i)), d["text"]) for i, d in enumerate(json.loads(path.read_text(encoding="utf-8")))]
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out.append((row["id"], row["text"]))
    return out


def sanitized(engine, texts: list[str], *, k: int | None = None, batch: int = 8) -> list:
    """The :class:`engine.doc.SanitizeResult` of each raw text of ``texts`` (spans detected),
    sanitized ``batch`` documents at a time (``k``: the privacy guard's target, default the config's)."""
    results = []
    for i in range(0, len(texts), batch):
        results += engine.sanitize_many([(text, None) for text in texts[i:i + batch]], k=k)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=Path, required=True)
    parser.add_argument("--store", default=None, help="store directory (default: the engine's default graph)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--packs", default=None)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=120)
    parser.add_argument("--k", type=int, default=None)
    args = parser.parse_args(argv)

    from engine import Engine
    from engine.text.sentences import sentence_bounds
    from taxogen_tools.evaluation.court import not_generalized

    overrides = {"packs": args.packs} if args.packs else {}
    engine = Engine.from_config(store=args.store, **overrides)
    docs = read_docs(args.docs)
    results = sanitized(engine, [text for _, text in docs], k=args.k)
    args.out.mkdir(parents=True, exist_ok=True)
    classes, sentences = [], []
    summary: dict[str, dict[str, int]] = {t: {"masked": 0, "class": 0} for t in GRAPH}
    for (doc_id, text), res in zip(docs, results):
        shown_at: dict[tuple[int, int], list] = {}
        units: dict[tuple[int, int], dict] = {}
        for rep in res.replacements:
            m = rep.mention
            if rep.kept:
                continue
            left, right = sentence_bounds(text, m.start, m.end)
            shown_at.setdefault((left, right), []).append(rep)
            t = m.entity_type.value
            if t not in GRAPH:
                continue
            summary[t]["masked"] += 1
            if not not_generalized(rep.replacement, rep.rung) and rep.rung not in ("***",):
                summary[t]["class"] += 1
                # neighbours merged into one phrase ("a [Bolivian] [labour leader]" → "a leader")
                # are one row: the phrase stands for all their words, not for each of them
                unit = units.setdefault((rep.new_start, rep.new_end), {"doc_id": doc_id, "entity_type": t, "sentence": text[left:right],
                                                                        "start": m.start, "end": m.end, "replacement": rep.replacement, "rung": rep.rung})
                unit["start"], unit["end"] = min(unit["start"], m.start), max(unit["end"], m.end)
                unit["entity_type"], unit["rung"] = t, rep.rung  # the last one, the phrase's head
        for unit in units.values():
            start, end = unit.pop("start"), unit.pop("end")
            classes.append({**unit, "span": text[start:end], "replacement": unit.pop("replacement"), "rung": unit.pop("rung")})
        for (left, right), reps in shown_at.items():
            new_left, new_right = res.segments and _new_bounds(res, left, right) or (left, right)
            sentences.append({"doc_id": doc_id, "original": text[left:right], "sanitized": res.text[new_left:new_right]})
    rng = random.Random(args.seed)
    rng.shuffle(sentences)
    with open(args.out / "classes.jsonl", "w", encoding="utf-8") as fh:
        for n, row in enumerate(classes, start=1):
            fh.write(json.dumps({"id": f"r{n:04d}", **row}, ensure_ascii=False) + "\n")
    with open(args.out / "sentences.jsonl", "w", encoding="utf-8") as fh:
        for n, row in enumerate(sentences[: args.sentences], start=1):
            fh.write(json.dumps({"id": f"s{n:04d}", **row}, ensure_ascii=False) + "\n")
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    total = sum(v["masked"] for v in summary.values())
    shown = sum(v["class"] for v in summary.values())
    print(f"{len(docs)} documents; LOC/ORG/DEM/MISC masked {total}, shown as a class {shown} ({shown / max(1, total):.1%}); "
          f"{len(classes)} class rows, {min(len(sentences), args.sentences)} sentences -> {args.out}")
    return 0


def _new_bounds(res, left: int, right: int) -> tuple[int, int]:
    """The offsets in the sanitized text of the original region ``left``–``right`` (a sentence)."""
    def new(offset: int) -> int:
        shift = 0
        for seg in res.segments:
            if seg.orig_start >= offset:
                break
            if seg.orig_end > offset:  # inside a changed region: its new start
                return seg.new_start
            shift = seg.new_end - seg.orig_end
        return offset + shift

    return new(left), new(right)


if __name__ == "__main__":
    sys.exit(main())
