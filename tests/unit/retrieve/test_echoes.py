"""One slot per fact: an echo of a memory takes no second slot, but a memory that holds more than
the echo ranked above it keeps its own (the echo's thanks ranked first must not hide the name)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from simplemem_graph.models import Atom, Event
from simplemem_graph.retrieve import _without_echoes
from simplemem_graph.retrieve.recall import Candidate
from simplemem_graph.retrieve.rerank import Scored

T0 = datetime(2026, 5, 1, 20, tzinfo=UTC)


def _event(event_id: str, speaker: str, minutes: int, text: str, atoms: list[tuple[str, str]]) -> Scored:
    event = Event(
        id=event_id,
        namespace="u",
        text=text,
        source_ids=[event_id],
        session="s1",
        speaker=speaker,
        time=T0 + timedelta(minutes=minutes),
        atoms=[Atom(kind=kind, surface=value, value=value) for kind, value in atoms],
    )
    return Scored(Candidate(event_id), event, {}, 0.0)


def test_an_echo_ranked_below_what_it_repeats_takes_no_slot():
    said = _event(
        "said",
        "user",
        0,
        "Atlas migration for Brightwave, due April 30",
        [("org", "Brightwave"), ("date", "2026-04-30")],
    )
    echo = _event(
        "echo", "assistant", 1, "Noted: Brightwave, April 30", [("org", "Brightwave"), ("date", "2026-04-30")]
    )
    kept = _without_echoes([said, echo])
    assert [s.event.id for s in kept] == ["said"] and "echo echo" in kept[0].candidate.path


def test_a_memory_holding_more_than_the_echo_ranked_above_it_keeps_its_slot():
    said = _event(
        "said",
        "user",
        0,
        "是一部叫做《摔跤吧！爸爸》的电影",
        [("quantity", "一部"), ("product", "摔跤吧！爸爸")],
    )
    thanks = _event("thanks", "assistant", 1, "谢谢你跟我分享这一部电影", [("quantity", "一部")])
    assert [s.event.id for s in _without_echoes([thanks, said])] == ["thanks", "said"]
    # the other way round the thanks adds nothing: it is the echo
    assert [s.event.id for s in _without_echoes([said, thanks])] == ["said"]


def test_a_name_stage_1_tagged_only_in_the_original_is_no_more_when_the_echo_writes_it():
    said = _event(
        "said",
        "user",
        0,
        "The Cinder migration costs $17000 and is due May 18 (2026-05-18).",
        [("date", "2026-05-18"), ("money", "17000 USD"), ("product", "Cinder")],
    )
    echo = _event(
        "echo",
        "assistant",
        1,
        "Cinder migration, $17000, due May 18 (2026-05-18).",
        [("date", "2026-05-18"), ("money", "17000 USD")],
    )
    assert [s.event.id for s in _without_echoes([echo, said])] == ["echo"]
