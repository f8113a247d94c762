"""The dual compression trigger (compress/trigger.py): a rich turn is a memory on its own; short
consecutive turns on one topic become one memory; a change of topic or a rich turn closes the window.

Speakers are random letter strings and dates random, so nothing here leans on a known name."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph.compress import CompressStats, compress
from simplemem_graph.compress.guard import missing_atoms
from simplemem_graph.compress.trigger import (
    INFORMATION_THRESHOLD,
    TRIGGER_ACCUMULATED,
    TRIGGER_INFORMATION,
    information,
)


def _name(rng: random.Random) -> str:
    syllables = [rng.choice("bdfgklmnprstvz") + rng.choice("aeiou") for _ in range(3)]
    return "".join(syllables).capitalize()


def _turns(rng: random.Random, lines: list[tuple[int, str]], session: str = "s1"):
    from simplemem_graph.models import Turn

    speakers = [_name(rng), _name(rng)]
    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC) + timedelta(days=rng.randint(0, 300))
    turns = [
        Turn(
            id=f"{session}:{i}",
            session=session,
            speaker=speakers[who],
            time=start + timedelta(minutes=i),
            text=text,
        )
        for i, (who, text) in enumerate(lines)
    ]
    return turns, speakers


def _run(turns):
    stats = CompressStats()
    return compress(turns, stats=stats), stats


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    "lines",
    [
        [(0, "Can we meet tomorrow?"), (1, "Yes, at 3pm.")],
        [(0, "明天能见面吗？"), (1, "可以，下午三点。")],
    ],
)
def test_short_turns_on_one_topic_become_one_memory_naming_each_speaker(seed, lines):
    turns, speakers = _turns(random.Random(seed), lines)
    events, stats = _run(turns)
    assert len(events) == 1
    (event,) = events
    assert event.source_ids == [t.id for t in turns]
    assert event.trigger == TRIGGER_ACCUMULATED
    assert event.time == turns[0].time
    # The reply names who gave it; the question names its asker (in the text or as a prefix).
    assert speakers[0] in event.text and speakers[1] in event.text
    assert {p.name for p in event.participants} >= {speakers[1]}
    assert {a.kind for a in event.atoms} >= {"date", "time"}
    assert missing_atoms(event) == []  # still lossless: every atom of both turns is in the text
    assert (stats.turns_alone, stats.turns_accumulated, stats.windows) == (0, 2, 1)


@pytest.mark.parametrize("seed", range(3))
def test_a_rich_turn_is_a_memory_on_its_own_and_closes_the_open_window(seed):
    rng = random.Random(seed)
    carrier = _name(rng)
    turns, _ = _turns(
        rng,
        [
            (0, "Can we meet tomorrow?"),
            (
                1,
                f"The invoice from {carrier} Haulage for 3,400 dollars is due on June 12, paid first.",
            ),
        ],
    )
    events, stats = _run(turns)
    assert [e.source_ids for e in events] == [[turns[0].id], [turns[1].id]]  # turn order kept
    assert [e.trigger for e in events] == [TRIGGER_ACCUMULATED, TRIGGER_INFORMATION]
    assert (stats.turns_alone, stats.turns_accumulated, stats.windows) == (1, 1, 0)


@pytest.mark.parametrize("seed", range(3))
def test_a_change_of_topic_closes_the_window(seed):
    rng = random.Random(seed)
    turns, _ = _turns(rng, [(0, "Can we meet tomorrow?"), (1, "My brother flew to Oslo.")])
    events, stats = _run(turns)
    assert [e.source_ids for e in events] == [[turns[0].id], [turns[1].id]]
    assert stats.windows == 0


def test_windows_are_per_session_and_ids_are_stable():
    rng = random.Random(7)
    first, _ = _turns(rng, [(0, "Can we meet tomorrow?"), (1, "Yes, at 3pm.")], session="a")
    other, _ = _turns(rng, [(0, "明天能见面吗？"), (1, "可以，下午三点。")], session="b")
    interleaved = [first[0], other[0], first[1], other[1]]
    events, stats = _run(interleaved)
    assert [e.source_ids for e in events] == [["a:0", "a:1"], ["b:0", "b:1"]]
    again, _ = _run(interleaved)
    assert [e.id for e in again] == [e.id for e in events]
    assert stats.turns == stats.turns_alone + stats.turns_accumulated + stats.turns_without_event


def test_information_counts_distinct_atoms_and_new_words():
    rng = random.Random(3)
    turns, _ = _turns(rng, [(0, "Yes, at 3pm.")])
    events, _ = _run(turns)
    assert information(events, set()) == 1
    assert information(events, {"a", "b", "c"}) == INFORMATION_THRESHOLD


@pytest.mark.parametrize("seed", range(3))
def test_the_same_short_report_made_weeks_apart_stays_one_event_per_week(seed):
    """A window is consecutive in time too: weekly repeats are separate events, each with its day."""
    from simplemem_graph.models import Turn

    rng = random.Random(seed)
    person, firm, speaker = f"{_name(rng)} {_name(rng)}", f"{_name(rng)} Holdings", _name(rng)
    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC) + timedelta(days=rng.randint(0, 300))
    turns = [
        Turn(
            id=f"w:{i}",
            session="w",
            speaker=speaker,
            time=start + timedelta(days=7 * i),
            text=f"{person} met {firm} for the weekly review",
        )
        for i in range(4)
    ]
    events = compress(turns)
    assert sorted(s for e in events for s in e.source_ids) == [t.id for t in turns]
    assert all(len(e.source_ids) == 1 for e in events)


@pytest.mark.parametrize("seed", range(3))
def test_a_short_turn_about_another_plan_is_not_merged_into_the_window(seed):
    """Two short plans in a row ("约了…去体检" then "剪头发改到…了") are two memories: the second
    says something of its own (剪头发, 改到) and shares nothing with the first."""
    rng = random.Random(seed)
    first, second = (
        datetime(2026, 1, 5, tzinfo=UTC) + timedelta(days=rng.randint(20, 300) + d) for d in (0, 1)
    )
    turns, _ = _turns(
        rng,
        [
            (0, f"约了{first.month}月{first.day}号去体检，别让我忘了。"),
            (0, f"剪头发改到{second.month}月{second.day}号了。"),
        ],
    )
    events, _ = _run(turns)
    assert [e.source_ids for e in events] == [[turns[0].id], [turns[1].id]]
