"""Ties the text makes between a client and its suppliers and people (consolidate/focus.py): a
supplier named first and then said to be the client's ("Ledgerly, that's their accounts system"),
and who takes a post after "X换人了". Made-up names; the cases that must not tie are beside."""

from __future__ import annotations

from simplemem_graph.ingest import consolidate_batch

from .conftest import log_turns, works_at_names


def _supplier_case(store, make_event, embedder, second: str) -> set[tuple[str, str]]:
    client = "Calderwood Vets"
    log_turns(
        store,
        ("s1:1", "2026-03-02T09:00:00", f"Signed {client}, new booking site"),
        ("s1:2", "2026-03-02T09:02:00", second),
    )
    events = [
        make_event(
            "e1", f"Signed {client}, new booking site", "2026-03-02T09:00:00", turn="s1:1", orgs=(client,)
        ),
        make_event("e2", second, "2026-03-02T09:02:00", turn="s1:2", orgs=("Ledgerly",)),
    ]
    consolidate_batch(events, store, embedder=embedder)
    return works_at_names(store)


def test_a_supplier_named_then_said_to_be_theirs_is_tied_to_the_client(store, make_event, embedder):
    ties = _supplier_case(
        store, make_event, embedder, "Invoices go through Ledgerly, that's their accounts system."
    )
    assert ("Ledgerly", "Calderwood Vets") in ties


def test_a_system_said_to_be_ours_is_no_supplier_of_the_client(store, make_event, embedder):
    ties = _supplier_case(store, make_event, embedder, "Invoices go through Ledgerly, that's our own system.")
    assert ("Ledgerly", "Calderwood Vets") not in ties


def test_who_takes_the_post_after_a_change_of_person_works_there(store, make_event, embedder):
    log_turns(store, ("s1:1", "2026-03-02T09:00:00", "岚泽换人了，小周调去别的项目，以后对接阿梅"))
    event = make_event(
        "e1",
        "岚泽换人了，小周调去别的项目，以后对接阿梅",
        "2026-03-02T09:00:00",
        turn="s1:1",
        orgs=("岚泽",),
        people=("小周", "阿梅"),
    )
    consolidate_batch([event], store, embedder=embedder)
    assert ("阿梅", "岚泽") in works_at_names(store)


def test_a_change_of_person_without_a_firm_ties_nobody(store, make_event, embedder):
    log_turns(store, ("s1:1", "2026-03-02T09:00:00", "周末值班换人了，阿梅来"))
    event = make_event("e1", "周末值班换人了，阿梅来", "2026-03-02T09:00:00", turn="s1:1", people=("阿梅",))
    consolidate_batch([event], store, embedder=embedder)
    assert works_at_names(store) == set()


def _vendor_case(store, make_event, embedder, later: str) -> set[tuple[str, str]]:
    client = "Calderwood Vets"
    first = "Invoices go through Ledgerly, that's their accounts system."
    log_turns(
        store,
        ("s1:1", "2026-03-02T09:00:00", f"Signed {client}, new booking site"),
        ("s1:2", "2026-03-02T09:02:00", first),
        ("s2:1", "2026-03-10T09:00:00", f"Ledgerly is down again. {later}"),
    )
    events = [
        make_event(
            "e1", f"Signed {client}, new booking site", "2026-03-02T09:00:00", turn="s1:1", orgs=(client,)
        ),
        make_event("e2", first, "2026-03-02T09:02:00", turn="s1:2", orgs=("Ledgerly",)),
        make_event("e3", "Ledgerly is down again.", "2026-03-10T09:00:00", turn="s2:1", orgs=("Ledgerly",)),
        make_event("e4", later, "2026-03-10T09:00:00", turn="s2:1", people=("Rafe Lund",)),
    ]
    consolidate_batch(events, store, embedder=embedder)
    return works_at_names(store)


def test_the_suppliers_own_people_work_at_the_supplier_not_the_client(store, make_event, embedder):
    ties = _vendor_case(store, make_event, embedder, "Their guy Rafe Lund says noon.")
    assert ("Rafe Lund", "Ledgerly") in ties and ("Rafe Lund", "Calderwood Vets") not in ties


def test_someone_merely_named_beside_the_supplier_is_not_its_employee(store, make_event, embedder):
    ties = _vendor_case(store, make_event, embedder, "I told Rafe Lund to wait.")
    assert not any(person == "Rafe Lund" for person, _ in ties)
