"""A name with many homonyms: the linker reads main labels only as far as its shortlist
needs, and answers as if it had labelled every homonym."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.generate.linking import LabelIndex, Linker
from engine.types import EntityType, Span


class _Graph:
    """A taxonomy with no edges."""

    children_count: dict[str, int] = {}
    instance_count: dict[str, int] = {}

    def parents(self, qid: str, prop: str) -> list[str]:
        return []


class _Index(LabelIndex):
    """An in-memory index with a prominence prior that counts the labels it is asked for."""

    def __init__(self, labels, aliases, main, prominence) -> None:
        super().__init__(labels, aliases, {}, {}, main)
        self.prior = prominence
        self.asked = 0

    def prominence(self, qid: str) -> int:
        return self.prior.get(qid, 0)

    def prominences(self, qids: list[str]) -> list[int]:
        return [self.prominence(q) for q in qids]

    def main_labels(self, qids: list[str]) -> dict[str, str]:
        self.asked += len(qids)
        return super().main_labels(qids)


def _every_label_read(linker: Linker, span: Span) -> list:
    """The linker's answer as it was computed before: every match labelled, then shortlisted."""
    key = span.text.lower()
    exact = linker._exact(span, key)
    links = linker._labelled(exact)
    accepted = linker.reject_more_specific(key, links)
    return linker._rank(span, linker._shortlist(accepted))[: linker.max_links]


_homonym = st.tuples(st.booleans(), st.booleans(), st.integers(0, 50))  # alias?, label extends the name?, prominence


@settings(max_examples=200, deadline=None)
@given(homonyms=st.lists(_homonym, min_size=1, max_size=40), max_ranked=st.integers(1, 8))
def test_given_many_homonyms_then_links_equal_labelling_every_one(homonyms, max_ranked) -> None:
    labels: dict[str, list[str]] = {"asta": []}
    aliases: dict[str, list[str]] = {"asta": []}
    main: dict[str, str] = {}
    prior: dict[str, int] = {}
    for i, (alias, extends, prominence) in enumerate(homonyms):
        qid = f"Q{100 + i}"
        (aliases if alias else labels)["asta"].append(qid)
        main[qid] = "Asta Nielsen museum" if alias and extends else "Asta"
        prior[qid] = prominence
    index = _Index(labels, aliases, main, prior)
    linker = Linker(index, _Graph())  # type: ignore[arg-type]
    linker.max_ranked = max_ranked
    span = Span(text="Asta", entity_type=EntityType.LOC)
    got = linker.link(span)
    index.asked = 0
    assert got == _every_label_read(linker, span)


def test_given_thousands_of_homonyms_then_a_few_batches_of_labels_are_read() -> None:
    qids = [f"Q{1000 + i}" for i in range(3000)]
    index = _Index({"asta": qids}, {}, {q: "Asta" for q in qids}, {q: i % 97 for i, q in enumerate(qids)})
    linker = Linker(index, _Graph())  # type: ignore[arg-type]
    links = linker.link(Span(text="Asta", entity_type=EntityType.LOC))
    assert index.asked == linker.max_ranked  # one batch: every label is plain
    assert [index.prominence(l.qid) for l in links] == [96] * len(links)  # the most prominent first
