"""taxogen kg check: deliberately broken overlays, each finding with its kind, file and line.

The broken overlays sit in tmp dirs next to the shipped vocabulary (ontology/taxogen.ttl)
and are checked against a small in-memory class graph::

    Q100 root ← Q101 middle ← Q102 leaf ← item Q1 (P31)
    Q200 forbidden root ← Q201 below it ← item Q202 (P31)
    Q300 other

Tests that run the reasoner need Java and are skipped without it.
"""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

from engine.cli import app
from kg.ontology_check import check_ontology, java_available
from kg.ontology_check.turtle_lines import SourceLines
from kg.store import KGStore, overlay_paths
from tests.conftest import FIXTURES

runner = CliRunner()
needs_java = pytest.mark.skipif(not java_available(), reason="java not on PATH: the OWL reasoner (HermiT) cannot run")

WD, P31, P279, LABEL = ("http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/P31",
                        "http://www.wikidata.org/prop/direct/P279", "http://www.w3.org/2000/01/rdf-schema#label")
EDGES = [("Q101", P279, "Q100"), ("Q102", P279, "Q101"), ("Q1", P31, "Q102"),
         ("Q201", P279, "Q200"), ("Q202", P31, "Q201")]
LABELS = {"Q100": "root", "Q101": "middle", "Q102": "leaf", "Q1": "item", "Q200": "forbidden root",
          "Q201": "below it", "Q202": "other item", "Q300": "other"}

HEADER = """@prefix tg:   <https://taxogen.dev/ontology#> .
@prefix wd:   <http://www.wikidata.org/entity/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl:  <http://www.w3.org/2002/07/owl#> .
"""
KINDS = """
tg:kindA a tg:ClassKind ; tg:rootClass wd:Q100 .
tg:kindB a tg:ClassKind ; tg:rootClass wd:Q200 .
"""


@pytest.fixture(scope="module")
def tiny_kg() -> KGStore:
    kg = KGStore.in_memory()
    lines = [f"<{WD}{s}> <{p}> <{WD}{o}> .\n" for s, p, o in EDGES]
    lines += [f'<{WD}{q}> <{LABEL}> "{label}"@en .\n' for q, label in LABELS.items()]
    kg.raw.load(input="".join(lines), format=ox.RdfFormat.N_TRIPLES)
    return kg


def rules(tmp_path: Path, body: str) -> tuple[list[Path], Path]:
    """The shipped vocabulary plus a rule file ``body`` (after the prefixes); the file list and the file."""
    vocab = next(p for p in overlay_paths() if p.name == "taxogen.ttl")
    path = tmp_path / "rules.ttl"
    path.write_text(HEADER + body, encoding="utf-8")
    return [vocab, path], path


def line_of(path: Path, marker: str) -> int:
    """1-based line of the first line of ``path`` containing ``marker``."""
    for no, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if marker in text:
            return no
    raise AssertionError(f"{marker!r} not in {path}")


def only(report, kind: str):
    found = [f for f in report.findings if f.kind == kind]
    assert len(found) == 1, [f.format() for f in report.findings]
    return found[0]


# --- structural findings (no reasoner) ---------------------------------------------------
def test_given_rule_naming_a_class_the_store_lacks_then_absent_warning_at_its_line(tmp_path, tiny_kg):
    files, path = rules(tmp_path, KINDS + "\nwd:Q999 tg:neverOffer true .   # typo\n")
    finding = only(check_ontology(tiny_kg, files, reasoner=None), "absent")
    assert (finding.file, finding.line, finding.severity) == (str(path), line_of(path, "typo"), "warning")
    assert "wd:Q999" in finding.message


def test_given_pruned_class_is_the_only_way_up_then_cut_off_error_at_the_pruning_line(tmp_path, tiny_kg):
    body = KINDS + """
tg:typeLOC a tg:EntityTypeRule ; tg:entityType "LOC" ; tg:allowsKind tg:kindA .
wd:Q101 tg:neverOffer true .   # prunes the only way up to Q100
"""
    files, path = rules(tmp_path, body)
    report = check_ontology(tiny_kg, files, reasoner=None)
    finding = only(report, "cut-off")
    assert (finding.file, finding.line, finding.severity) == (str(path), line_of(path, "only way up"), "error")
    assert "wd:Q100 (root)" in finding.message and "wd:Q101 (middle) (tg:neverOffer)" in finding.message
    assert f"rules.ttl:{line_of(path, 'tg:kindA a')}" in finding.message  # where the class is offered


def test_given_not_is_a_edge_is_the_only_way_up_then_cut_off_at_that_edge(tmp_path, tiny_kg):
    body = KINDS + """
tg:typeLOC a tg:EntityTypeRule ; tg:entityType "LOC" ; tg:allowsKind tg:kindA .
wd:Q101 tg:notIsA wd:Q100 .   # edge
"""
    files, path = rules(tmp_path, body)
    finding = only(check_ontology(tiny_kg, files, reasoner=None), "cut-off")
    assert (finding.file, finding.line) == (str(path), line_of(path, "# edge"))


def test_given_unpruned_way_up_then_no_cut_off(tmp_path, tiny_kg):
    body = KINDS + """
tg:typeLOC a tg:EntityTypeRule ; tg:entityType "LOC" ; tg:allowsKind tg:kindA .
wd:Q102 tg:neverOffer true .
"""
    files, _ = rules(tmp_path, body)
    assert not [f for f in check_ontology(tiny_kg, files, reasoner=None).findings if f.kind == "cut-off"]


def test_given_composed_rule_on_a_never_offered_class_then_pruned_rule_error(tmp_path, tiny_kg):
    body = """
tg:leafIn a tg:ComposedGeneralization ; tg:appliesToClass wd:Q102 ;
    tg:via <http://www.wikidata.org/prop/direct/P17> ; tg:template "leaf in {label}" .
wd:Q102 tg:neverOffer true .   # never
"""
    files, path = rules(tmp_path, body)
    finding = only(check_ontology(tiny_kg, files, reasoner=None), "pruned-rule")
    assert (finding.file, finding.line, finding.severity) == (str(path), line_of(path, "# never"), "error")


def test_given_type_allowing_and_forbidding_one_kind_then_type_conflict_at_the_allows_line(tmp_path, tiny_kg):
    body = KINDS + """
tg:typeORG a tg:EntityTypeRule ; tg:entityType "ORG" ;
    tg:allowsKind tg:kindA ;    # allows
    tg:forbidsKind tg:kindA .   # forbids
"""
    files, path = rules(tmp_path, body)
    report = check_ontology(tiny_kg, files, reasoner=None)
    finding = only(report, "type-conflict")
    assert (finding.file, finding.line, finding.severity) == (str(path), line_of(path, "# allows"), "error")
    assert f"rules.ttl:{line_of(path, '# forbids')}" in finding.message


def test_given_value_outside_its_datatype_then_inconsistent_without_reasoner(tmp_path, tiny_kg):
    files, path = rules(tmp_path, 'tg:settings a tg:Settings ;\n    tg:maxDepth "deep" .   # bad\n')
    finding = only(check_ontology(tiny_kg, files, reasoner=None), "inconsistent")
    assert (finding.file, finding.line, finding.severity) == (str(path), line_of(path, "# bad"), "error")
    assert "taxogen.ttl:" in finding.message  # where the range is declared


def test_shipped_ontology_on_the_sample_graph_has_no_structural_errors(sample_kg):
    report = check_ontology(sample_kg, reasoner=None)
    assert report.errors == [], [f.format() for f in report.errors]


def test_every_shipped_triple_is_mapped_to_the_line_that_states_it():
    import rdflib

    paths = overlay_paths()
    lines = SourceLines.read(paths)
    graph = rdflib.Graph()
    for p in paths:
        graph.parse(p, format="turtle")
    triples = [tuple(str(x) for x in t) for t in graph if not isinstance(t[0], rdflib.BNode)]
    assert triples and all(lines.triple_line(*t) for t in triples)
    file, line = lines.triple_line("https://taxogen.dev/ontology#kindPlace", "https://taxogen.dev/ontology#rootClass", WD + "Q82794")
    assert file.endswith("entity_types.ttl") and "wd:Q82794" in Path(file).read_text().splitlines()[line - 1]


def test_forbidden_kinds_read_alike_from_owl_disjointness_and_the_older_list(tmp_path):
    from engine.generate.truth import TruthRules
    from engine.types import EntityType

    loaded = []
    for form in ("owl:disjointWith", "tg:forbidsKind"):
        files, _ = rules(tmp_path, KINDS + f'tg:typeORG a tg:EntityTypeRule , owl:Class ; tg:entityType "ORG" ;\n'
                                           f'    tg:allowsKind tg:kindA ; {form} tg:kindB .\n')
        loaded.append(TruthRules.load(files))
    assert loaded[0].types == loaded[1].types
    assert loaded[0].types[EntityType.ORG].forbids == frozenset({"kindB"}) and not loaded[0].disjoint


def test_unsatisfiable_classes_are_read_from_every_equivalence_with_nothing_the_reasoner_prints():
    from kg.ontology_check.reasoning import unsatisfiable_in

    output = ("SubClassOf( <http://www.wikidata.org/entity/Q2> <http://www.wikidata.org/entity/Q1> )\n"
              "EquivalentClasses( <http://www.w3.org/2002/07/owl#Nothing> <http://www.wikidata.org/entity/Q3> "
              "<http://www.wikidata.org/entity/Q4> )\n"
              "EquivalentClasses( <http://www.wikidata.org/entity/Q5> <http://www.wikidata.org/entity/Q6> )\n")
    assert unsatisfiable_in(output) == [WD + "Q3", WD + "Q4"]


# --- the reasoner -------------------------------------------------------------------------
@needs_java
@pytest.mark.slow
def test_given_allowed_root_below_a_forbidden_kind_then_reasoner_reports_type_conflict(tmp_path, tiny_kg):
    body = """
tg:kindA a tg:ClassKind ; tg:rootClass wd:Q201 .
tg:kindB a tg:ClassKind ; tg:rootClass wd:Q200 .
tg:typeORG a tg:EntityTypeRule , owl:Class ; tg:entityType "ORG" ;
    tg:allowsKind tg:kindA ;    # allows
    owl:disjointWith tg:kindB .
"""
    files, path = rules(tmp_path, body)
    report = check_ontology(tiny_kg, files)
    assert report.reasoner == "hermit"
    finding = only(report, "type-conflict")
    assert (finding.file, finding.line, finding.severity) == (str(path), line_of(path, "# allows"), "error")
    assert "wd:Q201 → wd:Q200" in finding.message


@needs_java
@pytest.mark.slow
def test_given_rule_axioms_making_a_class_empty_then_unsatisfiable_error(tmp_path, tiny_kg):
    body = """
wd:Q102 rdfs:subClassOf wd:Q300 .      # subclass
wd:Q300 owl:disjointWith wd:Q100 .
"""
    files, path = rules(tmp_path, body)
    finding = only(check_ontology(tiny_kg, files), "unsatisfiable")
    assert (finding.file, finding.line, finding.severity) == (str(path), line_of(path, "# subclass"), "error")
    assert "wd:Q102" in finding.message


@needs_java
@pytest.mark.slow
def test_given_disjointness_against_store_edges_then_unsatisfiable_warning_at_the_disjoint_line(tmp_path, tiny_kg):
    files, path = rules(tmp_path, "wd:Q102 owl:disjointWith wd:Q100 .   # disjoint\n")
    finding = only(check_ontology(tiny_kg, files), "unsatisfiable")
    assert (finding.file, finding.line, finding.severity) == (str(path), line_of(path, "# disjoint"), "warning")
    assert "wd:Q102 → wd:Q101 → wd:Q100" in finding.message


@needs_java
@pytest.mark.slow
def test_given_individual_of_disjoint_classes_then_inconsistent_at_the_completing_statement(tmp_path, tiny_kg):
    body = """
wd:Q300 owl:disjointWith wd:Q100 .
wd:Q7 a wd:Q300 ,
        wd:Q101 .   # completes
"""
    files, path = rules(tmp_path, body)
    report = check_ontology(tiny_kg, files)
    finding = only(report, "inconsistent")
    assert (finding.file, finding.line, finding.severity) == (str(path), line_of(path, "# completes"), "error")


@needs_java
@pytest.mark.slow
def test_shipped_ontology_on_the_sample_graph_has_no_errors_with_the_reasoner(sample_kg):
    report = check_ontology(sample_kg)
    assert report.reasoner == "hermit"
    assert report.errors == [], [f.format() for f in report.errors]


@needs_java
@pytest.mark.slow
def test_shipped_ontology_on_the_seed_has_no_errors(seed_store):
    report = check_ontology(KGStore.read_only(seed_store))
    assert report.reasoner == "hermit" and report.named_classes > 100
    assert report.errors == [], [f.format() for f in report.errors]


# --- the command line ---------------------------------------------------------------------
def test_cli_check_prints_one_line_per_finding_and_exits_1_on_an_error(tmp_path):
    files, path = rules(tmp_path, KINDS + '\ntg:t a tg:EntityTypeRule ; tg:entityType "LOC" ;\n'
                                          '    tg:allowsKind tg:kindA ; tg:forbidsKind tg:kindA .\n')
    args = ["kg", "check", "--reasoner", "none"] + [a for f in files for a in ("--file", str(f))]
    res = runner.invoke(app, args)
    assert res.exit_code == 1
    errors = [ln for ln in res.stdout.splitlines() if ": error: " in ln]
    assert errors == [f"{path}:{line_of(path, 'tg:allowsKind tg:kindA')}: error: [type-conflict] " + errors[0].split("[type-conflict] ")[1]]


def test_cli_check_on_the_shipped_ontology_exits_0(tmp_path):
    res = runner.invoke(app, ["kg", "check", "--reasoner", "none", "--owl", str(tmp_path / "o.ttl")])
    assert res.exit_code == 0, res.output
    assert "0 errors" in res.stderr and (tmp_path / "o.ttl").stat().st_size > 1000


@pytest.mark.slow
def test_given_inconsistent_overlay_then_build_refused_with_one_line_and_no_check_builds(tmp_path):
    files, path = rules(tmp_path, 'tg:settings a tg:Settings ;\n    tg:maxDepth "deep" .\n')
    overlay = [a for f in files for a in ("--overlay", str(f))]
    build = ["kg", "build", "--source", str(FIXTURES / "dump_sample.nt"), "--no-progress"]
    store = tmp_path / "store"
    res = runner.invoke(app, build + ["--store", str(store)] + overlay)
    assert res.exit_code == 1
    error = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(error) == 1 and f"{path}:{line_of(path, 'deep')}: error: [inconsistent]" in error[0], res.stderr
    assert not store.exists()
    res = runner.invoke(app, build + ["--store", str(store), "--no-check"] + overlay)
    assert res.exit_code == 0, res.output
    assert (store / "oxigraph").is_dir()
