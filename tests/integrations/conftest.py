"""Fixtures of the framework adapter tests: a real Memory (embedded store in tmp_path, the real
models, loaded once per session) for each test."""

from __future__ import annotations

import pytest

from simplemem_graph.memory import Memory
from simplemem_graph.stores.embedded import EmbeddedStore


@pytest.fixture
def memory(tmp_path, embedder):
    mem = Memory(EmbeddedStore(tmp_path / "memory.db"), namespace="agent", embedder=embedder)
    yield mem
    mem.close()
