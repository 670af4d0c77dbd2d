"""The embedded sample graph: every triple is a fact of the shared Wikidata seed."""

import gzip

from kg.store import sample_graph_path


def test_given_sample_graph_then_every_triple_is_in_the_seed(seed_path):
    sample = {l.strip() for l in sample_graph_path().read_text(encoding="utf-8").splitlines() if l.strip()}
    assert 300 <= len(sample) <= 1200
    found = set()
    with gzip.open(seed_path, "rt", encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line in sample:
                found.add(line)
    assert sample - found == set()


def test_given_sample_graph_then_demo_items_are_there(sample_kg):
    for label in ("geologist", "Oslo", "Norway", "University of Oslo", "London"):
        assert sample_kg.select("label_lookup", label=label), label
