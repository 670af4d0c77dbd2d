from kg import KGStore, OverlayRules, validate_overlay


def test_given_shipped_overlay_then_valid_and_loaded_into_its_named_graph(sample_kg):
    assert validate_overlay() == []
    rules = OverlayRules.from_store(sample_kg)
    assert {"Q35120", "Q19478619", "Q104086571", "Q103940464", "Q67518978"} <= rules.never_offer
    assert "Q2" in rules.never_offer  # Earth: a place is no planet (neither it nor anything above it is offered)
    assert {r.name for r in rules.composed} >= {"cityInCountry", "countryInRegion"}
    assert rules.max_depth == 12
    # the base graph holds no overlay triple: the overlay lives only in its named graph
    assert not sample_kg.raw.query("ASK { ?s <https://taxogen.dev/ontology#neverOffer> ?o }")
    assert sample_kg.raw.query("ASK { GRAPH <urn:taxogen:overlay> { ?s <https://taxogen.dev/ontology#neverOffer> ?o } }")
    assert sample_kg.stats().named_graphs["urn:taxogen:overlay"] > 50


def test_given_broken_overlay_then_problems_are_listed(tmp_path):
    bad = tmp_path / "bad.ttl"
    bad.write_text(
        "@prefix tg: <https://taxogen.dev/ontology#> .\n"
        "tg:r a tg:ComposedGeneralization ; tg:template \"no placeholder\" .\n"
        "<http://www.wikidata.org/entity/Q1> tg:neverOfer true .\n"
    )
    problems = validate_overlay([bad])
    assert any("missing tg:via" in p for p in problems)
    assert any("lacks {label}" in p for p in problems)
    assert any("neverOfer" in p for p in problems)
    syntax = tmp_path / "syntax.ttl"
    syntax.write_text("this is not turtle")
    assert validate_overlay([syntax])


def test_given_reloaded_overlay_then_graph_is_replaced_not_appended(tmp_path):
    kg = KGStore.in_memory()
    n1 = kg.load_overlay()
    n2 = kg.load_overlay()
    assert n1 == n2 > 0
