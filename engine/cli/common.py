"""What every ``taxogen`` command shares: the typer application class, one-line errors
(exit 1), the engine built from ``--config``/``--store``/endpoint flags, common options, and
``--docs``: a figures page written from what a command prints."""

from __future__ import annotations

import io
import shlex
import sys
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Any, Iterator, NoReturn, Optional, TextIO

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

DEFAULT_DATA = Path("../shared/data/wikireplace/wikireplace_dev.json")

ConfigOpt = typer.Option(None, "--config", help="TOML configuration file.")
EndpointOpt = typer.Option(None, "--endpoint", help="Ask this SPARQL endpoint for what the store lacks (caches into --store).")
OfflineOpt = typer.Option(False, "--offline", help="Never call the endpoint (cached answers only).")
UserAgentOpt = typer.Option(None, "--user-agent", help="User-Agent sent to the endpoint (say who you are and how to reach you).")
StoreOpt = typer.Option(None, "--store", help="Store directory (default: the starter graph, built into the cache on first use).")
DisableRuleOpt = typer.Option(None, "--disable-rule", metavar="NAME",
                              help="Switch a rule off by name (repeatable; 'taxogen rules list' names them).")
MinTruthOpt = typer.Option(None, "--min-truth", min=0.0, max=1.0, metavar="P",
                           help="The verifier's operating point: rungs whose P(true) is below P are dropped (default: the config's min_truth, else the verifier's).")
PacksOpt = typer.Option(None, "--packs", metavar="A,B", help="The packs of words and patterns to read (default: the config's).")
DocsOpt = typer.Option(None, "--docs", help="Also write the printed figures to DIR/figures/<page>.md with the command, date and commit.",
                       metavar="DIR", file_okay=False)


def fail(exc: BaseException) -> NoReturn:
    """Print an error and exit with code 1."""
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(1)


def build_engine(config: Optional[Path], store: Optional[Path], endpoint: Optional[str] = None, offline: bool = False,
                 user_agent: Optional[str] = None, *, disable_rules: Optional[list[str]] = None, packs: Optional[str] = None,
                 **overrides: Any):
    """``Engine.from_config`` with CLI overrides (file < environment < flags); errors exit 1.
    ``disable_rules`` (``--disable-rule``) adds to the config's rules switched off; ``packs``
    (``--packs``) replaces its packs."""
    from engine.config import EngineConfig
    from engine.engine import Engine
    from engine.errors import SanitizerError

    if disable_rules:
        try:
            configured = EngineConfig.load(config).rules.disable
        except SanitizerError as exc:
            fail(exc)
        overrides["rules.disable"] = tuple(dict.fromkeys(tuple(configured) + tuple(disable_rules)))
    if packs:
        overrides["packs"] = packs

    if endpoint:
        overrides.update({"endpoint.url": endpoint, "endpoint.enabled": True})
    if offline:
        overrides["endpoint.offline"] = True
    if user_agent:
        overrides["endpoint.user_agent"] = user_agent
    import warnings

    from engine.engine import StaleOverlayWarning

    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", StaleOverlayWarning)
            engine = Engine.from_config(config, store=store, **overrides)
    except SanitizerError as exc:
        fail(exc)
    for w in seen:
        if issubclass(w.category, StaleOverlayWarning):
            typer.echo(f"warning: {w.message}", err=True)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return engine


class _Tee(io.TextIOBase):
    """A text stream that writes to ``stream`` and keeps a copy of what it wrote."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream = stream
        self._copy = io.StringIO()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> Optional[str]:  # type: ignore[override]
        return getattr(self._stream, "errors", None)

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:  # type: ignore[override]
        if not isinstance(text, str):  # click probes for a binary stream with b""
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._stream.write(text)
        return self._copy.write(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def text(self) -> str:
        """Everything written so far."""
        return self._copy.getvalue()


def typed_command(ctx: Optional[typer.Context] = None, program: str = "taxogen") -> str:
    """The running command as a user would type it: ``program``, the subcommand names and the
    parameters given (not left at their default), shell-quoted. Outside a command: this
    process's arguments."""
    from typer.main import get_current_context

    from taxogen_tools.evaluation.figures_page import command_line

    ctx = ctx or get_current_context(silent=True)
    if ctx is None:
        return command_line(program=program)
    names = []
    node = ctx
    while node is not None and node.parent is not None:
        names.append(node.info_name or "")
        node = node.parent
    words = [program, *reversed(names)]
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name) if param.name else None
        if source is None or source.name in ("DEFAULT", "DEFAULT_MAP"):
            continue
        words += _param_words(param, ctx.params.get(param.name))
    return shlex.join(words)


def _param_words(param: Any, value: Any) -> list[str]:
    """A parameter's value as command-line words (``--k 10 --k 100``, ``--no-endpoint``, ``FILE``)."""
    if value is None:
        return []
    if not isinstance(param, TyperOption):
        return [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]
    flag = param.opts[0]
    if param.is_flag:
        if value:
            return [flag]
        return [param.secondary_opts[0]] if param.secondary_opts else []
    values = value if param.multiple and isinstance(value, (list, tuple)) else [value]
    return [w for v in values for w in (flag, str(v))]


@contextmanager
def figures_page(docs: Optional[Path], name: str, title: str) -> Iterator[None]:
    """With ``docs`` (``--docs DIR``): tee everything the block prints to stdout (``typer.echo``,
    ``print``; not stderr) and, when it ends without error, write it to
    ``DIR/figures/<name>.md`` with the command line, the date and the commit
    (:func:`taxogen_tools.evaluation.figures_page.write_figures_page`). Nothing is written when the
    block fails or exits non-zero. Without ``docs`` the block just runs."""
    if docs is None:
        yield
        return
    if docs.exists() and not docs.is_dir():
        fail(ValueError(f"--docs {docs}: not a directory"))
    from taxogen_tools.evaluation.figures_page import git_revision

    command, revision = typed_command(), git_revision()  # the code that runs, not the tree at the end
    tee = _Tee(sys.stdout)
    try:
        with redirect_stdout(tee):
            yield
    except typer.Exit as exc:
        if exc.exit_code == 0:
            _write_page(docs, name, title, tee.text, command, revision)
        raise
    _write_page(docs, name, title, tee.text, command, revision)


def _write_page(docs: Path, name: str, title: str, text: str, command: str, revision: str) -> None:
    from taxogen_tools.evaluation.figures_page import write_figures_page

    try:
        path = write_figures_page(docs, name, title, text, command=command, revision=revision)
    except OSError as exc:
        fail(OSError(f"--docs {docs}: cannot write the figures page: {exc}"))
    typer.echo(f"figures page: {path}", err=True)


def served_groups() -> tuple[str, ...]:
    """The feature groups of a ranker trained on served ladders."""
    from engine.select.features import SERVED_GROUPS

    return SERVED_GROUPS


def feature_groups(text: str | None) -> tuple[str, ...]:
    """``--groups a,b`` checked against the known feature groups (default: all)."""
    from engine.select.features import DEFAULT_GROUPS, FEATURE_GROUPS

    return checked_groups(text, FEATURE_GROUPS, DEFAULT_GROUPS, "feature groups")


def checked_groups(text: str | None, known, default: tuple[str, ...], what: str) -> tuple[str, ...]:
    """``a,b`` as names of ``known`` (``default`` when empty); an :class:`InputError` naming
    the unknown ones and the known ``what`` otherwise."""
    from engine.errors import InputError

    if not text:
        return default
    chosen = tuple(g.strip() for g in text.split(",") if g.strip())
    unknown = [g for g in chosen if g not in known]
    if unknown or not chosen:
        raise InputError(f"unknown {what} {unknown}; known: {', '.join(known)}")
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
