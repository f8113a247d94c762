"""Task lifecycle: active -> done, -> archived when cancelled, -> active again when revived."""

from __future__ import annotations

from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import DEFAULT_STATUSES
from simplemem_graph.stores.queries import EventQuery, RecallFilter

from .conftest import NS


def _status(store, event_id: str) -> str:
    return store.events(NS, EventQuery(ids=[event_id]))[0].status


def test_cancel_archives_and_revive_reactivates_a_chinese_task(store, make_event, embedder):
    trip = make_event(
        "t1",
        "下周四带小蒋去深圳看锐拓的厂",
        "2026-01-08T10:14:00",
        orgs=("锐拓",),
        dates=("2026-01-15",),
        is_task=True,
    )
    other = make_event("t2", "周五前给宏达罗总回电话", "2026-01-08T10:20:00", people=("罗总",), is_task=True)
    consolidate_batch([trip, other], store, embedder=embedder)

    delta = consolidate_batch(
        [
            make_event(
                "t3",
                "这周四去深圳看锐拓的厂的事取消了",
                "2026-01-12T10:05:00",
                session="s2",
                orgs=("锐拓",),
                dates=("2026-01-15",),
            )
        ],
        store,
        embedder=embedder,
    )
    assert (_status(store, "t1"), _status(store, "t2")) == ("archived", "active")
    assert delta.counts["tasks_archived"] == 1
    hidden = store.vector_search(
        NS, embedder.encode(["去深圳看锐拓的厂"])[0], 10, filter=RecallFilter(statuses=DEFAULT_STATUSES)
    )
    assert "t1" not in {h.id for h in hidden}
    assert "t1" in {
        h.id for h in store.vector_search(NS, embedder.encode(["看厂"])[0], 10, filter=RecallFilter(None))
    }

    delta = consolidate_batch(
        [
            make_event(
                "t4", "之前取消的去锐拓看厂要重新安排", "2026-02-02T09:25:00", session="s3", orgs=("锐拓",)
            )
        ],
        store,
        embedder=embedder,
    )
    assert _status(store, "t1") == "active" and delta.counts["tasks_revived"] == 1


def test_done_marks_the_matching_english_task(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "r1",
                "Send the signed supplementary agreement to Acme by March 2",
                "2026-02-26T17:50:00",
                orgs=("Acme",),
                deadline="2026-03-02",
                is_task=True,
            ),
            make_event("r2", "Book a table for the team dinner", "2026-02-26T18:00:00", is_task=True),
        ],
        store,
        embedder=embedder,
    )
    delta = consolidate_batch(
        [
            make_event(
                "r3",
                "The signed supplementary agreement was sent to Acme",
                "2026-03-01T09:00:00",
                session="s2",
                orgs=("Acme",),
            )
        ],
        store,
        embedder=embedder,
    )
    assert (_status(store, "r1"), _status(store, "r2")) == ("done", "active")
    assert delta.counts["tasks_done"] == 1
