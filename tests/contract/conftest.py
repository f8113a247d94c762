"""The one contract suite: every test runs against each store, each time on an empty namespace.

Embedded: a fresh `EmbeddedStore(":memory:")` per test. Neo4j: the session's real server (see
tests/conftest.py) with a namespace of the test's own, deleted afterwards. Test data is built by
hand (contract_data.py): seeded vectors with known cosines, never a model's output for a string.
"""

from __future__ import annotations

from uuid import uuid4

import pytest

from simplemem_graph.stores.base import GraphStore


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def store(request):
    """An empty store of each kind."""
    if request.param == "embedded":
        from simplemem_graph.stores.embedded import EmbeddedStore

        embedded = EmbeddedStore(":memory:")
        yield embedded
        embedded.close()
    else:
        yield request.getfixturevalue("neo4j_store")


def _scratch_namespace(store: GraphStore):
    name = f"t-{uuid4().hex[:12]}"
    yield name
    store.delete_namespace(name)


@pytest.fixture
def ns(store):
    """A namespace no other test uses; deleted afterwards."""
    yield from _scratch_namespace(store)


@pytest.fixture
def other_ns(store):
    """A second private namespace, for isolation tests."""
    yield from _scratch_namespace(store)
