"""Several agents, one namespace: each turn carries its agent, shown in provenance and filterable."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph.errors import InputError
from simplemem_graph.memory import Memory
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import TurnQuery
from tests.durability_support import HashEmbedder

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def test_search_keeps_one_agents_memories_and_shows_the_agent(tmp_path):
    store = EmbeddedStore(tmp_path / "m.db")
    planner = Memory(store, namespace="team", embedder=HashEmbedder(), agent="planner")
    booker = planner.with_namespace("team")
    booker.agent = "booker"
    for i, city in enumerate(["Valmora", "Keshet", "Tirano"]):
        planner.add(f"Plan the visit to {city} on 2026-05-{10 + i}", time=T0 + timedelta(minutes=i))
        booker.add(f"Booked the hotel in {city} for 2026-05-{10 + i}", time=T0 + timedelta(minutes=10 + i))

    everything = planner.search("visit and hotel in Valmora", k=6)
    assert {hit.event.agent for hit in everything.hits} == {"planner", "booker"}
    only_booker = planner.search("visit and hotel in Valmora", k=3, agent="booker")
    assert only_booker.hits and {hit.event.agent for hit in only_booker.hits} == {"booker"}
    assert all(hit.public_dict()["agent"] == "booker" for hit in only_booker.hits)
    turns = {t.id: t for t in store.turns("team", TurnQuery())}
    assert all(turns[hit.event.source_ids[0]].agent == "booker" for hit in only_booker.hits)
    with pytest.raises(InputError, match="agent"):
        planner.search("hotel", agent=" ")
    store.close()
