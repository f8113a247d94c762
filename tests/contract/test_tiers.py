"""Hot and cold tiers (issue 11, seed 3.3): the global pass moves events between them on the
namespace's own clock, counts and records its moves, and a vector search can read one tier
alone; the indexes (fulltext, dates, storylines) still find every tier."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta

from simplemem_graph.config import DecayPolicy
from simplemem_graph.consolidate.global_pass import plan_decay, run_step, tier_pass_key
from simplemem_graph.models import GraphDelta
from simplemem_graph.stores.queries import EventQuery, RecallFilter, TextQuery
from tests.contract.contract_data import as_list, make_event, unit_vector, vector_at_cosine
from tests.store_writes import write

QUERY = unit_vector(7)
# A conversation held in 2023, tiered by a pass that runs in 2026.
REPLAYED = datetime.fromisoformat("2023-10-01T09:00:00+00:00")
NOW = datetime.fromisoformat("2026-12-04T09:00:00+00:00")


def _replayed(ns, event_id: str, days_before_newest: int, cosine: float, **fields):
    return make_event(
        ns,
        event_id,
        f"budget note {event_id}",
        time=REPLAYED - timedelta(days=days_before_newest),
        embedding=vector_at_cosine(QUERY, cosine, seed=days_before_newest + 1),
        **fields,
    )


def _events(ns):
    return [
        _replayed(ns, "newest", 0, 0.3),
        _replayed(ns, "month", 30, 0.4),
        _replayed(ns, "old", 200, 0.9),  # the best vector match, and cold
        _replayed(ns, "old_used", 150, 0.5, access_count=5),  # retrieved often: stays hot
    ]


def test_ages_are_measured_on_the_namespace_clock_and_moves_are_counted(store, ns):
    write(store, events=_events(ns))
    counts = run_step(store, plan_decay(store, ns, now=NOW, decay=DecayPolicy()))

    tiers = {e.id: e.tier for e in store.events(ns, EventQuery())}
    # Measured from today (2026) every event would be cold; from the newest event only "old" is.
    assert tiers == {"newest": "hot", "month": "hot", "old": "cold", "old_used": "hot"}
    assert (counts["tier_cold"], counts["tier_hot"]) == (1, 0)  # the moves of this pass
    assert (counts["hot_events"], counts["cold_events"]) == (3, 1)
    assert store.stats(ns)["events_by_tier"] == {"hot": 3, "cold": 1}
    recorded = json.loads(store.get_meta(tier_pass_key(ns)))
    assert recorded["to_cold"] == 1 and recorded["to_hot"] == 0
    assert recorded["reference"] == REPLAYED.isoformat()

    # A second pass moves nothing; a retrieval brings the cold event back at the next pass.
    assert run_step(store, plan_decay(store, ns, now=NOW, decay=DecayPolicy()))["tier_cold"] == 0
    store.apply_delta(GraphDelta(namespace=ns, touched=["old"], touched_at=REPLAYED))
    again = run_step(store, plan_decay(store, ns, now=NOW, decay=DecayPolicy()))
    assert (again["tier_hot"], again["tier_cold"]) == (1, 0)
    assert json.loads(store.get_meta(tier_pass_key(ns)))["to_hot"] == 1


def test_the_hot_tier_keeps_at_most_its_limit_newest_first(store, ns):
    write(store, events=_events(ns))
    counts = run_step(store, plan_decay(store, ns, now=NOW, decay=replace(DecayPolicy(), hot_limit=2)))
    tiers = {e.id: e.tier for e in store.events(ns, EventQuery())}
    # The often retrieved first, then the most recently touched.
    assert tiers == {"newest": "hot", "month": "cold", "old": "cold", "old_used": "hot"}
    assert (counts["hot_events"], counts["cold_events"]) == (2, 2)


def test_a_vector_search_reads_one_tier_or_all_and_the_indexes_every_tier(store, ns):
    write(store, events=_events(ns))
    run_step(store, plan_decay(store, ns, now=NOW, decay=DecayPolicy()))

    everything = [h.id for h in store.vector_search(ns, as_list(QUERY), 4)]
    assert everything == ["old", "old_used", "month", "newest"]
    assert [h.id for h in store.vector_search(ns, as_list(QUERY), 4, tier="hot")] == [
        "old_used",
        "month",
        "newest",
    ]
    assert [h.id for h in store.vector_search(ns, as_list(QUERY), 4, tier="cold")] == ["old"]
    # Cold events are still found through the indexes.
    assert "old" in {h.id for h in store.text_search(ns, TextQuery("budget note old", 4))}
    day = (REPLAYED - timedelta(days=200)).date()
    assert [
        h.id
        for h in store.vector_search(ns, as_list(QUERY), 4, filter=RecallFilter(time_from=day, time_to=day))
    ] == ["old"]
