"""The runtime's code holds little knowledge: words, cue phrases and patterns live in packs,
class facts in ontology/ (tools/knowledge_in_code.py counts what is left)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import knowledge_in_code  # noqa: E402


def test_given_the_runtime_then_its_code_holds_at_most_250_words_and_10_qids() -> None:
    per = knowledge_in_code.count_runtime()
    total = knowledge_in_code.totals(per)
    worst = sorted(per.items(), key=lambda kv: -(kv[1].words + kv[1].qids))[:5]
    where = ", ".join(f"{path} ({c.words} words, {c.qids} Q-ids)" for path, c in worst)
    assert total.words <= knowledge_in_code.MAX_WORDS, f"{total.words} words in the runtime's code; most in: {where}"
    assert total.qids <= knowledge_in_code.MAX_QIDS, f"{total.qids} Q-ids in the runtime's code; most in: {where}"


def test_given_a_module_then_lists_patterns_and_qids_are_counted_as_the_tool_says() -> None:
    src = '''
"""Q42 in a docstring is not counted."""
import re
__all__ = ["alpha", "beta", "gamma"]
WORDS = {"alpha", "beta", "gamma", "x1"}
PAIR = ("one", "two")
CUE = re.compile(r"\\b(?:born|died) in\\b")
CLASS = "Q515"
'''
    c = knowledge_in_code.count_source(src)
    assert (c.list_words, c.regex_words, c.qids) == (3, 2, 1)
