"""Count the knowledge written into the runtime's code: words in literal word lists, words inside
regular expressions, and Wikidata Q-ids.

Walks every ``.py`` file of the runtime packages ``engine/`` and ``kg/`` with :mod:`ast` (the
tools at the edge, ``taxogen_tools/``, are not the runtime) and counts:

- **list words**: the strings of a set, list or tuple literal holding three or more word-only
  strings (letters, with spaces, hyphens or apostrophes inside); ``__all__`` is an API, not knowledge;
- **regex words**: the ``[a-z]{3,}`` runs inside string literals passed as the pattern of a
  ``re``/``regex`` call (``compile``, ``search``, ``match``, ``fullmatch``, ``sub``, ``subn``,
  ``findall``, ``finditer``, ``split``);
- **Q-ids**: ``Q\\d{2,}`` in string literals that are not docstrings.

    python tools/knowledge_in_code.py            # totals and the modules that hold most
    python tools/knowledge_in_code.py --json     # the same as JSON

``tests/test_knowledge_in_code.py`` holds the runtime to the bounds below.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ("engine", "kg")
#: At most this many words in literal word lists and regex patterns together, and Q-ids.
MAX_WORDS = 250
MAX_QIDS = 10
WORD = re.compile(r"^[A-Za-z][A-Za-z' -]*$")
REGEX_WORD = re.compile(r"[a-z]{3,}")
QID = re.compile(r"Q\d{2,}")
RE_MODULES = ("re", "regex")
RE_FUNCTIONS = frozenset({"compile", "search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split"})


@dataclass
class Count:
    list_words: int = 0
    regex_words: int = 0
    qids: int = 0

    @property
    def words(self) -> int:
        return self.list_words + self.regex_words


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def _api_lists(tree: ast.AST) -> set[int]:
    """The literals assigned to ``__all__``."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value is not None:
                out.add(id(node.value))
    return out


def count_source(source: str) -> Count:
    """The knowledge in one module's source."""
    tree = ast.parse(source)
    docs, api = _docstrings(tree), _api_lists(tree)
    c = Count()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)) and id(node) not in api:
            found = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str) and WORD.match(e.value)]
            if len(found) >= 3:
                c.list_words += len(found)
        elif isinstance(node, ast.Call) and node.args:
            f = node.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in RE_MODULES and f.attr in RE_FUNCTIONS:
                for sub in ast.walk(node.args[0]):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        c.regex_words += len(REGEX_WORD.findall(sub.value))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            c.qids += len(QID.findall(node.value))
    return c


def count_runtime(root: Path = ROOT) -> dict[str, Count]:
    """Per runtime module (path relative to ``root``), its count; modules with none left out."""
    out = {}
    for package in RUNTIME:
        for path in sorted((root / package).rglob("*.py")):
            c = count_source(path.read_text(encoding="utf-8"))
            if c.words or c.qids:
                out[path.relative_to(root).as_posix()] = c
    return out


def totals(per_module: dict[str, Count]) -> Count:
    t = Count()
    for c in per_module.values():
        t.list_words += c.list_words
        t.regex_words += c.regex_words
        t.qids += c.qids
    return t


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--top", type=int, default=15, help="how many modules to list")
    args = parser.parse_args(argv)
    per = count_runtime()
    t = totals(per)
    if args.json:
        print(json.dumps({"list_words": t.list_words, "regex_words": t.regex_words, "words": t.words, "qids": t.qids,
                          "max_words": MAX_WORDS, "max_qids": MAX_QIDS,
                          "modules": {k: vars(v) for k, v in per.items()}}, indent=2))
        return 0
    print(f"knowledge in the runtime's code (engine/, kg/): {t.list_words} words in word lists + {t.regex_words} in patterns = "
          f"{t.words} words (bound {MAX_WORDS}); {t.qids} Q-ids (bound {MAX_QIDS})")
    for path, c in sorted(per.items(), key=lambda kv: -(kv[1].words + kv[1].qids))[: args.top]:
        print(f"  {c.list_words:>5} list {c.regex_words:>5} regex {c.qids:>4} Q-ids  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
