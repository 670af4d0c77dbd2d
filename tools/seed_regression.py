"""Record (or check) the engine's answers on the shared seed: a regression fixture.

For every mention of the 75 WikiReplace documents (first annotator, as ``taxogen
sanitize --input-format wikireplace`` reads them): the linked item, the link method, the ladder
labels, the rung shown and the phrase the reader sees; for every document: the readability
edits. Labels are compared, not hashes: a difference names the span and the rung. No
document text is stored beyond the spans' rungs and phrases. Regenerate after a *deliberate*
change of links, ladders or output:

    python tools/seed_regression.py record --store /work/seedstore      # writes tests/data/seed_regression.json
    python tools/seed_regression.py check --store store                 # lists every difference, exit 1 if any
    python tools/seed_regression.py compare --store store --packs core,biography   # the default against other packs or rules

``tests/engine/test_seed_regression.py`` runs the check on a freshly built seed store.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "seed_regression.json"
DOCS = ROOT.parent / "shared" / "data" / "wikireplace" / "wikireplace_dev.json"


def snapshot(store: str | Path, docs_path: str | Path = DOCS, *, model: str = "shipped", **overrides: Any) -> dict[str, Any]:
    """Links, ladders, shown rungs and phrases, and edits of the documents on ``store``
    (``overrides``: engine settings, e.g. ``packs`` or ``rules.disable``)."""
    from engine import Engine
    from engine.io.docio import DocRecord, read_documents
    from engine.types import Span
    from engine.text.sentences import sentence_around

    engine = Engine.from_config(store=str(store), model=model, **overrides)
    records = [r for r in read_documents(Path(docs_path), "wikireplace") if isinstance(r, DocRecord)]
    docs: dict[str, Any] = {}
    results = engine.sanitize_many([(r.text, list(r.mentions)) for r in records])
    for rec, result in zip(records, results):
        mentions = []
        shown = {(r.mention.start, r.mention.end): r for r in result.replacements}
        for m in rec.mentions:
            text = rec.text[m.start : m.end]
            span = Span(text=text, entity_type=m.entity_type, identifier_type=m.identifier_type,
                        context=sentence_around(rec.text, m.start, m.end))
            with engine.knowledge.active():
                links = engine.linker.link(span) if m.entity_type.is_graph else []
            ladder = engine.candidates(span)
            rep = shown.get((m.start, m.end))
            mentions.append({
                "at": [m.start, m.end],
                "span": text,
                "link": links[0].qid if links else None,
                "method": links[0].method.value if links else None,
                "ladder": ladder.labels,
                "shown": rep.rung if rep is not None else None,
                "phrase": rep.replacement if rep is not None else None,
            })
        docs[rec.doc_id] = {"mentions": mentions, "edits": list(result.edits)}
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
            for key in ("link", "method", "ladder", "shown", "phrase"):
                if em.get(key) != am.get(key):
                    out.append(f"{doc_id} {em['at']} {em.get('span', '')!r}: {key} {em.get(key)!r} -> {am.get(key)!r}")
        if len(e["mentions"]) != len(a["mentions"]):
            out.append(f"{doc_id}: {len(e['mentions'])} mentions -> {len(a['mentions'])}")
        for edit in e.get("edits", []):
            if edit not in a.get("edits", []):
                out.append(f"{doc_id}: edit no longer made: {edit}")
        for edit in a.get("edits", []):
            if edit not in e.get("edits", []):
                out.append(f"{doc_id}: new edit: {edit}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "check", "compare"))
    parser.add_argument("--store", required=True)
    parser.add_argument("--docs", default=str(DOCS))
    parser.add_argument("--fixture", default=str(FIXTURE))
    parser.add_argument("--packs", help="compare: the packs to set against the default (comma-separated)")
    parser.add_argument("--disable-rule", action="append", default=[], help="compare: a rule to switch off (repeatable)")
    args = parser.parse_args(argv)
    if not Path(args.docs).is_file():
        parser.exit(1, f"error: no WikiReplace documents at {args.docs} (give --docs)\n")
    if args.action == "compare":
        other = {k: v for k, v in (("packs", args.packs), ("rules.disable", ",".join(args.disable_rule))) if v}
        if not other:
            parser.exit(1, "error: compare needs --packs or --disable-rule\n")
        diffs = differences(snapshot(args.store, args.docs), snapshot(args.store, args.docs, **other))
        for line in diffs:
            print(line)
        print(f"{len(diffs)} differences with {other}")
        return 0
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
