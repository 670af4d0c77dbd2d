"""What every ``taxogen`` command shares: the typer application class, one-line errors
(exit 1), the engine built from ``--config``/``--store``/endpoint flags, common options."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn, Optional

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

DEFAULT_DATA = Path("../shared/data/wikireplace/wikireplace_dev.json")

ConfigOpt = typer.Option(None, "--config", help="TOML configuration file.")
EndpointOpt = typer.Option(None, "--endpoint", help="Ask this SPARQL endpoint for what the store lacks (caches into --store).")
OfflineOpt = typer.Option(False, "--offline", help="Never call the endpoint (cached answers only).")
UserAgentOpt = typer.Option(None, "--user-agent", help="User-Agent sent to the endpoint (say who you are and how to reach you).")
StoreOpt = typer.Option(None, "--store", help="Store directory (default: embedded sample graph).")


def fail(exc: BaseException) -> NoReturn:
    """Print an error and exit with code 1."""
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(1)


def build_engine(config: Optional[Path], store: Optional[Path], endpoint: Optional[str] = None, offline: bool = False,
                 user_agent: Optional[str] = None, **overrides: Any):
    """``Engine.from_config`` with CLI overrides (file < environment < flags); errors exit 1."""
    from engine.engine import Engine
    from engine.errors import SanitizerError

    if endpoint:
        overrides.update({"endpoint.url": endpoint, "endpoint.enabled": True})
    if offline:
        overrides["endpoint.offline"] = True
    if user_agent:
        overrides["endpoint.user_agent"] = user_agent
    try:
        return Engine.from_config(config, store=store, **overrides)
    except SanitizerError as exc:
        fail(exc)


def served_groups() -> tuple[str, ...]:
    """The feature groups of a ranker trained on served ladders."""
    from engine.select.features import SERVED_GROUPS

    return SERVED_GROUPS


def feature_groups(text: str | None) -> tuple[str, ...]:
    """``--groups a,b`` checked against the known feature groups (default: all)."""
    from engine.errors import InputError
    from engine.select.features import DEFAULT_GROUPS, FEATURE_GROUPS

    if not text:
        return DEFAULT_GROUPS
    chosen = tuple(g.strip() for g in text.split(",") if g.strip())
    unknown = [g for g in chosen if g not in FEATURE_GROUPS]
    if unknown or not chosen:
        raise InputError(f"unknown feature groups {unknown}; known: {', '.join(FEATURE_GROUPS)}")
    return chosen


# --- help and usage errors ------------------------------------------------------------------
# typer's rich help prints a type for every option, ``<bool>`` for flags too, and a required
# argument as ``{name}`` on the usage line; click's plain help prints neither. The classes
# below give flags no type, arguments an upper-case metavar (``SOURCE``), and turn usage
# errors (a missing or bad option: click's exit 2) into one ``error:`` line and exit 1.


def plain_param(param: Any) -> None:
    """Flags without a type column; arguments named ``NAME`` (idempotent)."""
    if isinstance(param, TyperOption) and (param.is_flag or param.count) and param.metavar is None:
        param.metavar = ""
    elif isinstance(param, TyperArgument) and param.metavar is None:
        param.metavar = (param.name or "arg").upper()


def usage_error_exit(exc: typer.TyperException, name: str | None) -> NoReturn:
    """One line on stderr for a usage error, then exit 1."""
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else name
    hint = f" (see '{where} --help')" if where else ""
    typer.echo(f"error: {exc.format_message()}{hint}", err=True)
    raise typer.Exit(1)


def _is_usage_error(exc: BaseException) -> bool:
    """click's usage errors (exit code 2), but not "no arguments: show the help"."""
    return isinstance(exc, typer.TyperException) and getattr(exc, "exit_code", 1) == 2 and type(exc).__name__ != "NoArgsIsHelpError"


class _PlainHelp:
    """Mixin of :class:`Command` and :class:`Group`."""

    params: list[Any]

    def get_params(self, ctx):  # type: ignore[no-untyped-def]
        params = super().get_params(ctx)  # type: ignore[misc]
        for p in params:
            plain_param(p)
        return params

    def get_help_option(self, ctx):  # type: ignore[no-untyped-def]
        opt = super().get_help_option(ctx)  # type: ignore[misc]
        if opt is not None:
            plain_param(opt)
        return opt

    def collect_usage_pieces(self, ctx):  # type: ignore[no-untyped-def]
        pieces = super().collect_usage_pieces(ctx)  # type: ignore[misc]
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in pieces]

    def make_context(self, info_name, args, parent=None, **extra):  # type: ignore[no-untyped-def]
        try:
            return super().make_context(info_name, args, parent=parent, **extra)  # type: ignore[misc]
        except Exception as exc:
            if _is_usage_error(exc):
                usage_error_exit(exc, info_name)
            raise


class Command(_PlainHelp, TyperCommand):
    """A ``taxogen`` command: plain help, usage errors exit 1."""


class Group(_PlainHelp, TyperGroup):
    """A ``taxogen`` command group: plain help, usage errors (also an unknown command) exit 1."""

    def resolve_command(self, ctx, args):  # type: ignore[no-untyped-def]
        try:
            return super().resolve_command(ctx, args)
        except Exception as exc:
            if _is_usage_error(exc):
                usage_error_exit(exc, ctx.command_path)
            raise


class App(typer.Typer):
    """``typer.Typer`` whose groups and commands are :class:`Group` and :class:`Command`."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", Group)
        super().__init__(**kwargs)

    def command(self, name: Optional[str] = None, *, cls: Optional[type[TyperCommand]] = None, **kwargs: Any):  # type: ignore[override]
        return super().command(name, cls=cls or Command, **kwargs)
