"""Process helpers for commands that leave temporary files behind when killed.

- :func:`exit_on_signals` turns SIGTERM and SIGHUP into ``SystemExit(128 + signal)`` for
  the duration of a ``with`` block, so ``finally`` clauses and context managers (atomic
  writers, temporary build directories) clean up exactly as for Ctrl-C (SIGINT, which
  Python already raises as ``KeyboardInterrupt``).
- :func:`pid_alive` tells whether a process id still runs, so that a later run can
  remove what a SIGKILLed run (which no handler can catch) left behind, without touching
  the files of a run that is still going.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
import signal
import threading
from contextlib import contextmanager
from typing import Iterator

_SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None)


def _raise_exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def exit_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM/SIGHUP raise ``SystemExit(128 + signum)`` in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _raise_exit) for s in _SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (on this machine)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def replace_directory(work: Path, target: Path) -> None:
    """Replace the directory ``target`` by ``work``, finished beside it: the old one is renamed
    aside, the new one renamed in, then the old one removed (a reader never sees half of either)."""
    old = target.parent / f".{target.name}.old-{os.getpid()}"
    if target.exists():
        os.replace(target, old)
    os.replace(work, target)
    shutil.rmtree(old, ignore_errors=True)
