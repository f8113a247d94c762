"""Session-wide fixtures shared by every test folder.

Neo4j: `neo4j_uri` gives a real server for the whole session (NEO4J_URI, else the launcher in
tests/neo4j-server/, started once and stopped at the end); `neo4j_store` is one connected
`Neo4jStore` on it. Without Java or Maven the Neo4j tests skip locally, but FAIL under CI (the
`CI` variable is set): a skipped Neo4j suite in CI would prove nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests import neo4j_server


def _neo4j_unavailable(reason: str) -> None:
    """Fail under CI, skip locally, with the same reason."""
    if os.environ.get("CI"):
        pytest.fail(f"Neo4j is required under CI: {reason}", pytrace=False)
    pytest.skip(f"no Neo4j for this run: {reason}")


@pytest.fixture(scope="session")
def neo4j_uri() -> Iterator[str]:
    """The Bolt/routing URI of a real Neo4j 5.26 server for this test session."""
    uri = neo4j_server.configured_uri()
    if uri:
        yield uri
        return
    missing = neo4j_server.missing_tools()
    if missing:
        _neo4j_unavailable(f"NEO4J_URI is not set and {', '.join(missing)} is not installed")
    try:
        launcher = neo4j_server.start_launcher()
    except (neo4j_server.Neo4jServerError, OSError, TimeoutError) as e:
        _neo4j_unavailable(f"the test launcher did not start: {e}")
    try:
        yield launcher.uri
    finally:
        launcher.stop()


@pytest.fixture(scope="session")
def neo4j_store(neo4j_uri: str):
    """One `Neo4jStore` for the session (384-d vector index, the default model's size); tests
    isolate themselves with a namespace of their own."""
    from simplemem_graph.stores.neo4j import Neo4jStore

    store = Neo4jStore.connect(neo4j_uri, auth=neo4j_server.configured_auth(), dimension=384)
    yield store
    store.close()


@pytest.fixture(scope="session")
def embedder():
    """The real default embedding model, loaded once per test session."""
    from simplemem_graph.embedding import make_embedder

    model = make_embedder()
    model.encode(["warm up"])
    return model
