"""Loading the sentence-transformers model prints no "Loading weights" progress bars."""

import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.engine.live import cli_env


@pytest.mark.slow
def test_given_the_embedding_model_loads_then_stderr_has_no_progress_bars(tmp_path):
    code = ("from engine.select.embeddings import Embedder\n"
            "e = Embedder(None)\n"
            "print(e.encode(['a geologist']).shape)\n"
            "from transformers.utils import logging\n"
            "print(logging.is_progress_bar_enabled())\n")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=cli_env(tmp_path), timeout=300)
    assert res.returncode == 0, res.stderr
    assert "Loading weights" not in res.stderr and "it/s" not in res.stderr, res.stderr
    assert res.stdout.split() == ["(1,", "384)", "True"]  # the model ran; transformers' own switch is as it was


@pytest.mark.slow
def test_given_a_command_that_loads_the_model_then_stderr_has_no_progress_bars(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("Ingrid Solberg is a Norwegian geologist who lives in Oslo.", encoding="utf-8")
    env = {**cli_env(tmp_path), "TAXOGEN_MODEL": "shipped"}
    res = subprocess.run([sys.executable, "-m", "engine.cli", "sanitize", str(src), "--out", str(tmp_path / "o.jsonl"), "--no-progress"],
                         cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "Loading weights" not in res.stderr, res.stderr
