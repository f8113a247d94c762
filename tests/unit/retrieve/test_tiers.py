"""Hot first (issue 11, seed 3.3): the vector channel reads the hot tier alone unless the indexed
channels find the question in the cold tier; cold memories are still found through the indexes."""

from __future__ import annotations

from dataclasses import replace

from simplemem_graph.models import EventPatch, GraphDelta
from simplemem_graph.retrieve import DEFAULT_PLAN, retrieve
from simplemem_graph.retrieve.recall import RecallFilter, recall_vector
from tests.unit.retrieve.conftest import AT, NS

COLD = ["lunch", "invoice", "price_old", "price_new"]  # the events of January and February


def _tiered(store):
    store.apply_delta(GraphDelta(namespace=NS, event_patches=[EventPatch(ids=COLD, fields={"tier": "cold"})]))
    return store


def test_the_vector_channel_reads_only_the_hot_tier_when_nothing_points_to_the_cold_one(store, embedder):
    vector = embedder.encode(["Ana had lunch with Carla at an Italian place"])[0]
    hot_only = recall_vector(_tiered(store), NS, vector, 9, RecallFilter(None), reaches_cold=False)
    assert hot_only and not set(hot_only) & set(COLD)
    everything = recall_vector(store, NS, vector, 9, RecallFilter(None), reaches_cold=True)
    assert everything[0] == "lunch"


def test_a_question_about_recent_memories_searches_the_hot_tier_first(store, embedder):
    result = retrieve("What did Dev demo at the standup?", _tiered(store), namespace=NS,
                      embedder=embedder, at=AT)  # fmt: skip
    assert result.tiers == ["hot"]
    assert result.hits[0].event.id == "standup"


def test_a_cold_memory_found_through_the_indexes_brings_the_cold_tier_in(store, embedder):
    # The entity storylines of Ana and Carla rank "lunch" (cold) first: the question is about the
    # long tail, so the vector channel reads every tier, and the cold memory comes first.
    result = retrieve("Where did Ana have lunch with Carla?", _tiered(store), namespace=NS,
                      embedder=embedder, at=AT)  # fmt: skip
    assert result.tiers == ["hot", "cold"]
    assert result.hits[0].event.id == "lunch"


def test_a_cold_memory_is_found_by_fulltext_even_when_the_vector_channel_stays_hot(store, embedder):
    result = retrieve("Who was invoice INV-4471 paid to, Dev?", _tiered(store), namespace=NS,
                      embedder=embedder, at=AT)  # fmt: skip
    assert result.tiers == ["hot"]  # Dev's storyline (hot) is the only indexed evidence
    assert "invoice" in {h.event.id for h in result.hits}


def test_a_plan_without_hot_first_reads_every_tier(store, embedder):
    plan = replace(DEFAULT_PLAN, hot_first=False)
    result = retrieve("What did Dev demo at the standup?", _tiered(store), namespace=NS,
                      embedder=embedder, at=AT, plan=plan)  # fmt: skip
    assert result.tiers == ["hot", "cold"]
