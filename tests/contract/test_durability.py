"""The durability contract: the pending queue, atomic deltas, leases and the job log, on every store."""

from __future__ import annotations

import socket
from datetime import timedelta

import pytest

from simplemem_graph.errors import InputError
from simplemem_graph.models import EventPatch, EventStatus, GraphDelta, JobRun, LinkKind, Topic
from simplemem_graph.stores.base import new_lease_holder
from simplemem_graph.stores.queries import EntityQuery, EventQuery, SessionSpeakers, TopicQuery, TurnQuery
from tests.contract.contract_data import T0, link, make_entity, make_event, make_turn
from tests.store_writes import write


def test_new_turns_are_pending_until_a_delta_consumes_them(store, ns):
    turns = [make_turn(ns, f"s1:{i}", f"turn {i}", minutes=i) for i in range(3)]
    store.add_turns(turns)
    assert [t.id for t in store.turns(ns, TurnQuery(pending=True))] == ["s1:0", "s1:1", "s1:2"]
    assert [t.id for t in store.turns(ns, TurnQuery(pending=True, limit=2))] == ["s1:0", "s1:1"]
    assert [t.id for t in store.turns(ns, TurnQuery(pending=True, ids=["s1:2", "nope"]))] == ["s1:2"]
    assert store.stats(ns)["pending"] == 3

    store.apply_delta(GraphDelta(namespace=ns, turns_done=["s1:0", "s1:2"]))
    assert [t.id for t in store.turns(ns, TurnQuery(pending=True))] == ["s1:1"]
    assert store.stats(ns)["pending"] == 1
    assert len(store.turns(ns, TurnQuery())) == 3  # done turns stay in the raw log


def test_imported_turns_are_not_pending(store, ns):
    store.add_turns([make_turn(ns, "s1:1", "imported with its graph")], pending=False)
    assert store.turns(ns, TurnQuery(pending=True)) == []


def test_agent_travels_with_the_turn(store, ns):
    store.add_turns([make_turn(ns, "s1:1", "from the planner", agent="planner"), make_turn(ns, "s1:2", "x")])
    assert [t.agent for t in store.turns(ns, TurnQuery())] == ["planner", None]
    assert [t.agent for t in store.turns(ns, TurnQuery(pending=True))] == ["planner", None]


def test_session_speakers_in_order_of_their_first_turn(store, ns):
    store.add_turns(
        [
            make_turn(ns, "a:1", "hi", minutes=1, session="a", speaker="Ana"),
            make_turn(ns, "a:2", "hello", minutes=2, session="a", speaker="Bo"),
            make_turn(ns, "a:3", "again", minutes=3, session="a", speaker="Ana"),
            make_turn(ns, "b:1", "solo", minutes=0, session="b", speaker="Cy"),
        ]
    )
    assert store.turns(ns, SessionSpeakers(["a", "b", "none"])) == {"a": ["Ana", "Bo"], "b": ["Cy"]}


def test_apply_delta_writes_everything_of_a_batch(store, ns):
    store.add_turns([make_turn(ns, "s1:1", "Acme ships")])
    old = make_event(ns, "e0", "old price", minutes=-10)
    write(store, events=[old])
    write(store, links=[link(ns, LinkKind.NEXT, "e0", "gone")])
    delta = GraphDelta(
        namespace=ns,
        events=[make_event(ns, "e1", "Acme ships on friday")],
        entities=[make_entity(ns, "acme", "Acme")],
        links=[link(ns, LinkKind.MENTIONS, "e1", "acme"), link(ns, LinkKind.NEXT, "e0", "e1")],
        removed_links=[link(ns, LinkKind.NEXT, "e0", "gone")],
        event_patches=[EventPatch(ids=["e0"], fields={"status": EventStatus.SUPERSEDED})],
        turns_done=["s1:1"],
    )
    store.apply_delta(delta)
    assert [e.id for e in store.events(ns, EventQuery(ids=["e0", "e1"]))] == ["e0", "e1"]
    assert store.events(ns, EventQuery(ids=["e0"]))[0].status == EventStatus.SUPERSEDED
    assert [e.name for e in store.entities(ns, EntityQuery(name="acme"))] == ["Acme"]
    assert {(lk.source, lk.target) for lk in store.links(ns, kinds=[LinkKind.NEXT])} == {("e0", "e1")}
    assert store.turns(ns, TurnQuery(pending=True)) == []


def test_a_failing_delta_changes_nothing(store, ns):
    store.add_turns([make_turn(ns, "s1:1", "turn")])
    write(store, events=[make_event(ns, "e0", "stored before")])
    with pytest.raises(InputError):
        store.apply_delta(
            GraphDelta(
                namespace=ns,
                events=[make_event(ns, "e1", "fine")],
                entities=[make_entity(ns, "acme", "Acme")],
                links=[link(ns, LinkKind.MENTIONS, "e1", "acme")],
                # The last step fails (not a number): everything before it must be rolled back.
                event_patches=[EventPatch(ids=["e0"], fields={"importance": "very"})],
                turns_done=["s1:1"],
            )
        )
    assert store.events(ns, EventQuery(ids=["e1"])) == []
    assert store.events(ns, EventQuery(ids=["e0"]))[0].importance == 0.5
    assert store.entities(ns, EntityQuery(name="acme")) == []
    assert store.links(ns) == []
    assert [t.id for t in store.turns(ns, TurnQuery(pending=True))] == ["s1:1"]


def _merge_fixture(store, ns) -> None:
    """e1 a later copy of e0; acme named by e1 only, zeta by e1 only (not moved), beta by e0;
    topics t0 (e0, e1) and t9 (e1 only)."""
    write(store, events=[make_event(ns, "e0", "Acme ships"), make_event(ns, "e1", "Acme ships", minutes=5)])
    write(
        store,
        entities=[
            make_entity(ns, "acme", "Acme"),
            make_entity(ns, "beta", "Beta"),
            make_entity(ns, "zeta", "Zeta"),
        ],
    )
    write(
        store, topics=[Topic(id="t0", namespace=ns, label="ships"), Topic(id="t9", namespace=ns, label="x")]
    )
    write(
        store,
        links=[
            link(ns, LinkKind.MENTIONS, "e1", "acme"),
            link(ns, LinkKind.MENTIONS, "e1", "zeta"),
            link(ns, LinkKind.MENTIONS, "e0", "beta"),
            link(ns, LinkKind.NEXT, "e0", "e1"),
            link(ns, LinkKind.IN_TOPIC, "e0", "t0"),
            link(ns, LinkKind.IN_TOPIC, "e1", "t0"),
            link(ns, LinkKind.IN_TOPIC, "e1", "t9"),
        ],
    )


def _merge_delta(ns, **fields) -> GraphDelta:
    return GraphDelta(
        namespace=ns,
        events=[make_event(ns, "e0", "Acme ships", source_ids=["s1:e0", "s1:e1"])],
        links=[link(ns, LinkKind.MENTIONS, "e0", "acme", merged_from="e1")],
        deleted_events=["e1"],
        deleted_topics=["t0"],
        meta={"tier_pass/" + ns: '{"hot": 1}'},
        **fields,
    )


def test_a_delta_deletes_last_with_their_links_and_the_orphans_they_leave(store, ns):
    _merge_fixture(store, ns)
    before = store.entity_revision(ns)
    store.apply_delta(_merge_delta(ns))
    assert [e.id for e in store.events(ns, EventQuery())] == ["e0"]
    assert store.events(ns, EventQuery(ids=["e0"]))[0].source_ids == ["s1:e0", "s1:e1"]
    # The copy's link moved before it went; its other links went with it; zeta (named by the copy
    # alone) and t9 (holding the copy alone) are orphans swept with it; t0 was deleted by id.
    assert sorted((lk.kind.value, lk.source, lk.target) for lk in store.links(ns)) == [
        ("MENTIONS", "e0", "acme"),
        ("MENTIONS", "e0", "beta"),
    ]
    assert sorted(e.id for e in store.entities(ns, EntityQuery())) == ["acme", "beta"]
    assert store.topics(ns, TopicQuery(centroids=False)) == []
    assert store.get_meta("tier_pass/" + ns) == '{"hot": 1}'
    if before is not None:  # entities went: the revision moved on
        assert store.entity_revision(ns) != before

    store.apply_delta(GraphDelta(namespace=ns, deleted_entities=["beta"]))
    assert [e.id for e in store.entities(ns, EntityQuery())] == ["acme"]  # its event stays, its links go
    assert [e.id for e in store.events(ns, EventQuery())] == ["e0"]
    assert [(lk.source, lk.target) for lk in store.links(ns)] == [("e0", "acme")]
    store.apply_delta(
        GraphDelta(deleted_meta=["tier_pass/" + ns])
    )  # store-wide, not the namespace's: not deleted with it


def test_a_failing_delta_deletes_nothing_and_sets_no_meta(store, ns):
    _merge_fixture(store, ns)
    links = sorted((lk.kind.value, lk.source, lk.target) for lk in store.links(ns))
    with pytest.raises(InputError):
        store.apply_delta(
            _merge_delta(
                ns,
                deleted_entities=["beta"],
                event_patches=[EventPatch(ids=["e0"], fields={"importance": "very"})],
            )
        )
    assert [e.id for e in store.events(ns, EventQuery())] == ["e0", "e1"]
    assert sorted(e.id for e in store.entities(ns, EntityQuery())) == ["acme", "beta", "zeta"]
    assert sorted(t.id for t in store.topics(ns, TopicQuery(centroids=False))) == ["t0", "t9"]
    assert sorted((lk.kind.value, lk.source, lk.target) for lk in store.links(ns)) == links
    assert store.get_meta("tier_pass/" + ns) is None


@pytest.mark.parametrize(
    "field, value",
    [("deleted_entities", ["x"]), ("deleted_events", ["x"]), ("deleted_topics", ["x"]), ("meta", {"k": "v"})],
)
def test_a_delta_with_only_deletes_or_meta_is_not_empty(field, value):
    assert GraphDelta().is_empty()
    assert not GraphDelta(**{field: value}).is_empty()


def test_a_lease_has_one_holder_at_a_time(store, ns):
    first, second = new_lease_holder(), new_lease_holder()
    assert store.acquire_lease(ns, "consolidate", first, 60)
    assert store.acquire_lease(ns, "consolidate", first, 60)  # renewing
    assert not store.acquire_lease(ns, "consolidate", second, 60)
    assert store.acquire_lease(ns, "other-job", second, 60)  # leases are per name
    store.release_lease(ns, "consolidate", second)  # not the holder: no effect
    assert not store.acquire_lease(ns, "consolidate", second, 60)
    store.release_lease(ns, "consolidate", first)
    assert store.acquire_lease(ns, "consolidate", second, 60)


def test_an_expired_or_dead_holders_lease_is_taken_over(store, ns):
    assert store.acquire_lease(ns, "consolidate", new_lease_holder(), -1)  # already expired
    assert store.acquire_lease(ns, "consolidate", new_lease_holder(), 60)
    dead = f"{socket.gethostname()}:999999999:1:dead"  # a process of this host that does not exist
    assert store.acquire_lease(ns, "dead-holder", dead, 600)
    assert store.acquire_lease(ns, "dead-holder", new_lease_holder(), 60)


def test_job_runs_are_listed_newest_first(store, ns, other_ns):
    runs = [
        JobRun(id=f"j{i}", namespace=ns, kind="consolidate", started=T0 + timedelta(minutes=i))
        for i in range(3)
    ]
    for run in runs:
        store.record_job(run)
    store.record_job(runs[1].model_copy(update={"status": "ok", "processed": 7, "finished": T0}))
    store.record_job(JobRun(id="g", namespace=ns, kind="global_pass", started=T0))
    store.record_job(JobRun(id="x", namespace=other_ns, kind="consolidate", started=T0))
    listed = store.list_jobs(ns, kind="consolidate")
    assert [r.id for r in listed] == ["j2", "j1", "j0"]
    assert listed[1].status == "ok" and listed[1].processed == 7
    assert [r.id for r in store.list_jobs(ns, limit=1)] == ["j2"]
    assert {r.id for r in store.list_jobs(ns)} == {"j0", "j1", "j2", "g"}


def test_pending_turns_are_consumed_a_chunk_at_a_time_as_they_were_logged(store, ns):
    late = [make_turn(ns, f"b:{i}", f"second writer {i}", minutes=30 + i, session="b") for i in range(2)]
    early = [make_turn(ns, f"a:{i}", f"first writer {i}", minutes=i, session="a") for i in range(3)]
    store.add_turns(late)  # logged first, but said later
    store.add_turns(early)
    assert [t.id for t in store.turns(ns, TurnQuery(chunk=True))] == [
        "a:0",
        "a:1",
        "a:2",
    ]  # the earliest chunk
    store.apply_delta(GraphDelta(namespace=ns, turns_done=["a:0", "a:1", "a:2"]))
    assert [t.id for t in store.turns(ns, TurnQuery(chunk=True))] == ["b:0", "b:1"]
    store.apply_delta(GraphDelta(namespace=ns, turns_done=["b:0", "b:1"]))
    assert store.turns(ns, TurnQuery(chunk=True)) == []
