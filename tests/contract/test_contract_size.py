"""The store contract stays small: one public method per family of reads (the query object says
which read), one writer (`apply_delta`), the raw log, coordination and administration. A new way
to read is a query field and a branch inside a store, not a new method every store must grow."""

from __future__ import annotations

import inspect

from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.neo4j import Neo4jStore

MAX_PUBLIC_METHODS = 26
# How a store is opened is not part of what it does once open.
CONSTRUCTORS = {"connect"}


def _public_methods(cls: type) -> set[str]:
    return {name for name, member in inspect.getmembers(cls, callable) if not name.startswith("_")}


def test_the_contract_has_at_most_26_public_methods():
    methods = _public_methods(GraphStore)
    assert len(methods) <= MAX_PUBLIC_METHODS, sorted(methods)
    # The one writer and the families of reads are there.
    assert {"apply_delta", "turns", "events", "entities", "topics", "links", "text_search", "walk"} <= methods


def test_each_store_has_exactly_the_contracts_public_methods():
    contract = _public_methods(GraphStore)
    for store in (EmbeddedStore, Neo4jStore):
        assert _public_methods(store) - CONSTRUCTORS == contract, store.__name__
        # ...and implements every one of them (nothing left abstract).
        assert not inspect.isabstract(store), store.__name__
