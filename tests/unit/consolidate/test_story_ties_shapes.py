"""More ties the text makes between a client and its people and suppliers (consolidate/focus.py),
by the shape of the sentence: the answer to a who-question about "their side", "X from their ...
team", "w/ X (does all their ...)", "<Firm> guy is Y", a supplier named by its role (供应商X, 走X),
and the first word of another firm's name ending the thread. Made-up names; the cases that must
not tie are beside each rule."""

from __future__ import annotations

from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import LinkKind
from simplemem_graph.stores.queries import EntityQuery

from .conftest import NS, link_props, log_turns, works_at_names

CLIENT = "Pelham Cooperative"


def _log(store, *turns: tuple[str, str, str]) -> None:
    log_turns(store, *turns, assistant_opening="Noted")


def _client_then(store, make_event, embedder, *later: tuple[str, dict]) -> set[tuple[str, str]]:
    """The client named in s1:1, then one turn per `later` (text, make_event kwargs)."""
    opening = f"new one: {CLIENT}, the regional co-op. AGM dinner in May"
    turns = [("s1:1", "2026-03-02T09:00:00", opening)]
    events = [make_event("e0", opening, "2026-03-02T09:00:00", turn="s1:1", orgs=(CLIENT,))]
    for i, (text, kwargs) in enumerate(later, start=1):
        when = f"2026-03-02T09:{i * 2:02d}:00"
        turns.append((f"s1:{i + 1}", when, text))
        events.append(make_event(f"e{i}", text, when, turn=f"s1:{i + 1}", **kwargs))
    _log(store, *turns)
    consolidate_batch(events, store, embedder=embedder)
    return works_at_names(store)


def test_the_answer_to_who_is_running_it_on_their_side_ties_the_person(store, make_event, embedder):
    ties = _client_then(
        store,
        make_event,
        embedder,
        ("Noted. Who's running it on their side?", {}),
        ("CEO is Odile something, signs off the money", {"people": ("Odile",)}),
    )
    assert ("Odile", CLIENT) in ties


def test_without_the_question_a_role_and_a_name_tie_nobody(store, make_event, embedder):
    ties = _client_then(
        store,
        make_event,
        embedder,
        ("Noted. Dinner for about ninety.", {}),
        ("CEO is Odile something, signs off the money", {"people": ("Odile",)}),
    )
    assert not any(person == "Odile" for person, _ in ties)


def test_someone_from_their_team_works_at_the_client(store, make_event, embedder):
    ties = _client_then(
        store,
        make_event,
        embedder,
        ("day to day it's Ravi from their members & events team", {"people": ("Ravi",)}),
    )
    assert ("Ravi", CLIENT) in ties


def test_someone_from_our_team_does_not(store, make_event, embedder):
    ties = _client_then(
        store,
        make_event,
        embedder,
        ("day to day it's Ravi from our events team", {"people": ("Ravi",)}),
    )
    assert not any(person == "Ravi" for person, _ in ties)


def test_a_firm_they_deal_with_that_does_their_work_is_their_supplier(store, make_event, embedder):
    ties = _client_then(
        store,
        make_event,
        embedder,
        ("they've got a deal w/ Quillon AV (does all their branch screens)", {"orgs": ("Quillon AV",)}),
    )
    assert ("Quillon AV", CLIENT) in ties


def test_a_firm_we_deal_with_is_no_supplier_of_theirs(store, make_event, embedder):
    ties = _client_then(
        store,
        make_event,
        embedder,
        ("we've got a deal w/ Quillon AV (does all our screens)", {"orgs": ("Quillon AV",)}),
    )
    assert ("Quillon AV", CLIENT) not in ties


def test_the_named_role_of_a_supplier_ties_its_person_to_the_supplier(store, make_event, embedder):
    ties = _client_then(
        store,
        make_event,
        embedder,
        ("they've got a deal w/ Quillon AV (does all their branch screens)", {"orgs": ("Quillon AV",)}),
        ("Quillon guy is Tomas. slow on email", {"orgs": ("Quillon",), "people": ("Tomas",)}),
    )
    assert ("Tomas", "Quillon AV") in ties and ("Tomas", CLIENT) not in ties


def test_their_beside_another_firm_named_first_is_that_firms(store, make_event, embedder):
    text = "Brackley Motors want the same for their Ferndale store"
    ties = _client_then(store, make_event, embedder, (text, {"orgs": ("Brackley Motors", "Ferndale")}))
    assert ("Ferndale", CLIENT) not in ties


def test_a_supplier_named_by_its_role_is_the_focus_clients(store, make_event, embedder):
    first = "新项目：澄岭建设的幕墙分包"
    second = "型材走银箔，4月10号前第一批进场"
    _log(store, ("s1:1", "2026-03-02T09:00:00", first), ("s1:2", "2026-03-02T09:02:00", second))
    events = [
        make_event("e1", first, "2026-03-02T09:00:00", turn="s1:1", orgs=("澄岭建设",)),
        make_event("e2", second, "2026-03-02T09:02:00", turn="s1:2", orgs=("银箔",)),
    ]
    consolidate_batch(events, store, embedder=embedder)
    assert ("银箔", "澄岭建设") in works_at_names(store)


def test_a_firm_merely_named_after_the_client_is_no_supplier(store, make_event, embedder):
    first = "新项目：澄岭建设的幕墙分包"
    second = "银箔那边今天也来问报价"
    _log(store, ("s1:1", "2026-03-02T09:00:00", first), ("s1:2", "2026-03-02T09:02:00", second))
    events = [
        make_event("e1", first, "2026-03-02T09:00:00", turn="s1:1", orgs=("澄岭建设",)),
        make_event("e2", second, "2026-03-02T09:02:00", turn="s1:2", orgs=("银箔",)),
    ]
    consolidate_batch(events, store, embedder=embedder)
    assert ("银箔", "澄岭建设") not in works_at_names(store)


def _implied(store, event_id: str) -> set[str]:
    """Names of the organisations an event MENTIONS by implication (role "implied")."""
    names = {e.id: e.name for e in store.entities(NS, EntityQuery())}
    return {
        names[target]
        for (source, target), props in link_props(store, LinkKind.MENTIONS).items()
        if source == event_id and props.get("role") == "implied"
    }


def test_the_first_word_of_another_firms_name_ends_the_thread(store, make_event, embedder):
    _client_then(
        store,
        make_event,
        embedder,
        ("Ashgrove Estate tasting done, they loved the lamb", {"orgs": ("Ashgrove Estate",)}),
        (f"{CLIENT} dinner: quote $9,000 for 90", {"orgs": (CLIENT,)}),
        ("Ashgrove want a quote for their xmas party too, 60 pax", {}),
    )
    assert CLIENT not in _implied(store, "e3")


def test_a_value_after_the_client_still_continues_its_thread(store, make_event, embedder):
    _client_then(
        store,
        make_event,
        embedder,
        (f"{CLIENT} dinner: quote $9,000 for 90", {"orgs": (CLIENT,)}),
        ("Deposit of $4,500 due Friday, 60 pax confirmed", {"money": (4500.0,)}),
    )
    assert CLIENT in _implied(store, "e2")
