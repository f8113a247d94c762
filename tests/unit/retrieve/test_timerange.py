"""Time ranges from query words, anchored at the question's own time (not the wall clock)."""

from datetime import date, datetime, timedelta, timezone

import pytest

from simplemem_graph.retrieve.timerange import TimeRange, parse_time_range

# A Wednesday, in UTC+8.
AT = datetime(2026, 3, 11, 10, 0, tzinfo=timezone(timedelta(hours=8)))


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did we agree last week?", date(2026, 3, 2), date(2026, 3, 8)),
        ("上周锐拓怎么说的？", date(2026, 3, 2), date(2026, 3, 8)),
        ("anything new this week", date(2026, 3, 9), date(2026, 3, 15)),
        ("what happened yesterday", date(2026, 3, 10), date(2026, 3, 10)),
        ("昨天开会说了什么", date(2026, 3, 10), date(2026, 3, 10)),
        ("what did Ana do in February?", date(2026, 2, 1), date(2026, 2, 28)),
        ("2月份锐拓那边都发生了什么？", date(2026, 2, 1), date(2026, 2, 28)),
        # A month later than `at` with no year is last year's.
        ("what happened in October", date(2025, 10, 1), date(2025, 10, 31)),
        ("10月份的报价", date(2025, 10, 1), date(2025, 10, 31)),
        ("what happened in May 2023", date(2023, 5, 1), date(2023, 5, 31)),
        ("what was said on 8 May, 2023", date(2023, 5, 8), date(2023, 5, 8)),
        ("上个月的发票", date(2026, 2, 1), date(2026, 2, 28)),
        ("three days ago", date(2026, 3, 8), date(2026, 3, 8)),
        ("三天前", date(2026, 3, 8), date(2026, 3, 8)),
        ("last year", date(2025, 1, 1), date(2025, 12, 31)),
        ("去年", date(2025, 1, 1), date(2025, 12, 31)),
    ],
)
def test_ranges_are_anchored_at_question_time(query, start, end):
    found = parse_time_range(query, AT)
    assert found is not None, query
    assert (found.start, found.end) == (start, end)


def test_question_time_not_wall_clock():
    # 2023-05-08 is a Monday: last week is Monday 1 May to Sunday 7 May.
    later = parse_time_range("last week", datetime(2023, 5, 8, 13, 56))
    assert (later.start, later.end) == (date(2023, 5, 1), date(2023, 5, 7))


def test_local_date_of_the_offset_is_used():
    # 2026-03-11 01:00 at +08:00 is still 2026-03-10 in UTC; "yesterday" is the local 2026-03-10.
    early = datetime(2026, 3, 11, 1, 0, tzinfo=timezone(timedelta(hours=8)))
    assert parse_time_range("yesterday", early).start == date(2026, 3, 10)


def test_open_ranges():
    assert parse_time_range("what did we sign before March 5", AT) == TimeRange(
        None, date(2026, 3, 4), "March 5"
    )
    assert parse_time_range("what is due by March 10", AT).end == date(2026, 3, 10)
    after = parse_time_range("since 2026-02-01", AT)
    assert (after.start, after.end) == (date(2026, 2, 1), None)
    zh = parse_time_range("2026年2月3日之前", AT)
    assert (zh.start, zh.end) == (None, date(2026, 2, 2))


def test_before_an_event_uses_the_anchor_lookup():
    asked = []

    def anchor(phrase):
        asked.append(phrase)
        return date(2026, 2, 1)

    found = parse_time_range("what changed after the launch?", AT, find_anchor=anchor)
    assert asked == ["launch"]
    assert (found.start, found.end) == (date(2026, 2, 2), None)


def test_no_time_words_no_range():
    assert parse_time_range("May I ask what Acme wants?", AT) is None
    assert parse_time_range("锐拓的报价是多少", AT) is None
    assert parse_time_range("what changed after the launch?", AT, find_anchor=lambda phrase: None) is None


@pytest.mark.parametrize(
    ("query", "named_only"),
    [
        # From the asking day on, not asked about the past: a plan's day, only named dates count.
        ("Can you recommend a movie to watch tonight?", True),
        ("what should I cook tomorrow", True),
        ("明天去哪玩？", True),
        ("今晚吃什么好", True),
        # Asked about the past, or a range that began before today: the days things were said too.
        ("what did I do today?", False),
        ("我今天干了什么？", False),
        ("anything new this week", False),
        ("what happened yesterday", False),
    ],
)
def test_a_range_from_today_on_counts_only_named_dates_unless_asked_about_the_past(query, named_only):
    assert parse_time_range(query, AT).named_only is named_only


def test_a_named_only_range_holds_the_dates_a_memory_names_not_the_day_it_was_said():
    from simplemem_graph.models import Event
    from simplemem_graph.retrieve.query import event_in_range

    tonight = parse_time_range("a movie to watch tonight?", AT)
    said_today = Event(id="a", namespace="t", text="now choose your own topic", time=AT, source_ids=["s:1"])
    planned = Event(
        id="b", namespace="t", text="cinema with Mia on 2026-03-11", time=AT - timedelta(days=3),
        dates=[date(2026, 3, 11)], source_ids=["s:2"],
    )
    assert not event_in_range(said_today, tonight) and event_in_range(planned, tonight)
    today = parse_time_range("what did I do today?", AT)
    assert event_in_range(said_today, today)
