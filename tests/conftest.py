"""Shared fixtures: the toy sample store (session-scoped), paths to shared data.

Tests run on the toy sample graph: ``TAXOGEN_DEFAULT_GRAPH=sample`` is set for the whole
session, so every engine and command built without a store uses it (fast, in memory). The
tests of the starter graph (tests/kg/test_starter.py) ask for it explicitly.

The shared data is read from ``../shared`` beside the repository, or from
``$TAXOGEN_SHARED_DIR``; a test that needs it is skipped, naming the missing path, without it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kg import ChainIndex, KGStore

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED = Path(os.environ.get("TAXOGEN_SHARED_DIR") or ROOT.parent / "shared")
SEED = SHARED / "data" / "wikidata-seed" / "wikidata-seed.nt.gz"
#: English names of classes the seed leaves unlabelled ("court", "ministry"), loaded with it
CLASS_LABELS = SHARED / "data" / "wikidata-seed" / "class-labels.nt.gz"
WIKIREPLACE = SHARED / "data" / "wikireplace" / "wikireplace_dev.json"


os.environ["TAXOGEN_DEFAULT_GRAPH"] = "sample"  # before any engine is built, subprocesses included

#: The verifier's operating point the rule tests run at: its cross-validated point, where it
#: drops almost nothing, so the ladders and sentences they pin are the rules' own. The shipped
#: default was set on a held-out batch (``verifier.json``: ``operating_point.min_truth``, by
#: ``tools/held_out_curve.py``) and moves when the verifier is recalibrated; tests marked
#: ``shipped_operating_point`` run at it (and at the court judgments' point).
RULE_TEST_MIN_TRUTH = 0.5
os.environ.setdefault("TAXOGEN_MIN_TRUTH", str(RULE_TEST_MIN_TRUTH))  # commands run in subprocesses too


@pytest.fixture(autouse=True)
def _rule_test_operating_point(request, monkeypatch):
    if request.node.get_closest_marker("shipped_operating_point"):
        monkeypatch.delenv("TAXOGEN_MIN_TRUTH", raising=False)
        return
    from engine.generate.verifier import LadderVerifier

    monkeypatch.setattr(LadderVerifier, "min_truth_for", lambda self, kind: RULE_TEST_MIN_TRUTH)


@pytest.fixture(scope="session")
def sample_kg() -> KGStore:
    """The toy sample graph with the overlay, in memory (read by many tests)."""
    return KGStore.sample()


@pytest.fixture(scope="session")
def sample_index(sample_kg: KGStore) -> ChainIndex:
    return ChainIndex(sample_kg)


@pytest.fixture(scope="session")
def seed_path() -> Path:
    if not SEED.is_file():
        pytest.skip(f"shared Wikidata seed not found at {SEED}")
    return SEED


@pytest.fixture(scope="session")
def wikireplace_path() -> Path:
    if not WIKIREPLACE.is_file():
        pytest.skip(f"shared WikiReplace data not found at {WIKIREPLACE}")
    return WIKIREPLACE


@pytest.fixture(scope="session")
def seed_store(tmp_path_factory: pytest.TempPathFactory, seed_path: Path) -> Path:
    """The shared seed, with its class-labels supplement when present, built once into a
    temporary store directory (slow: ~15 s), with the indices the engine derives from it
    (importing ``engine`` registers them)."""
    import engine  # noqa: F401
    from kg import build_from_dump

    target = tmp_path_factory.mktemp("seed") / "store"
    build_from_dump(seed_path, target, progress=False, labels=[CLASS_LABELS] if CLASS_LABELS.is_file() else [])
    return target


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run tests marked slow (CI=true does too)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    import os

    if config.getoption("--slow") or os.environ.get("CI", "").lower() == "true":
        return
    skip = pytest.mark.skip(reason="slow: run with --slow (CI=true runs them)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def sample_endpoint(tmp_path_factory: pytest.TempPathFactory):
    """A real Oxigraph server on 127.0.0.1 holding the embedded sample graph."""
    from kg.store import sample_graph_path
    from tests.servers import oxigraph_server

    with oxigraph_server([sample_graph_path()], tmp_path_factory.mktemp("oxi")) as url:
        yield url


@pytest.fixture(scope="session", autouse=True)
def _isolated_caches(tmp_path_factory: pytest.TempPathFactory):
    """Tests never read or write the user's embedding cache."""
    import os

    old = os.environ.get("TAXOGEN_CACHE_DIR")
    os.environ["TAXOGEN_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        os.environ.pop("TAXOGEN_CACHE_DIR", None)
    else:
        os.environ["TAXOGEN_CACHE_DIR"] = old


def tiny_store(
    edges: list[tuple[str, str, str]] | tuple = (),
    labels: dict[str, str] | None = None,
    aliases: list[tuple[str, str]] | tuple = (),
    overlay: str = "",
    shipped_overlay: bool = False,
) -> KGStore:
    """An in-memory store with hand-written Wikidata facts and optional overlay Turtle."""
    import pyoxigraph as ox

    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    nt = [f"<{wd}{s}> <{wdt}{p}> <{wd}{o}> ." for s, p, o in edges]
    nt += [f'<{wd}{q}> <http://www.w3.org/2000/01/rdf-schema#label> "{l}"@en .' for q, l in (labels or {}).items()]
    nt += [f'<{wd}{q}> <http://www.w3.org/2004/02/skos/core#altLabel> "{l}"@en .' for q, l in aliases]
    kg = KGStore.in_memory()
    kg.raw.load("\n".join(nt).encode(), format=ox.RdfFormat.N_TRIPLES)
    if shipped_overlay:
        kg.load_overlay()
    if overlay:
        prefixes = "@prefix tg: <https://taxogen.dev/ontology#> . @prefix wd: <http://www.wikidata.org/entity/> .\n"
        kg.raw.load((prefixes + overlay).encode(), format=ox.RdfFormat.TURTLE, to_graph=ox.NamedNode("urn:taxogen:overlay"))
    return kg


def place_ladder(engine, text: str, countries: frozenset[str] = frozenset()) -> list[str]:
    """The ladder's labels for the LOC span ``text`` in a document placed in ``countries``."""
    from engine.generate.sources.base import DocumentState
    from engine.types import EntityType, Span

    return engine.candidates(Span(text, EntityType.LOC), state=DocumentState(countries=countries)).labels


def candidate_labels(engine, text: str, etype, context: str | None = None) -> list[str]:
    """The ladder's labels the engine offers for ``text`` of type ``etype`` in ``context``."""
    from engine.types import Span

    return engine.candidates(Span(text, etype, context=context)).labels
