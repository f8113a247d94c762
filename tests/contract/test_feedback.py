"""Labelled searches (feedback, issue 10) and removable meta, on both stores: round trips,
idempotence, namespace isolation, and ids that are not events refused with nothing written."""

from __future__ import annotations

from datetime import timedelta
from uuid import uuid4

import pytest

from simplemem_graph.errors import InputError
from simplemem_graph.models import Feedback, GraphDelta, LinkKind
from tests.contract.contract_data import T0, link, make_event
from tests.store_writes import write


def _feedback(ns: str, fid: str, helpful: list[str], shown: list[str] | None = None, minutes: int = 0):
    return Feedback(
        id=fid,
        namespace=ns,
        query=f"what about {fid}?",
        at=T0 + timedelta(minutes=minutes),
        helpful=helpful,
        shown=shown,
        created_at=T0,
    )


def test_feedback_round_trips_in_question_order_and_is_idempotent(store, ns, other_ns):
    write(store, events=[make_event(ns, i, f"event {i}") for i in ("e1", "e2", "e3")])
    late = _feedback(ns, "fb-late", ["e1"], shown=["e1", "e2", "e3"], minutes=30)
    early = _feedback(ns, "fb-early", ["e2", "e3"], minutes=5)
    write(store, feedback=[late])
    write(store, feedback=[early])
    write(store, feedback=[late])  # the same record again changes nothing
    assert store.feedback(ns) == [early, late]
    assert store.feedback(other_ns) == []


def test_feedback_naming_an_unknown_event_is_refused_and_nothing_is_written(store, ns, other_ns):
    write(store, events=[make_event(ns, "e1", "kept")])
    write(store, events=[make_event(other_ns, "theirs", "another tenant's event")])
    write(store, links=[link(ns, LinkKind.NEXT, "e1", "stub-only")])  # a link end is no event
    for helpful, shown in (
        (["e1", "ghost"], None),
        (["e1"], ["e1", "ghost"]),
        (["theirs"], None),
        (["stub-only"], None),
    ):
        with pytest.raises(InputError, match="unknown event ids") as caught:
            write(store, feedback=[_feedback(ns, f"fb-{uuid4().hex[:6]}", helpful, shown)])
        missing = next(i for i in [*helpful, *(shown or [])] if i != "e1")
        assert missing in str(caught.value)
    assert store.feedback(ns) == []


def test_deleting_the_namespace_deletes_its_feedback(store, ns, other_ns):
    for namespace in (ns, other_ns):
        write(store, events=[make_event(namespace, "e1", "x")])
        write(store, feedback=[_feedback(namespace, "fb-1", ["e1"])])
    store.delete_namespace(ns)
    assert store.feedback(ns) == []
    assert [f.id for f in store.feedback(other_ns)] == ["fb-1"]


def test_meta_can_be_deleted(store):
    key = f"test-{uuid4().hex[:8]}"
    store.apply_delta(GraphDelta(deleted_meta=[key]))  # never set: nothing to do
    store.apply_delta(GraphDelta(meta={key: "weights"}))
    store.apply_delta(GraphDelta(deleted_meta=[key]))
    assert store.get_meta(key) is None
