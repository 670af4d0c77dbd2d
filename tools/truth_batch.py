"""Draw a fresh batch of spans to judge for the truth set (out of sample).

The spans are the LOC/ORG/DEM/MISC mentions of the WikiReplace documents (first
annotator, as ``taxogen evaluate truth`` and ``sanitize`` read them) whose (text, type)
the truth set does not hold yet and whose ladder — built in its sentence with its
document's countries, the path ``evaluate truth`` uses — offers at least one rung. They
are drawn at random (``--seed``) up to a quota per type and written as JSON lines with
their rungs, for a reader to judge *before* writing any rule for them:

    python tools/truth_batch.py --store /work/seedstore3 --seed 41 --quota DEM=14,LOC=12,ORG=12,MISC=8 > batch.jsonl

Each judged rung then becomes a truth-set record with ``"batch": NAME``, so that
``taxogen evaluate truth --batch NAME`` reruns exactly that batch (the truth set's batches
s4-batch1, s4-batch2 and s4-batch3 were drawn with seeds 41, 77 and 123).

``--received`` draws instead the class replacements a reader receives: every document is
sanitized with every annotator's mentions at the engine's defaults (selection policy,
privacy guard at its k) and at ``k = 100``, and each LOC, ORG,
DEM or MISC mention shown as a class rung (not ``***``, not kept) whose (span, type,
replacement) the truth set does not hold yet is a candidate; one row per replacement,
``rungs`` holding just it. Where these are fewer than ``--limit``, the other class rungs
shown among those mentions' alternatives (the rungs the guard may move them to) fill
the batch, drawn the same way. The rows carry nothing but the span, its sentence and the
replacement, so a reader judges them blind:

    python tools/truth_batch.py --store /work/seedstore3 --received --seed 5 --limit 240 > batch.jsonl
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
    from taxogen_tools.evaluation.truth import load_truth_set
    from engine.generate.context import document_state
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
            states[doc_id] = document_state(engine.linker, spans)
        ladder = engine.candidates(Span(text, EntityType.parse(etype), context=context), state=states[doc_id])
        rungs = [c.label for c in ladder.candidates if c.label != MASK]
        if rungs:
            taken[etype] += 1
            out.append({"doc_id": doc_id, "span": text, "entity_type": etype, "context": context, "rungs": rungs})
    return out


def draw_received(store: str | Path, seed: int, limit: int, docs: str | Path = DOCS) -> list[dict]:
    """Class replacements the reader receives that the truth set does not hold, drawn at
    random (``seed``) up to ``limit``: doc_id, span, entity_type, context, rungs=[it].
    ``docs``: WikiReplace JSON (every annotator's mentions) or JSON lines in the format
    ``taxogen sanitize`` reads (documents no rule was written for)."""
    from types import SimpleNamespace

    from engine import Engine
    from taxogen_tools.evaluation.truth import judgment_key, load_truth_set
    from engine.io.docio import DocRecord, read_documents
    from engine.io.wikireplace import load_wikireplace
    from engine.text.sentences import SentenceIndex
    from engine.types import MASK, Mention

    judged = {j.key for j in load_truth_set()}
    engine = Engine.from_config(None, store=Path(store))
    pairs, owners = [], []
    if str(docs).endswith(".jsonl"):
        for rec in read_documents(Path(docs), "jsonl"):
            if isinstance(rec, DocRecord):
                pairs.append((rec.text, list(rec.mentions)))
                owners.append(SimpleNamespace(doc_id=rec.doc_id, text=rec.text))
    for doc in load_wikireplace(Path(docs)) if not owners else ():
        for mentions in doc.mentions.values():
            pairs.append((doc.text, [Mention(m.start, m.end, m.entity_type, m.identifier_type) for m in mentions]))
            owners.append(doc)
    results = engine.sanitize_many(pairs) + engine.sanitize_many(pairs, k=100)
    received: dict[tuple[str, str, str], dict] = {}
    offered: dict[tuple[str, str, str], dict] = {}
    for rec, result in zip(owners + owners, results):
        sentences = SentenceIndex(rec.text)
        for rep in result.replacements:
            etype = rep.mention.entity_type.value
            if rep.kept or etype not in ("LOC", "ORG", "DEM", "MISC"):
                continue
            left, right = sentences.bounds(rep.mention.start, rep.mention.end)
            shown = rep.rung or rep.replacement
            for pool, rung in [(received, shown)] + [(offered, a.candidate.label) for a in rep.alternatives]:
                if rung == MASK or not rung.strip() or judgment_key(rep.original, etype, rung) in judged:
                    continue
                pool.setdefault((rep.original, etype, rung), {"doc_id": rec.doc_id, "span": rep.original, "entity_type": etype,
                                                              "context": rec.text[left:right], "rungs": [rung]})
    out = []
    for pool in (received, {k: v for k, v in offered.items() if k not in received}):
        keys = sorted(pool)
        random.Random(seed).shuffle(keys)
        out += [dict(pool[k], received=pool is received) for k in keys]
    return out[:limit]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--quota", default="DEM=12,LOC=10,ORG=10,MISC=8", help="TYPE=N,… (graph types)")
    ap.add_argument("--data", default=str(DOCS))
    ap.add_argument("--received", action="store_true", help="draw the class replacements a reader receives")
    ap.add_argument("--limit", type=int, default=240, help="with --received: how many at most")
    args = ap.parse_args(argv)
    if args.received:
        rows = draw_received(args.store, args.seed, args.limit, args.data)
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        n = sum(r["received"] for r in rows)
        print(f"{len(rows)} class replacements not in the truth set: {n} received, {len(rows) - n} among the alternatives",
              file=sys.stderr)
        return 0
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
