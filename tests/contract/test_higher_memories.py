"""Memory above the event (issue 14): open questions and pattern memories, on every store."""

from __future__ import annotations

from datetime import timedelta

from simplemem_graph.models import (
    EventPatch,
    EventStatus,
    GraphDelta,
    LinkKind,
    Pattern,
    PatternStatus,
)
from simplemem_graph.stores.queries import EventQuery
from tests.contract.contract_data import T0, link, make_event
from tests.store_writes import write


def _pattern(ns: str, pattern_id: str, **fields) -> Pattern:
    values = {
        "text": "Tom meets Bob on Mondays (4 of 5 times)",
        "kind": "weekday",
        "subject": "Tom",
        "action": "meet",
        "value": "Monday",
        "support": 4,
        "total": 5,
        "rate": 0.8,
        "first_seen": T0,
        "last_seen": T0 + timedelta(days=28),
    }
    values.update(fields)
    return Pattern(id=pattern_id, namespace=ns, **values)


def _add_question_events(store, ns, other_ns) -> None:
    """Two open questions in `ns`, a plain and an archived event beside them, one in `other_ns`."""
    write(
        store,
        events=[
            make_event(ns, "q1", "send the report", minutes=1, open_slots=["deadline"]),
            make_event(ns, "q2", "meet Acme", minutes=2, open_slots=["time", "place"]),
            make_event(ns, "plain", "Acme is in Berlin", minutes=3),
            make_event(ns, "gone", "old task", minutes=4, open_slots=["owner"], status=EventStatus.ARCHIVED),
            make_event(other_ns, "elsewhere", "other tenant", minutes=5, open_slots=["owner"]),
        ],
    )


def test_open_question_events_are_active_events_with_open_slots_newest_first(store, ns, other_ns):
    _add_question_events(store, ns, other_ns)
    got = store.events(ns, EventQuery(open_questions=True))
    assert [e.id for e in got] == ["q2", "q1"]
    assert got[0].open_slots == ["time", "place"]
    assert [e.id for e in store.events(ns, EventQuery(open_questions=True, limit=1))] == ["q2"]
    assert [e.id for e in store.events(other_ns, EventQuery(open_questions=True))] == ["elsewhere"]


def test_a_delta_patch_closes_a_question_in_its_transaction(store, ns):
    write(store, events=[make_event(ns, "q1", "send the report", open_slots=["deadline", "owner"])])
    store.apply_delta(
        GraphDelta(namespace=ns, event_patches=[EventPatch(ids=["q1"], fields={"open_slots": ["owner"]})])
    )
    assert store.events(ns, EventQuery(ids=["q1"]))[0].open_slots == ["owner"]
    store.apply_delta(
        GraphDelta(namespace=ns, event_patches=[EventPatch(ids=["q1"], fields={"open_slots": []})])
    )
    assert store.events(ns, EventQuery(open_questions=True)) == []
    assert store.events(ns, EventQuery(ids=["q1"]))[0].open_slots == []


def test_patterns_round_trip_with_their_evidence_through_a_delta(store, ns, other_ns):
    write(store, events=[make_event(ns, f"e{i}", f"Tom meets Bob {i}", minutes=i) for i in range(3)])
    pattern = _pattern(ns, "p1", embedding=[0.5, 0.25])
    evidence = [link(ns, LinkKind.EVIDENCED_BY, "p1", f"e{i}") for i in range(3)]
    store.apply_delta(GraphDelta(namespace=ns, patterns=[pattern], links=evidence))
    [got] = store.patterns(ns)
    assert got == pattern
    assert store.patterns(other_ns) == []
    linked = store.links(ns, kinds=[LinkKind.EVIDENCED_BY], node_ids=["p1"])
    assert sorted((lk.source, lk.target) for lk in linked) == [("p1", "e0"), ("p1", "e1"), ("p1", "e2")]
    assert len(store.links(ns, kinds=[LinkKind.EVIDENCED_BY])) == 3
    assert {lk.source for lk in store.links(ns, node_ids=["e1"])} == {"p1"}


def test_patterns_are_replaced_whole_and_filtered_by_status(store, ns):
    write(store, patterns=[_pattern(ns, "p1"), _pattern(ns, "p2", value="Friday")])
    write(store, patterns=[_pattern(ns, "p1", status=PatternStatus.RETIRED, support=2, rate=0.4)])
    assert [p.id for p in store.patterns(ns, statuses=[PatternStatus.ACTIVE])] == ["p2"]
    [retired] = store.patterns(ns, statuses=[PatternStatus.RETIRED])
    assert (retired.id, retired.support, retired.rate) == ("p1", 2, 0.4)
    assert [p.id for p in store.patterns(ns)] == ["p1", "p2"]


def test_deleting_an_event_drops_its_evidence_link_and_the_namespace_drops_patterns(store, ns):
    write(store, events=[make_event(ns, f"e{i}", f"event {i}", minutes=i) for i in range(2)])
    store.apply_delta(
        GraphDelta(
            namespace=ns,
            patterns=[_pattern(ns, "p1")],
            links=[link(ns, LinkKind.EVIDENCED_BY, "p1", f"e{i}") for i in range(2)],
        )
    )
    store.apply_delta(GraphDelta(namespace=ns, deleted_events=["e0"]))
    assert [lk.target for lk in store.links(ns, kinds=[LinkKind.EVIDENCED_BY])] == ["e1"]
    store.delete_namespace(ns)
    assert store.patterns(ns) == []


def test_export_and_import_carry_patterns(store, ns, other_ns):
    write(store, events=[make_event(ns, "e0", "event 0")])
    write(store, patterns=[_pattern(ns, "p1")])
    write(store, links=[link(ns, LinkKind.EVIDENCED_BY, "p1", "e0")])
    counts = store.import_records(list(store.export_records(ns)), namespace=other_ns)
    assert counts["pattern"] == 1
    assert [p.text for p in store.patterns(other_ns)] == [_pattern(ns, "p1").text]
    assert [lk.target for lk in store.links(other_ns, kinds=[LinkKind.EVIDENCED_BY])] == ["e0"]


def test_stats_count_patterns_by_status_and_open_questions_of_one_namespace(store, ns, other_ns):
    _add_question_events(store, ns, other_ns)
    write(store, patterns=[_pattern(ns, "p1"), _pattern(ns, "p2", value="Friday")])
    write(store, patterns=[_pattern(ns, "p1", status=PatternStatus.RETIRED, support=2, rate=0.4)])
    write(store, patterns=[_pattern(other_ns, "p9")])
    stats = store.stats(ns)
    assert stats["patterns"] == {PatternStatus.RETIRED.value: 1, _pattern(ns, "x").status: 1}
    assert stats["open_questions"] == 2
    assert store.stats(other_ns)["open_questions"] == 1
    assert store.stats(other_ns)["patterns"] == {_pattern(ns, "x").status: 1}
