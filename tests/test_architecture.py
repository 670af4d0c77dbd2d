"""The shape of the code: imports point down, no circles in engine/ and kg/, and kg/ never
imports engine/. The import graph is read from the source with ``ast``: module-level and
function-level imports both count (a lazy import is still a dependency); an import under
``if TYPE_CHECKING:`` does not."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "kg")


def modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, tuple[Path, bool]]:
    """Dotted module name → (file, is a package ``__init__``) of every module of ``packages``."""
    out: dict[str, tuple[Path, bool]] = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """Ids of the nodes under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return out


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_pkg: bool) -> Iterator[str]:
    """The dotted names an import statement of ``module`` reaches (relative imports resolved;
    ``from pkg import name`` yields ``pkg.name`` too, in case ``name`` is a submodule)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
        return
    if node.level:
        base = module.split(".") if is_pkg else module.split(".")[:-1]
        base = base[: len(base) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    yield target
    for alias in node.names:
        yield f"{target}.{alias.name}"


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Module → the modules of ``packages`` it imports (the longest known prefix of each name)."""
    mods = modules(root, packages)

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, (path, is_pkg) in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skip = _type_checking_nodes(tree)
        deps: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skip:
                names = list(_imported(node, module, is_pkg))
                if isinstance(node, ast.ImportFrom):  # ``from a.b import c``: a.b.c if it is a module, else a.b
                    target, subs = names[0], names[1:]
                    hits = [s for s in subs if s in mods]
                    deps.update(hits)
                    if len(hits) < len(subs) and (t := known(target)):
                        deps.add(t)
                else:
                    deps.update(t for n in names if (t := known(n)))
        deps.discard(module)
        graph[module] = deps
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_given_a_circle_then_it_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_given_relative_and_lazy_imports_then_the_graph_has_them(tmp_path):
    pkg = tmp_path / "p"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from . import leaf\n")
    (pkg / "sub" / "leaf.py").write_text("def f():\n    from ..top import x\n")
    (pkg / "top.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.sub.leaf import f\nfrom p.sub import leaf\n")
    graph = import_graph(tmp_path, ("p",))
    assert graph["p.sub"] == {"p.sub.leaf"}
    assert graph["p.sub.leaf"] == {"p.top"}
    assert graph["p.top"] == {"p.sub.leaf"}
    assert circles(graph) == [["p.sub.leaf", "p.top"]]


def test_engine_and_kg_have_no_import_circles():
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" → ".join(c) for c in found)


def test_kg_never_imports_engine():
    graph = import_graph()
    offenders = sorted(f"{m} → {d}" for m, deps in graph.items() if m.split(".")[0] == "kg"
                       for d in deps if d.split(".")[0] == "engine")
    assert not offenders, "kg imports engine:\n" + "\n".join(offenders)
