"""Fixtures for the REST API tests: the real embedder (loaded once) and apps over in-memory stores."""

import json

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from simplemem_graph.memory import SAMPLE_CONVERSATION, Memory
from simplemem_graph.stores.embedded import EmbeddedStore


@pytest.fixture(scope="session")
def sample_turns() -> list[dict]:
    """The bundled Chinese + English conversation, as FORMATS.md turn objects."""
    return [json.loads(line) for line in SAMPLE_CONVERSATION.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture
def memory(embedder):
    mem = Memory(EmbeddedStore(":memory:"), namespace="default", embedder=embedder)
    yield mem
    mem.close()


@pytest.fixture
def client(memory):
    """An open API (no keys) over an empty store."""
    with TestClient(create_app(memory, api_keys="")) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def loaded_client(embedder, sample_turns):
    """An open API whose namespace `acme` holds the sample conversation (read-mostly tests)."""
    mem = Memory(EmbeddedStore(":memory:"), namespace="default", embedder=embedder)
    with TestClient(create_app(mem, api_keys="")) as test_client:
        response = test_client.post("/v1/namespaces/acme/turns", json=sample_turns)
        assert response.status_code == 201, response.text
        yield test_client
    mem.close()
