"""Compression and query analysis read a time expression the same way (issue 12, item 6).

Each expression is said in a turn (compression dates the event) and asked in a question at the same
moment (query analysis gives a range): the range must contain the event's date, and the date must
have the expression's meaning, checked by calendar arithmetic written here rather than by the rules
under test. Anchors are random days (seeded), so week and month edges are crossed.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta, timezone

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.models import Turn
from simplemem_graph.retrieve.timerange import parse_time_range

_RNG = random.Random(20261203)
ANCHORS = [date(2024, 1, 1) + timedelta(days=_RNG.randrange(0, 3 * 366)) for _ in range(12)]
_TZ = timezone(timedelta(hours=8))


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _first_of_next_month(day: date) -> date:
    return (day.replace(day=28) + timedelta(days=4)).replace(day=1)


# (expression, said in a turn, asked in a question, what the date must be given the anchor)
CASES = [
    (
        "下周二",
        "下周二把报告发给李经理。",
        "下周二要发什么报告？",
        lambda a, d: d == _monday(a) + timedelta(days=8),
    ),
    (
        "上个月底",
        "上个月底我们签了合同。",
        "上个月底签了什么合同？",
        lambda a, d: d == a.replace(day=1) - timedelta(days=1),
    ),
    (
        "前天下午三点",
        "前天下午三点我和王总开了会。",
        "前天下午三点开了什么会？",
        lambda a, d: d == a - timedelta(days=2),
    ),
    (
        "上上周",
        "上上周我们去了苏州工厂。",
        "上上周去了哪里？",
        lambda a, d: d == _monday(a) - timedelta(days=14),
    ),
    (
        "月中",
        "月中要交季度报告。",
        "月中要交什么？",
        lambda a, d: (d.year, d.month) == (a.year, a.month) and 11 <= d.day <= 20,
    ),
    (
        "the Friday before last",
        "We signed the contract the Friday before last.",
        "What did we sign the Friday before last?",
        lambda a, d: d.weekday() == 4 and 8 <= (a - d).days <= 14,
    ),
    (
        "mid-March",
        "The audit starts mid-March.",
        "Which audit starts mid-March?",
        lambda a, d: d.month == 3 and 11 <= d.day <= 20 and abs((d - a).days) < 366,
    ),
    (
        "early next month",
        "The new hire joins early next month.",
        "Who joins early next month?",
        lambda a, d: d.replace(day=1) == _first_of_next_month(a) and d.day <= 10,
    ),
    (
        "last weekend",
        "We went hiking last weekend.",
        "Where did we go hiking last weekend?",
        lambda a, d: d.weekday() in (5, 6) and _monday(d) == _monday(a) - timedelta(days=7),
    ),
    (
        "next Tuesday",
        "Send the report by next Tuesday.",
        "What is due by next Tuesday?",
        lambda a, d: d == _monday(a) + timedelta(days=8),
    ),
]


_SURFACES = {"前天下午三点": ("前天", "下午三点")}


@pytest.mark.parametrize("anchor", ANCHORS, ids=str)
@pytest.mark.parametrize(("expression", "said", "asked", "meaning"), CASES, ids=[c[0] for c in CASES])
def test_compression_and_query_agree(nlp, anchor, expression, said, asked, meaning):
    moment = datetime(anchor.year, anchor.month, anchor.day, 10, 0, tzinfo=_TZ)
    turn = Turn(id="s1:1", session="s1", speaker="陈晓雯", time=moment, text=said)
    [event] = compress([turn], nlp=nlp)
    named = [d for d in event.dates if d != anchor] or event.dates
    assert len(named) == 1, (expression, anchor, event.dates)
    day = named[0]
    assert meaning(anchor, day), (expression, anchor, day)
    found = parse_time_range(asked, moment)
    assert found is not None, (asked, anchor)
    assert found.contains(day), (expression, anchor, day, found)
    # The restatement keeps the words as said and adds the resolved date (after the date word:
    # "前天(2026-03-09)下午三点", the clock time stays its own atom).
    for words in _SURFACES.get(expression, (expression,)):
        assert words in event.text, event.text
    if expression == "前天下午三点":
        assert ("time", "15:00") in {(a.kind, a.value) for a in event.atoms}
    assert day.isoformat()[:7] in event.text, event.text


def test_restatement_carries_the_iso_date(make_turn, nlp):
    [zh] = compress([make_turn("下周二之前把报告发给李经理", speaker="陈晓雯")], nlp=nlp)
    assert zh.text == "下周二(2026-03-17)之前把报告发给李经理"
    [absolute] = compress([make_turn("4月15日交货", speaker="陈晓雯")], nlp=nlp)
    assert absolute.text == "4月15日(2026-04-15)交货"
    [en] = compress([make_turn("Please send the report by next Tuesday.", speaker="Maya")], nlp=nlp)
    assert "by next Tuesday (2026-03-17)" in en.text


def test_iso_surface_is_not_annotated_twice(make_turn, nlp):
    [event] = compress([make_turn("合同2026-04-15之前签", speaker="陈晓雯")], nlp=nlp)
    assert event.text.count("2026-04-15") == 1
    [event] = compress([make_turn("We sign on 2026-04-15.", speaker="Maya")], nlp=nlp)
    assert event.text.count("2026-04-15") == 1


def test_annotation_does_not_split_a_clock_time(make_turn, nlp):
    # 晚 belongs to both the day word and the time atom "晚七点": the date follows the whole phrase.
    [event] = compress([make_turn("明晚七点在杭州请孙经理吃饭", speaker="陈晓雯")], nlp=nlp)
    assert not event.verbatim
    assert event.text.startswith("明晚七点(2026-03-11)")
    assert ("time", "19:00") in {(a.kind, a.value) for a in event.atoms}
