"""Fixtures of the framework adapter tests: a real Memory (embedded store in tmp_path, the real
models, loaded once per session) for each test."""

from __future__ import annotations

import uuid

import pytest

from simplemem_graph.memory import Memory
from simplemem_graph.stores.embedded import EmbeddedStore
from tests.durability_support import HashEmbedder


@pytest.fixture
def memory(tmp_path, embedder):
    mem = Memory(EmbeddedStore(tmp_path / "memory.db"), namespace="agent", embedder=embedder)
    yield mem
    mem.close()


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def any_memory(request, tmp_path):
    """A Memory on each store: the adapters' records must replay the same on both. Its embedder
    is the feature-hashing one, as every test on the shared Neo4j server uses (a store keeps one
    model's vectors); replaying records does not depend on the model."""
    if request.param == "embedded":
        mem = Memory(EmbeddedStore(tmp_path / "memory.db"), namespace="agent", embedder=HashEmbedder())
        yield mem
        mem.close()
        return
    store = request.getfixturevalue("neo4j_store")
    mem = Memory(store, namespace=f"integrations-{uuid.uuid4().hex[:10]}", embedder=HashEmbedder())
    yield mem
    # Every namespace this test wrote: the Memory's own, and the LangGraph ones under it (the
    # LangGraph tests use the Memory's namespace as the store's prefix).
    for name in store.namespaces():
        if name == mem.namespace or name.startswith(mem.namespace + "."):
            store.delete_namespace(name)
