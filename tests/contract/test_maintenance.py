"""Deletes with orphan clean-up, namespaces, stats, export/import, and a large batch."""

from __future__ import annotations

import numpy as np

from simplemem_graph.models import (
    DEFAULT_STATUSES,
    EVENT_LINKS,
    EventPatch,
    GraphDelta,
    LinkKind,
    Topic,
    Walk,
)
from simplemem_graph.stores.queries import EntityQuery, EventQuery, RecallFilter, TurnQuery, Walks
from tests.contract.contract_data import (
    as_list,
    day,
    link,
    make_entity,
    make_event,
    make_turn,
    unit_vector,
    vector_at_cosine,
)
from tests.store_writes import write


def _small_graph(store, ns):
    """e1 mentions only Acme and is the only event of topic t1; e2 mentions Acme and Globex."""
    store.add_turns([make_turn(ns, "s1:1", "raw 1"), make_turn(ns, "s1:2", "raw 2", minutes=1)])
    write(
        store, events=[make_event(ns, "e1", "acme alone"), make_event(ns, "e2", "acme and globex", minutes=1)]
    )
    write(
        store,
        entities=[
            make_entity(ns, "acme", "Acme"),
            make_entity(ns, "globex", "Globex"),
            make_entity(ns, "acme-co", "Acme Co"),
        ],
    )
    write(
        store,
        topics=[Topic(id="t1", namespace=ns, label="only e1"), Topic(id="t2", namespace=ns, label="e2")],
    )
    write(
        store,
        links=[
            link(ns, LinkKind.FROM, "e1", "s1:1"),
            link(ns, LinkKind.FROM, "e2", "s1:2"),
            link(ns, LinkKind.MENTIONS, "e1", "acme"),
            link(ns, LinkKind.MENTIONS, "e2", "acme"),
            link(ns, LinkKind.MENTIONS, "e2", "globex"),
            link(ns, LinkKind.MENTIONS, "e1", "acme-co"),
            link(ns, LinkKind.ALIAS_OF, "acme-co", "acme"),
            link(ns, LinkKind.IN_TOPIC, "e1", "t1"),
            link(ns, LinkKind.IN_TOPIC, "e2", "t2"),
            link(ns, LinkKind.NEXT, "e1", "e2"),
            link(ns, LinkKind.ON, "e1", day(0).isoformat()),
        ],
    )


def _keys(links):
    return sorted((lk.kind.value, lk.source, lk.target) for lk in links)


def test_delete_events_removes_links_and_orphans(store, ns):
    _small_graph(store, ns)
    store.apply_delta(GraphDelta(namespace=ns, deleted_events=["e1", "missing"]))
    assert [e.id for e in store.events(ns, EventQuery())] == ["e2"]
    # acme-co lost its only mention but is still an alias of acme, which e2 mentions.
    assert [e.id for e in store.entities(ns, EntityQuery())] == ["acme", "acme-co", "globex"]
    assert [t.id for t in store.topics(ns)] == ["t2"]
    assert _keys(store.links(ns)) == [
        ("ALIAS_OF", "acme-co", "acme"),
        ("FROM", "e2", "s1:2"),
        ("IN_TOPIC", "e2", "t2"),
        ("MENTIONS", "e2", "acme"),
        ("MENTIONS", "e2", "globex"),
    ]
    assert len(store.turns(ns, TurnQuery())) == 2  # the raw log is never touched
    before = (store.events(ns, EventQuery()), store.entities(ns, EntityQuery()), store.links(ns))
    store.apply_delta(GraphDelta(namespace=ns, deleted_events=["e1"]))  # gone already: nothing moves
    assert (store.events(ns, EventQuery()), store.entities(ns, EntityQuery()), store.links(ns)) == before

    store.apply_delta(GraphDelta(namespace=ns, deleted_events=["e2"]))
    assert store.events(ns, EventQuery()) == []
    assert (store.entities(ns, EntityQuery()), store.topics(ns), store.links(ns)) == ([], [], [])


def test_delete_topics_keeps_the_events(store, ns):
    _small_graph(store, ns)
    store.apply_delta(GraphDelta(namespace=ns, deleted_topics=["t1", "missing"]))
    assert [t.id for t in store.topics(ns)] == ["t2"]
    assert [e.id for e in store.events(ns, EventQuery())] == ["e1", "e2"]
    assert [lk.target for lk in store.links(ns, kinds=[LinkKind.IN_TOPIC])] == ["t2"]
    store.apply_delta(GraphDelta(namespace=ns, deleted_topics=[]))


def test_deleted_entities_go_with_their_links_and_the_events_stay(store, ns):
    # Erasing an entity's storyline is the caller's (forget deletes those events in the same
    # delta); the store removes the entity and every link touching it, and sweeps what that orphans.
    _small_graph(store, ns)
    write(store, events=[make_event(ns, "e3", "globex alone", minutes=2)])
    write(store, links=[link(ns, LinkKind.MENTIONS, "e3", "globex")])
    store.apply_delta(GraphDelta(namespace=ns, deleted_entities=["globex"]))
    assert [e.id for e in store.events(ns, EventQuery())] == ["e1", "e2", "e3"]
    assert [e.id for e in store.entities(ns, EntityQuery())] == ["acme", "acme-co"]
    assert store.links(ns, node_ids=["globex", "e3"]) == []
    assert store.entities(ns, EntityQuery(name="Globex")) == []
    store.apply_delta(GraphDelta(namespace=ns, deleted_entities=["acme"]))
    assert [e.id for e in store.entities(ns, EntityQuery())] == ["acme-co"]  # e1 still mentions it
    assert store.links(ns, kinds=[LinkKind.ALIAS_OF]) == []
    assert [e.id for e in store.events(ns, EventQuery(entity_ids=["acme-co"], filter=RecallFilter()))] == [
        "e1"
    ]


def test_delete_namespace_removes_everything_of_it_only(store, ns, other_ns):
    _small_graph(store, ns)
    _small_graph(store, other_ns)
    assert {ns, other_ns} <= set(store.namespaces())
    store.delete_namespace(ns)
    assert ns not in store.namespaces()
    empty = store.stats(ns)
    assert (empty["turns"], empty["events"], empty["entities"], empty["topics"], empty["relations"]) == (
        0,
        0,
        0,
        0,
        {},
    )
    assert store.turns(ns, TurnQuery()) == [] and store.links(ns) == []
    assert len(store.events(other_ns, EventQuery())) == 2 and len(store.links(other_ns)) == 11


def test_namespaces_lists_those_with_turns_or_events(store, ns, other_ns):
    store.add_turns([make_turn(ns, "s1:1", "hi")])
    write(store, entities=[make_entity(other_ns, "acme", "Acme")])
    assert ns in store.namespaces()
    assert other_ns not in store.namespaces()
    write(store, events=[make_event(other_ns, "e1", "now it has one")])
    assert other_ns in store.namespaces()
    assert store.namespaces() == sorted(store.namespaces())


def test_stats_counts_one_namespace(store, ns, other_ns):
    _small_graph(store, ns)
    store.add_turns([make_turn(other_ns, "x", "elsewhere")])
    store.apply_delta(
        GraphDelta(namespace=ns, event_patches=[EventPatch(ids=["e2"], fields={"status": "done"})])
    )
    stats = store.stats(ns)
    assert stats["store"] == store.kind
    assert (stats["turns"], stats["events"], stats["entities"], stats["topics"]) == (2, 2, 3, 2)
    assert stats["relations"] == {"ALIAS_OF": 1, "FROM": 2, "IN_TOPIC": 2, "MENTIONS": 4, "NEXT": 1, "ON": 1}
    assert stats["events_by_status"] == {"active": 1, "done": 1}
    assert stats["events_by_tier"] == {"hot": 2}
    store.apply_delta(
        GraphDelta(namespace=ns, event_patches=[EventPatch(ids=["e1"], fields={"tier": "cold"})])
    )
    assert store.stats(ns)["events_by_tier"] == {"cold": 1, "hot": 1}
    everything = store.stats()
    assert everything["turns"] >= 3 and everything["namespaces"] >= 2


def test_stats_count_the_turns_each_compression_trigger_took(store, ns, other_ns):
    """Per path of the dual trigger: events, distinct source turns, and windows (several turns)."""
    write(
        store,
        events=[
            make_event(ns, "rich", "one rich turn", source_ids=["s1:1"]),
            make_event(ns, "rich-2", "its second sentence", source_ids=["s1:1"], clause=1),
            make_event(ns, "plain", "another rich turn", source_ids=["s1:2"]),
            make_event(ns, "w1", "two short turns", source_ids=["s1:3", "s1:4"], trigger="accumulated"),
            make_event(ns, "w2", "a lone short turn", source_ids=["s1:5"], trigger="accumulated"),
            make_event(other_ns, "x", "elsewhere", source_ids=["s1:9", "s1:8"], trigger="accumulated"),
        ],
    )
    assert store.stats(ns)["compression"] == {
        "turns_alone": 2,
        "turns_accumulated": 3,
        "windows": 1,
        "events_by_trigger": {"accumulated": 2, "information": 3},
    }
    assert store.stats(other_ns)["compression"]["windows"] == 1


def test_export_then_import_rebuilds_the_same_graph(store, ns, other_ns):
    _small_graph(store, ns)
    store.apply_delta(
        GraphDelta(
            namespace=ns,
            event_patches=[
                EventPatch(ids=["e1"], fields={"embedding": as_list(unit_vector(7)), "deadline": day(4)})
            ],
        )
    )
    exported = list(store.export_records(ns))
    counts = store.import_records(exported, namespace=other_ns)
    assert counts == {"turn": 2, "event": 2, "entity": 3, "topic": 2, "pattern": 0, "link": 11}
    again = [{**r, "namespace": ns} for r in store.export_records(other_ns)]
    assert again == exported
    assert store.vector_search(other_ns, as_list(unit_vector(7)), 1)[0].id == "e1"


def test_a_large_batch_lands_whole_and_stays_idempotent(store, ns):
    query = unit_vector(555)
    rng = np.random.default_rng(5)
    cosines = rng.uniform(-0.5, 0.8, 2000)
    cosines[1234] = 0.99
    events = [
        make_event(
            ns,
            f"b{i:04d}",
            f"bulk event number {i}",
            minutes=i,
            embedding=vector_at_cosine(query, c, seed=10_000 + i),
        )
        for i, c in enumerate(cosines)
    ]
    links = [link(ns, LinkKind.NEXT, f"b{i:04d}", f"b{i + 1:04d}") for i in range(1999)]
    for _ in range(2):
        write(store, events=events)
        write(store, links=links)
    stats = store.stats(ns)
    assert (stats["events"], stats["relations"]) == (2000, {"NEXT": 1999})
    assert store.vector_search(ns, as_list(query), 1)[0].id == "b1234"
    listed = store.events(ns, EventQuery())
    assert [e.id for e in listed] == [e.id for e in events]
    assert [
        n.id
        for n in store.walk(
            ns,
            Walks(
                ["b0000"],
                [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=3, statuses=list(DEFAULT_STATUSES))],
            ),
        )[0]
    ] == ["b0001", "b0002", "b0003"]
