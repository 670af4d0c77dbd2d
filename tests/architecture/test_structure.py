"""The shape of the code: one pipeline of stages in order, no import circles, no stage that
knows the engine, the runtime free of the tools at the edge."""

from __future__ import annotations

import re

import pytest

from tests.architecture.imports import ROOT, cycles, graph, modules

STAGE_PACKAGES = ("engine/detect", "engine/generate", "engine/select", "engine/privacy", "engine/render")


def test_given_every_import_then_there_is_no_circle() -> None:
    assert cycles(graph()) == [], "import circles at module level (TYPE_CHECKING imports count)"
    assert cycles(graph(functions=True)) == [], "import circles through imports inside functions"


def test_given_the_stage_packages_then_no_module_names_the_engine() -> None:
    named = [p.relative_to(ROOT).as_posix() for pkg in STAGE_PACKAGES for p in (ROOT / pkg).rglob("*.py")
             if re.search(r"\bEngine\b", p.read_text(encoding="utf-8"))]
    assert named == []
    g = graph(functions=True)
    knowing = sorted(m for m in g if m.startswith(tuple(p.replace("/", ".") for p in STAGE_PACKAGES))
                     and ({"engine.engine", "engine"} & g[m] or "engine.pipeline" in g[m]))
    assert knowing == [], "stage modules import the engine or the pipeline that runs them"


def test_given_the_runtime_then_it_never_imports_the_tools_at_the_edge() -> None:
    g = graph(functions=True)
    runtime = [m for m in modules() if m.split(".")[0] in ("engine", "kg") and not m.startswith("engine.cli")]
    leaking = sorted(m for m in runtime if any(d.startswith("taxogen_tools") for d in g[m]))
    assert leaking == []


def test_given_the_engine_then_its_pipeline_runs_the_stages_in_order(sample_kg) -> None:
    from engine import Engine, EngineConfig
    from engine.knowledge import STAGES

    engine = Engine.from_store(sample_kg, EngineConfig(model="none"))
    assert [s.name for s in engine.pipeline] == list(STAGES) == [
        "detect", "link", "ladder", "verify", "rank", "select", "guard", "render"]
    seen: list[str] = []
    engine.pipeline.stages = tuple(_Spy(s, seen) for s in engine.pipeline.stages)
    text = "Ingrid Solberg was born in Oslo in 1980."
    result = engine.sanitize(text, [])
    assert seen == list(STAGES) and result.text == text


class _Spy:
    def __init__(self, stage, seen: list[str]) -> None:
        self.stage, self.seen, self.name = stage, seen, stage.name

    def __call__(self, docs, options) -> None:
        self.seen.append(self.name)
        self.stage(docs, options)


def test_given_stages_out_of_order_then_the_pipeline_refuses_them() -> None:
    from engine.pipeline import Pipeline

    class Named:
        def __init__(self, name: str) -> None:
            self.name = name

        def __call__(self, docs, options) -> None:
            pass

    names = ["detect", "link", "ladder", "verify", "rank", "select", "guard", "render"]
    Pipeline([Named(n) for n in names])
    with pytest.raises(ValueError, match="in this order"):
        Pipeline([Named(n) for n in names[1:2] + names[:1] + names[2:]])
    with pytest.raises(ValueError, match="in this order"):
        Pipeline([Named(n) for n in names[:-1]])
