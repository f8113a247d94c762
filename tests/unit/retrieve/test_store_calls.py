"""A search makes a bounded number of store calls (issue 11): each is a round trip on Neo4j.

The store is wrapped so that every contract method counts one call when called from outside the
store (a store method calling another of its own methods is not a round trip)."""

from __future__ import annotations

import functools

import pytest

from simplemem_graph.retrieve import retrieve
from simplemem_graph.stores.base import GraphStore
from tests.unit.retrieve.conftest import AT, NS


class CallCounter:
    def __init__(self, store: GraphStore):
        self.calls: list[str] = []
        self._depth = 0
        for name, member in vars(GraphStore).items():
            if not name.startswith("_") and callable(member) and name != "close":
                setattr(store, name, self._counted(name, getattr(store, name)))

    def _counted(self, name, method):
        @functools.wraps(method)
        def counted(*args, **kwargs):
            if self._depth == 0:
                self.calls.append(name)
            self._depth += 1
            try:
                return method(*args, **kwargs)
            finally:
                self._depth -= 1

        return counted


@pytest.mark.parametrize(
    "query",
    [
        "what happened with Acme?",
        "李经理的报告什么时候要？",
        "why did the kickoff move?",
        "锐拓的报价是多少？",
    ],
)
def test_a_search_makes_at_most_ten_store_calls(store, embedder, query):
    counter = CallCounter(store)
    result = retrieve(query, store, namespace=NS, embedder=embedder, at=AT)
    assert result.hits
    assert len(counter.calls) <= 10, counter.calls


def test_a_search_with_a_time_range_fallback_recalls_twice_and_stays_bounded(store, embedder):
    # Too little inside "last January": recall runs again without the range (see gather_candidates).
    counter = CallCounter(store)
    result = retrieve(
        "Who did Ana have lunch with last January?", store, namespace=NS, embedder=embedder, at=AT
    )
    assert result.hits
    assert counter.calls.count("vector_search") == 2
    assert len(counter.calls) <= 18, counter.calls


@pytest.mark.parametrize(
    "query", ["what happened with Acme?", "锐拓的报价是多少？", "How much did Globex charge?"]
)
def test_a_memory_search_makes_at_most_ten_store_calls(store, embedder, query):
    # Memory.search adds the stored reranker's weights, the access refresh and the patterns to
    # retrieve's calls: entity look-up, fulltext, turn recall, storylines, vector, walks and the
    # pool's events are one call each.
    from simplemem_graph.memory import Memory

    memory = Memory(store, namespace=NS, embedder=embedder)
    memory.search("anything", at=AT)  # a Memory's first search records the embedding model, once
    counter = CallCounter(store)
    result = memory.search(query, at=AT)
    assert result.hits
    assert len(counter.calls) <= 10, counter.calls
    assert counter.calls.count("apply_delta") == 1  # the access refresh: the one write of a search
