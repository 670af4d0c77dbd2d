"""No module of engine/ or kg/ is over 500 lines (small modules, one job each)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 500


def test_given_the_packages_then_every_module_is_at_most_500_lines():
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for pkg in ("engine", "kg") for p in (ROOT / pkg).rglob("*.py")}
    too_long = {path: n for path, n in sorted(sizes.items()) if n > MAX_LINES}
    assert not too_long, f"modules over {MAX_LINES} lines: " + ", ".join(f"{p} ({n})" for p, n in too_long.items())
