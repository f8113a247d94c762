"""Active memory (issue 14): which slots a task, meeting or commitment lacks, and which later events
close them. Hand-built events (as stage 1 hands them over), a real embedded store, no model."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from simplemem_graph.consolidate.questions import build_questions, missing_slots, track_questions
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import Atom, Event, Participant, Quantity
from simplemem_graph.stores.queries import EventQuery

CST = timezone(timedelta(hours=8))
T0 = datetime(2026, 4, 7, 10, 0, tzinfo=CST)


def _event(
    event_id: str, text: str, minutes: int = 0, *, session: str = "s1", lang: str = "en", **fields
) -> Event:
    values = {
        "source_ids": [f"{session}:{event_id}"],
        "session": session,
        "time": T0 + timedelta(minutes=minutes),
    }
    values.update(fields)
    return Event(id=event_id, namespace="t", text=text, lang=lang, **values)


def test_a_task_without_deadline_or_owner_lacks_both():
    task = _event(
        "e1",
        "需要把合同发给Quorvex",
        lang="zh",
        action="发给",
        is_task=True,
        participants=[Participant(name="Quorvex", type="org", role="target")],
    )
    assert missing_slots(task) == ("task", ["deadline", "owner"])


def test_a_named_owner_and_a_date_fill_the_task():
    task = _event(
        "e1",
        "Brannoc will send the drawings to Telmira by 2026-04-12",
        action="send",
        deadline=date(2026, 4, 12),
        dates=[date(2026, 4, 12)],
        participants=[
            Participant(name="Brannoc", type="person", role="agent"),
            Participant(name="Telmira", type="person", role="target"),
        ],
    )
    assert missing_slots(task) == ("task", [])


def test_meetings_need_time_and_place_and_commitments_an_amount():
    meeting = _event("m1", "Dana and others need to meet Orsk", action="meet")
    assert missing_slots(meeting) == ("meeting", ["time", "place"])
    placed = _event(
        "m2",
        "We will meet Orsk at the Kelbury office on 2026-04-09",
        action="meet",
        dates=[date(2026, 4, 9)],
        atoms=[Atom(kind="date", surface="x", value="2026-04-09")],
    )
    assert missing_slots(placed) == ("meeting", [])
    debt = _event("c1", "Dana will pay Orsk back", action="pay", is_task=True)
    assert missing_slots(debt) == ("commitment", ["amount", "deadline"])
    priced = _event(
        "c2",
        "Dana will pay Orsk $400 by 2026-04-20",
        action="pay",
        deadline=date(2026, 4, 20),
        quantities=[Quantity(value=400, unit="USD", surface="$400", kind="money")],
    )
    assert missing_slots(priced) == ("commitment", [])


def test_statements_and_negations_ask_nothing():
    assert missing_slots(_event("s1", "Orsk visited Kelbury yesterday", action="visit")) == (None, [])
    assert missing_slots(_event("s2", "Dana will not meet Orsk", action="meet", negated=True)) == (None, [])


def test_a_reply_in_the_session_closes_the_latest_open_slot_and_opens_nothing_itself():
    task = _event("e1", "需要把合同发给Quorvex", lang="zh", action="发给", is_task=True)
    reply = _event(
        "e2",
        "张伟负责这件事",
        5,
        lang="zh",
        action="负责",
        is_task=True,
        participants=[Participant(name="张伟", type="person", role="agent")],
    )
    changes = track_questions([task, reply], {"e1": [], "e2": [task]})
    assert changes.batch == {"e1": ["deadline"], "e2": []}
    assert changes.counts == {"questions_opened": 2, "questions_closed": 1}


def test_a_new_task_about_other_people_does_not_close_an_earlier_question():
    earlier = _event(
        "e1",
        "Dana will pay Stenric back",
        action="pay",
        is_task=True,
        open_slots=["amount", "deadline"],
        participants=[Participant(name="Stenric", type="person", role="target")],
    )
    other = _event(
        "e2",
        "Dana will pay Brinric $900",
        5,
        session="s2",
        action="pay",
        is_task=True,
        quantities=[Quantity(value=900, unit="USD", surface="$900", kind="money")],
        participants=[Participant(name="Brinric", type="person", role="target")],
    )
    changes = track_questions([other], {"e2": [earlier]})
    assert changes.stored == {}
    assert changes.batch == {"e2": ["deadline"]}


def test_questions_are_written_and_closed_through_the_delta(tmp_path):
    from simplemem_graph.stores.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "m.db")
    meeting = _event(
        "m1",
        "Dana and others need to meet Orsk",
        action="meet",
        participants=[Participant(name="Orsk", type="org", role="target")],
    )
    delta = consolidate_batch([meeting], store)
    assert delta.counts["questions_opened"] == 2
    assert [e.open_slots for e in store.events("t", EventQuery(open_questions=True))] == [["time", "place"]]
    reply = _event("m2", "It will be at the Kelbury office", 3, action="be")
    delta = consolidate_batch([reply], store)
    assert delta.counts["questions_closed"] == 1
    assert store.events("t", EventQuery(ids=["m1"]))[0].open_slots == ["time"]
    store.close()
    reopened = EmbeddedStore(tmp_path / "m.db")
    [question] = build_questions(reopened.events("t", EventQuery(open_questions=True)), at=T0)
    assert (question.slot, question.question) == ("time", "When is the meeting?")
    reopened.close()


def test_questions_are_ranked_by_slot_then_recency_in_the_turns_language():
    old = _event(
        "a", "需要把合同发给Quorvex", lang="zh", action="发给", open_slots=["owner", "deadline"], is_task=True
    )
    new = _event(
        "b",
        "The drawings need to be sent to Orsk",
        60 * 24 * 10,
        action="send",
        open_slots=["owner"],
        is_task=True,
    )
    ranked = build_questions([old, new], at=T0 + timedelta(days=10))
    assert [(q.event.id, q.slot) for q in ranked] == [("a", "deadline"), ("b", "owner"), ("a", "owner")]
    assert ranked[0].question == "您希望什么时候完成？"
    assert ranked[1].public_dict()["source_ids"] == ["s1:b"]


def test_a_chinese_request_opens_a_deadline_question_as_an_english_one_does():
    # Stage 1 finds no action in a 把 request (整理 before 一下 reads as a noun); the verb that closes
    # the 把 construction makes it a task all the same.
    zh = _event(
        "z1",
        "帮我把给德瑞物流的季度对账单整理一下。",
        lang="zh",
        is_task=True,
        participants=[Participant(name="德瑞物流", type="org", role="target")],
    )
    en = _event(
        "e1",
        "Please prepare the onboarding deck for Halvorsen Marine.",
        action="prepare",
        is_task=True,
        participants=[Participant(name="Halvorsen Marine", type="org", role="target")],
    )
    assert missing_slots(en) == ("task", ["deadline"])
    assert missing_slots(zh) == ("task", ["deadline"])


def test_a_ba_clause_that_is_not_a_request_is_no_task():
    said = _event("z2", "把这个问题想清楚很重要。", lang="zh")
    assert missing_slots(said) == (None, [])
