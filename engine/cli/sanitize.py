"""``taxogen demo``, ``taxogen generalize``, ``taxogen sanitize``: documents and spans in, generalized text out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from engine.cli.common import ConfigOpt, DisableRuleOpt, EndpointOpt, MinTruthOpt, OfflineOpt, PacksOpt, StoreOpt, UserAgentOpt, build_engine, fail


def demo(
    store: Optional[Path] = typer.Option(None, "--store", help="Store directory (default: the starter graph)."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Sanitize the plain-text demo biography shipped in the package: detect its spans, then generalize them."""
    from importlib import resources

    from engine.io.docio import DocRecord, result_to_dict

    text = (resources.files("engine") / "data" / "demo_biography.txt").read_text(encoding="utf-8").strip()
    engine = build_engine(None, store)
    doc = DocRecord("demo-biography", text, tuple(engine.detect_mentions(text)), "demo_biography.txt")  # raw text in: spans detected
    result = engine.sanitize(doc.text, doc.mentions)
    if as_json:
        typer.echo(json.dumps(result_to_dict(doc.doc_id, result, with_originals=True), indent=2, ensure_ascii=False))
        return
    typer.echo("original:\n  " + doc.text + "\n")
    typer.echo("sanitized:\n  " + result.text + "\n")
    typer.echo("replacements (shown [chosen rung, when it differs] · runner-up rung):")
    for r in result.replacements:
        alts = [a.candidate.label for a in r.alternatives if a.candidate.label != (r.rung or r.replacement)][:1]
        rung = f" [{r.rung!r}]" if r.rung and r.rung != r.replacement and not r.kept else ""
        typer.echo(f"  {r.original!r:<24} {r.mention.entity_type.value:<9} → {r.replacement!r}{rung}" + (f"  · {alts[0]!r}" if alts else "") + (f"  ({r.note})" if r.note else ""))
    for e in result.edits:
        typer.echo(f"  edit: {e}")
    if result.privacy is not None:
        typer.echo(f"\nprivacy: {result.privacy.summary}")


def generalize(
    span: str = typer.Argument(..., help="The span text, e.g. 'geologist'."),
    entity_type: str = typer.Option(..., "--type", help="PERSON, DATETIME, QUANTITY, CODE, LOC, ORG, DEM or MISC."),
    context: Optional[str] = typer.Option(None, "--context", help="The sentence around the span."),
    identifier_type: str = typer.Option("QUASI", "--identifier", help="DIRECT, QUASI or NO_MASK."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    endpoint: Optional[str] = EndpointOpt,
    offline: bool = OfflineOpt,
    user_agent: Optional[str] = UserAgentOpt,
    min_truth: Optional[float] = MinTruthOpt,
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """The ordered replacement candidates of one span, with provenance (and P(true), where the verifier weighs them)."""
    from engine.errors import SanitizerError
    from engine.io.contract import parse_generalize_request

    try:  # the same contract as POST /generalize, checked before anything loads
        req = parse_generalize_request({"span": span, "entity_type": entity_type, "identifier_type": identifier_type, "context": context})
    except SanitizerError as exc:
        fail(exc)
        return
    engine = build_engine(config, store, endpoint, offline, user_agent, min_truth=min_truth)
    try:
        ladder, verdicts = engine.weighed_candidates(req.span, req.entity_type, context=req.context, identifier_type=req.identifier_type)
    except SanitizerError as exc:
        fail(exc)
        return
    truth = list(verdicts) if verdicts is not None else [None] * len(ladder.candidates)
    if as_json:
        typer.echo(json.dumps({
            "span": span, "entity_type": ladder.span.entity_type.value, "reason": ladder.reason,
            "links": [{"qid": l.qid, "label": l.label, "method": l.method.value, "score": l.score} for l in ladder.links],
            "candidates": [dict(c.to_dict(), **({"truth": round(p, 4)} if p is not None else {}))
                           for c, p in zip(ladder.candidates, truth)],
        }, indent=2, ensure_ascii=False))
        return
    typer.echo(f"{span} [{ladder.span.entity_type.value}] — {ladder.reason}")
    for c in ladder.candidates:
        prov = c.rule or ""
        if c.qid:
            prov = f"{c.qid} via {c.path}"
        elif c.path:
            prov = f"{c.rule} via {c.path}"
        p = truth[c.level - 1]
        typer.echo(f"  {c.level:>2}. {c.label:<45} {c.source:<9} " + (f"P(true) {p:.2f}  " if p is not None and c.label != "***" else "") + prov)


def sanitize(
    source: Path = typer.Argument(..., help="A file or a directory of them: .jsonl/.json documents, or plain text (.txt, .md, no extension: one raw document, spans detected)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where the results go: a file, '-' for standard output (the default), or a directory for a directory input. Only a regular file is replaced (atomically); a device or a pipe is written to."),
    out_format: str = typer.Option("auto", "--format", help="jsonl, json, text, tab ({doc_id: [[start, end], …]}: the masked ranges, as TAB's evaluation reads them), or auto: text for a plain-text input, else jsonl."),
    fmt: str = typer.Option("auto", "--input-format", help="auto (by file name), jsonl, wikireplace, tab (TAB's JSON), json or text."),
    detect: bool = typer.Option(False, "--detect", help="Drop the input's mentions and detect every document's spans."),
    encoding: str = typer.Option("utf-8", "--encoding", help="Encoding of the input files (e.g. latin-1, cp1252, utf-16)."),
    annotator: Optional[str] = typer.Option(None, "--annotator", help="WikiReplace and TAB: whose mentions to use (default: the first)."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first bad record (no output is written)."),
    with_originals: bool = typer.Option(False, "--with-originals", help="Include the original span texts (for audit only)."),
    overlap: str = typer.Option("merge", "--overlap", help="merge or reject overlapping mentions."),
    batch: int = typer.Option(16, "--batch", help="Documents ranked together."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress", help="A progress bar on stderr (default: for files of many documents, not for one text)."),
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    endpoint: Optional[str] = EndpointOpt,
    offline: bool = OfflineOpt,
    user_agent: Optional[str] = UserAgentOpt,
    k: Optional[int] = typer.Option(None, "--k", min=0, help="Generalize until at least K persons of the store fit (privacy.k, default 10; 0: no guard)."),
    selection: Optional[str] = typer.Option(None, "--selection", help="meaning: the most meaningful rung the guard allows; annotators: the ranker's first choice, *** included (privacy.selection, default meaning)."),
    min_truth: Optional[float] = MinTruthOpt,
    packs: Optional[str] = PacksOpt,
    disable_rule: Optional[List[str]] = DisableRuleOpt,
) -> None:
    """Sanitize documents: the sanitized text of a plain-text file, or JSON results, to standard output or --out."""
    from engine.io.batch import run_sanitize
    from engine.io.cli_checks import output_format, sanitize_pairs
    from engine.io.docio import is_regular_or_absent, is_stdout
    from kg.procs import exit_on_signals

    try:
        pairs = sanitize_pairs(source, out, fmt=fmt, overlap=overlap, batch=batch, out_format=out_format,
                               encoding=encoding)  # before anything loads
    except ValueError as exc:
        fail(exc)
        return
    overrides = {"privacy.k": k, "privacy.selection": selection, "min_truth": min_truth}
    engine = build_engine(config, store, endpoint, offline, user_agent, disable_rules=disable_rule, packs=packs,
                          **{key: v for key, v in overrides.items() if v is not None})
    empty = []
    with exit_on_signals():  # SIGTERM/SIGHUP: the part file is removed as on Ctrl-C
        for src, dst in pairs:
            try:
                summary = run_sanitize(engine, src, dst, fmt=fmt, annotator=annotator, strict=strict, with_originals=with_originals,
                                       overlap=overlap, batch=batch,
                                       progress=progress if progress is not None else output_format("auto", src, fmt) != "text",
                                       out_format=output_format(out_format, src, fmt), encoding=encoding, detect=detect)
            except OSError as exc:  # checked up front, but the disk can fill or permissions change
                fail(OSError(f"{exc.filename or dst}: {exc.strerror or exc}"))
                return
            streamed = is_stdout(dst) or not is_regular_or_absent(dst)  # the results own that stream: summaries go to stderr
            err_lines, line = summary.report(src, "stdout" if is_stdout(dst) else dst, annotator)
            if summary.documents == 0 and [pos for pos, _ in summary.bad] == [src.name] and len(pairs) == 1:
                position, reason = summary.bad[0]  # a one-document file (text, JSON), refused: one line says why
                fail(ValueError(f"{position}: {reason}; nothing written"))
                return
            for text in err_lines:
                typer.echo(text, err=True)
            if summary.aborted:
                typer.echo(f"error: stopped at a bad record (--strict); {dst} not written", err=True)
                raise typer.Exit(1)
            if summary.documents == 0:
                empty.append(src)
            privacy = summary.privacy_line()
            for text in (line, privacy) if privacy else (line,):
                typer.echo(text, err=streamed)
    if empty:
        fail(ValueError(f"no document of {', '.join(p.name for p in empty)} was sanitized (every record was bad or left out); "
                        "no output written for it"))
