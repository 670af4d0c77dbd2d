"""Checks the overlay and the truth rules (ontology/*.ttl) together and against the store,
with an OWL reasoner (HermiT through owlready2): ``taxogen kg check``.

>>> from kg.ontology_check import check_ontology            # doctest: +SKIP
>>> report = check_ontology(KGStore.read_only("store"))      # doctest: +SKIP
>>> for f in report.findings: print(f.format())              # doctest: +SKIP
"""

from kg.ontology_check.check import check_ontology
from kg.ontology_check.findings import KINDS, CheckReport, Finding
from kg.ontology_check.reasoning import ReasonerUnavailable, java_available

__all__ = ["check_ontology", "CheckReport", "Finding", "KINDS", "ReasonerUnavailable", "java_available"]
