"""wdtaxonomy (npm package wikidata-taxonomy), a real WDQS client, against `taxogen kg serve`.

It sends WDQS-dialect queries (no PREFIX lines, named subqueries, the label service,
``format=json``). Its hierarchy must be the one `taxogen kg chains` walks on the same store.
CI installs wdtaxonomy (.ci/run) and fails here without it; a developer machine without it skips.
"""

import json
import os
import shutil
import subprocess

import pytest

from kg import ChainIndex, KGStore
from tests.kg.test_serve import kg_serve

pytestmark = [pytest.mark.slow, pytest.mark.server]

WD = "http://www.wikidata.org/entity/"


@pytest.fixture(scope="module")
def wdtaxonomy() -> str:
    exe = shutil.which("wdtaxonomy")
    if exe is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("wdtaxonomy is not installed; .ci/run installs it (npm install -g wikidata-taxonomy)")
        pytest.skip("wdtaxonomy is not installed (npm install -g wikidata-taxonomy)")
    return exe


@pytest.fixture(scope="module")
def served(seed_store):
    with kg_serve("--store", str(seed_store)) as (port, _):
        yield port


@pytest.fixture(scope="module")
def seed_index(seed_store) -> ChainIndex:
    return ChainIndex(KGStore.read_only(seed_store))


def run(exe: str, port: int, *args: str) -> str:
    res = subprocess.run([exe, *args, "-e", f"http://127.0.0.1:{port}/sparql", "-n"], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    return res.stdout


def superclass_graph(jskos: dict, *, reverse: bool) -> tuple[dict[str, set[str]], dict[str, str]]:
    """Superclass links and English labels of a wdtaxonomy JSKOS output (-r swaps the links)."""
    up, labels = {}, {}
    for c in jskos["concepts"]:
        qid = c["uri"].rsplit("/", 1)[1]
        links = c.get("narrower" if reverse else "broader", [])
        up[qid] = {b["uri"].rsplit("/", 1)[1] for b in links}
        if "prefLabel" in c:
            labels[qid] = c["prefLabel"]["en"]
    return up, labels


def reaches(up: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        cur = todo.pop()
        if cur == goal:
            return True
        if cur not in seen:
            seen.add(cur)
            todo.extend(up.get(cur, ()))
    return False


def assert_ladder_in(up, labels, item: str, rungs) -> None:
    below = item
    for rung in rungs:
        if rung.qid is None:  # composed rungs ("city in …") are taxogen's own, not Wikidata classes
            continue
        assert labels.get(rung.qid) == rung.label, (rung, labels.get(rung.qid))
        assert reaches(up, below, rung.qid), f"wdtaxonomy has no path {below} → {rung.qid}"
        below = rung.qid


def test_given_seed_store_then_wdtaxonomy_superclasses_of_geologist_match_kg_chains(wdtaxonomy, served, seed_index):
    text = run(wdtaxonomy, served, "Q520549", "-r")
    up, labels = superclass_graph(json.loads(run(wdtaxonomy, served, "Q520549", "-r", "-j")), reverse=True)
    ladders = seed_index.chains("Q520549").ladders["P279"]
    assert ladders.first and ladders.longest
    for rungs in (ladders.first, ladders.longest):
        assert_ladder_in(up, labels, "Q520549", rungs)
        for rung in rungs:
            assert f"{rung.label} ({rung.qid})" in text
    assert text.splitlines()[0].startswith("geologist (Q520549)")


def test_given_seed_store_then_wdtaxonomy_subclasses_of_scientist_are_those_kg_chains_walks(wdtaxonomy, served, seed_index):
    text = run(wdtaxonomy, served, "Q901")
    up, labels = superclass_graph(json.loads(run(wdtaxonomy, served, "Q901", "-j")), reverse=False)
    assert text.splitlines()[0].startswith("scientist (Q901)")
    view = seed_index.view
    walked = 0
    for item in view.subjects("P279"):
        ladders = seed_index.chains(item).ladders.get("P279")
        if ladders is None:
            continue
        for rungs in (ladders.first, ladders.longest):
            qids = [r.qid for r in rungs]
            if "Q901" not in qids:
                continue
            walked += 1
            assert item in up, f"{item} climbs to scientist in kg chains but is missing from wdtaxonomy Q901"
            head = rungs[: qids.index("Q901") + 1]
            assert_ladder_in(up, labels, item, head)
            if item in labels:
                assert f"{labels[item]} ({item})" in text
    assert walked > 100  # the seed has hundreds of scientist subclasses
