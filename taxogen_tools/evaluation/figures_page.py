"""Figures pages: the output of a bench or evaluate command written to ``docs/figures/<name>.md``.

A page holds a title, the command line that produced the figures, the date (UTC), the git
commit of the code that ran (short hash, ``+dirty`` when tracked files were modified,
``unknown`` outside git or without git) and the figures themselves — the command's printed
output as a preformatted block, or rows as a Markdown table. Writing a page again replaces
it, so the documentation always shows the last run of its command; ``index.md`` beside the
pages lists them all.

A command wires it in by collecting what it prints and handing it over::

    lines = PrintedLines(typer.echo)
    echo_sanitize_report(report, data.name, lines)
    if docs is not None:
        write_figures_page(docs, "evaluate-sanitize", "End to end: what a reader receives", lines.text)
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Sequence

#: The repository this package lives in (the commit recorded on a page is this tree's).
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
#: Page names: lower-case words joined by hyphens (``evaluate-sanitize``, ``bench-kg``).
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
INDEX = "index.md"
UNKNOWN = "unknown"


def git_revision(repo: str | Path | None = None) -> str:
    """The short commit hash of ``repo`` (default: this package's tree), with ``+dirty`` when a
    tracked file differs from it; ``"unknown"`` when git is not installed or ``repo`` is not in
    a git work tree."""
    git = shutil.which("git")
    if git is None:
        return UNKNOWN
    where = str(repo if repo is not None else PACKAGE_ROOT)
    try:
        head = subprocess.run([git, "-C", where, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=False, timeout=30)
        if head.returncode != 0 or not head.stdout.strip():
            return UNKNOWN
        status = subprocess.run([git, "-C", where, "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, check=False, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return UNKNOWN
    dirty = status.returncode != 0 or bool(status.stdout.strip())
    return head.stdout.strip() + ("+dirty" if dirty else "")


#: An absolute path as commands print it: a slash-led run of path characters.
_ABSOLUTE = re.compile(r"(?<![\w.~/-])/(?:[\w.+@-]+/)*[\w.+@-]+/?")


def portable_paths(text: str, root: str | Path | None = None) -> str:
    """``text`` with the machine's absolute paths made portable: a path inside the repository
    (``root``, default this package's tree) becomes relative to it, one beside it
    ``../…``, any other ``<name>`` (its last part: ``/work/stores/fresh`` → ``<fresh>``), so a
    figures page names no directory of the machine that wrote it."""
    base = Path(root if root is not None else PACKAGE_ROOT).resolve()

    def portable(m: re.Match[str]) -> str:
        path = Path(m.group(0))
        for anchor, prefix in ((base, ""), (base.parent / "shared", "../shared/")):
            try:
                rel = path.relative_to(anchor)
            except ValueError:
                continue
            return (prefix + rel.as_posix() if str(rel) != "." else prefix or ".").rstrip("/") or "."
        return f"<{path.name or path}>"

    return _ABSOLUTE.sub(portable, text)


def command_line(argv: Sequence[str] | None = None, program: str = "taxogen") -> str:
    """The command as a user would type it: ``program`` and the arguments (default: this
    process's), shell-quoted."""
    args = list(sys.argv[1:] if argv is None else argv)
    return shlex.join([program, *args])


class PrintedLines:
    """An ``echo`` that also keeps every line it prints (pass it where a command prints its
    figures; ``text`` is then the page's preformatted block)."""

    def __init__(self, echo: Callable[[str], None] | None = None) -> None:
        self.echo = echo
        self.lines: list[str] = []

    def __call__(self, line: object = "") -> None:
        text = str(line)
        self.lines.extend(text.splitlines() or [""])
        if self.echo is not None:
            self.echo(text)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True, slots=True)
class FiguresPage:
    """One page of figures: what ran, when, on which code, and what it printed."""

    name: str
    title: str
    command: str
    figures: str | Sequence[Sequence[object]]
    headers: Sequence[str] | None = None
    when: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    revision: str = UNKNOWN
    note: str | None = None

    def __post_init__(self) -> None:
        if not NAME.match(self.name):
            raise ValueError(f"figures page name must be lower-case words joined by '-', not {self.name!r}")
        if not isinstance(self.figures, str) and self.headers is None:
            raise ValueError("a table of figures needs its headers")

    def to_markdown(self) -> str:
        """The page's Markdown text (machine paths shown as :func:`portable_paths` writes them)."""
        when = self.when.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        out = [f"# {self.title}", "",
               "Written by the command below; run it again to regenerate this page.", "",
               "```bash", portable_paths(self.command), "```", "",
               f"- date: {when}", f"- commit: `{self.revision}`", ""]
        if self.note:
            out += [self.note.strip(), ""]
        if isinstance(self.figures, str):
            fence = "````" if "```" in self.figures else "```"
            out += [fence + "text", portable_paths(self.figures.rstrip("\n")), fence]
        else:
            out += _table(self.headers or (), [[portable_paths(str(v)) for v in row] for row in self.figures])
        return "\n".join(out) + "\n"


def write_figures_page(
    docs_dir: str | Path,
    name: str,
    title: str,
    figures: str | Sequence[Sequence[object]],
    *,
    command: str | None = None,
    headers: Sequence[str] | None = None,
    note: str | None = None,
    when: datetime | None = None,
    revision: str | None = None,
    repo: str | Path | None = None,
) -> Path:
    """Write (or replace) ``<docs_dir>/figures/<name>.md`` and refresh ``figures/index.md``;
    returns the page's path.

    ``figures`` is the command's printed output (a preformatted block) or table rows with
    ``headers``. ``command`` defaults to this process's command line, ``when`` to now (UTC),
    ``revision`` to :func:`git_revision` of ``repo``. The file is replaced atomically."""
    page = FiguresPage(
        name=name, title=title, command=command if command is not None else command_line(), figures=figures,
        headers=headers, when=when or datetime.now(timezone.utc),
        revision=revision if revision is not None else git_revision(repo), note=note,
    )
    folder = Path(docs_dir) / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.md"
    _write_atomically(path, page.to_markdown())
    write_index(folder)
    return path


def write_index(folder: str | Path) -> Path:
    """``index.md``: every page of ``folder`` with its title, by name."""
    folder = Path(folder)
    rows = []
    for page in sorted(folder.glob("*.md")):
        if page.name == INDEX:
            continue
        first = page.read_text(encoding="utf-8").split("\n", 1)[0]
        title = first[2:].strip() if first.startswith("# ") else page.stem
        rows.append(f"- [{page.stem}]({page.name}): {title}")
    text = "\n".join([
        "# Figures", "",
        "Each page is written by the bench or evaluate command named on it, with the date and the",
        "commit of the code that ran; run the command again to regenerate it.", "", *rows]) + "\n"
    path = folder / INDEX
    _write_atomically(path, text)
    return path


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    def cell(value: object) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(cell(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    for row in rows:
        if len(row) != len(headers):
            raise ValueError(f"a row has {len(row)} cells, the table {len(headers)} columns")
        out.append("| " + " | ".join(cell(v) for v in row) + " |")
    return out


def _write_atomically(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
