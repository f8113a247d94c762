"""Batched reads (issue 11): one call for what a search or an ingest batch used to ask item by item.
Each must give what the item-by-item methods give."""

from __future__ import annotations

from datetime import timedelta

from simplemem_graph.models import EventStatus, LinkKind, Topic
from simplemem_graph.stores.queries import (
    EntitiesNamed,
    EntityQuery,
    EventQuery,
    RecallFilter,
    SessionChains,
    StorylineTails,
    TopicQuery,
)
from tests.contract.contract_data import (
    T0,
    as_list,
    day,
    link,
    make_entity,
    make_event,
    unit_vector,
    vector_at_cosine,
)
from tests.store_writes import write


def test_find_entities_many_matches_names_and_aliases_case_insensitively(store, ns):
    write(
        store,
        entities=[
            make_entity(ns, "acme", "Acme Corp", "Acme"),
            make_entity(ns, "wang", "王芳", type="person"),
        ],
    )
    found = store.entities(ns, EntitiesNamed(["ACME", "acme corp", "王芳", "nobody"]))
    assert {name: [e.id for e in entities] for name, entities in found.items()} == {
        "ACME": ["acme"],
        "acme corp": ["acme"],
        "王芳": ["wang"],
    }
    assert found["ACME"][0].aliases == ["Acme"]
    assert store.entities(ns, EntitiesNamed([])) == {}


def test_entities_named_from_finds_names_and_aliases_by_their_first_character(store, ns):
    write(
        store,
        entities=[
            make_entity(ns, "xiao", "肖玉嘉", type="person"),
            make_entity(ns, "shoe", "乐光跑鞋", "光鞋"),
            make_entity(ns, "acme", "Acme Corp"),
            make_entity(ns, "other", "王芳", type="person"),
        ],
    )
    write(store, entities=[make_entity("elsewhere", "xiao2", "肖玉", type="person")])
    assert sorted(e.id for e in store.entities(ns, EntityQuery(starting=["肖", "光", "a"]))) == [
        "acme",
        "shoe",
        "xiao",
    ]
    assert [e.name for e in store.entities(ns, EntityQuery(starting=["乐"]))] == ["乐光跑鞋"]
    assert store.entities(ns, EntityQuery(starting=["李"])) == []
    assert store.entities(ns, EntityQuery(starting=[])) == []


def test_session_events_keeps_the_newest_per_session_since_a_day(store, ns):
    events = [make_event(ns, f"a{i}", f"a {i}", minutes=60 * 24 * i, session="sa") for i in range(5)]
    events += [make_event(ns, f"b{i}", f"b {i}", minutes=60 * 24 * i + 1, session="sb") for i in range(3)]
    events += [make_event(ns, "c0", "c 0", session="sc")]
    write(store, events=events)
    got = store.events(ns, EventQuery(sessions=["sa", "sb"], since=day(1), limit=2))
    assert [e.id for e in got] == ["b1", "b2", "a3", "a4"]  # newest 2 of each, oldest first
    assert [e.id for e in store.events(ns, EventQuery(sessions=["sc"]))] == ["c0"]
    assert store.events(ns, EventQuery(sessions=["nope"])) == []


def test_recent_entity_events_is_the_tail_of_the_storyline_through_aliases(store, ns):
    write(store, entities=[make_entity(ns, "acme", "Acme Corp"), make_entity(ns, "acme-s", "Acme")])
    write(
        store,
        events=[
            make_event(
                ns, f"e{i}", f"event {i}", minutes=i, status=EventStatus.ARCHIVED if i == 3 else "active"
            )
            for i in range(5)
        ],
    )
    write(
        store,
        links=[link(ns, LinkKind.ALIAS_OF, "acme-s", "acme")]
        + [link(ns, LinkKind.MENTIONS, f"e{i}", "acme") for i in (0, 1, 3)]
        + [link(ns, LinkKind.MENTIONS, "e4", "acme-s")],
    )
    got = store.events(ns, StorylineTails(["acme", "acme-s"], limit=3))
    assert [e.id for e in got["acme"]] == ["e1", "e3", "e4"]  # any status, oldest first
    assert [e.id for e in got["acme-s"]] == ["e1", "e3", "e4"]
    full = store.events(ns, EventQuery(entity_ids=["acme"], filter=RecallFilter(None)))
    assert [e.id for e in store.events(ns, StorylineTails(["acme"], limit=10))["acme"]] == [
        e.id for e in full
    ]


def test_session_chains_follow_session_scoped_next_links_both_ways(store, ns):
    write(store, events=[make_event(ns, f"e{i}", f"event {i}", minutes=i) for i in range(6)])
    session = {"scope": "session:s1"}
    write(
        store,
        links=[link(ns, LinkKind.NEXT, f"e{i}", f"e{i + 1}", **session) for i in range(4)]
        + [link(ns, LinkKind.NEXT, "e4", "e5", scope="entity:acme")],
    )
    forward = store.walk(ns, SessionChains(["e1", "e4"], forward=True, steps=2))
    assert {k: [e.id for e in v] for k, v in forward.items()} == {"e1": ["e2", "e3"], "e4": []}
    backward = store.walk(ns, SessionChains(["e3"], forward=False, steps=8))
    assert [e.id for e in backward["e3"]] == ["e2", "e1", "e0"]


def test_nearest_topics_finds_each_vectors_closest_centroids(store, ns):
    query = unit_vector(5)
    topics = [
        Topic(id=f"t{i}", namespace=ns, label=f"t{i}", centroid=vector_at_cosine(query, c, seed=i), size=1)
        for i, c in enumerate([0.1, 0.95, 0.5, 0.8])
    ]
    write(store, topics=[*topics, Topic(id="bare", namespace=ns, label="no centroid")])
    assert [t.id for t in store.topics(ns, TopicQuery(near=[as_list(query)], k=2))] == ["t1", "t3"]
    other = unit_vector(6)
    write(store, topics=[topics[0].model_copy(update={"centroid": as_list(other)})])  # a centroid moves
    got = store.topics(ns, TopicQuery(near=[as_list(query), as_list(other)], k=1))
    assert sorted(t.id for t in got) == ["t0", "t1"]
    assert store.topics(ns, TopicQuery(near=[], k=3)) == []


def test_date_filters_read_every_date_an_event_names(store, ns):
    write(
        store,
        events=[
            make_event(ns, "plain", "plain", minutes=0),
            make_event(ns, "named", "named", minutes=1, dates=[day(10)]),
            make_event(ns, "due", "due", minutes=2, deadline=day(20)),
            make_event(ns, "later", "later", minutes=60 * 24 * 30),
        ],
    )
    assert [
        e.id
        for e in store.events(
            ns, EventQuery(filter=RecallFilter(statuses=None, time_from=day(10), time_to=day(20)))
        )
    ] == ["named", "due"]
    assert [
        e.id for e in store.events(ns, EventQuery(filter=RecallFilter(statuses=None, time_from=day(25))))
    ] == ["later"]
    assert [
        e.id
        for e in store.events(
            ns, EventQuery(filter=RecallFilter(statuses=None, time_to=T0.date() + timedelta(days=0)))
        )
    ] == [
        "plain",
        "named",
        "due",
    ]
