"""No leak across mentions: a candidate revealing another mask's text or linked item is
skipped, the next safe rung is used, and the result says what was skipped and why."""

import pytest

from engine.config import EngineConfig
from engine.io.docio import result_to_dict
from engine.engine import Engine
from engine.generate.linking import LabelIndex
from engine.privacy.leaks import DocumentLeakGuard, ItemNames
from engine.types import MASK, Candidate, EntityType as T, IdentifierType as I, Ladder, Link, LinkMethod, Mention, Span
from tests.conftest import tiny_store


@pytest.fixture(scope="module")
def engine(sample_kg):
    return Engine.from_store(sample_kg, EngineConfig(model="none"))


LADDERS = {  # fixed ladders (the graph's own may change); the item names come from the sample graph
    "Zürich": ["capital", "city of Switzerland", "city"],
    "Switzerland": ["country"],
    "Paris": ["city", "city in France"],
    "French": ["country"],
    "University of Oslo": ["public university", "university in Norway", "university"],
    "Oslo": ["city", "city in Norway"],
    "Norwegian": ["country"],
}


def prefer(engine, monkeypatch, picks):
    """Fixed ladders for the spans of ``LADDERS``, and a ranker that puts ``picks[span]``
    first and keeps the ladder order otherwise."""
    real = engine.generator.ladder

    def candidates(span, *args, **kwargs):
        if span.text not in LADDERS:
            return real(span, *args, **kwargs)
        labels = LADDERS[span.text]
        cands = tuple(Candidate(label, "P31", level=i + 1) for i, label in enumerate(labels))
        return Ladder(span, cands + (Candidate(MASK, "mask", level=len(labels) + 1),))

    def rank_items(items):
        return [[100.0 if c.label == picks.get(it.span) else float(len(it.candidates) - i)
                 for i, c in enumerate(it.candidates)] for it in items]
    monkeypatch.setattr(engine.generator, "ladder", candidates)
    monkeypatch.setattr(engine.pipeline["rank"], "score", rank_items)


def at(text, s, t, ident="QUASI"):
    i = text.index(s)
    return Mention(i, i + len(s), T(t), I(ident))


def test_given_zurich_city_of_switzerland_while_switzerland_masked_then_next_safe_rung(engine, monkeypatch):
    text = "She moved to Zürich in Switzerland."
    prefer(engine, monkeypatch, {"Zürich": "city of Switzerland"})
    r = engine.sanitize(text, [at(text, "Zürich", "LOC"), at(text, "Switzerland", "LOC")])
    assert r.text == "She moved to a capital in a country."
    (skip,) = r.skipped
    assert (skip.mention_start, skip.label, skip.source) == (13, "city of Switzerland", "P31")
    assert skip.reason == "contains the text of the masked mention at 23–34"
    assert all("Switzerland" not in a.candidate.label for rep in r.replacements for a in rep.alternatives)


def test_given_paris_city_in_france_while_french_masked_then_demonym_item_counts(engine, monkeypatch):
    text = "The French painter lived in Paris."
    prefer(engine, monkeypatch, {"Paris": "city in France"})
    r = engine.sanitize(text, [at(text, "French", "DEM"), at(text, "Paris", "LOC")])
    assert r.text == "The painter lived in a city."
    (skip,) = r.skipped
    assert skip.label == "city in France" and skip.reason == "names the item linked from the masked mention at 4–10 (Q142)"


def test_given_university_in_norway_while_oslo_and_norwegian_masked_then_skipped(engine, monkeypatch):
    text = "The Norwegian chemist studied at the University of Oslo and lived in Oslo."
    prefer(engine, monkeypatch, {"University of Oslo": "university in Norway", "Oslo": "city in Norway"})
    ms = [at(text, "Norwegian", "DEM"), at(text, "University of Oslo", "ORG"), Mention(text.rindex("Oslo"), text.rindex("Oslo") + 4, T.LOC)]
    r = engine.sanitize(text, ms)
    assert r.text == "The chemist studied at a public university and lived in a city."
    assert [s.label for s in r.skipped] == ["university in Norway", "city in Norway"]
    assert [s.reason for s in r.skipped] == ["names the item linked from the masked mention at 4–13 (Q20)"] * 2
    assert "Norway" not in r.text and "Oslo" not in r.text


def test_given_every_mention_of_an_entity_then_one_safe_replacement(engine, monkeypatch):
    text = "Zürich is in Switzerland. She loved Zürich."
    prefer(engine, monkeypatch, {"Zürich": "city of Switzerland"})
    z2 = text.rindex("Zürich")
    ms = [Mention(0, 6, T.LOC, entity_id="z"), at(text, "Switzerland", "LOC"), Mention(z2, z2 + 6, T.LOC, entity_id="z")]
    r = engine.sanitize(text, ms)
    assert r.text == "A capital is in a country. She loved the same capital."  # one entity: "the same" (engine.render)
    assert len(r.skipped) == 1 and r.replacements[0].rung == r.replacements[2].rung == "capital"


def test_given_mask_ranked_first_then_withheld_leaking_rungs_are_still_listed(engine, monkeypatch):
    text = "She moved to Zürich in Switzerland."
    prefer(engine, monkeypatch, {"Zürich": MASK})
    r = engine.sanitize(text, [at(text, "Zürich", "LOC"), at(text, "Switzerland", "LOC")], selection="annotators")
    assert r.replacements[0].rung == MASK
    assert "city of Switzerland" not in [a.candidate.label for a in r.replacements[0].alternatives]
    assert [s.label for s in r.skipped] == ["city of Switzerland"]


def test_given_no_other_mask_then_nothing_is_skipped(engine, monkeypatch):
    text = "She moved to Zürich."
    prefer(engine, monkeypatch, {"Zürich": "city of Switzerland"})
    r = engine.sanitize(text, [at(text, "Zürich", "LOC")])
    assert r.text == "She moved to a city of Switzerland." and r.skipped == ()


def test_given_no_mask_mention_then_it_is_not_protected(engine, monkeypatch):
    text = "She moved to Zürich in Switzerland."
    prefer(engine, monkeypatch, {"Zürich": "city of Switzerland"})
    r = engine.sanitize(text, [at(text, "Zürich", "LOC"), at(text, "Switzerland", "LOC", "NO_MASK")])
    assert r.text == "She moved to a city of Switzerland in Switzerland." and r.skipped == ()


def test_given_json_output_then_skipped_labels_only_with_originals(engine, monkeypatch):
    text = "She moved to Zürich in Switzerland."
    prefer(engine, monkeypatch, {"Zürich": "city of Switzerland"})
    r = engine.sanitize(text, [at(text, "Zürich", "LOC"), at(text, "Switzerland", "LOC")])
    plain = result_to_dict("d", r)
    assert plain["skipped"] == [{"start": 13, "end": 19, "source": "P31", "level": 2,
                                 "reason": "contains the text of the masked mention at 23–34"}]
    assert "Switzerland" not in str(plain)
    assert result_to_dict("d", r, with_originals=True)["skipped"][0]["label"] == "city of Switzerland"
    assert plain["replacements"][0]["rung"] == "capital" and plain["replacements"][0]["rendered"] == "capital"


def test_given_rio_municipality_of_brazil_and_alias_then_guard_finds_both():
    kg = tiny_store(labels={"Q8678": "Rio de Janeiro", "Q155": "Brazil", "Q30": "United States of America"},
                    aliases=[("Q30", "United States")])
    names = ItemNames(LabelIndex.from_store(kg))
    text = "Born in Rio de Janeiro, Brazil, to American parents."
    ms = [at(text, "Rio de Janeiro", "LOC"), at(text, "Brazil", "LOC"), at(text, "American", "DEM")]
    span = Span("American", T.DEM)
    ladders = {2: Ladder(span, (), links=(Link("Q30", "United States of America", LinkMethod.DEMONYM, "american", 0.8),))}
    guard = DocumentLeakGuard.build(text, ms, [0, 1, 2], ladders, names)
    leak = guard.check(0, "municipality of Brazil")
    assert (leak.kind, leak.mention_start, leak.mention_end) == ("mention text", 31 - 7, 30)
    leak = guard.check(0, "city of the United States")
    assert (leak.kind, leak.qid) == ("linked item", "Q30")
    assert guard.check(0, "city") is None and guard.check(0, "Brazilian wax") is None
    assert guard.check(1, "country in South America") is None


def _scan(guard, entity, label):
    """The check as a plain scan of every revealer in check order (the definition)."""
    from engine.generate.linking import fold

    key = fold(label)
    order = [entity] + [e for e in guard._by_entity if e != entity]
    for e in order:
        for r in guard._by_entity.get(e, ()):
            if e == entity and r.kind != "mention text":
                continue
            if key and r.pattern.search(key):
                return (r.kind, r.text, r.start, r.end)
    return None


def test_given_many_labels_then_indexed_check_equals_a_scan_of_every_revealer():
    kg = tiny_store(labels={"Q8678": "Rio de Janeiro", "Q155": "Brazil", "Q30": "United States of America"},
                    aliases=[("Q30", "United States")])
    names = ItemNames(LabelIndex.from_store(kg))
    text = "Born in Rio de Janeiro, Brazil, to American parents; St. Louis-born (Brazil) Rio."
    ms = [at(text, "Rio de Janeiro", "LOC"), at(text, "Brazil", "LOC"), at(text, "American", "DEM"),
          at(text, "St. Louis", "LOC"), at(text, "Rio.", "LOC")]
    span = Span("American", T.DEM)
    ladders = {2: Ladder(span, (), links=(Link("Q30", "United States of America", LinkMethod.DEMONYM, "american", 0.8),))}
    guard = DocumentLeakGuard.build(text, ms, [0, 1, 2, 3, 0], ladders, names)
    labels = ["municipality of Brazil", "city of the United States", "city", "Brazilian wax", "rio de janeiro",
              "the rio", "st. louis county", "st louis", "(brazil)", "brazil-born", "Rio.", "American", "united states",
              "x rio de janeiro, brazil y", "", "***", "PERSON 1", "río"]
    for entity in range(4):
        for label in labels:
            leak = guard.check(entity, label)
            got = None if leak is None else (leak.kind, leak.revealed, leak.mention_start, leak.mention_end)
            assert got == _scan(guard, entity, label), (entity, label)
    assert guard.check(2, "city of the United States") is None  # its own item is what its ladder generalizes
    assert guard.check(0, "city of the United States").qid == "Q30"


def test_given_thousands_of_masked_mentions_then_a_check_does_not_scan_them_all():
    import time

    n = 4000
    text = " ".join(f"Town{i}" for i in range(n))
    ms = [Mention(i, i + len(w), T.LOC, I.QUASI) for i, w in ((text.index(f"Town{i} ") if i < n - 1 else text.rindex("Town"), f"Town{i}") for i in range(n))]
    guard = DocumentLeakGuard.build(text, ms, list(range(n)), {}, None)
    t = time.perf_counter()
    hits = sum(guard.check(e, f"town{(e + 1) % n} area") is not None for e in range(n))
    assert hits == n
    assert time.perf_counter() - t < 2.0  # a scan would test 16 million patterns


def test_given_one_text_masked_in_many_entities_then_indexed_check_equals_the_scan():
    text = "Ford met Gerald Ford, then Ford and Betty Ford; Ford."
    spans = [(0, 4), (9, 20), (27, 31), (36, 46), (48, 52)]
    ms = [Mention(a, b, T.PERSON, I.QUASI) for a, b in spans]
    for entity in ([0, 1, 2, 3, 4], [0, 1, 0, 2, 0], [1, 0, 1, 0, 2]):
        guard = DocumentLeakGuard.build(text, ms, entity, {}, None)
        for e in set(entity):
            for label in ("ford", "gerald ford", "betty ford motors", "the ford family", "car"):
                leak = guard.check(e, label)
                got = None if leak is None else (leak.kind, leak.revealed, leak.mention_start, leak.mention_end)
                assert got == _scan(guard, e, label), (entity, e, label)


def test_given_mask_ranked_first_then_meaning_selection_shows_the_best_safe_rung_and_says_so(engine, monkeypatch):
    text = "She moved to Zürich in Switzerland."
    prefer(engine, monkeypatch, {"Zürich": MASK})
    r = engine.sanitize(text, [at(text, "Zürich", "LOC"), at(text, "Switzerland", "LOC")], selection="meaning")
    assert r.replacements[0].rung == "capital"  # "city of Switzerland" would leak the other mask
    assert "the ranker put *** first" in r.replacements[0].note
    assert [s.label for s in r.skipped] == ["city of Switzerland"]
