"""Output files: stale temporary parts, permissions, writability checks.

Result files are written under a temporary name ``.<name>.<pid>.<random>.part`` beside
the target and renamed into place on success (:class:`engine.io.docio.AtomicWriter`).

- On SIGTERM/SIGHUP/Ctrl-C the CLI removes the part file (:func:`kg.procs.exit_on_signals`).
- A SIGKILL cannot be caught: the next run that writes the same target removes every
  ``.<name>.<pid>.*.part`` whose process is gone (:func:`sweep_stale_parts`); parts of a
  run still going are left alone. Parts are never reused: a killed run's output is
  incomplete by definition.
- Permissions: results are created like any other file, with ``0666`` masked by the
  umask (usually ``0644``); results that carry the original span texts
  (``--with-originals``) are created ``0600`` — readable by the owner only — whatever
  the umask.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from kg.procs import pid_alive

PRIVATE_MODE = 0o600


def part_prefix(target: Path) -> str:
    """Prefix of the temporary part files of ``target`` written by this process."""
    return f".{target.name}.{os.getpid()}."


def sweep_stale_parts(target: Path) -> list[Path]:
    """Remove ``target``'s part files left by processes that no longer run; returns them."""
    pattern = re.compile(rf"^\.{re.escape(target.name)}\.(\d+)\.[^.]+\.part$")
    removed = []
    try:
        entries = list(target.parent.iterdir())
    except OSError:
        return removed
    for p in entries:
        m = pattern.match(p.name)
        if m and not pid_alive(int(m.group(1))):
            try:
                p.unlink()
                removed.append(p)
            except OSError:
                pass
    return removed


def current_umask() -> int:
    """The process umask, read without changing it where the OS allows (Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def output_mode(private: bool) -> int:
    """``0600`` for private output, else ``0666`` minus the umask."""
    return PRIVATE_MODE if private else 0o666 & ~current_umask()


def unwritable_reason(path: Path, *, directory: bool = False) -> str | None:
    """Why ``path`` (a file, or a directory with ``directory``) cannot be written, or None."""
    if not directory and path.exists() and not path.is_dir() and not path.is_file():
        # a device or a pipe (also through a link, /dev/stdout) is written to in place, never
        # replaced: only it must be writable
        return None if os.access(path, os.W_OK) else f"cannot write to {path}"
    path = Path(os.path.realpath(path))  # a symbolic link to a file: the file it points at is replaced
    if path.exists():
        if directory and not path.is_dir():
            return f"{path} exists and is not a directory"
        if not directory and path.is_dir():
            return f"{path} is a directory"
        return _try_write(path if directory else path.parent)
    ancestor = path.parent
    while not ancestor.exists():
        if ancestor == ancestor.parent:
            break
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        return f"cannot create {path}: {ancestor} is not a directory"
    return _try_write(ancestor)


def _try_write(directory: Path) -> str | None:
    """Create and remove a scratch file in ``directory`` (permissions, read-only mounts, /proc…)."""
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as exc:
        return f"cannot write to {directory}: {exc.strerror or exc}"
    return None
