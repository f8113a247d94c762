"""The global pass undoes what arrival order decided: entity types and SUPERSEDES come out as
if the events had arrived in time order (rederive.py)."""

from __future__ import annotations

from simplemem_graph.config import DecayPolicy
from simplemem_graph.consolidate import consolidate_pass
from simplemem_graph.consolidate.global_pass import run_step
from simplemem_graph.consolidate.rederive import plan_entities, plan_updates
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import Entity, LinkKind, Participant
from simplemem_graph.stores.queries import EntityQuery, EventQuery
from tests.store_writes import write

from .conftest import CST, NS, entity_named, link_props, links_of


def _plan_and_change(make_event):
    plan = make_event(
        "d1",
        "锐拓第二批1万件3月6日前交货",
        "2026-01-12T09:50:00",
        session="s2",
        orgs=("锐拓",),
        dates=("2026-03-06",),
    )
    change = make_event(
        "d2",
        "锐拓第二批交期要从3月6日推到3月13日",
        "2026-02-26T17:42:00",
        session="s5",
        orgs=("锐拓",),
        dates=("2026-03-06", "2026-03-13"),
    )
    return plan, change


def test_a_change_that_arrived_before_the_plan_it_changes_supersedes_it_after_the_pass(
    store, make_event, embedder
):
    plan, change = _plan_and_change(make_event)
    consolidate_batch([change], store, embedder=embedder)  # a writer with the later session came first
    consolidate_batch([plan], store, embedder=embedder)
    assert links_of(store, LinkKind.SUPERSEDES) == set()  # ingest compares new events with older ones

    counts = run_step(store, plan_updates(store, NS))

    assert link_props(store, LinkKind.SUPERSEDES) == {
        ("d2", "d1"): {"attribute": "date", "old": [], "new": ["2026-03-13"], "marker": "推到"}
    }
    older = store.events(NS, EventQuery(ids=["d1"]))[0]
    assert older.status == "superseded"
    assert older.valid_to.astimezone(CST).isoformat() == "2026-02-26T17:42:00+08:00"
    assert counts == {
        "updates_added": 1,
        "updates_removed": 0,
        "statuses_changed": 1,
        "open_slots_changed": 0,
    }
    assert set(run_step(store, plan_updates(store, NS)).values()) == {
        0
    }  # a second run finds nothing to change


def test_a_name_gets_the_type_of_its_first_mention_in_time_order_whatever_arrived_first(
    store, make_event, embedder
):
    earlier = make_event("e1", "Met Jordan at the cafe.", "2026-03-02T09:00:00", people=("Jordan",))
    later = make_event("e2", "Flew to Jordan last spring.", "2026-03-09T09:00:00", session="s2").model_copy(
        update={"participants": [Participant(name="Jordan", type="place", role="place")]}
    )
    consolidate_batch([later], store, embedder=embedder)
    consolidate_batch([earlier], store, embedder=embedder)
    assert entity_named(store, "Jordan").type == "place"  # ingest: the first it saw

    run_step(store, plan_entities(store, NS, embedder))

    assert entity_named(store, "Jordan").type == "person"
    assert {source for source, _ in links_of(store, LinkKind.MENTIONS)} >= {"e1", "e2"}


def test_an_entity_only_the_arrival_order_made_is_removed_with_its_links(store, make_event, embedder):
    event = make_event("e1", "Met Jordan at the cafe.", "2026-03-02T09:00:00", people=("Jordan",))
    consolidate_batch([event], store, embedder=embedder)
    stray = Entity(id="en-stray", namespace=NS, name="Jordan Cafe", type="org")
    write(store, entities=[stray])
    write(
        store,
        links=[
            link.model_copy(update={"target": "en-stray"})
            for link in store.links(NS, kinds=[LinkKind.MENTIONS])
        ],
    )

    counts = run_step(store, plan_entities(store, NS, embedder))

    assert counts["entities_deleted"] == 1
    assert "en-stray" not in {e.id for e in store.entities(NS, EntityQuery())}
    assert all(link.target != "en-stray" for link in store.links(NS))
    assert store.events(NS, EventQuery(ids=["e1"]))  # the event that mentioned it stays


def test_the_pass_run_twice_changes_nothing_the_second_time(store, make_event, embedder):
    plan, change = _plan_and_change(make_event)
    consolidate_batch([change], store, embedder=embedder)
    consolidate_batch([plan], store, embedder=embedder)
    now = change.time
    consolidate_pass(store, NS, now=now, embedder=embedder, decay=DecayPolicy())
    before = sorted((lk.kind, lk.source, lk.target, str(lk.props)) for lk in store.links(NS))
    statuses = sorted((e.id, e.status) for e in store.events(NS, EventQuery()))

    counts = consolidate_pass(store, NS, now=now, embedder=embedder, decay=DecayPolicy())

    assert sorted((lk.kind, lk.source, lk.target, str(lk.props)) for lk in store.links(NS)) == before
    assert sorted((e.id, e.status) for e in store.events(NS, EventQuery())) == statuses
    assert counts["updates_added"] == counts["updates_removed"] == counts["entities_deleted"] == 0
