"""Stage 2 is a plan: `consolidate` reads the store and returns a delta, and only the ingest
orchestrator (`consolidate_batch`) writes it. A plan left unwritten changes nothing."""

from __future__ import annotations

import pytest

from simplemem_graph.consolidate import consolidate
from simplemem_graph.errors import InputError
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import LinkKind
from simplemem_graph.stores.queries import EventQuery

from .conftest import NS


def _everything(store) -> list:
    return sorted(map(repr, store.export_records(NS)))


def test_consolidate_returns_the_batch_as_a_delta_and_writes_nothing(store, make_event, embedder):
    plan = make_event(
        "e1",
        "Orla Pike of Vantor Cables wants the quote by Friday",
        "2026-03-02T10:00:00",
        people=("Orla Pike",),
        orgs=("Vantor Cables",),
    )
    consolidate_batch([plan], store, embedder=embedder)
    before = _everything(store)

    later = make_event(
        "e2", "Orla moved the quote deadline to Monday", "2026-03-02T11:00:00", people=("Orla",)
    )
    delta = consolidate([later], store, embedder=embedder, turns_done=["s1:e2"])

    assert _everything(store) == before  # planned, not written
    assert [e.id for e in delta.events] == ["e2"]
    mentioned = {
        link.target for link in delta.links if link.kind == LinkKind.MENTIONS and link.source == "e2"
    }
    orla = {link.target for link in store.links(NS, kinds=[LinkKind.MENTIONS], node_ids=["e1"])}
    assert mentioned & orla  # "Orla" resolved to the stored Orla Pike
    assert delta.turns_done == ["s1:e2"]

    store.apply_delta(delta)
    assert [e.id for e in store.events(NS, EventQuery(ids=["e2"]))] == ["e2"]
    assert _everything(store) != before


def test_a_batch_of_chit_chat_consumes_its_turns_only_when_written(store):
    delta = consolidate([], store, turns_done=["t1"], namespace=NS)
    assert delta.turns_done == ["t1"] and not delta.events and delta.namespace == NS
    assert _everything(store) == []


def test_turns_to_mark_done_without_a_namespace_are_refused(store):
    with pytest.raises(InputError, match="namespace"):
        consolidate([], store, turns_done=["t1"])
