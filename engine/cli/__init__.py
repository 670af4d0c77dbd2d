"""The ``taxogen`` command line (typer). Commands print JSON with ``--json``; errors exit 1.

One module per command group, each a thin layer over library functions:
:mod:`.sanitize` (``demo``, ``generalize``, ``sanitize``), :mod:`.serve`, :mod:`.train` (``train``, ``train-verifier``),
:mod:`.detect` (``detect``, ``train-detect``, ``evaluate detection``, ``bench detect``),
:mod:`.kg` (``kg …``), :mod:`.bench` (``bench …``), :mod:`.evaluate` (``evaluate …``),
:mod:`.spark` (``spark …``, ``bench spark``), :mod:`.rules` (``rules …``); what they share is in :mod:`.common`.
"""

from __future__ import annotations

import sys

import typer

from engine.cli.bench import bench_app
from engine.cli.common import App
from engine.cli.detect import bench_detect_cmd, detect_cmd, evaluate_detection_cmd, train_detect_cmd
from engine.cli.evaluate import evaluate_app
from engine.cli.kg import kg_app
from engine.cli.rules import rules_app
from engine.cli.sanitize import demo, generalize, sanitize
from engine.cli.serve import serve
from engine.cli.spark import bench_spark_cmd, spark_app
from engine.cli.train import train, train_verifier

app = App(help="taxogen: knowledge-graph backed generalization for text sanitization.", no_args_is_help=True)


def _print_version(value: bool) -> None:
    if value:
        from engine.version import __version__

        typer.echo(f"taxogen {__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                          help="Print taxogen's version and exit.")) -> None:
    """taxogen: knowledge-graph backed generalization for text sanitization."""


app.command("demo")(demo)
app.command("generalize")(generalize)
app.command("train")(train)
app.command("train-verifier")(train_verifier)
app.command("sanitize")(sanitize)
app.command("serve")(serve)
app.command("detect")(detect_cmd)
app.command("train-detect")(train_detect_cmd)
evaluate_app.command("detection")(evaluate_detection_cmd)
bench_app.command("detect")(bench_detect_cmd)
bench_app.command("spark")(bench_spark_cmd)
app.add_typer(kg_app, name="kg")
app.add_typer(bench_app, name="bench")
app.add_typer(evaluate_app, name="evaluate")
app.add_typer(spark_app, name="spark")
app.add_typer(rules_app, name="rules")


def main() -> None:
    """Console-script entry point: an error of the input or the configuration that a command
    did not report itself is one ``error:`` line and exit code 1, not a traceback."""
    from engine.errors import SanitizerError

    try:
        app()
    except SanitizerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(1) from None


__all__ = ["app", "main"]
