"""A new amount for the same thing replaces the old one without a change word: the same words
label both values, counted on the same basis, in one thread (a shared entity, or the same session
continued by a turn that names nobody). Made-up names; the cases that must not chain are beside."""

from __future__ import annotations

from datetime import datetime

from simplemem_graph.consolidate.updates import shared_labels, value_labels
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import Event, LinkKind, Participant, Quantity
from simplemem_graph.stores.queries import EventQuery

from .conftest import CST, NS, links_of


def _event(embedder, event_id, text, when, *, amounts=(), orgs=(), session="s1") -> Event:
    """An event as stage 1 hands it over: each amount with its surface as written in the text."""
    quantities = [
        Quantity(value=float(s.strip("£S$").replace(",", "")), unit="GBP", surface=s, kind="money")
        for s in amounts
    ]
    assert all(q.surface in text for q in quantities)
    return Event(
        id=event_id,
        namespace=NS,
        text=text,
        source_ids=[f"{session}:{event_id}"],
        session=session,
        time=datetime.fromisoformat(when).replace(tzinfo=CST),
        participants=[Participant(name=n, type="org") for n in orgs],
        quantities=quantities,
        embedding=embedder.encode([text])[0].tolist(),
    )


def test_labels_are_the_words_beside_a_value_not_those_between_two_values(embedder):
    rate = _event(
        embedder,
        "a",
        "£2,350 + £430 = £2,780 per pallet for Quillon",
        "2026-03-02T10:00:00",
        amounts=("£2,350", "£430", "£2,780"),
        orgs=("Quillon",),
    )
    labels = value_labels(rate, "money")
    assert labels[("2780", "pallet")] >= {"pallet"}
    assert labels[("2350", "")] == frozenset() and labels[("430", "")] == frozenset()
    assert "quillon" not in labels[("2780", "pallet")]  # a name says who, not what the value is of


def test_a_new_retainer_for_the_same_firm_supersedes_without_a_change_word(store, embedder):
    old = _event(
        embedder,
        "r1",
        "Marlowe Joinery retainer £1,200 a month",
        "2026-03-02T10:00:00",
        amounts=("£1,200",),
        orgs=("Marlowe Joinery",),
    )
    consolidate_batch([old], store, embedder=embedder)
    new = _event(
        embedder,
        "r2",
        "Marlowe Joinery retainer £1,350 a month from April",
        "2026-03-20T10:00:00",
        amounts=("£1,350",),
        orgs=("Marlowe Joinery",),
        session="s2",
    )
    consolidate_batch([new], store, embedder=embedder)

    assert links_of(store, LinkKind.SUPERSEDES) == {("r2", "r1")}
    assert links_of(store, LinkKind.CONTRADICTS) == set()
    assert store.events(NS, EventQuery(ids=["r1"]))[0].status == "superseded"
    assert store.events(NS, EventQuery(ids=["r2"]))[0].status == "active"


def test_a_turn_naming_nobody_continues_its_session(store, embedder):
    events = [
        _event(
            embedder,
            "c1",
            "Signed Marlowe Joinery, deposit £900 up front",
            "2026-03-02T10:00:00",
            amounts=("£900",),
            orgs=("Marlowe Joinery",),
        ),
        _event(
            embedder,
            "c2",
            "ok so deposit £1,100 up front, they added the stairs",
            "2026-03-02T10:30:00",
            amounts=("£1,100",),
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)
    assert links_of(store, LinkKind.SUPERSEDES) == {("c2", "c1")}


def test_another_firm_in_the_same_session_is_not_a_change(store, embedder):
    events = [
        _event(
            embedder,
            "f1",
            "Marlowe Joinery deposit £900 up front",
            "2026-03-02T10:00:00",
            amounts=("£900",),
            orgs=("Marlowe Joinery",),
        ),
        _event(
            embedder,
            "f2",
            "Pell & Daughters deposit £1,100 up front",
            "2026-03-02T10:30:00",
            amounts=("£1,100",),
            orgs=("Pell & Daughters",),
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)
    assert links_of(store, LinkKind.SUPERSEDES) == set()


def test_a_rate_and_a_total_are_not_one_thing(store, embedder):
    events = [
        _event(
            embedder,
            "d1",
            "Marlowe Joinery storage runs at £85 a day",
            "2026-03-02T10:00:00",
            amounts=("£85",),
            orgs=("Marlowe Joinery",),
        ),
        _event(
            embedder,
            "d2",
            "Marlowe Joinery storage comes to £680 in all",
            "2026-03-12T10:00:00",
            amounts=("£680",),
            orgs=("Marlowe Joinery",),
            session="s2",
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)
    assert links_of(store, LinkKind.SUPERSEDES) == set()


def test_amounts_of_different_things_for_one_firm_are_left_alone(store, embedder):
    events = [
        _event(
            embedder,
            "t1",
            "Marlowe Joinery retainer £1,200 a month",
            "2026-03-02T10:00:00",
            amounts=("£1,200",),
            orgs=("Marlowe Joinery",),
        ),
        _event(
            embedder,
            "t2",
            "Marlowe Joinery paid the oak invoice, £4,300",
            "2026-03-12T10:00:00",
            amounts=("£4,300",),
            orgs=("Marlowe Joinery",),
            session="s2",
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)
    assert links_of(store, LinkKind.SUPERSEDES) | links_of(store, LinkKind.CONTRADICTS) == set()


def test_a_question_or_a_figure_already_written_is_no_new_value(embedder):
    old = _event(
        embedder,
        "q1",
        "Marlowe Joinery retainer £1,200 a month",
        "2026-03-02T10:00:00",
        amounts=("£1,200",),
        orgs=("Marlowe Joinery",),
    )
    asked = _event(
        embedder,
        "q2",
        "Marlowe Joinery retainer £1,350 a month from April?",
        "2026-03-20T10:00:00",
        amounts=("£1,350",),
        orgs=("Marlowe Joinery",),
    )
    assert shared_labels(asked, old, "money") == frozenset()
    said = Event(**{**old.model_dump(), "id": "q3", "text": "Marlowe Joinery retainer goes to 1350 a month"})
    said.quantities.append(Quantity(value=1350, surface="1350", kind="number"))
    restated = _event(
        embedder,
        "q4",
        "Marlowe Joinery retainer £1,350 a month",
        "2026-03-21T10:00:00",
        amounts=("£1,350",),
        orgs=("Marlowe Joinery",),
    )
    assert shared_labels(restated, said, "money") == frozenset()  # 1350 was already said, unit or not
