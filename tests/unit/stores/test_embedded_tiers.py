"""The embedded store scores a small tier's rows alone and a big one (a namespace not tiered yet:
everything hot) as the whole matrix filtered in SQL: both give the same answer."""

from __future__ import annotations

import pytest

from simplemem_graph.models import EventPatch, GraphDelta
from simplemem_graph.stores.embedded import EmbeddedStore, vectors
from tests.contract.contract_data import as_list, make_event, unit_vector, vector_at_cosine
from tests.store_writes import write

QUERY = unit_vector(3)


@pytest.mark.parametrize("scored_alone", [1, 20_000])
def test_a_tier_search_gives_the_same_answer_either_way(monkeypatch, scored_alone):
    monkeypatch.setattr(vectors, "_TIER_ROWS_SCORED_ALONE", scored_alone)
    store = EmbeddedStore(":memory:")
    cosines = [0.1, 0.8, 0.5, 0.9, 0.3]
    write(
        store,
        events=[
            make_event("ns", f"e{i}", f"event {i}", minutes=i, embedding=vector_at_cosine(QUERY, c, seed=i))
            for i, c in enumerate(cosines)
        ],
    )
    store.apply_delta(
        GraphDelta(namespace="ns", event_patches=[EventPatch(ids=["e3"], fields={"tier": "cold"})])
    )
    assert [h.id for h in store.vector_search("ns", as_list(QUERY), 3, tier="hot")] == ["e1", "e2", "e4"]
    assert [h.id for h in store.vector_search("ns", as_list(QUERY), 3, tier="cold")] == ["e3"]
