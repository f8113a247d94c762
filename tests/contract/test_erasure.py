"""Erasure and set-aside turns, the same on every store: a forgotten turn is a tombstone that no
read, search, re-ingest or rebuild brings back; a failed turn leaves the queue until retried."""

from __future__ import annotations

from simplemem_graph.models import GraphDelta, LinkKind, Pattern
from simplemem_graph.stores.queries import (
    EventQuery,
    FailedTurns,
    PendingCount,
    SessionSpeakers,
    TextQuery,
    TurnChange,
    TurnQuery,
)
from tests.store_writes import write

from .contract_data import link, make_event, make_turn

SECRET = "Quorvex vault code 7731"


def test_a_forgotten_turn_is_a_tombstone_nothing_brings_back(store, ns):
    secret = make_turn(ns, "t1", f"Lena told Ivo the {SECRET}", speaker="Lena")
    kept = make_turn(ns, "t2", "Ivo booked the train to Graz", speaker="Ivo", minutes=1)
    store.add_turns([secret, kept], pending=False)
    assert [h.id for h in store.text_search(ns, TextQuery("Quorvex vault", 5, target="turns"))] == ["t1"]

    assert store.change_turns(ns, TurnChange(forget=["t1", "no-such-turn"])) == 1
    assert store.change_turns(ns, TurnChange(forget=["t1"])) == 0  # already erased: not counted again
    assert [t.id for t in store.turns(ns, TurnQuery())] == ["t2"]
    assert store.turns(ns, TurnQuery(ids=["t1"])) == []
    assert store.text_search(ns, TextQuery("Quorvex vault", 5, target="turns")) == []
    assert store.turns(ns, SessionSpeakers(["s1"])) == {"s1": ["Ivo"]}  # the erased turn's speaker is gone
    # Re-ingesting the same turn (the same file again) does not log it again.
    assert store.add_turns([secret]) == []
    assert store.turns(ns, PendingCount()) == 0
    assert [t.id for t in store.turns(ns, TurnQuery())] == ["t2"]
    assert store.namespaces().count(ns) == 1
    assert store.stats(ns)["turns"] == 1  # the tombstone is not a turn of the log any more


def test_failed_turns_leave_the_queue_until_retried(store, ns):
    store.add_turns([make_turn(ns, "a", "first"), make_turn(ns, "b", "second", minutes=1)])
    store.change_turns(ns, TurnChange(failed={"a": "ValueError: cannot parse"}))
    assert store.turns(ns, FailedTurns()) == [(ns, "a", "ValueError: cannot parse")]
    assert ns in {n for n, _, _ in store.turns(None, FailedTurns())}
    assert [t.id for t in store.turns(ns, TurnQuery(chunk=True))] == ["b"]  # the queue goes on past it
    assert store.turns(ns, PendingCount()) == 1
    store.apply_delta(GraphDelta(namespace=ns, turns_done=["b"]))
    assert store.turns(ns, TurnQuery(chunk=True)) == []
    assert store.change_turns(ns, TurnChange(retry=True)) == 1
    assert store.turns(ns, FailedTurns()) == []
    assert [t.id for t in store.turns(ns, TurnQuery(chunk=True))] == ["a"]
    store.change_turns(ns, TurnChange(failed={"b": "done turns are not set aside"}))
    assert store.turns(ns, FailedTurns()) == []


def test_deleted_patterns_take_their_evidence_links(store, ns):
    event = make_event(ns, "e1", "Ana postpones Friday tasks")
    write(store, events=[event])
    pattern = Pattern(
        id="p1",
        namespace=ns,
        text="Ana postpones Friday tasks to Monday",
        kind="postpone",
        subject="Ana",
        action="postpone",
        value="Friday->Monday",
        support=3,
        total=4,
        rate=0.75,
    )
    write(store, patterns=[pattern])
    write(store, links=[link(ns, LinkKind.EVIDENCED_BY, "p1", "e1")])
    store.apply_delta(GraphDelta(namespace=ns, deleted_patterns=["p1"]))
    assert store.patterns(ns) == []
    assert store.links(ns, kinds=[LinkKind.EVIDENCED_BY]) == []
    assert [e.id for e in store.events(ns, EventQuery(ids=["e1"]))] == ["e1"]
