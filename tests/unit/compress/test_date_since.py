""" "since <date>" names when something still running began: behind the turn whatever the tense
around it ("walking every morning since mid-January, and I want to keep going" was next January);
"since" opening a reason ("since Friday is a holiday") leaves the date ahead. A full stop after a
month's whole name is no abbreviation dot: "in June." restates as "in June (…)." Random anchors."""

from __future__ import annotations

import random
import re
from datetime import UTC, date, datetime, timedelta

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.models import Turn
from tests.date_text import MONTHS, ordinal, random_day


def _texts(text: str, today: date) -> list[str]:
    noon = datetime(today.year, today.month, today.day, 12, tzinfo=UTC)
    return [e.text for e in compress([Turn(id="t", session="s", speaker="Ana", time=noon, text=text)])]


@pytest.mark.parametrize("seed", range(40))
def test_since_a_month_is_behind_the_turn(seed):
    rng = random.Random(seed)
    today = random_day(rng, 2023)
    month = rng.randrange(1, 13)
    text = rng.choice(
        [
            f"I've been walking every morning since mid-{MONTHS[month - 1]}, and I want to keep going.",
            # LongMemEval dev: a plan in the next clause read the start ahead
            f"I've been doing morning walks since mid-{MONTHS[month - 1]}, and I want to make sure I don't "
            "schedule anything then.",
        ]
    )
    got = re.findall(r"\((\d{4})-(\d{2})-\d{2}/", " ".join(_texts(text, today)))
    year = today.year if (month, 15) <= (today.month, today.day) else today.year - 1
    assert got == [(str(year), f"{month:02d}")], (text, today, got)


def test_since_opening_a_reason_leaves_the_date_ahead():
    today = date(2023, 5, 24)  # a Wednesday
    said = " ".join(_texts("I'll wait since Friday is a holiday.", today))
    assert "since Friday (2023-05-26) is a holiday" in said


@pytest.mark.parametrize("month", MONTHS)
def test_a_month_at_the_end_of_a_sentence_is_annotated_before_the_full_stop(month):
    text = " ".join(_texts(f"I moved here in {month}.", date(2023, 5, 24)))
    assert re.search(rf"in {month} \(\d{{4}}-\d{{2}}\)", text), text


@pytest.mark.parametrize("seed", range(25))
def test_since_a_day_is_behind_the_turn(seed):
    """ "swimming lessons at the YMCA since September 1st", said on 28 May, read the coming September."""
    rng = random.Random(seed)
    today = random_day(rng, 2023)
    began = today - timedelta(days=rng.randrange(1, 330))
    said = f"{MONTHS[began.month - 1]} {ordinal(began.day)}"
    text = f"I've already started taking swimming lessons at the YMCA since {said}."
    assert re.findall(r"\((\d{4}-\d{2}-\d{2})\)", " ".join(_texts(text, today))) == [began.isoformat()], text
