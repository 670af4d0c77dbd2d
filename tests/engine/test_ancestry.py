"""The annotators' class mapped onto the nearest offered generalization (served training)."""

from taxogen_tools.evaluation.ancestry import ancestor_rung, class_items, superclass_depths
from engine.types import MASK, Candidate

# public university ⊂ university ⊂ higher education institution ⊂ educational institution
# country ⊂ political territorial entity; Q99 "public university" alias of nothing else
P279 = {
    "Q875538": ["Q3918"],
    "Q3918": ["Q38723"],
    "Q38723": ["Q2385804"],
    "Q6256": ["Q1048835"],
    "Q5": [],
}
LABELS = {
    "public university": ["Q875538"],
    "university": ["Q3918"],
    "country": ["Q6256"],
    "human": ["Q5"],
}


def parents(qid: str, prop: str) -> list[str]:
    return P279.get(qid, []) if prop == "P279" else []


def lookup(key: str) -> list[str]:
    return LABELS.get(key, [])


def ladder(*rungs: tuple[str, str]) -> tuple[Candidate, ...]:
    return tuple(Candidate(label, "P279", level=i + 1, qid=qid) for i, (label, qid) in enumerate(rungs)) + (Candidate(MASK, "mask"),)


def test_given_an_unoffered_subclass_when_mapped_then_the_nearest_offered_ancestor_is_its_rung():
    cands = ladder(("private university", "Q902104"), ("higher education institution", "Q38723"), ("university", "Q3918"),
                   ("educational institution", "Q2385804"))
    assert ancestor_rung("public university", cands, parents, lookup) == 2  # university: 1 step, before 2 and 3 steps


def test_given_a_composed_label_when_mapped_then_its_head_class_is_looked_up():
    cands = ladder(("republic", "Q7270"), ("country", "Q6256"), ("political territorial entity", "Q1048835"))
    assert class_items("country in Central Europe", lookup) == {"Q6256"}
    assert ancestor_rung("country in Central Europe", cands, parents, lookup) == 1


def test_given_only_more_specific_or_unrelated_rungs_then_nothing_is_mapped():
    # "university" is chosen; the ladder offers only its subclass and an unrelated class: no generalization
    cands = ladder(("public university", "Q875538"), ("human", "Q5"))
    assert ancestor_rung("university", cands, parents, lookup) is None
    assert ancestor_rung("East Asians", cands, parents, lookup) is None  # a label the store does not know
    assert ancestor_rung(MASK, cands, parents, lookup) is None


def test_given_a_cycle_when_walking_up_then_each_class_is_visited_once():
    cyclic = {"A": ["B"], "B": ["A", "C"]}
    assert superclass_depths("A", lambda q, p: cyclic.get(q, [])) == {"A": 0, "B": 1, "C": 2}
