"""Links: idempotent adds with replaced props, listing by kind and node, removal, every kind."""

from __future__ import annotations

from simplemem_graph.models import LinkKind, Pattern, Topic
from simplemem_graph.stores.queries import EntityQuery, EventQuery, RecallFilter, Subgraph, TurnQuery
from tests.contract.contract_data import day, link, make_entity, make_event, make_turn
from tests.store_writes import write


def _graph(store, ns):
    store.add_turns([make_turn(ns, "s1:1", "raw")])
    write(store, events=[make_event(ns, f"e{i}", f"event {i}", minutes=i) for i in range(3)])
    write(store, entities=[make_entity(ns, "acme", "Acme"), make_entity(ns, "acme-inc", "Acme Inc")])
    write(store, topics=[Topic(id="t1", namespace=ns, label="deals")])
    write(
        store,
        patterns=[
            Pattern(
                id="p1",
                namespace=ns,
                text="Acme meets on Mondays",
                kind="weekday",
                subject="acme",
                action="meet",
                value="Monday",
                support=4,
                total=5,
                rate=0.8,
            )
        ],
    )


def _keys(links):
    return sorted((lk.kind.value, lk.source, lk.target) for lk in links)


def test_every_link_kind_round_trips_with_its_props(store, ns):
    _graph(store, ns)
    links = [
        link(ns, LinkKind.FROM, "e0", "s1:1"),
        link(ns, LinkKind.MENTIONS, "e0", "acme", role="target"),
        link(ns, LinkKind.IN_TOPIC, "e0", "t1"),
        link(ns, LinkKind.ON, "e0", day(0).isoformat()),
        link(ns, LinkKind.DUE, "e1", day(7).isoformat()),
        link(ns, LinkKind.NEXT, "e0", "e1", scope="session:s1"),
        link(ns, LinkKind.CAUSES, "e1", "e2", marker="because"),
        link(ns, LinkKind.SUPERSEDES, "e2", "e0"),
        link(ns, LinkKind.CONTRADICTS, "e2", "e1", fields=["price", "date"], score=0.5),
        link(ns, LinkKind.ALIAS_OF, "acme-inc", "acme"),
        link(ns, LinkKind.CANDIDATE_ALIAS, "acme", "acme-inc", evidence={"fuzzy": 0.9}),
        link(ns, LinkKind.WORKS_AT, "acme-inc", "acme"),
        link(ns, LinkKind.EVIDENCED_BY, "p1", "e0"),
    ]
    assert {lk.kind for lk in links} == set(LinkKind)
    write(store, links=links)
    listed = store.links(ns)
    assert sorted(listed, key=lambda lk: lk.key) == sorted(links, key=lambda lk: lk.key)


def test_add_links_is_idempotent_and_replaces_props(store, ns):
    _graph(store, ns)
    write(store, links=[link(ns, LinkKind.MENTIONS, "e0", "acme", role="agent")])
    write(store, links=[link(ns, LinkKind.MENTIONS, "e0", "acme", role="target")] * 2)
    [only] = store.links(ns)
    assert (only.kind, only.source, only.target, only.props) == (
        LinkKind.MENTIONS,
        "e0",
        "acme",
        {"role": "target"},
    )
    assert store.stats(ns)["relations"] == {"MENTIONS": 1}


def test_list_links_filters_by_kind_and_node(store, ns, other_ns):
    _graph(store, ns)
    write(
        store,
        links=[
            link(ns, LinkKind.NEXT, "e0", "e1"),
            link(ns, LinkKind.NEXT, "e1", "e2"),
            link(ns, LinkKind.MENTIONS, "e2", "acme"),
        ],
    )
    write(store, events=[make_event(other_ns, "e0", "x"), make_event(other_ns, "e1", "y")])
    write(store, links=[link(other_ns, LinkKind.NEXT, "e0", "e1")])
    assert _keys(store.links(ns, kinds=[LinkKind.NEXT])) == [("NEXT", "e0", "e1"), ("NEXT", "e1", "e2")]
    assert _keys(store.links(ns, node_ids=["e2"])) == [("MENTIONS", "e2", "acme"), ("NEXT", "e1", "e2")]
    assert _keys(store.links(ns, kinds=[LinkKind.MENTIONS], node_ids=["acme"])) == [
        ("MENTIONS", "e2", "acme")
    ]
    assert store.links(ns, node_ids=[]) == []
    assert _keys(store.links(other_ns)) == [("NEXT", "e0", "e1")]


def test_remove_links_ignores_missing_ones(store, ns):
    _graph(store, ns)
    write(store, links=[link(ns, LinkKind.NEXT, "e0", "e1"), link(ns, LinkKind.CAUSES, "e0", "e1")])
    write(
        store,
        removed_links=[
            link(ns, LinkKind.NEXT, "e0", "e1"),
            link(ns, LinkKind.NEXT, "e1", "e0"),
            link(ns, LinkKind.ON, "e2", "2026-01-01"),
        ],
    )
    assert _keys(store.links(ns)) == [("CAUSES", "e0", "e1")]
    assert [e.id for e in store.events(ns, EventQuery())] == ["e0", "e1", "e2"]


def test_links_may_arrive_before_their_nodes(store, ns):
    write(
        store,
        links=[
            link(ns, LinkKind.MENTIONS, "e0", "acme", role="agent"),
            link(ns, LinkKind.FROM, "e0", "s1:1"),
        ],
    )
    assert store.events(ns, EventQuery()) == []
    assert store.entities(ns, EntityQuery()) == []
    assert store.turns(ns, TurnQuery()) == []

    _graph(store, ns)
    assert [t.id for t in store.turns(ns, TurnQuery())] == ["s1:1"]
    assert [e.id for e in store.events(ns, EventQuery(entity_ids=["acme"], filter=RecallFilter()))] == ["e0"]
    assert _keys(store.links(ns)) == [("FROM", "e0", "s1:1"), ("MENTIONS", "e0", "acme")]
    assert store.stats(ns)["entities"] == 2


def test_events_and_links_reads_a_pool_and_the_links_inside_it(store, ns):
    write(store, events=[make_event(ns, f"e{i}", f"event {i}", minutes=i) for i in range(5)])
    write(
        store,
        links=[
            link(ns, LinkKind.SUPERSEDES, "e2", "e1", at="x"),
            link(ns, LinkKind.SUPERSEDES, "e1", "e0"),
            link(ns, LinkKind.SUPERSEDES, "e3", "e4"),  # e4 is outside the pool
            link(ns, LinkKind.NEXT, "e1", "e2"),  # another kind
        ],
    )
    events, links = store.walk(ns, Subgraph(["e2", "e0", "e1", "e3", "missing"], [LinkKind.SUPERSEDES]))
    assert [e.id for e in events] == ["e2", "e0", "e1", "e3"]  # as get_events
    assert [(lk.kind, lk.source, lk.target, lk.props) for lk in links] == [
        (LinkKind.SUPERSEDES, "e1", "e0", {}),
        (LinkKind.SUPERSEDES, "e2", "e1", {"at": "x"}),
    ]
    both = store.walk(ns, Subgraph(["e1", "e2"], [LinkKind.SUPERSEDES, LinkKind.NEXT]))[1]
    assert [(lk.kind, lk.source, lk.target) for lk in both] == [
        (LinkKind.NEXT, "e1", "e2"),
        (LinkKind.SUPERSEDES, "e2", "e1"),
    ]
    assert store.walk(ns, Subgraph([], [LinkKind.SUPERSEDES])) == ([], [])
