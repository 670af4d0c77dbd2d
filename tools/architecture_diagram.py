"""Write the stage diagram of docs/architecture.md from the code (the block between the markers).

    python tools/architecture_diagram.py          # rewrite the block
    python tools/architecture_diagram.py --check  # exit 1 when the page is out of date

tests/architecture/test_architecture_doc.py runs the check.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- stages: written by tools/architecture_diagram.py -->"
END = "<!-- end of stages -->"


def diagram() -> str:
    from engine import Engine, EngineConfig

    return Engine.from_config(EngineConfig(model="none")).pipeline.diagram()


def page_with(text: str, block: str) -> str:
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n```mermaid\n{block}\n```\n{END}{tail}"


def main(argv: list[str]) -> int:
    text = PAGE.read_text(encoding="utf-8")
    new = page_with(text, diagram())
    if "--check" in argv:
        if new != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run python tools/architecture_diagram.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
