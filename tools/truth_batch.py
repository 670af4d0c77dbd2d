"""Draw a fresh batch of spans to judge for the truth set (out of sample).

The spans are the LOC/ORG/DEM/MISC mentions of the WikiReplace documents (first
annotator, as ``taxogen evaluate truth`` and ``sanitize`` read them) whose (text, type)
the truth set does not hold yet and whose ladder — built in its sentence with its
document's countries, the path ``evaluate truth`` uses — offers at least one rung. They
are drawn at random (``--seed``) up to a quota per type and written as JSON lines with
their rungs, for a reader to judge *before* writing any rule for them:

    python tools/truth_batch.py --store /work/seedstore3 --seed 41 --quota DEM=14,LOC=12,ORG=12,MISC=8 > batch.jsonl

Each judged rung then becomes a truth-set record with ``"batch": NAME``, so that
``taxogen evaluate truth --batch NAME`` reruns exactly that batch (session 4 drew
s4-batch1 with seed 41, s4-batch2 with seed 77 and s4-batch3 with seed 123).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT.parent / "shared" / "data" / "wikireplace" / "wikireplace_dev.json"


def draw(store: str | Path, seed: int, quota: dict[str, int], docs: str | Path = DOCS) -> list[dict]:
    """The drawn spans: doc_id, span, entity_type, context (its sentence) and rungs."""
    from engine import Engine
    from engine.evaluation.truth import load_truth_set
    from engine.generate.context import document_countries
    from engine.generate.sources.base import DocumentState
    from engine.io.docio import DocRecord, read_documents
    from engine.text.sentences import SentenceIndex
    from engine.types import MASK, EntityType, IdentifierType, Span

    judged = {(j.span, j.entity_type) for j in load_truth_set()}
    engine = Engine.from_config(None, store=Path(store))
    pool: dict[tuple[str, str, str], tuple[DocRecord, str]] = {}
    for rec in read_documents(Path(docs), "wikireplace"):
        if not isinstance(rec, DocRecord) or not rec.mentions:
            continue
        sentences = SentenceIndex(rec.text)
        for m in rec.mentions:
            text, etype = rec.text[m.start:m.end], m.entity_type.value
            if etype not in quota or m.identifier_type is IdentifierType.NO_MASK or (text, etype) in judged:
                continue
            left, right = sentences.bounds(m.start, m.end)
            pool.setdefault((rec.doc_id, text, etype), (rec, rec.text[left:right]))
    keys = sorted(pool)
    random.Random(seed).shuffle(keys)
    states: dict[str, DocumentState] = {}
    out: list[dict] = []
    taken = dict.fromkeys(quota, 0)
    for doc_id, text, etype in keys:
        if taken[etype] >= quota[etype]:
            continue
        rec, context = pool[(doc_id, text, etype)]
        if doc_id not in states:
            spans = (Span(rec.text[m.start:m.end], m.entity_type) for m in rec.mentions)
            states[doc_id] = DocumentState(countries=document_countries(engine.linker, spans))
        ladder = engine.candidates(Span(text, EntityType.parse(etype), context=context), state=states[doc_id])
        rungs = [c.label for c in ladder.candidates if c.label != MASK]
        if rungs:
            taken[etype] += 1
            out.append({"doc_id": doc_id, "span": text, "entity_type": etype, "context": context, "rungs": rungs})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--quota", default="DEM=12,LOC=10,ORG=10,MISC=8", help="TYPE=N,… (graph types)")
    ap.add_argument("--data", default=str(DOCS))
    args = ap.parse_args(argv)
    try:
        quota = {k.strip(): int(v) for k, v in (part.split("=") for part in args.quota.split(","))}
    except ValueError:
        print(f"error: bad --quota {args.quota!r} (TYPE=N,…)", file=sys.stderr)
        return 1
    rows = draw(args.store, args.seed, quota, args.data)
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))
    counts = {t: sum(r["entity_type"] == t for r in rows) for t in quota}
    print(f"{len(rows)} spans, {sum(len(r['rungs']) for r in rows)} rungs: {counts}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
