"""Bad input to a store gets a clear error naming what is wrong."""

from __future__ import annotations

import pytest

from simplemem_graph.errors import ConfigError, StoreUnavailableError
from simplemem_graph.stores.neo4j import Neo4jStore
from simplemem_graph.stores.queries import EventQuery
from tests import neo4j_server
from tests.contract.contract_data import DIM, as_list, make_event, unit_vector
from tests.store_writes import write


def test_an_embedding_of_the_wrong_size_is_refused_at_write_time(store, ns):
    write(store, events=[make_event(ns, "e1", "fits", embedding=as_list(unit_vector(1)))])
    with pytest.raises(ValueError, match="e2"):
        write(store, events=[make_event(ns, "e2", "too short", embedding=[0.5] * (DIM // 2))])
    assert [e.id for e in store.events(ns, EventQuery())] == ["e1"]
    assert [h.id for h in store.vector_search(ns, as_list(unit_vector(1)), 3)] == ["e1"]


def test_connect_names_an_unreachable_server():
    # Port 1 on loopback: nothing listens there, so the refusal is immediate.
    with pytest.raises(StoreUnavailableError, match=r"neo4j://127\.0\.0\.1:1"):
        Neo4jStore.connect("neo4j://127.0.0.1:1")


def test_connect_refuses_a_uri_that_is_not_bolt():
    with pytest.raises(ConfigError, match="not a Bolt URI"):
        Neo4jStore.connect("http://localhost:7474")


@pytest.mark.neo4j
def test_connect_refuses_a_model_of_another_dimension(neo4j_uri, neo4j_store):
    with pytest.raises(ConfigError, match="384-d embeddings but this store was opened for 8-d"):
        Neo4jStore.connect(neo4j_uri, auth=neo4j_server.configured_auth(), dimension=8)
