"""docs/architecture.md shows the pipeline the code builds."""

from __future__ import annotations

import sys

from tests.architecture.imports import ROOT

sys.path.insert(0, str(ROOT / "tools"))

import architecture_diagram  # noqa: E402


def test_given_the_code_then_the_architecture_page_shows_its_stages() -> None:
    text = architecture_diagram.PAGE.read_text(encoding="utf-8")
    assert architecture_diagram.page_with(text, architecture_diagram.diagram()) == text, \
        "docs/architecture.md is out of date: python tools/architecture_diagram.py"
