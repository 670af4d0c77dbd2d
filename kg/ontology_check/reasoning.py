"""Run an OWL reasoner (HermiT, shipped with owlready2, on Java) over an rdflib graph.

The graph is handed to owlready2 as N-Triples in a fresh :class:`owlready2.World` (the
default world is not used); owlready2 runs HermiT in a Java process of at most
:data:`JAVA_MEMORY_MB` of heap (owlready2's ``JAVA_MEMORY`` setting) — the check's
ontologies hold a few hundred classes, and the machine is shared. owlready2 also ships
Pellet, but 0.51's Pellet jars need a newer Java than 17, so only HermiT is offered.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import time
from dataclasses import dataclass, field

import rdflib

#: Java heap for the reasoner, in MB (owlready2's default is 2,000).
JAVA_MEMORY_MB = 400
REASONERS = ("hermit",)
_NOTHING = "http://www.w3.org/2002/07/owl#Nothing"
_EQUIVALENT = re.compile(r"EquivalentClasses\(([^)]*)\)")


class ReasonerUnavailable(RuntimeError):
    """No Java (or no owlready2) to run the reasoner with."""


@dataclass
class Verdict:
    """What the reasoner said: consistent or not, and the unsatisfiable classes (IRIs)."""

    consistent: bool
    unsatisfiable: list[str] = field(default_factory=list)
    seconds: float = 0.0


def java_available() -> bool:
    """``java`` is on the PATH."""
    return shutil.which("java") is not None


def reason(graph: rdflib.Graph, reasoner: str = "hermit") -> Verdict:
    """Classify ``graph``; raises :class:`ReasonerUnavailable` without Java or owlready2."""
    if reasoner not in REASONERS:
        raise ValueError(f"unknown reasoner {reasoner!r} (choose {', '.join(REASONERS)})")
    if not java_available():
        raise ReasonerUnavailable("java not found on PATH (install openjdk-17-jre-headless)")
    try:
        import owlready2
        import owlready2.reasoning
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise ReasonerUnavailable(f"owlready2 is not installed: {exc}") from exc
    owlready2.reasoning.JAVA_MEMORY = JAVA_MEMORY_MB
    world = owlready2.World()
    onto = world.get_ontology("https://taxogen.dev/ontology/check")
    onto.load(fileobj=io.BytesIO(graph.serialize(format="nt", encoding="utf-8")), format="ntriples")
    start = time.perf_counter()
    log = io.StringIO()
    try:
        # owlready2 records only one class equivalent to owl:Nothing (it merges the rest into
        # it): read the reasoner's own classification, which debug=2 prints, instead
        with onto, contextlib.redirect_stderr(log):
            owlready2.sync_reasoner_hermit(world, infer_property_values=False, debug=2)
        unsatisfiable = unsatisfiable_in(log.getvalue())
    except owlready2.OwlReadyInconsistentOntologyError:
        return Verdict(False, seconds=time.perf_counter() - start)
    except owlready2.OwlReadyJavaError as exc:
        lines = str(exc).strip().splitlines()
        raise ReasonerUnavailable(f"the reasoner failed: {lines[-1] if lines else exc}") from exc
    finally:
        world.close()
    return Verdict(True, unsatisfiable, time.perf_counter() - start)


def unsatisfiable_in(output: str) -> list[str]:
    """The classes a reasoner's printed classification makes equivalent to ``owl:Nothing``."""
    out: set[str] = set()
    for m in _EQUIVALENT.finditer(output):
        iris = re.findall(r"<([^>]+)>", m.group(1))
        if _NOTHING in iris:
            out |= {i for i in iris if not i.startswith("http://www.w3.org/2002/07/owl#")}
    return sorted(out)
