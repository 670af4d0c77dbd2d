"""Record (or check) the engine's answers on the shared seed: a regression fixture.

For every mention of the 75 WikiReplace documents (first annotator, as ``taxogen
sanitize --input-format wikireplace`` reads them): the linked item, the link method and the
ladder labels; for every document: a SHA-256 of the sanitized text. No document text is
stored. Regenerate after a *deliberate* change of links, ladders or output:

    python tools/seed_regression.py record --store /work/seedstore      # writes tests/data/seed_regression.json
    python tools/seed_regression.py check --store store                 # lists every difference, exit 1 if any

``tests/engine/test_seed_regression.py`` runs the check on a freshly built seed store.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "seed_regression.json"
DOCS = ROOT.parent / "shared" / "data" / "wikireplace" / "wikireplace_dev.json"


def snapshot(store: str | Path, docs_path: str | Path = DOCS, *, model: str = "shipped") -> dict[str, Any]:
    """Links, ladders and sanitized-text hashes of the documents on ``store``."""
    from engine import Engine
    from engine.io.docio import DocRecord, read_documents
    from engine.types import Span
    from engine.text.sentences import sentence_around

    engine = Engine.from_config(store=str(store), model=model)
    records = [r for r in read_documents(Path(docs_path), "wikireplace") if isinstance(r, DocRecord)]
    docs: dict[str, Any] = {}
    results = engine.sanitize_many([(r.text, list(r.mentions)) for r in records])
    for rec, result in zip(records, results):
        mentions = []
        for m in rec.mentions:
            text = rec.text[m.start : m.end]
            span = Span(text=text, entity_type=m.entity_type, identifier_type=m.identifier_type,
                        context=sentence_around(rec.text, m.start, m.end))
            links = engine.linker.link(span) if m.entity_type.is_graph else []
            ladder = engine.candidates(span)
            mentions.append({
                "at": [m.start, m.end],
                "link": links[0].qid if links else None,
                "method": links[0].method.value if links else None,
                "ladder": ladder.labels,
            })
        docs[rec.doc_id] = {
            "sanitized_sha256": hashlib.sha256(result.text.encode("utf-8")).hexdigest(),
            "mentions": mentions,
        }
    return {"documents": docs}


def differences(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """Human-readable differences between two snapshots (empty when they agree)."""
    out: list[str] = []
    exp, act = expected["documents"], actual["documents"]
    for doc_id in sorted(set(exp) | set(act)):
        if doc_id not in exp or doc_id not in act:
            out.append(f"{doc_id}: only in {'actual' if doc_id in act else 'expected'}")
            continue
        e, a = exp[doc_id], act[doc_id]
        for em, am in zip(e["mentions"], a["mentions"]):
            for key in ("link", "method", "ladder"):
                if em[key] != am[key]:
                    out.append(f"{doc_id} {em['at']}: {key} {em[key]!r} -> {am[key]!r}")
        if len(e["mentions"]) != len(a["mentions"]):
            out.append(f"{doc_id}: {len(e['mentions'])} mentions -> {len(a['mentions'])}")
        if e["sanitized_sha256"] != a["sanitized_sha256"]:
            out.append(f"{doc_id}: sanitized text differs")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "check"))
    parser.add_argument("--store", required=True)
    parser.add_argument("--docs", default=str(DOCS))
    parser.add_argument("--fixture", default=str(FIXTURE))
    args = parser.parse_args(argv)
    if not Path(args.docs).is_file():
        parser.exit(1, f"error: no WikiReplace documents at {args.docs} (give --docs)\n")
    snap = snapshot(args.store, args.docs)
    if args.action == "record":
        Path(args.fixture).write_text(json.dumps(snap, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
        n = sum(len(d["mentions"]) for d in snap["documents"].values())
        print(f"recorded {len(snap['documents'])} documents, {n} mentions -> {args.fixture}")
        return 0
    diffs = differences(json.loads(Path(args.fixture).read_text(encoding="utf-8")), snap)
    for line in diffs:
        print(line)
    print(f"{len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
