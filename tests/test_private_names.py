"""No module of engine/ or kg/ reaches into another's private names.

A name starting with ``_`` is private to the module (or class) that defines it. This test
parses every module of ``engine/`` and ``kg/`` and fails on ``from engine.x import _name``
(or ``kg.x``, or a relative import) and on ``obj._name`` where ``obj`` is not ``self`` or
``cls``. Dunder names (``__file__``) are public. Private attributes of third-party
libraries that have no public equivalent are listed in :data:`ALLOWED`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "kg")

#: Private names that may be used from outside their module, with why.
ALLOWED: dict[str, str] = {
    "_jvm": "pyspark: the JVM gateway (no public equivalent)",
    "_jsc": "pyspark: the Java SparkContext (no public equivalent)",
    "_gateway": "pyspark: the Py4J gateway (no public equivalent)",
    "_exit": "os._exit: leave a forked child without running the parent's cleanup",
    # to be removed when the pipeline lands (DocumentSanitizer → engine/pipeline.py)
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _project_module(module: str | None, level: int) -> bool:
    return level > 0 or (module is not None and module.split(".")[0] in PACKAGES)


def violations(source: str, rel: str) -> list[str]:
    """``file:line: expression`` for every private name of another module used in ``source``."""
    out: list[str] = []
    for node in ast.walk(ast.parse(source, filename=rel)):
        if isinstance(node, ast.ImportFrom) and _project_module(node.module, node.level):
            out += [f"{rel}:{node.lineno}: from {node.module} import {a.name}" for a in node.names
                    if _private(a.name) and a.name not in ALLOWED]
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in ALLOWED:
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            out.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    return out


def modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def test_given_the_packages_then_no_module_uses_another_modules_private_names():
    found = [v for path in modules() for v in violations(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())]
    assert not found, "private names used from outside their module:\n" + "\n".join(found)


@pytest.mark.parametrize("source,expected", [
    ("from engine.render.phrase import _lemmas\n", 1),
    ("from .phrase import _lemmas\n", 1),
    ("from os import _exit\n", 0),
    ("import engine.scale as s\ns._private()\n", 1),
    ("class A:\n    def f(self):\n        return self._x, cls._y\n", 0),
    ("class A:\n    def f(self):\n        return self._index._names\n", 1),
    ("x.__file__\n", 0),
    ("sc._jvm.System\n", 0),
])
def test_given_sources_then_the_check_finds_private_uses(source, expected):
    assert len(violations(source, "probe.py")) == expected
