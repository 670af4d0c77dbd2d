import pytest

from engine.select.features import ALL_GROUPS, FEATURE_GROUPS, FeatureBuilder, GraphStats, RankCandidate, RankItem, feature_names
from engine.types import MASK, EntityType, IdentifierType


def item():
    return RankItem(
        span="24 April 1919", entity_type=EntityType.DATETIME, identifier_type=IdentifierType.QUASI,
        sentence="He was born on 24 April 1919 in Oslo.", span_start=15,
        candidates=(RankCandidate("1919"), RankCandidate("date in the 1910s"), RankCandidate(MASK, "mask")),
        doc_position=0.5, doc_mentions=4, doc_type_share=0.25,
    )


def test_given_item_then_structure_features_describe_each_rung():
    b = FeatureBuilder(None, groups=("structure", "document"))
    X, sizes = b.build([item()])
    assert sizes == [3] and X.shape == (3, len(b.names))
    col = {n: i for i, n in enumerate(b.names)}
    assert list(X[:, col["level"]]) == [1, 2, 3]
    assert list(X[:, col["is_mask"]]) == [0, 0, 1]
    assert list(X[:, col["cand_shape=year"]]) == [1, 0, 0]
    assert list(X[:, col["cand_shape=date_in"]]) == [0, 1, 0]
    assert X[0, col["dt_shape=full-date"]] == 1 and X[0, col["type=DATETIME"]] == 1
    assert X[0, col["doc_mentions"]] == 4


def test_given_replacement_then_sentence_keeps_its_frame():
    assert item().replaced("1919") == "He was born on 1919 in Oslo."


def test_given_graph_stats_then_known_classes_get_counts():
    b = FeatureBuilder(None, groups=("graph",), graph=GraphStats({"date in the 1910s": (10, 2, False)}))
    X, _ = b.build([item()])
    assert list(X[:, 0]) == [0, 1, 0]


def test_given_bad_groups_then_value_error():
    with pytest.raises(ValueError):
        FeatureBuilder(None, groups=("nope",))
    with pytest.raises(ValueError):
        FeatureBuilder(None, groups=("embedding",))


def test_given_groups_then_names_are_unique_and_ordered():
    names = feature_names(ALL_GROUPS)
    assert len(names) == len(set(names)) == sum(len(FEATURE_GROUPS[g]) for g in ALL_GROUPS)


class _HashEmbedder:
    """Deterministic unit vectors per text, counting what it was asked to embed."""

    def __init__(self):
        self.asked = []

    def encode(self, texts):
        import numpy as np

        self.asked += list(texts)
        out = []
        for t in texts:
            v = np.random.default_rng(abs(hash(t)) % 2**32).normal(size=8)
            out.append(v / np.linalg.norm(v))
        return np.array(out)


def test_given_embedding_mention_then_one_context_per_mention_and_the_same_per_mention_features():
    from engine.select.features import RankCandidate

    it = RankItem("Oslo", EntityType.LOC, IdentifierType.QUASI, "She moved to Oslo in 1990.",
                  (RankCandidate("capital"), RankCandidate("city in Norway"), RankCandidate("***", "mask")), span_start=13)
    full, lite = _HashEmbedder(), _HashEmbedder()
    X_full, _ = FeatureBuilder(full, groups=ALL_GROUPS).build([it])
    groups = ("structure", "embedding-mention", "graph", "document")
    builder = FeatureBuilder(lite, groups=groups)
    X_lite, sizes = builder.build([it])
    assert sizes == [3] and len(set(lite.asked)) == 4 and len(set(full.asked)) == 7  # span, window, 2 labels (+3 sentences); *** never
    full_names = feature_names(ALL_GROUPS)
    for j, name in enumerate(builder.names):
        assert (X_lite[:, j] == X_full[:, full_names.index(name)]).all(), name
    with pytest.raises(ValueError):
        FeatureBuilder(lite, groups=("embedding", "embedding-mention"))


def test_given_long_sentence_then_context_window_keeps_words_around_the_span():
    it = RankItem(
        span="Oslo", entity_type=EntityType.LOC, identifier_type=IdentifierType.QUASI,
        sentence="one two three four five six seven eight in Oslo and then nine ten eleven twelve thirteen fourteen",
        candidates=(RankCandidate("city"),), span_start=43,
    )
    w = it.window(3)
    assert w.sentence == "seven eight in Oslo and then nine"
    assert w.replaced("city") == "seven eight in city and then nine"
