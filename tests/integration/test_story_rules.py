"""Story rules end to end on the embedded store: a change of the person in charge is a SUPERSEDES
chain, a figure without a currency in an amount context chains as money, and another client named
in a session ends the thread of the first."""

from datetime import datetime, timedelta, timezone

import pytest

from simplemem_graph import Memory
from simplemem_graph.models import LinkKind, Turn
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EventQuery

TZ = timezone(timedelta(hours=8))


@pytest.fixture
def memory(embedder):
    mem = Memory(EmbeddedStore(":memory:"), namespace="story-rules", embedder=embedder)
    yield mem
    mem.close()


def _turns(rows):
    return [
        Turn(
            id=f"{s}:{i}",
            namespace="story-rules",
            session=s,
            speaker=who,
            time=datetime.fromisoformat(t),
            text=x,
        )
        for i, (s, t, who, x) in enumerate(rows, 1)
    ]


def _links(memory, kind):
    events = {e.id: e for e in memory.store.events(memory.namespace, EventQuery())}
    return [
        (events[lk.source], events[lk.target], lk.props)
        for lk in memory.store.links(memory.namespace, kinds=[kind])
        if lk.source in events and lk.target in events
    ]


def test_a_change_of_the_person_in_charge_is_chained(memory):
    memory.add_many(
        _turns(
            [
                ("s1", "2026-03-02T10:00:00+08:00", "user", "新客户禾丰农业签了，日常对接是他们运营小陶"),
                ("s1", "2026-03-02T10:05:00+08:00", "user", "禾丰农业报价5.5万"),
                ("s2", "2026-05-20T10:00:00+08:00", "user", "小陶下个月休假，接手的是他们新来的运营阿珂"),
            ]
        )
    )
    links = [(n, o, p) for n, o, p in _links(memory, LinkKind.SUPERSEDES) if p.get("attribute") == "contact"]
    assert links, "the handover made no SUPERSEDES link"
    newer, older, props = links[0]
    assert "阿珂" in newer.text and "小陶" in older.text and "阿珂" not in older.text
    assert props["new"] == ["阿珂"] and props["old"] == ["小陶"]
    assert str(older.status) == "superseded" and str(newer.status) != "superseded"


def test_an_amount_without_a_currency_chains_with_the_stated_one(memory):
    memory.add_many(
        _turns(
            [
                ("s1", "2026-03-02T10:00:00+00:00", "user", "The Kettleby Foods deposit is £2,350."),
                ("s2", "2026-04-02T10:00:00+00:00", "user", "The Kettleby Foods deposit changed to 2780."),
            ]
        )
    )
    money = [(n, o) for n, o, p in _links(memory, LinkKind.SUPERSEDES) if p.get("attribute") == "money"]
    assert any("2780" in n.text and "2,350" in o.text for n, o in money), money


def test_another_client_named_ends_the_thread(memory):
    memory.add_many(
        _turns(
            [
                ("s1", "2026-03-02T10:00:00+08:00", "user", "禾丰农业的合同今天签了，总价12万"),
                ("s1", "2026-03-02T10:02:00+08:00", "user", "首付款下周三到账"),
                ("s1", "2026-03-02T10:05:00+08:00", "user", "另外青禾物流那边问运费，报价每吨200元"),
                ("s1", "2026-03-02T10:06:00+08:00", "user", "他们要下周一前回复"),
            ]
        )
    )
    story = memory.story("禾丰农业")
    turns = {s for h in story.hits for s in h.event.source_ids}
    assert {"s1:1", "s1:2"} <= turns  # the continuation without a name is on the thread
    assert not turns & {"s1:3", "s1:4"}  # another client named: the thread is theirs now


def test_a_shared_today_does_not_attach_small_talk(memory):
    memory.add_many(
        _turns(
            [
                ("s1", "2026-03-02T10:00:00+08:00", "user", "禾丰农业的官网今天上线了"),
                ("s1", "2026-03-02T10:30:00+08:00", "user", "累死 今天就到这"),
            ]
        )
    )
    turns = {s for h in memory.story("禾丰农业").hits for s in h.event.source_ids}
    assert "s1:1" in turns and "s1:2" not in turns


def _timeline_texts(memory, name):
    return [h.event.text for h in memory.timeline(name, include_archived=True)]


def test_the_vendors_people_and_the_contacts_join_the_clients_story(memory):
    """Made-up names, the register of a real client log: the contacts answer "who's the contact?"
    (one owns it, one is "their practice manager"), a vendor is named and then said to be theirs,
    and a later session speaks of the vendor's man alone. A chit-chat turn stays out."""
    memory.add_many(
        _turns(
            [
                (
                    "s1",
                    "2026-03-02T09:00:00+00:00",
                    "user",
                    "Signed a new one: Pellbrook Vets, four clinics around Kelso.",
                ),
                ("s1", "2026-03-02T09:01:00+00:00", "assistant", "Noted: Pellbrook Vets. Who's the contact?"),
                (
                    "s1",
                    "2026-03-02T09:02:00+00:00",
                    "user",
                    "Dr Helen Moss owns it. Day to day it's Tomas, their practice manager.",
                ),
                (
                    "s1",
                    "2026-03-02T09:03:00+00:00",
                    "user",
                    "Bookings go through PetLedger, that's their clinic system.",
                ),
                (
                    "s2",
                    "2026-03-10T09:00:00+00:00",
                    "user",
                    "PetLedger still hasn't sent the API keys. Their guy Steve Rudd says Friday.",
                ),
                (
                    "s3",
                    "2026-03-16T09:00:00+00:00",
                    "user",
                    "Keys finally came through from Steve Rudd. Sync works now.",
                ),
                ("s3", "2026-03-16T09:05:00+00:00", "user", "lol the kettle broke again"),
            ]
        )
    )
    memory.consolidate(now=datetime.fromisoformat("2026-03-17T09:00:00+00:00"))
    texts = _timeline_texts(memory, "Pellbrook Vets")
    assert any("Tomas" in t for t in texts) and any(
        "PetLedger" in t and "their clinic system" in t for t in texts
    )
    assert any("Keys finally came through from Steve Rudd" in t for t in texts)  # the vendor's man alone
    assert not any("kettle" in t for t in texts)


def test_someone_named_mostly_in_a_clients_events_joins_its_story_but_a_colleague_does_not(memory):
    """Made-up names. Megan is never introduced as theirs, but two of her three events are the
    client's own: her third, in a later session that names no firm, is the client's story. Victor
    (ours) is named across two clients' threads and in small talk: his turns stay out."""
    memory.add_many(
        _turns(
            [
                (
                    "s1",
                    "2026-03-02T09:00:00+00:00",
                    "user",
                    "New client: Corbel Dental, three clinics around Leeds.",
                ),
                (
                    "s1",
                    "2026-03-02T09:02:00+00:00",
                    "user",
                    "Corbel Dental wants the booking page live by 12 May, Megan is sorting the copy.",
                ),
                (
                    "s1",
                    "2026-03-02T09:04:00+00:00",
                    "user",
                    "Corbel Dental asked Megan to send over the logo files too.",
                ),
                ("s1", "2026-03-02T09:06:00+00:00", "user", "Ask Victor to draft the Corbel Dental quote."),
                (
                    "s2",
                    "2026-03-03T09:00:00+00:00",
                    "user",
                    "Harwick Joinery signed, Victor is drafting the Harwick Joinery quote.",
                ),
                (
                    "s3",
                    "2026-03-09T09:00:00+00:00",
                    "user",
                    "Megan finally sent the logo files, the svg ones.",
                ),
                ("s3", "2026-03-09T09:05:00+00:00", "user", "Victor is off sick today."),
            ]
        )
    )
    memory.consolidate(now=datetime.fromisoformat("2026-03-10T09:00:00+00:00"))
    story = memory.story("Corbel Dental")
    by_text = {h.event.text: h.path for h in story.hits}
    sent = [path for text, path in by_text.items() if "finally sent the logo files" in text]
    assert sent and any("Megan" in step for step in sent[0]), by_text
    assert not any("off sick" in text for text in by_text), by_text
    assert not any("Harwick" in text for text in by_text), by_text


def test_a_latin_firm_named_by_a_plural_in_chinese_text_is_an_organisation():
    from simplemem_graph.compress.names import find_latin_names_in_zh

    found = [(m.kind, m.value) for m in find_latin_names_in_zh("Corbel Dentists那边Priti Shah回邮件了")]
    assert found == [("org", "Corbel Dentists"), ("person", "Priti Shah")]


def test_a_handover_whose_leaver_is_named_in_the_clause_before_is_chained(memory):
    # Stage 1 cuts the turn into "Jonah is leaving ... April." and "Marisol takes over ...": who leaves
    # is named only in the first clause, which is part of the handover, not the replaced fact.
    memory.add_many(
        _turns(
            [
                ("s1", "2026-02-02T09:00:00+00:00", "user", "Signed Tolworth Opticians, £900 a month."),
                ("s1", "2026-02-02T09:05:00+00:00", "user", "Day to day it's Jonah, their practice manager."),
                (
                    "s2",
                    "2026-04-02T09:00:00+00:00",
                    "user",
                    "Jonah is leaving Tolworth Opticians end of April. Marisol takes over as practice "
                    "manager, she's our contact from now on",
                ),
            ]
        )
    )
    links = [(n, o, p) for n, o, p in _links(memory, LinkKind.SUPERSEDES) if p.get("attribute") == "contact"]
    assert links, "the handover made no SUPERSEDES link"
    newer, older, _props = links[0]
    assert "Marisol" in newer.text and "Jonah" in older.text and "leaving" not in older.text


def test_a_new_contact_named_without_anyone_leaving_replaces_nobody(memory):
    memory.add_many(
        _turns(
            [
                ("s1", "2026-02-02T09:00:00+00:00", "user", "Signed Tolworth Opticians, £900 a month."),
                ("s1", "2026-02-02T09:05:00+00:00", "user", "Day to day it's Jonah, their practice manager."),
                (
                    "s2",
                    "2026-04-02T09:00:00+00:00",
                    "user",
                    "Tolworth Opticians are opening a second branch. Marisol takes over as its manager",
                ),
            ]
        )
    )
    links = [(n, o, p) for n, o, p in _links(memory, LinkKind.SUPERSEDES) if p.get("attribute") == "contact"]
    assert not any("Jonah" in o.text for _, o, _ in links), links
