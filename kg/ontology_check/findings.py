"""Findings of the ontology check: one record per problem, with the file and line to edit."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Severity = Literal["error", "warning"]

#: The kinds of finding, and what each means.
KINDS: dict[str, str] = {
    "inconsistent": "the rules, with the store's classes, admit no model (the reasoner's verdict)",
    "unsatisfiable": "a class that can have no instance (e.g. below two classes declared disjoint)",
    "type-conflict": "an entity type allows a kind whose classes its forbidden kinds always cover",
    "absent": "a rule names a class the store does not hold",
    "cut-off": "pruned classes (or tg:notIsA edges) are the only ways up to a class a rule offers",
    "pruned-rule": "a class a rule offers is itself never offered (tg:neverOffer)",
    "reasoner": "the reasoner could not run (no Java): the OWL findings were not checked",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: where it is (``file``, 1-based ``line``; 0 when no line applies), its
    ``kind`` (a key of :data:`KINDS`), ``severity`` and a one-line ``message``."""

    file: str
    line: int
    kind: str
    severity: Severity
    message: str

    def format(self) -> str:
        """``file:line: severity: [kind] message`` (the form compilers and editors jump to)."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.severity}: [{self.kind}] {self.message}"


@dataclass
class CheckReport:
    """Everything one check found, with what it looked at and how long it took."""

    files: list[Path]
    findings: list[Finding] = field(default_factory=list)
    named_classes: int = 0
    store_classes: int = 0
    reasoner: str = ""
    seconds: float = 0.0
    reasoner_seconds: float = 0.0
    #: the OWL ontology that was reasoned over (an rdflib graph; ``kg check --owl`` saves it)
    ontology: Any = None

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    def summary(self) -> str:
        """One line: counts of what was checked and found."""
        reasoned = f"{self.reasoner} {self.reasoner_seconds:.1f} s" if self.reasoner else "no reasoner"
        return (f"checked {len(self.files)} files naming {self.named_classes} classes against {self.store_classes} store classes "
                f"({reasoned}): {len(self.errors)} errors, {len(self.warnings)} warnings, {self.seconds:.1f} s")

    def to_dict(self) -> dict:
        return {
            "files": [str(p) for p in self.files],
            "findings": [{"file": f.file, "line": f.line, "kind": f.kind, "severity": f.severity, "message": f.message}
                         for f in self.findings],
            "named_classes": self.named_classes, "store_classes": self.store_classes, "reasoner": self.reasoner,
            "seconds": round(self.seconds, 3), "reasoner_seconds": round(self.reasoner_seconds, 3),
            "errors": len(self.errors), "warnings": len(self.warnings),
        }
