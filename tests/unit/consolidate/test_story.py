"""An entity's story: "&" names with their initials, people and suppliers tied to a client, the
thread of a session, chit-chat and other clients kept out, value changes as SUPERSEDES chains.

Small conversations written for these tests (not the dev stories); events are built by hand as
stage 1 would hand them over, and the raw turns are logged so consolidation can read them.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from simplemem_graph.consolidate.aliases import (
    ampersand_names,
    brand_shaped,
    introduced_as_org,
    job_before,
)
from simplemem_graph.errors import NotFoundError
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import Atom, EventStatus, LinkKind
from simplemem_graph.retrieve.query import analyze_query
from simplemem_graph.retrieve.story import entity_story
from simplemem_graph.stores.queries import EventQuery

from .conftest import CST, NS, entity_named, link_props, log_turns, works_at_names

ALL = None  # every status


def _story_turns(store, name: str) -> list[str]:
    return [h.event.source_ids[0] for h in entity_story(store, NS, name, statuses=ALL).hits]


def test_ampersand_names_come_with_their_initials():
    assert ampersand_names("we signed Ashby & Rourke Homewares yesterday") == [
        ("Ashby & Rourke Homewares", ["Ashby & Rourke", "A&R"])
    ]
    assert ampersand_names("Marks & Spencer called") == [("Marks & Spencer", ["M&S"])]
    assert ampersand_names("the A&R box, P&L and R&D") == []  # initials are no full name
    assert ampersand_names("A&R第二个柜今天到了") == []  # CJK text is not part of a Latin name


def test_shapes_that_say_firm_or_staff():
    assert brand_shaped("PayNest") and brand_shaped("WeChat")
    assert not brand_shaped("McDonald") and not brand_shaped("DeAndre") and not brand_shaped("Fiona")
    assert introduced_as_org("麦野烘焙", "新客户签了🎉 麦野烘焙，苏州十一家店")
    assert introduced_as_org("Ashby & Rourke", "we signed a new importer — Ashby & Rourke")
    assert not introduced_as_org("麦野烘焙", "客户说好。麦野烘焙的老板来了")  # another clause
    assert job_before("梅姐", "首付是财务梅姐打的") and not job_before("小王", "我们财务小王打的")


def test_an_ampersand_firm_is_one_entity_with_its_initials(store, make_event, embedder):
    log_turns(
        store,
        (
            "s1:1",
            "2026-03-03T09:12:00",
            "we signed a new importer yesterday — Ashby & Rourke Homewares. open a file",
        ),
        ("s1:2", "2026-03-03T09:16:00", "A&R rate is £2,350 per 40HC"),
    )
    events = [
        # stage 1 kept only the request: the firm's name is in the raw turn alone
        make_event("e1", "open a file", "2026-03-03T09:12:00", turn="s1:1"),
        make_event("e2", "A&R rate is £2,350 per 40HC", "2026-03-03T09:16:00", turn="s1:2", orgs=("A&R",)),
    ]
    consolidate_batch(events, store, embedder=embedder)
    firm = entity_named(store, "Ashby & Rourke Homewares")
    assert firm.type == "org" and {"A&R", "Ashby & Rourke"} <= set(firm.aliases)
    assert entity_named(store, "A&R").id == firm.id
    story = entity_story(store, NS, "Ashby & Rourke", statuses=ALL)
    assert [h.event.id for h in story.hits] == ["e1", "e2"]
    assert story.hits[0].path == ["MENTIONS Ashby & Rourke Homewares (implied: turn)"]


def test_people_and_suppliers_the_text_ties_to_the_client_join_its_story(store, make_event, embedder):
    client = "Kestrel Optics"
    log_turns(
        store,
        ("s1:1", "2026-03-02T09:00:00", f"kickoff with {client} today"),
        ("s1:2", "2026-03-02T09:01:00", "Who should I put down as the main contact?"),
        ("s1:3", "2026-03-02T09:02:00", "Nadia Brook, she signs everything off"),
        ("s1:4", "2026-03-02T09:03:00", "their booking system is Slotwise, we must sync with it"),
        ("s2:1", "2026-03-20T10:00:00", "Slotwise was down all morning, 40 bookings lost"),
        ("s2:2", "2026-03-20T10:05:00", "Nadia wants a credit of £400"),
    )
    events = [
        make_event(
            "e1",
            f"kickoff with {client} today",
            "2026-03-02T09:00:00",
            turn="s1:1",
            orgs=(client,),
            dates=("2026-03-02",),
        ),
        make_event(
            "e2",
            "Who should assistant put down as the main contact?",
            "2026-03-02T09:01:00",
            turn="s1:2",
            speaker="assistant",
        ),
        make_event(
            "e3",
            "Nadia Brook, she signs everything off",
            "2026-03-02T09:02:00",
            turn="s1:3",
            people=("Nadia Brook",),
        ),
        make_event(
            "e4",
            "their booking system is Slotwise, we must sync with it",
            "2026-03-02T09:03:00",
            turn="s1:4",
            orgs=("Slotwise",),
        ),
        make_event(
            "e5",
            "Slotwise was down all morning, 40 bookings lost",
            "2026-03-20T10:00:00",
            session="s2",
            turn="s2:1",
            orgs=("Slotwise",),
        ),
        make_event(
            "e6",
            "Nadia wants a credit of £400",
            "2026-03-20T10:05:00",
            session="s2",
            turn="s2:2",
            people=("Nadia",),
            money=(400,),
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)
    ties = works_at_names(store)
    assert ("Nadia Brook", client) in ties  # the answer to the contact question
    assert ("Slotwise", client) in ties  # "their booking system is Slotwise"
    story = entity_story(store, NS, client, statuses=ALL)
    assert [h.event.id for h in story.hits] == ["e1", "e3", "e4", "e5", "e6"]  # the bare question left out
    assert "Nadia Brook" in story.people and "Slotwise" in story.suppliers
    # a later session naming only the supplier: the story stays the client's, and says why
    assert story.hits[3].path == [f"MENTIONS {client} (implied: supplier)"]


def test_chit_chat_and_another_client_end_the_thread(store, make_event, embedder):
    log_turns(
        store,
        ("s1:1", "2026-03-02T09:00:00", "Harrow & Finch signed, fixed fee £36,000"),
        ("s1:2", "2026-03-02T09:01:00", "deposit due in two weeks"),
        ("s1:3", "2026-03-02T09:02:00", "kettle on the second floor is dead again lol"),
        ("s1:4", "2026-03-02T09:03:00", "diff thing, Corvin Labs want a quote"),
        ("s1:5", "2026-03-02T09:04:00", "quote them £5,000"),
    )
    events = [
        make_event(
            "e1",
            "Harrow & Finch signed, fixed fee £36,000",
            "2026-03-02T09:00:00",
            turn="s1:1",
            money=(36000,),
        ),
        make_event(
            "e2",
            "deposit due in two weeks",
            "2026-03-02T09:01:00",
            turn="s1:2",
            atoms=[Atom(kind="duration", surface="two weeks", value="P2W")],
            deadline="2026-03-16",
        ),
        make_event("e3", "kettle on the second floor is dead again lol", "2026-03-02T09:02:00", turn="s1:3"),
        make_event(
            "e4",
            "diff thing, Corvin Labs want a quote",
            "2026-03-02T09:03:00",
            turn="s1:4",
            orgs=("Corvin Labs",),
        ),
        make_event("e5", "quote them £5,000", "2026-03-02T09:04:00", turn="s1:5", money=(5000,)),
    ]
    consolidate_batch(events, store, embedder=embedder)
    assert _story_turns(store, "Harrow & Finch") == ["s1:1", "s1:2"]
    assert _story_turns(store, "Corvin Labs") == ["s1:4", "s1:5"]


def test_each_new_value_supersedes_the_previous_one_and_the_last_is_current(store, make_event, embedder):
    client = "Larkspur Dental"
    log_turns(
        store,
        ("s1:1", "2026-04-01T09:00:00", f"{client} go-live is April 30"),
        ("s1:2", "2026-04-08T09:00:00", f"{client} go-live moved to May 15"),
        ("s1:3", "2026-04-08T09:01:00", "Noted: go-live moved from April 30 to May 15"),
        ("s1:4", "2026-04-20T09:00:00", f"{client} go-live brought forward to May 12"),
    )
    events = [
        make_event(
            "e1",
            f"{client} go-live is April 30",
            "2026-04-01T09:00:00",
            turn="s1:1",
            orgs=(client,),
            dates=("2026-04-30",),
            atoms=[Atom(kind="date", surface="April 30", value="2026-04-30")],
        ),
        make_event(
            "e2",
            f"{client} go-live moved to May 15",
            "2026-04-08T09:00:00",
            turn="s1:2",
            orgs=(client,),
            dates=("2026-05-15",),
            atoms=[Atom(kind="date", surface="May 15", value="2026-05-15")],
        ),
        # the assistant restates the change: it names the old value but replaces nothing new
        make_event(
            "e3",
            "Noted: go-live moved from April 30 to May 15",
            "2026-04-08T09:01:00",
            turn="s1:3",
            speaker="assistant",
            dates=("2026-04-30", "2026-05-15"),
            atoms=[
                Atom(kind="date", surface="April 30", value="2026-04-30"),
                Atom(kind="date", surface="May 15", value="2026-05-15"),
            ],
        ),
        make_event(
            "e4",
            f"{client} go-live brought forward to May 12",
            "2026-04-20T09:00:00",
            turn="s1:4",
            orgs=(client,),
            dates=("2026-05-12",),
            atoms=[Atom(kind="date", surface="May 12", value="2026-05-12")],
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)
    supersedes = set(link_props(store, LinkKind.SUPERSEDES))
    assert ("e3", "e2") not in supersedes  # a restatement of the new value replaces nothing
    assert {("e2", "e1"), ("e3", "e1")} & supersedes
    assert ("e4", "e3") in supersedes or ("e4", "e2") in supersedes
    status = {e.id: e.status for e in store.events(NS, EventQuery())}
    assert status["e4"] == EventStatus.ACTIVE and status["e1"] == EventStatus.SUPERSEDED
    story = entity_story(store, NS, client, statuses=ALL)
    assert len(story.chains) == 1 and story.chains[0][0] == "e1" and story.chains[0][-1] == "e4"
    current = next(h for h in story.hits if h.event.id == "e4")
    assert current.path[-1] == "CURRENT"
    first = next(h for h in story.hits if h.event.id == "e1")
    assert first.path[-1].startswith("SUPERSEDED BY ")


def test_an_unknown_name_is_a_clear_error(store):
    with pytest.raises(NotFoundError, match="no entity named"):
        entity_story(store, NS, "Nobody & Co", statuses=ALL)


def test_that_client_is_the_recent_client_and_the_supplier_its_supplier(store, make_event, embedder):
    client = "Kestrel Optics"
    log_turns(
        store,
        ("s1:1", "2026-03-02T09:00:00", f"{client} signed, £36,000 fixed fee"),
        ("s1:2", "2026-03-02T09:01:00", "their booking system is Slotwise"),
        ("s1:3", "2026-03-02T09:02:00", "Slotwise sandbox arrives Friday"),
    )
    events = [
        make_event(
            "e1",
            f"{client} signed, £36,000 fixed fee",
            "2026-03-02T09:00:00",
            turn="s1:1",
            orgs=(client,),
            money=(36000,),
        ),
        make_event(
            "e2", "their booking system is Slotwise", "2026-03-02T09:01:00", turn="s1:2", orgs=("Slotwise",)
        ),
        make_event(
            "e3",
            "Slotwise sandbox arrives Friday",
            "2026-03-02T09:02:00",
            turn="s1:3",
            orgs=("Slotwise",),
            dates=("2026-03-06",),
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)
    at = datetime(2026, 3, 3, 9, 0, tzinfo=CST)
    # the most recent organisation is the supplier: "that client" still means the client
    client_ref = analyze_query("what happened with that client?", store, namespace=NS, at=at)
    assert [e.name for e in client_ref.references] == [client]
    zh_ref = analyze_query("上次那个客户后来怎么样了？", store, namespace=NS, at=at)
    assert [e.name for e in zh_ref.references] == [client]
    supplier_ref = analyze_query("is that vendor back up?", store, namespace=NS, at=at)
    assert [e.name for e in supplier_ref.references] == ["Slotwise"]


def test_the_turn_a_reply_restates_joins_the_story(store, make_event, embedder):
    client = "Wrenfield Labs"
    log_turns(
        store,
        ("s1:1", "2026-04-01T09:00:00", f"{client} kickoff, go-live April 30"),
        ("s1:2", "2026-04-01T15:00:00", "ok it moved again, now May 15"),
        ("s1:3", "2026-04-01T15:01:00", f"Noted: {client} go-live moved to May 15"),
        ("s1:4", "2026-04-01T15:20:00", "ok lunch now"),
    )
    events = [
        make_event(
            "e1",
            f"{client} kickoff, go-live April 30",
            "2026-04-01T09:00:00",
            turn="s1:1",
            orgs=(client,),
            dates=("2026-04-30",),
        ),
        # six hours later the focus has faded: this turn names no one
        make_event(
            "e2", "ok it moved again, now May 15", "2026-04-01T15:00:00", turn="s1:2", dates=("2026-05-15",)
        ),
        make_event(
            "e3",
            f"Noted: {client} go-live moved to May 15",
            "2026-04-01T15:01:00",
            turn="s1:3",
            speaker="assistant",
            orgs=(client,),
            dates=("2026-05-15",),
        ),
        make_event("e4", "ok lunch now", "2026-04-01T15:20:00", turn="s1:4"),
    ]
    consolidate_batch(events, store, embedder=embedder)
    story = entity_story(store, NS, client, statuses=ALL)
    paths = {h.event.id: h.path for h in story.hits}
    assert set(paths) == {"e1", "e2", "e3"}
    assert paths["e2"][0] == "SAME VALUE AS e3"


def test_someone_on_a_side_of_their_own_is_another_party(store, make_event, embedder):
    client = "Harrow & Finch"
    log_turns(
        store,
        ("s1:1", "2026-03-02T09:00:00", f"{client} signed, fixed fee £36,000"),
        ("s1:2", "2026-03-02T09:05:00", "另外麦田那边官网改版，下周出首页稿"),
        ("s1:3", "2026-03-02T09:06:00", "首页稿报价8000"),
    )
    events = [
        make_event(
            "e1", f"{client} signed, fixed fee £36,000", "2026-03-02T09:00:00", turn="s1:1", money=(36000,)
        ),
        # stage 1 read the firm 麦田 as a person; "麦田那边" puts it on a side of its own
        make_event(
            "e2",
            "另外麦田那边官网改版，下周出首页稿",
            "2026-03-02T09:05:00",
            turn="s1:2",
            people=("麦田",),
            dates=("2026-03-09",),
        ),
        make_event("e3", "首页稿报价8000", "2026-03-02T09:06:00", turn="s1:3", money=(8000,)),
    ]
    consolidate_batch(events, store, embedder=embedder)
    assert _story_turns(store, client) == ["s1:1"]
