"""English date words for generated date tests: month names, ordinals, random anchors."""

from __future__ import annotations

import calendar
import random
from datetime import date, timedelta

MONTHS = list(calendar.month_name)[1:]


def ordinal(day: int) -> str:
    """5 -> "5th", 22 -> "22nd", 13 -> "13th"."""
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


def random_day(rng: random.Random, first_year: int = 2023, years: int = 3) -> date:
    """A day in `years` years from 1 January of `first_year` (year ends included)."""
    return date(first_year, 1, 1) + timedelta(days=rng.randrange(0, years * 365))
