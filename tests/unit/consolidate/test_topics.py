"""Topic clusters: nearest centroid above the threshold, else a new topic labelled from keywords."""

from __future__ import annotations

from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import LinkKind

from .conftest import NS, links_of


def test_similar_events_share_a_topic_and_unrelated_ones_open_another(store, make_event, embedder):
    delta = consolidate_batch(
        [
            make_event(
                "s1",
                "The salt spray test of the brass standoffs failed after 36 hours",
                "2026-01-12T14:30:00",
                keywords=["salt spray", "standoffs"],
            ),
            make_event(
                "s2",
                "The new brass standoffs passed the salt spray test after 52 hours",
                "2026-03-16T14:00:00",
                keywords=["salt spray", "standoffs", "passed"],
            ),
            make_event(
                "s3",
                "Book a table for the team dinner on Friday",
                "2026-03-16T18:00:00",
                keywords=["dinner", "table"],
            ),
        ],
        store,
        embedder=embedder,
    )

    topic_of = dict(links_of(store, LinkKind.IN_TOPIC))
    assert topic_of["s1"] == topic_of["s2"] != topic_of["s3"]
    topics = {t.id: t for t in store.topics(NS)}
    assert topics[topic_of["s1"]].size == 2
    assert topics[topic_of["s1"]].label.startswith("salt spray / standoffs")
    assert delta.counts["topics_new"] == 2
