"""The WDQS dialect rewrite (kg/sparql/wdqs.py and the modules it uses), run on the embedded sample graph."""

import pytest

from kg.sparql.dialect import ReadOnlyError, ServiceNotAllowed, UnsupportedFeature
from kg.sparql.syntax import expand_named_subqueries, guard_services, tokenize
from kg.sparql.wdqs import prepare

WD = "http://www.wikidata.org/entity/"


def rows(kg, text, **kw):
    p = prepare(text, **kw)
    res = kg.raw.query(p.text, prefixes=p.prefixes)
    names = [v.value for v in res.variables]
    out = []
    for sol in res:
        out.append({n: (sol[n].value if sol[n] is not None else None) for n in names})
    del res  # pyoxigraph results must be freed on the thread that made them
    return out


def test_given_braces_in_strings_iris_and_comments_then_tokens_keep_them_whole():
    toks = [t for t in tokenize('SELECT * { ?x <http://e/a> "}{" . # } comment\n ?y ?p \'\'\'a}\'\'\' }') if t.kind != "ws"]
    kinds = [t.kind for t in toks]
    assert kinds.count("lbrace") == 1 and kinds.count("rbrace") == 1
    assert {"iri", "string", "comment"} <= set(kinds)


def test_given_named_subqueries_then_each_include_becomes_a_subselect():
    text = """SELECT ?a ?n WITH { SELECT ?a WHERE { ?a ?p "}" } } AS %one
              WITH { SELECT ?a WHERE { INCLUDE %one } } AS %two
              WHERE { INCLUDE %two . { SELECT (COUNT(*) AS ?n) { INCLUDE %one } } }"""
    out, names = expand_named_subqueries(text)
    assert names == ["%one", "%two"]
    assert "%" not in out and "WITH" not in out
    assert out.count('SELECT ?a WHERE { ?a ?p "}" }') == 2  # %one inside %two, and in the count
    assert out.count('SELECT ?a WHERE {') == 3


def test_given_include_of_undefined_name_then_400_names_the_feature():
    with pytest.raises(UnsupportedFeature) as err:
        prepare("SELECT * WHERE { INCLUDE %nothing }")
    assert err.value.feature == "named subqueries" and "%nothing" in str(err.value)


def test_given_wdqs_prefixes_undeclared_then_query_runs(sample_kg):
    got = rows(sample_kg, "SELECT ?c WHERE { wd:Q520549 wdt:P279 ?c }")
    assert got == [{"c": WD + "Q11424604"}]
    assert "predeclared prefixes" in prepare("SELECT ?c WHERE { wd:Q520549 wdt:P279 ?c }").features


def test_given_label_service_then_label_description_and_aliases_are_filled(sample_kg):
    got = rows(sample_kg, """SELECT ?x ?xLabel ?xDescription ?xAltLabel WHERE {
        VALUES ?x { wd:Q585 wd:Q520549 wd:Q1 }
        SERVICE wikibase:label { bd:serviceParam wikibase:language "en". } }""")
    by = {r["x"].rsplit("/", 1)[1]: r for r in got}
    assert by["Q585"]["xLabel"] == "Oslo" and by["Q585"]["xDescription"] == "capital city and county in Norway"
    assert set(by["Q585"]["xAltLabel"].split(", ")) == {"Kristiania", "Christiania"}
    assert by["Q520549"]["xLabel"] == "geologist" and by["Q520549"]["xAltLabel"] is None
    # no label at all: the Q-id, as WDQS gives; no description: unbound
    assert by["Q1"]["xLabel"] == "Q1" and by["Q1"]["xDescription"] is None


def test_given_language_list_then_first_language_with_a_label_wins(sample_kg):
    import pyoxigraph as ox

    from kg.store import KGStore

    kg = KGStore.in_memory()
    kg.raw.load(sample_kg.raw.dump(format=ox.RdfFormat.N_QUADS), format=ox.RdfFormat.N_QUADS)
    kg.raw.add(ox.Quad(ox.NamedNode(WD + "Q585"), ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label"),
                       ox.Literal("Oslo-fr", language="fr")))
    q = 'SELECT ?x ?xLabel WHERE { VALUES ?x { wd:Q585 wd:Q520549 } SERVICE wikibase:label { bd:serviceParam wikibase:language "%s". } }'
    assert {r["xLabel"] for r in rows(kg, q % "fr,en")} == {"Oslo-fr", "geologist"}
    assert {r["xLabel"] for r in rows(kg, q % "en,fr")} == {"Oslo", "geologist"}
    assert {r["xLabel"] for r in rows(kg, q % "[AUTO_LANGUAGE]")} == {"Oslo", "geologist"}


def test_given_label_in_order_by_group_by_and_filter_then_they_see_it(sample_kg):
    got = rows(sample_kg, """SELECT ?c ?cLabel WHERE { wd:Q520549 wdt:P279+ ?c .
        SERVICE wikibase:label { bd:serviceParam wikibase:language "en". }
        FILTER(STRSTARTS(?cLabel, "w")) } ORDER BY DESC(?cLabel)""")
    assert [r["cLabel"] for r in got] == ["writer", "worker"]
    got = rows(sample_kg, """SELECT ?cLabel (COUNT(*) AS ?n) WHERE { ?x wdt:P279 ?c .
        SERVICE wikibase:label { bd:serviceParam wikibase:language "en". } } GROUP BY ?cLabel HAVING(STR(?cLabel) = "scientist")""")
    assert got and got[0]["cLabel"] == "scientist" and int(got[0]["n"]) >= 4


def test_given_manual_label_mode_then_named_variables_are_filled(sample_kg):
    got = rows(sample_kg, """SELECT ?name ?d WHERE { BIND(wd:Q520549 AS ?x)
        SERVICE wikibase:label { bd:serviceParam wikibase:language "en". ?x rdfs:label ?name . ?x schema:description ?d } }""")
    assert got == [{"name": "geologist", "d": "scientist who studies geology"}]


def test_given_select_star_with_label_service_then_no_helper_variables_leak(sample_kg):
    p = prepare('SELECT * WHERE { wd:Q520549 wdt:P279 ?c SERVICE wikibase:label { bd:serviceParam wikibase:language "en" } }')
    res = sample_kg.raw.query(p.text, prefixes=p.prefixes)
    names = [v.value for v in res.variables]
    del res  # pyoxigraph results must be freed on the thread that made them
    assert names == ["c"]


@pytest.mark.parametrize("service", [
    "<http://127.0.0.1:9/sparql>", "<https://query.wikidata.org/sparql>", "?endpoint",
])
def test_given_service_outside_allow_list_then_refused(service):
    with pytest.raises(ServiceNotAllowed):
        prepare(f"SELECT * WHERE {{ SERVICE {service} {{ ?s ?p ?o }} }}")
    with pytest.raises(ServiceNotAllowed):  # hidden in FILTER EXISTS, and SILENT
        prepare(f"SELECT * WHERE {{ ?s ?p ?o FILTER EXISTS {{ SERVICE SILENT {service} {{ ?s ?p ?o }} }} }}")


def test_given_allow_listed_service_then_accepted():
    p = prepare("SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }", allow=("http://127.0.0.1:9/sparql",))
    assert "SERVICE" in p.text


@pytest.mark.parametrize("text,feature", [
    ('SELECT * WHERE { SERVICE wikibase:mwapi { bd:serviceParam wikibase:api "Search" } }', "SERVICE wikibase:mwapi"),
    ("SELECT * WHERE { SERVICE wikibase:around { ?p wdt:P625 ?l } }", "SERVICE wikibase:around"),
    ('SELECT * WHERE { ?x bds:search "geo" }', "bds: full-text search"),
    ("SELECT * WHERE { SERVICE bd:sample { ?x wdt:P31 ?c } }", "SERVICE bd:sample"),
])
def test_given_unsupported_extension_then_error_names_it(text, feature):
    with pytest.raises(UnsupportedFeature) as err:
        prepare(text)
    assert err.value.feature.startswith(feature) and feature in str(err.value)


def test_given_update_then_read_only_error():
    with pytest.raises(ReadOnlyError):
        prepare("INSERT DATA { <http://e/a> <http://e/b> <http://e/c> }")
    with pytest.raises(ReadOnlyError):
        prepare("LOAD <http://127.0.0.1:9/x.nt>")


def test_given_query_hints_then_dropped_and_results_unchanged(sample_kg):
    got = rows(sample_kg, 'SELECT ?c WHERE { hint:Query hint:optimizer "None" . wd:Q520549 wdt:P279 ?c }')
    assert got == [{"c": WD + "Q11424604"}]


def test_given_text_with_service_keyword_then_second_guard_refuses_it_independently():
    guard_services('SELECT * WHERE { ?s ?p "SERVICE <http://x/>" } # SERVICE <http://x/>', ())
    with pytest.raises(ServiceNotAllowed):
        guard_services("SELECT * WHERE { service <http://127.0.0.1:9/> { ?s ?p ?o } }", ())


def test_given_syntax_error_then_position_is_reported():
    from kg.errors import QueryError

    with pytest.raises(QueryError, match="line 1"):  # rewritten queries: rdflib's parser reports it
        prepare("SELECT ?x WHERE { ?x ?p SERVICE wikibase:label { bd:serviceParam wikibase:language 'en' } }")


def test_given_plain_query_then_it_skips_rdflib_but_not_the_service_guard(monkeypatch):
    import kg.sparql.wdqs as wdqs

    def no_rdflib(*args, **kwargs):
        raise AssertionError("rdflib parser called for a plain query")

    monkeypatch.setattr(wdqs, "parseQuery", no_rdflib)
    p = prepare("SELECT ?c WHERE { wd:Q520549 wdt:P279+ ?c } ORDER BY ?c")
    assert p.text.startswith("SELECT ?c") and p.form == "SelectQuery" and p.features == ("predeclared prefixes",)
    for text in ("SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }",
                 "SELECT * WHERE { ?x hint:Prior hint:runLast true }", "SELECT ?s WITH { SELECT ?s { ?s ?p ?o } } AS %x WHERE { INCLUDE %x }",
                 "INSERT DATA { <http://e/a> <http://e/b> <http://e/c> }"):
        with pytest.raises(AssertionError, match="rdflib parser called"):
            prepare(text)
