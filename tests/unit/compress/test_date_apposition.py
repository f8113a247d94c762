"""A date standing alone between commas restates what the clause before it says: its tense is that
clause's ("I got the ticket on Valentine's Day, February 14th, which was $40" is behind the turn,
not next February), and a weekday before a dated day is that day, not a second date ("on Saturday,
June 10th" is one day, not also the coming Saturday). Random anchors across year ends."""

from __future__ import annotations

import calendar
import random
import re
from datetime import UTC, date, datetime, timedelta

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.models import Turn
from tests.date_text import MONTHS, ordinal, random_day


def _dates(text: str, today: date) -> list[str]:
    noon = datetime(today.year, today.month, today.day, 12, tzinfo=UTC)
    turn = Turn(id="t", session="s", speaker="Ana", time=noon, text=text)
    return [d for e in compress([turn]) for d in re.findall(r"\((\d{4}-\d{2}-\d{2})\)", e.text)]


@pytest.mark.parametrize("seed", range(25))
def test_a_date_in_apposition_takes_the_tense_of_the_clause_before(seed):
    rng = random.Random(seed)
    today = random_day(rng, 2023)
    said = today - timedelta(days=rng.randrange(95, 300))  # beyond the 90 days a plan may look back
    name = f"{MONTHS[said.month - 1]} {ordinal(said.day)}"
    text = f"I got that parking ticket on my birthday, {name}, which was $40."
    got = _dates(text, today)
    assert got == [said.isoformat()], (text, today, got)


@pytest.mark.parametrize("seed", range(25))
def test_a_weekday_before_a_dated_day_is_that_day(seed):
    rng = random.Random(seed)
    today = random_day(rng, 2023)
    day = today + timedelta(days=rng.randrange(8, 60))
    name = f"{calendar.day_name[day.weekday()]}, {MONTHS[day.month - 1]} {ordinal(day.day)}"
    got = _dates(f"The party is on {name}.", today)
    assert got == [day.isoformat()], (name, today, got)


@pytest.mark.parametrize("seed", range(25))
def test_a_chinese_date_before_a_done_verb_and_de_is_behind_the_turn(seed):
    """是…的 says when a done thing happened ("我们是2月14号那天认识的", "这本书是2月14号买的"), more
    than 90 days ago too; a date followed by 的 alone ("车票是…的") or a plan ("要交的") is not it."""
    rng = random.Random(seed)
    today = random_day(rng, 2023)
    said = today - timedelta(days=rng.randrange(95, 300))
    name = f"{said.month}月{said.day}号"
    done = rng.choice([f"我们是{name}那天认识的。", f"这本书是{name}买的。", f"我们{name}认识的。"])
    assert _dates(done, today) == [said.isoformat()], (done, today)
    ahead = today + timedelta(days=rng.randrange(5, 60))
    plan = f"这个报告是{ahead.month}月{ahead.day}号要交的。"
    assert _dates(plan, today) == [ahead.isoformat()], (plan, today)


_ZH_WEEKDAY = "一二三四五六日"


@pytest.mark.parametrize("seed", range(25))
def test_a_chinese_weekday_after_a_dated_day_is_that_day(seed):
    """ "11月2号礼拜一开餐", "12月7日（周一）起": the weekday names the dated day, no second date (read
    alone from today it was another week's day), and it says the year when the tense cannot
    ("3月5日星期四" said in October, five months after a Thursday 5 March)."""
    rng = random.Random(seed)
    today = random_day(rng, 2023)
    day = today + timedelta(days=rng.randrange(8, 60))
    weekday = rng.choice(["礼拜", "星期", "周"]) + _ZH_WEEKDAY[day.weekday()]
    written = rng.choice([f"{day.month}月{day.day}号{weekday}", f"{day.month}月{day.day}日（{weekday}）"])
    text = rng.choice([f"{written}开餐，12点前送到。", f"{written}起加夜班宵夜40份。"])
    assert _dates(text, today) == [day.isoformat()], (text, today)
    # a date more than 90 days back, which a plan's tense would read as next year's
    back = today - timedelta(days=rng.randrange(120, 240))
    said = f"{back.month}月{back.day}日星期{_ZH_WEEKDAY[back.weekday()]}那天我们开了会。"
    assert _dates(said, today) == [back.isoformat()], (said, today)
