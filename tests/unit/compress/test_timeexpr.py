"""Date and time resolution from the turn's local date, on Chinese and English rules."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.mentions import resolve_overlaps
from simplemem_graph.compress.timeexpr import find_dates, find_times, local_date
from simplemem_graph.models import Turn


def _dates(text: str, today: str, lang: str, past: bool = False) -> list[tuple[str, str]]:
    found = resolve_overlaps(find_dates(text, date.fromisoformat(today), lang, past=past))
    return [(m.surface, m.value) for m in found]


@pytest.mark.parametrize(
    ("text", "today", "expected"),
    [
        ("下周二上午开会", "2026-03-10", [("下周二", "2026-03-17")]),
        ("周五之前发过来", "2026-06-24", [("周五之前", "2026-06-26")]),
        ("月底之前答复", "2026-01-29", [("月底之前", "2026-01-31")]),
        ("后天出发", "2026-05-18", [("后天", "2026-05-20")]),
        ("大后天去机场", "2026-07-15", [("大后天", "2026-07-18")]),
        ("下个月5号之前交", "2026-02-26", [("下个月5号之前", "2026-03-05")]),
        ("两周后回复", "2026-07-26", [("两周后", "2026-08-09")]),
        ("3天后到", "2026-08-03", [("3天后", "2026-08-06")]),
        ("下下周一开始", "2026-11-05", [("下下周一", "2026-11-16")]),
        ("上周五打款", "2026-01-20", [("上周五", "2026-01-16")]),
        ("赶不上8月3日的发布会", "2026-07-26", [("8月3日", "2026-08-03")]),
        ("下周三之前", "2026-12-28", [("下周三之前", "2027-01-06")]),
        ("上个月16号付的定金", "2026-02-02", [("上个月16号", "2026-01-16")]),
    ],
)
def test_chinese_dates(text, today, expected):
    assert _dates(text, today, "zh") == expected


@pytest.mark.parametrize(
    ("text", "today", "expected"),
    [
        ("the quote by Wednesday next week", "2026-02-06", [("by Wednesday next week", "2026-02-11")]),
        ("call him next Tuesday", "2026-03-10", [("next Tuesday", "2026-03-17")]),
        ("remind me the day after tomorrow", "2026-05-18", [("the day after tomorrow", "2026-05-20")]),
        ("that means end of next month", "2026-01-27", [("end of next month", "2026-02-28")]),
        ("by end of the month", "2026-01-27", [("by end of the month", "2026-01-31")]),
        ("sign it within 10 days", "2026-08-03", [("within 10 days", "2026-08-13")]),
        ("ship it in 3 days", "2026-08-03", [("in 3 days", "2026-08-06")]),
        ("they confirmed two days ago", "2026-03-25", [("two days ago", "2026-03-23")]),
        ("before December 20, call", "2026-12-10", [("before December 20", "2026-12-20")]),
        ("the kickoff on October 14", "2026-10-02", [("on October 14", "2026-10-14")]),
        ("it was on January 5", "2026-12-10", [("on January 5", "2027-01-05")]),  # >90 days back: next year
        ("I went there yesterday", "2023-05-08", [("yesterday", "2023-05-07")]),
        ("we met last Saturday", "2023-05-08", [("last Saturday", "2023-05-06")]),
        ("I ran a race two weekends ago", "2023-05-08", [("two weekends ago", "2023-04-29")]),
        ("we moved last week", "2023-05-10", [("last week", "2023-05-01")]),
        ("this Thursday morning", "2026-02-17", [("this Thursday", "2026-02-19")]),
    ],
)
def test_english_dates(text, today, expected):
    assert _dates(text, today, "en") == expected


def test_bare_weekday_follows_tense():
    assert _dates("I saw her on Monday", "2026-03-12", "en", past=True) == [("Monday", "2026-03-09")]
    assert _dates("I will see her on Monday", "2026-03-12", "en") == [("Monday", "2026-03-16")]


def test_local_date_uses_the_turns_own_offset():
    # 2026-03-01 01:30 in Shanghai is still 2026-02-28 in UTC: the local date wins.
    moment = datetime.fromisoformat("2026-03-01T01:30:00+08:00")
    assert local_date(moment) == date(2026, 3, 1)


def test_deadline_flag_and_restatement():
    [m] = find_dates("下周二之前交", date(2026, 3, 10), "zh")
    assert m.extra["deadline"] is True
    assert m.extra["replacement"] == "下周二(2026-03-17)之前"  # the surface stays, the date follows it
    [m] = resolve_overlaps(find_dates("send it by Friday", date(2026, 6, 8), "en"))
    assert (m.extra["deadline"], m.extra["replacement"]) == (True, "by Friday (2026-06-12)")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("下午两点半到三楼", [("下午两点半", "14:30")]),
        ("上午10点开会", [("上午10点", "10:00")]),
        ("明天中午之前", [("中午", "12:00")]),
        ("at 7:30 pm tomorrow", [("7:30 pm", "19:30")]),
        ("the deck by 9 am.", [("9 am", "09:00")]),
        ("快一点", []),  # "a bit faster", not one o'clock
    ],
)
def test_times(text, expected):
    assert [(m.surface, m.value) for m in find_times(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected_text", "expected_date"),
    [
        # A named month's edge keeps its month number; 月初 is the first ten days.
        ("3月初交货", "3月初(2026-03-01/2026-03-10)交货", "2026-03-01"),
        ("4月底前完成", "4月底(2026-04-30)前完成", "2026-04-30"),
        ("十二月底结账", "十二月底(2026-12-31)结账", "2026-12-31"),
        # 之前 marks a deadline, not the past tense.
        ("15号之前交", "15号(2026-02-15)之前交", "2026-02-15"),
    ],
)
def test_named_month_edges_and_deadlines(text, expected_text, expected_date):
    turn = Turn(
        id="t", session="s", time=datetime(2026, 2, 10, 10, tzinfo=timezone(timedelta(hours=8))), text=text
    )
    (event,) = compress([turn])
    assert event.text == expected_text
    assert expected_date in [d.isoformat() for d in event.dates]


def test_chinese_numeral_day_count_is_not_a_date():
    turn = Turn(
        id="t",
        session="s",
        time=datetime(2026, 2, 10, 10, tzinfo=timezone(timedelta(hours=8))),
        text="每延期一日扣款500元",
    )
    (event,) = compress([turn])
    assert "一日" in event.text and event.dates == []


def test_a_count_beyond_the_calendar_is_left_as_text_not_a_crash():
    """LongMemEval: "formed 5000 years ago" crashed a whole haystack's ingest (year -4977)."""
    from datetime import date

    from simplemem_graph.compress.timeexpr import find_dates

    today = date(2023, 5, 1)
    assert find_dates("The canyon formed 5000 years ago.", today, "en") == []
    assert find_dates("in 999999999 days, 9999999999 weekends ago", today, "en") == []
    assert find_dates("这座城有5000年前的城墙", today, "zh") == []
    assert [m.value for m in find_dates("3天后再说", today, "zh")] == ["2023-05-04"]


@pytest.mark.parametrize("seed", range(6))
def test_an_arrangement_in_the_past_tense_points_ahead(seed):
    """ "约了5月20号去…" / "booked … for May 20", said a few days before, is this year's date: the
    past tense is the arranging, not the day. A plain past "went on" a later date is last year's."""
    import random

    rng = random.Random(seed)
    said = datetime(2026, 1, 10, 9, tzinfo=UTC) + timedelta(days=rng.randint(0, 300))
    ahead = (said + timedelta(days=rng.randint(2, 25))).date()
    md_zh, md_en = f"{ahead.month}月{ahead.day}号", f"{ahead.strftime('%B')} {ahead.day}"
    cases = [
        (f"约了{md_zh}去看牙医，别让我忘了。", ahead),
        (f"体检改到{md_zh}了。", ahead),
        (f"I booked the dentist for {md_en}.", ahead),
        (f"We rescheduled the review to {md_en}.", ahead),
        (f"We went to the lake on {md_en}.", ahead.replace(year=ahead.year - 1)),
    ]
    for text, expected in cases:
        turn = Turn(id="t", session="s", speaker="Dana", time=said, text=text)
        assert [d for e in compress([turn]) for d in e.dates] == [expected], text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("工期顺延到7月15", [("7月15", "2026-07-15")]),
        ("7月15，再说", [("7月15", "2026-07-15")]),
        ("3月15万元的单子", []),  # a figure after the day: an amount, no date
        ("5月3个人去", []),
        ("3月1.5吨", []),
    ],
)
def test_a_chinese_day_without_ri_or_hao_is_a_date_when_nothing_follows_it(text, expected):
    assert _dates(text, "2026-04-01", "zh") == expected


def test_the_date_a_move_is_from_was_ahead_too():
    """ "moved from 28 March to 21 March", said before both: the plan moved from is this year's."""
    said = datetime(2026, 3, 10, 9, tzinfo=UTC)
    turn = Turn(
        id="t", session="s", speaker="Dana", time=said, text="Go-live moved from 28 March to 21 March."
    )
    assert sorted(d for e in compress([turn]) for d in e.dates) == [date(2026, 3, 21), date(2026, 3, 28)]
