"""Value changes said without a change word (consolidate/value_shifts.py): a recomputed total, a
value cued by "now" or by a shift of a span ("晚一周"), a bare value after an announced shift; each
with the case that must not chain. Made-up names. Every case runs ingest's consolidation and then
the global pass's re-derivation, which must agree."""

from __future__ import annotations

from datetime import date, datetime

from simplemem_graph.consolidate.global_pass import run_step
from simplemem_graph.consolidate.rederive import plan_updates
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import Atom, Event, LinkKind, Participant, Quantity
from simplemem_graph.stores.queries import EventQuery

from .conftest import CST, NS, link_props, links_of


def _event(
    embedder, event_id, text, when, *, dates=(), amounts=(), counts=(), orgs=(), people=(), session="s1"
) -> Event:
    """An event as stage 1 hands it over: dates as (surface, ISO), amounts and counts by surface."""
    for surface, _iso in dates:
        assert surface in text
    quantities = [
        Quantity(value=float(s.strip("£").replace(",", "")), unit="GBP", surface=s, kind="money")
        for s in amounts
    ]
    quantities += [Quantity(value=v, unit=u, surface=s, kind="quantity") for s, v, u in counts]
    assert all(q.surface in text for q in quantities)
    return Event(
        id=event_id,
        namespace=NS,
        text=text,
        source_ids=[f"{session}:{event_id}"],
        session=session,
        time=datetime.fromisoformat(when).replace(tzinfo=CST),
        participants=[Participant(name=n, type="org") for n in orgs]
        + [Participant(name=n, type="person") for n in people],
        atoms=[Atom(kind="date", surface=s, value=iso) for s, iso in dates],
        dates=[date.fromisoformat(iso) for _s, iso in dates],
        quantities=quantities,
        embedding=embedder.encode([text])[0].tolist(),
    )


def _run(store, embedder, events) -> set[tuple[str, str]]:
    """SUPERSEDES after ingest (one event at a time, as turns arrive) and after the global pass's
    re-derivation, which must give the same links."""
    for event in events:
        consolidate_batch([event], store, embedder=embedder)
    ingested = links_of(store, LinkKind.SUPERSEDES)
    run_step(store, plan_updates(store, NS))
    assert links_of(store, LinkKind.SUPERSEDES) == ingested
    return ingested


def test_a_recomputed_total_sharing_a_part_supersedes_the_old_total(store, embedder):
    events = [
        _event(
            embedder,
            "t1",
            "Invoice to Pellworth: £500 handling + £120 inspection fee = £620.",
            "2026-04-02T09:00:00",
            amounts=("£500", "£120", "£620"),
            orgs=("Pellworth",),
        ),
        _event(
            embedder,
            "t2",
            "Pellworth would then owe £250 plus the £120 inspection fee, so £370.",
            "2026-04-02T11:00:00",
            amounts=("£250", "£120", "£370"),
            orgs=("Pellworth",),
        ),
    ]
    assert _run(store, embedder, events) == {("t2", "t1")}
    assert link_props(store, LinkKind.SUPERSEDES)[("t2", "t1")]["parts"] == ["120"]
    assert store.events(NS, EventQuery(ids=["t1"]))[0].status == "superseded"


def test_two_computations_without_a_common_part_do_not_chain(store, embedder):
    events = [
        _event(
            embedder,
            "t1",
            "Pellworth invoice: £300 handling + £50 fee = £350.",
            "2026-04-02T09:00:00",
            amounts=("£300", "£50", "£350"),
            orgs=("Pellworth",),
        ),
        _event(
            embedder,
            "t2",
            "Pellworth storage: £90 + £10 = £100.",
            "2026-04-02T11:00:00",
            amounts=("£90", "£10", "£100"),
            orgs=("Pellworth",),
        ),
    ]
    assert _run(store, embedder, events) == set()


def test_a_date_with_now_replaces_the_date_its_label_names(store, embedder):
    events = [
        _event(
            embedder,
            "k1",
            "Dunmore Opticians kickoff 14 May.",
            "2026-04-01T09:00:00",
            dates=(("14 May", "2026-05-14"),),
            orgs=("Dunmore Opticians",),
        ),
        _event(
            embedder,
            "k2",
            "Dunmore Opticians says the kickoff has to slip, their shop is being refitted. 28 May now.",
            "2026-04-08T09:00:00",
            dates=(("28 May", "2026-05-28"),),
            orgs=("Dunmore Opticians",),
            session="s2",
        ),
    ]
    assert _run(store, embedder, events) == {("k2", "k1")}
    assert link_props(store, LinkKind.SUPERSEDES)[("k2", "k1")]["cue"] == "now"


def test_now_beside_a_date_of_another_thing_does_not_replace(store, embedder):
    events = [
        _event(
            embedder,
            "k1",
            "Dunmore Opticians kickoff 14 May.",
            "2026-04-01T09:00:00",
            dates=(("14 May", "2026-05-14"),),
            orgs=("Dunmore Opticians",),
        ),
        _event(
            embedder,
            "k2",
            "Dunmore Opticians invoice is due 28 May now.",
            "2026-04-08T09:00:00",
            dates=(("28 May", "2026-05-28"),),
            orgs=("Dunmore Opticians",),
            session="s2",
        ),
    ]
    assert _run(store, embedder, events) == set()


def test_an_answer_with_a_shift_replaces_the_value_the_session_was_discussing(store, embedder):
    events = [
        _event(
            embedder,
            "a1",
            "岚泽那边说第一批货1月20日前到",
            "2026-01-05T09:00:00",
            dates=(("1月20日前", "2026-01-20"),),
            orgs=("岚泽",),
        ),
        _event(
            embedder,
            "a2",
            "第一批原定1月20日前到，现在已经逾期了",
            "2026-01-22T09:00:00",
            dates=(("1月20日前", "2026-01-20"),),
            orgs=("岚泽",),
            session="s2",
        ),
        _event(
            embedder,
            "a3",
            "他说最快下周三，也就是晚一周",
            "2026-01-22T09:02:00",
            dates=(("下周三", "2026-01-28"),),
            session="s2",
        ),
    ]
    links = _run(store, embedder, events)
    assert links == {("a3", "a1")}  # where the pending value was first given
    assert link_props(store, LinkKind.SUPERSEDES)[("a3", "a1")]["cue"] == "晚一周"


def test_a_new_date_without_a_cue_or_measured_against_the_plan_does_not_replace(store, embedder):
    events = [
        _event(
            embedder,
            "a1",
            "岚泽那边说第一批货1月20日前到",
            "2026-01-05T09:00:00",
            dates=(("1月20日前", "2026-01-20"),),
            orgs=("岚泽",),
        ),
        _event(
            embedder,
            "a2",
            "第一批原定1月20日前到，现在已经逾期了",
            "2026-01-22T09:00:00",
            dates=(("1月20日前", "2026-01-20"),),
            orgs=("岚泽",),
            session="s2",
        ),
        _event(
            embedder,
            "a3",
            "他说下周三来开会",
            "2026-01-22T09:02:00",
            dates=(("下周三", "2026-01-28"),),
            session="s2",
        ),
        _event(
            embedder,
            "a4",
            "Box delivered on 30 January, two days ahead of the 1 February promise.",
            "2026-01-22T09:05:00",
            dates=(("30 January", "2026-01-30"), ("1 February", "2026-02-01")),
            session="s2",
        ),
    ]
    assert _run(store, embedder, events) == set()


def test_a_bare_date_after_an_announced_shift_gives_the_new_value(store, embedder):
    events = [
        _event(
            embedder,
            "b1",
            "型材走岳铝，3月10号前第一批进场",
            "2026-02-20T09:00:00",
            dates=(("3月10号前", "2026-03-10"),),
            orgs=("岳铝",),
        ),
        _event(
            embedder,
            "b2",
            "岳铝第一批没到，说是涨价要推一周",
            "2026-03-09T09:00:00",
            orgs=("岳铝",),
            session="s2",
        ),
        _event(
            embedder,
            "b3",
            "跟岳铝说了 17号进场",
            "2026-03-09T09:10:00",
            dates=(("17号", "2026-03-17"),),
            orgs=("岳铝",),
            session="s2",
        ),
    ]
    assert _run(store, embedder, events) == {("b3", "b1")}


def test_a_bare_date_without_an_announced_shift_is_no_change(store, embedder):
    events = [
        _event(
            embedder,
            "b1",
            "型材走岳铝，3月10号前第一批进场",
            "2026-02-20T09:00:00",
            dates=(("3月10号前", "2026-03-10"),),
            orgs=("岳铝",),
        ),
        _event(embedder, "b2", "岳铝的样品今天看过了", "2026-03-09T09:00:00", orgs=("岳铝",), session="s2"),
        _event(
            embedder,
            "b3",
            "跟岳铝说了 17号进场",
            "2026-03-09T09:10:00",
            dates=(("17号", "2026-03-17"),),
            orgs=("岳铝",),
            session="s2",
        ),
    ]
    assert _run(store, embedder, events) == set()


def test_a_count_said_again_without_its_unit_is_the_old_value_of_a_change(store, embedder):
    events = [
        _event(
            embedder,
            "c1",
            "晨岭想谈全年框架协议，一共6万件",
            "2026-03-01T09:00:00",
            counts=(("6万件", 60000, "件"),),
            orgs=("晨岭",),
        ),
        _event(
            embedder,
            "c2",
            "晨岭框架协议批了，但数量要从6万改成5万",
            "2026-03-20T09:00:00",
            counts=(("6万", 60000, None), ("5万", 50000, None)),
            orgs=("晨岭",),
            session="s2",
        ),
    ]
    assert _run(store, embedder, events) == {("c2", "c1")}
    assert links_of(store, LinkKind.CONTRADICTS) == set()
