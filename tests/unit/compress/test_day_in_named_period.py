""" "last week on Monday", "last month, on the 15th", "on March 3rd last year": a day said beside
a period is that day of that period (read alone from today it was this week's Monday, this year's
March 3rd), for random anchors across year ends; and no word a weekday's letters open ("month")
reads as that weekday."""

from __future__ import annotations

import calendar
import random
from datetime import date, timedelta

import pytest

from simplemem_graph.compress.dates_en import find_dates_en
from simplemem_graph.dates import week_start
from tests.date_text import MONTHS, ordinal, random_day

_WEEKDAYS = list(calendar.day_name)



def _day_values(text: str, today: date, past: bool, word: str) -> list[date]:
    return [date.fromisoformat(m.value) for m in find_dates_en(text, today, past=past) if word in m.surface]


@pytest.mark.parametrize("seed", range(30))
def test_a_weekday_beside_last_or_next_week_is_that_weeks(seed):
    rng = random.Random(seed)
    today = random_day(rng, 2024)
    wd = rng.randrange(7)
    shift, text = rng.choice(
        [(-1, "I started the job last week{} on {}."), (1, "We'll meet next week{} on {}.")]
    )
    text = text.format(rng.choice(["", ","]), _WEEKDAYS[wd])
    expected = week_start(today) + timedelta(weeks=shift, days=wd)
    assert _day_values(text, today, shift < 0, _WEEKDAYS[wd]) == [expected], (text, today)


@pytest.mark.parametrize("seed", range(30))
def test_a_day_of_month_beside_last_month_is_that_months(seed):
    rng = random.Random(seed)
    today = random_day(rng, 2024)
    day = rng.randrange(1, 29)
    text = f"I went to the clinic last month, on the {ordinal(day)}."
    first = (today.replace(day=1) - timedelta(days=1)).replace(day=day)
    assert _day_values(text, today, True, f"the {day}") == [first], (text, today)


@pytest.mark.parametrize("seed", range(30))
def test_a_month_and_day_beside_last_year_is_last_years(seed):
    rng = random.Random(seed)
    today = random_day(rng, 2024)
    month, day = rng.randrange(1, 13), rng.randrange(1, 29)
    said = f"{MONTHS[month - 1]} {ordinal(day)}"
    text = rng.choice([f"We moved in last year on {said}.", f"We moved in on {said} last year."])
    assert _day_values(text, today, True, said) == [date(today.year - 1, month, day)], (text, today)


@pytest.mark.parametrize("seed", range(20))
def test_a_past_date_after_the_word_month_stays_in_the_past(seed):
    """ "got engaged last month on May 15th", said on 15 May: "month" read as "Mon…" made the
    date the nearest 15 May that is a Monday, a year ahead."""
    rng = random.Random(seed)
    today = random_day(rng, 2022)
    said = f"{MONTHS[today.month - 1]} {ordinal(today.day)}"
    got = _day_values(f"My friend got engaged last month on {said}.", today, True, said)
    assert got and all(d <= today for d in got), (said, today, got)


def test_a_capitalised_short_weekday_still_dates_its_day():
    # 27 November 2026 is a Friday: "Fri" says which year, whatever the tense guessed
    got = _day_values("handover Fri 27 Nov was moved", date(2027, 1, 10), False, "27 Nov")
    assert got == [date(2026, 11, 27)]


@pytest.mark.parametrize(
    ("text", "today", "day"),
    [
        # LongMemEval dev user turns, past tense, each read into the future before
        ("I closed the deal last month, on the 15th, and I'm excited.", date(2023, 5, 27), "2023-04-15"),
        ("I commented on her post last week, on Wednesday I think.", date(2023, 5, 26), "2023-05-17"),
        ("I got the lamp at an estate sale on the 22nd last month.", date(2023, 5, 24), "2023-04-22"),
        # a period around today keeps the reading from today: the Saturday before, said on a Saturday
        ("I attended her graduation on a sunny Saturday in late May.", date(2022, 5, 28), "2022-05-21"),
    ],
)
def test_a_reported_day_in_a_named_period(text, today, day):
    spans = [m.extra["span"] for m in find_dates_en(text, today, past=True)]
    days = [first for first, last in spans if first == last]
    assert days == [date.fromisoformat(day)]


@pytest.mark.parametrize("seed", range(20))
def test_a_day_counted_from_today_is_not_moved_by_a_period_beside_it(seed):
    rng = random.Random(seed)
    today = random_day(rng, 2024)
    back = rng.randrange(1, 6)
    text = rng.choice([f"I went there last week, {back} days ago.", "We met last month, yesterday actually."])
    back = back if "days ago" in text else 1
    spans = [m.extra["span"] for m in find_dates_en(text, today, past=True)]
    assert [first for first, last in spans if first == last] == [today - timedelta(days=back)], text
