"""The global pass: duplicates, late alias resolution, re-clustering, decay and tiers, loud failures."""

from __future__ import annotations

from datetime import datetime

import pytest

from simplemem_graph.config import DecayPolicy
from simplemem_graph.consolidate import consolidate_pass
from simplemem_graph.consolidate.name_matching import entity_id
from simplemem_graph.errors import ConsolidationError
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import GraphDelta, LinkKind, Topic
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EventQuery
from tests.store_writes import write

from .conftest import CST, NS, entity_named, link_props, links_of, mentioned

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=CST)


def test_duplicates_across_sessions_merge_into_the_earliest(store, make_event, embedder):
    consolidate_batch(
        [make_event("d1", "Kingsway shipped the M3 screws", "2026-02-20T10:00:00", orgs=("Kingsway",))],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event(
                "d2",
                "Kingsway shipped the M3 screws.",
                "2026-02-26T18:20:00",
                session="s2",
                orgs=("Kingsway",),
            )
        ],
        store,
        embedder=embedder,
    )
    counts = consolidate_pass(store, NS, now=NOW, embedder=embedder, decay=DecayPolicy())

    assert counts["duplicates_merged"] == 1
    (kept,) = store.events(NS, EventQuery())
    assert kept.id == "d1" and kept.source_ids == ["s1:d1", "s2:d2"]
    assert mentioned(store, "d1") == {"Kingsway"}


def test_nickname_heard_before_the_full_name_resolves_later_with_session_evidence(
    store, make_event, embedder
):
    consolidate_batch(
        [
            make_event(
                "n1", "孔厂长带我们看了首批试样", "2026-02-26T17:35:00", session="s5", people=("孔厂长",)
            )
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [make_event("n2", "见了他们的厂长孔德明", "2026-02-26T17:36:00", session="s5", people=("孔德明",))],
        store,
        embedder=embedder,
    )
    counts = consolidate_pass(store, NS, now=NOW, embedder=embedder, decay=DecayPolicy())

    kong = entity_named(store, "孔厂长")
    assert kong.name == "孔德明" and kong.aliases == ["孔厂长"]
    assert mentioned(store, "n1") == {"孔德明"}
    # Resolved as soon as the full name arrives (same session: the backed confidence); the global
    # pass finds nothing left to merge.
    props = link_props(store, LinkKind.ALIAS_OF)[(entity_id(NS, "孔厂长"), kong.id)]
    assert props["reason"] == "surname+context" and props["confidence"] == 0.9
    assert counts["aliases"] == 0


def test_decay_moves_old_unused_events_to_the_cold_tier(store, make_event, embedder):
    consolidate_batch(
        [
            make_event("o1", "Old note about the Q1 budget", "2026-01-02T09:00:00"),
            make_event("o2", "Fresh note about the Q2 budget", "2026-05-25T09:00:00"),
        ],
        store,
        embedder=embedder,
    )
    store.apply_delta(GraphDelta(namespace=NS, touched=["o1"], touched_at=datetime(2026, 1, 3, tzinfo=CST)))
    counts = consolidate_pass(store, NS, now=NOW, embedder=embedder, decay=DecayPolicy())

    tiers = {e.id: e.tier for e in store.events(NS, EventQuery())}
    assert tiers == {"o1": "cold", "o2": "hot"}
    assert (counts["tier_cold"], counts["archive_candidates"]) == (1, 1)
    assert {t.size for t in store.topics(NS) if t.size} <= {1, 2}
    assert len(links_of(store, LinkKind.IN_TOPIC)) == 2


class _BrokenTopicsStore(EmbeddedStore):
    """A real store whose topic listing fails, as a lost connection would."""

    def _list_topics(self, namespace, **options):
        raise RuntimeError("disk I/O error")


def test_a_failing_step_raises_consolidation_error_naming_it(make_event, embedder):
    store = _BrokenTopicsStore(":memory:")
    write(store, events=[make_event("f1", "Anything", "2026-01-02T09:00:00")])
    with pytest.raises(ConsolidationError, match=r"step 'topics'.*disk I/O error"):
        consolidate_pass(store, NS, now=NOW, embedder=embedder, decay=DecayPolicy())


def test_reclustering_deletes_topics_left_empty(store, make_event, embedder):
    consolidate_batch(
        [make_event("t1", "Quarterly budget review for marketing", "2026-05-20T09:00:00")],
        store,
        embedder=embedder,
    )
    stale = Topic(id="tp-stale", namespace=NS, label="stale", keywords=["stale"], size=3)
    write(store, topics=[stale])  # a topic no event is IN any more, as after an earlier re-clustering
    counts = consolidate_pass(store, NS, now=NOW, embedder=embedder, decay=DecayPolicy())

    topic_ids = {t.id for t in store.topics(NS)}
    assert "tp-stale" not in topic_ids and len(topic_ids) == 1
    assert counts["topics_deleted"] == 1
    assert {target for _, target in links_of(store, LinkKind.IN_TOPIC)} == topic_ids


def test_merging_duplicates_keeps_alias_nodes_of_the_removed_copy(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "a1",
                "Acme Corporation (Acme) sent the contract",
                "2026-05-20T09:00:00",
                orgs=("Acme Corporation",),
            )
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event(
                "a2",
                "Acme Corporation (Acme) sent the contract.",
                "2026-05-21T09:00:00",
                session="s2",
                orgs=("Acme Corporation",),
            )
        ],
        store,
        embedder=embedder,
    )
    counts = consolidate_pass(store, NS, now=NOW, embedder=embedder, decay=DecayPolicy())

    assert counts["duplicates_merged"] == 1
    assert entity_named(store, "Acme").name == "Acme Corporation"
    assert [e.id for e in store.events(NS, EventQuery())] == ["a1"]
