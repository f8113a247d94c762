"""A weekday or weekend said with an adverb of habit, or after 每, recurs: it names no date, in a
memory or in a question; said alone or with 上/这/下 it is one date. And a list joined by 、 stays in
one clause, so the information test cannot keep its first item and drop the rest."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.dates_zh import find_dates_zh
from simplemem_graph.compress.segment import split_clauses, split_sentences
from simplemem_graph.models import Turn
from simplemem_graph.retrieve.timerange import parse_time_range

TODAY = date(2025, 9, 10)  # a Wednesday
AT = datetime(2025, 9, 10, 20, 0, tzinfo=timezone(timedelta(hours=8)))


@pytest.mark.parametrize(
    "text",
    [
        "我一般周末去书店看书",
        "她平时周五都加班",
        "每个周末我都去游泳",
        "我每周三上吉他课",
        "有时候周末会去爬山",
    ],
)
def test_a_recurring_weekday_or_weekend_names_no_date(text):
    assert find_dates_zh(text, TODAY) == []
    assert parse_time_range(text + "？", AT) is None


@pytest.mark.parametrize(
    ("text", "first_day"),
    [
        ("周末去爬了香山", date(2025, 9, 6)),  # said on a Wednesday: the weekend just gone
        ("这周末一般人都去哪？", date(2025, 9, 13)),  # 这 makes it one weekend, whatever follows
        ("上周五我去了趟苏州", date(2025, 9, 5)),
    ],
)
def test_a_single_weekday_or_weekend_is_still_a_date(text, first_day):
    found = find_dates_zh(text, TODAY, past="了" in text)
    assert found and min(found[0].extra["span"]) == first_day


def test_an_enumeration_comma_does_not_end_a_clause():
    text = "我想去几个地方，比如九寨沟、桂林、张家界等，你去过吗？"
    sentence = split_sentences(text)[0]
    assert [c.text for c in split_clauses(text, sentence)] == [
        "我想去几个地方",
        "比如九寨沟、桂林、张家界等",
        "你去过吗？",
    ]


def test_every_item_of_a_list_reaches_the_memory():
    turn = Turn(
        id="t1",
        session="s1",
        speaker="user",
        time=AT,
        text="我想去几个地方，比如九寨沟、桂林、张家界等，你去过吗？",
    )
    texts = " ".join(e.text for e in compress([turn]))
    assert all(place in texts for place in ("九寨沟", "桂林", "张家界"))
