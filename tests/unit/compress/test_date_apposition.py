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
