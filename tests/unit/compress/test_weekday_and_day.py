""" "Tuesday the 9th" names one day: the nearest 9th that falls on a Tuesday, ahead of a plan and
behind a report, for random anchors across year ends (never the two days each word names alone)."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest

from simplemem_graph.compress.dates_en import find_dates_en

_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _suffix(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


@pytest.mark.parametrize("seed", range(40))
def test_a_weekday_with_a_day_of_month_is_the_nearest_day_that_is_both(seed):
    rng = random.Random(seed)
    today = date(2024, 1, 1) + timedelta(days=rng.randrange(0, 3 * 365))
    wd, day = rng.randrange(7), rng.randrange(1, 29)
    past = rng.random() < 0.5
    text = f"{'It was' if past else 'The visit is'} on {_NAMES[wd]} the {day}{_suffix(day)}."
    found = [
        m for m in find_dates_en(text, today, past=past) if "the" in m.surface and _NAMES[wd] in m.surface
    ]
    assert len(found) == 1, text
    got = date.fromisoformat(found[0].value)
    assert got.weekday() == wd and got.day == day, (text, today, got)
    assert (got <= today) if past else (got >= today), (text, today, got)
    # nearest: no date between today and it is also that weekday and day
    step = -1 if past else 1
    probe = today
    while probe != got:
        assert not (probe.weekday() == wd and probe.day == day), (text, today, got, probe)
        probe += timedelta(days=step)


def test_a_month_after_it_leaves_the_day_to_the_month():
    found = find_dates_en("see you Tuesday the 9th of June", date(2026, 3, 10))
    days = {m.surface: m.value for m in found if m.extra["span"][0] == m.extra["span"][1]}
    # one day, the weekday part of its expression: never also the Tuesday or the 9th alone
    assert days == {"Tuesday the 9th of June": "2026-06-09"}


_ABBREVIATIONS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
_MONTH_ABBR = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


@pytest.mark.parametrize("seed", range(30))
def test_a_weekday_before_a_day_and_month_picks_the_year_whatever_the_tense(seed):
    """ "handover Fri 27 Nov → Wed 25 Nov (AGM brought forward)": a past verb nearby must not move
    a date whose weekday says it is this year's (a note of a change, said ten days before)."""
    rng = random.Random(seed)
    today = date(2024, 1, 1) + timedelta(days=rng.randrange(0, 3 * 365))
    target = today + timedelta(days=rng.randrange(1, 60))
    text = (
        f"Updated: handover {_ABBREVIATIONS[target.weekday()]} {target.day} {_MONTH_ABBR[target.month - 1]}"
        " (the board brought it forward)."
    )
    values = [m.value for m in find_dates_en(text, today, past=True)]
    assert target.isoformat() in values, (text, today, values)



def test_a_weekday_that_agrees_with_the_past_tense_keeps_last_years_date():
    # said on Tue 17 Nov 2026: Thu 27 Nov is 2025's (27 Nov 2026 is a Friday)
    found = [m.value for m in find_dates_en("we met on Thu 27 Nov", date(2026, 11, 17), past=True)]
    assert "2025-11-27" in found
