import pytest

from kg import QueryError, list_queries, load_query
from kg.queries import parse_query


@pytest.mark.parametrize("name", list_queries())
def test_given_shipped_query_then_header_is_complete_and_sparql_parses(name, sample_kg):
    q = load_query(name)
    assert q.summary
    assert q.outputs, f"{name}.rq lists no outputs"
    dummy = {"iri": "Q1", "string": "x", "text": "x", "int": 1}
    bindings = {var: dummy[kind] for var, kind in q.inputs.items()}
    if name == "item_values":
        bindings["prop"] = "http://www.wikidata.org/prop/direct/P17"
    sample_kg.run(q, bindings)  # raises QueryError on a syntax error


def test_given_label_then_lookup_finds_items_by_label_and_alias(sample_kg):
    rows = sample_kg.select("label_lookup", label="Oslo")
    assert [(r["item"].rsplit("/", 1)[1], r["kind"]) for r in rows] == [("Q585", "label")]
    alias = sample_kg.select("label_lookup", label="Christiania")
    assert {r["item"].rsplit("/", 1)[1] for r in alias} == {"Q585"}


@pytest.mark.parametrize(
    "evil",
    [
        'Oslo"@en . ?item ?p ?o . FILTER("x',
        "Oslo\" } UNION { ?item ?kind ?label } #",
        "') ; DROP ALL ; #",
    ],
)
def test_given_injection_attempt_in_string_then_it_is_a_literal_and_finds_nothing(sample_kg, evil):
    assert sample_kg.select("label_lookup", label=evil) == []


@pytest.mark.parametrize(
    "evil",
    [
        "Q5> . ?child ?prop ?parent . <x",
        "http://www.wikidata.org/entity/Q5> } UNION { ?s ?p ?o",
        "Q5 OR 1=1",
        "",
        "<Q5>",
    ],
)
def test_given_injection_attempt_in_iri_then_binding_is_rejected(sample_kg, evil):
    with pytest.raises(QueryError):
        sample_kg.select("chain_edges_p31", item=evil)


def test_given_undeclared_or_mistyped_binding_then_query_error(sample_kg):
    with pytest.raises(QueryError, match="not a declared input"):
        sample_kg.select("label_lookup", item="Q5")
    with pytest.raises(QueryError, match="needs a string"):
        sample_kg.select("label_lookup", label=5)
    with pytest.raises(QueryError, match="no query named"):
        sample_kg.select("does_not_exist")
    with pytest.raises(QueryError, match="invalid query name"):
        load_query("../etc/passwd")


def test_given_input_missing_from_select_then_header_is_rejected():
    with pytest.raises(QueryError, match="must appear in SELECT"):
        parse_query("bad", "# summary: x\n# in: ?item iri\nSELECT ?x WHERE { ?item ?p ?x }")


def test_given_bound_item_then_substitution_matches_inline_constant(sample_kg):
    bound = sample_kg.select("chain_edges_p279", item="Q520549")
    assert {r["parent"].rsplit("/", 1)[1] for r in bound} >= {"Q11424604", "Q901"}
    assert all(r["item"].endswith("/Q520549") for r in bound)
