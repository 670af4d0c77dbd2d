"""The pipeline: the stages, in order, each reading and writing the documents (:class:`engine.doc.Doc`).

======  ===================================  ====================================================
order   stage                                 module
======  ===================================  ====================================================
1       detect — find or take the mentions    :mod:`engine.detect.stage`
2       link — what each may name             :mod:`engine.generate.stages`
3       ladder — its rungs                    :mod:`engine.generate.stages`
4       verify — how likely each is true      :mod:`engine.generate.stages`
5       rank — the ranker's order             :mod:`engine.select.stages`
6       select — the policy's rung            :mod:`engine.select.stages`
7       guard — k, and no leaks               :mod:`engine.privacy.stage`
8       render — the sanitized text           :mod:`engine.render.stage`
======  ===================================  ====================================================

A stage is any object with a ``name`` (one of :data:`engine.knowledge.STAGES`) that is called
with the documents of a batch and the :class:`engine.doc.SanitizeOptions`. It reads what the
stages before it wrote and writes its own part; it never calls back into the engine that
built the pipeline. Every stage fails closed: a mention it fails on is masked, with a line in
``Doc.errors``. The pipeline times each stage (:attr:`Pipeline.timings`: wall and CPU seconds,
for ``taxogen bench raw``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Protocol

from engine.doc import Doc, SanitizeOptions
from engine.knowledge import STAGES


class Stage(Protocol):
    """One step of the pipeline (see the module docstring)."""

    name: str

    def __call__(self, docs: Sequence[Doc], options: SanitizeOptions) -> None: ...


class Pipeline:
    """The stages in the order of :data:`engine.knowledge.STAGES`, one of each."""

    def __init__(self, stages: Sequence[Stage]) -> None:
        names = [s.name for s in stages]
        if names != list(STAGES):
            raise ValueError(f"a pipeline runs the stages {', '.join(STAGES)} in this order, not {', '.join(names)}")
        self.stages: tuple[Stage, ...] = tuple(stages)
        #: seconds spent in each stage since the pipeline was built (or :meth:`reset_timings`):
        #: ``wall`` (elapsed) and ``cpu`` (this process's CPU time), by stage name
        self.timings: dict[str, dict[str, float]] = {}
        self.reset_timings()

    def reset_timings(self) -> None:
        """Start :attr:`timings` from zero."""
        self.timings = {"wall": dict.fromkeys(STAGES, 0.0), "cpu": dict.fromkeys(STAGES, 0.0)}

    def __iter__(self) -> Iterator[Stage]:
        return iter(self.stages)

    def __getitem__(self, name: str) -> Stage:
        for stage in self.stages:
            if stage.name == name:
                return stage
        raise KeyError(f"no stage named {name!r}; stages: {', '.join(STAGES)}")

    def diagram(self) -> str:
        """The stages as a Mermaid flowchart: each stage's name, its class and module, and the
        first line of its class's docstring (docs/architecture.md shows it; a test keeps it honest)."""
        lines = ["flowchart TD", '    IN["text, with or without its mentions"] --> detect']
        for stage, after in zip(self.stages, self.stages[1:] + (None,)):
            kind = type(stage)
            purpose = (kind.__doc__ or "").strip().split("\n")[0].rstrip(".").replace('"', "'")
            lines.append(f'    {stage.name}["<b>{stage.name}</b> — {kind.__name__}<br/>{kind.__module__}<br/><i>{purpose}</i>"]')
            lines.append(f"    {stage.name} --> {after.name if after is not None else 'OUT'}")
        lines.append('    OUT["SanitizeResult: the text, each replacement, the privacy report"]')
        return "\n".join(lines)

    def run(self, docs: Sequence[Doc], options: SanitizeOptions, *, until: str | None = None) -> list[Doc]:
        """Run the stages over ``docs`` (the whole batch goes through each stage before the next);
        ``until``: stop after that stage."""
        if until is not None and until not in STAGES:
            raise ValueError(f"no stage named {until!r}; stages: {', '.join(STAGES)}")
        wall, cpu = self.timings["wall"], self.timings["cpu"]
        for stage in self.stages:
            w, c = time.perf_counter(), time.process_time()
            stage(docs, options)
            wall[stage.name] += time.perf_counter() - w
            cpu[stage.name] += time.process_time() - c
            if stage.name == until:
                break
        return list(docs)
