"""``taxogen rules …``: the registered rules (:mod:`engine.knowledge`) and the packs they read."""

from __future__ import annotations

import json
from typing import Optional

import typer

from engine.cli.common import App

rules_app = App(help="The registered rules and the packs of words they read.", no_args_is_help=True)


@rules_app.command("list")
def rules_list(
    stage: Optional[str] = typer.Option(None, "--stage", help="Only the rules of this stage."),
    pack: Optional[str] = typer.Option(None, "--pack", help="Only the rules of this pack."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per rule."),
) -> None:
    """Every rule: name, stage, entity types, pack, examples and purpose."""
    from engine.knowledge import Knowledge, registered_rules

    examples = Knowledge().examples()
    rows = [r for r in registered_rules().values() if (stage is None or r.stage == stage) and (pack is None or r.pack == pack)]
    if as_json:
        for r in rows:
            typer.echo(json.dumps(dict(r.to_dict(), examples=len(examples.get(r.name, ()))), ensure_ascii=False))
        return
    width = max((len(r.name) for r in rows), default=4)
    typer.echo(f"{'rule':<{width}}  {'stage':<7} {'types':<15} {'pack':<10} {'examples':>8}  purpose")
    for r in rows:
        types = ",".join(r.types) or "all"
        typer.echo(f"{r.name:<{width}}  {r.stage:<7} {types:<15} {r.pack:<10} {len(examples.get(r.name, ())):>8}  {r.purpose}")
    typer.echo(f"{len(rows)} rules; switch one off with [taxogen.rules] disable = [NAME] or --disable-rule NAME")


@rules_app.command("packs")
def rules_packs(as_json: bool = typer.Option(False, "--json")) -> None:
    """Every pack: its purpose, what it requires, and how many entries and rule examples it holds."""
    from engine.knowledge import DEFAULT_PACKS, Knowledge

    knowledge = Knowledge()
    for name, p in knowledge.available.items():
        row = {"pack": name, "default": name in DEFAULT_PACKS, "requires": list(p.requires), "entries": len(p.entries),
               "rules_with_examples": len(p.examples), "purpose": p.purpose}
        if as_json:
            typer.echo(json.dumps(row, ensure_ascii=False))
        else:
            flag = "default" if row["default"] else "       "
            typer.echo(f"{name:<11}{flag}  {row['entries']:>4} entries  {row['rules_with_examples']:>3} rules' examples  {p.purpose}")
