"""The one calendar module: date words and arithmetic shared by compression (compress/dates_en.py,
compress/dates_zh.py: dates in what was said) and query analysis (retrieve/timerange.py: ranges in
what is asked). Weeks start on Monday (EVALSETS.md), months end on their last day."""

from __future__ import annotations

import calendar as _calendar
from datetime import date, datetime, timedelta
from typing import Protocol

# English month and weekday names (and their usual abbreviations), for both stages.
EN_MONTHS = {
    name: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
EN_WEEKDAYS = {
    "monday": 0,
    "tuesday": 1,
    "wednesday": 2,
    "thursday": 3,
    "friday": 4,
    "saturday": 5,
    "sunday": 6,
}

# A year-less absolute date is the one of the year that puts it less than this far behind today at
# most: "March 5" said in July is next year's, "Dec 26" said on 20 February last year's (eight weeks
# ago, not ten months ahead: "migrated the server Dec 26, two branches not synced till Jan 2").
PAST_WINDOW_DAYS = 90


def week_start(day: date) -> date:
    """The Monday of the calendar week holding `day`."""
    return day - timedelta(days=day.weekday())


def weekday_of_week(today: date, weekday: int, weeks_ahead: int = 0) -> date:
    """Weekday (0=Monday) of the week `weeks_ahead` weeks after today's week (negative: before)."""
    return week_start(today) + timedelta(days=7 * weeks_ahead + weekday)


def upcoming_weekday(today: date, weekday: int) -> date:
    """This week's weekday when it is today or still ahead, else next week's (a bare "Friday" / "周五")."""
    this_week = weekday_of_week(today, weekday)
    return this_week if this_week >= today else this_week + timedelta(days=7)


def previous_weekday(today: date, weekday: int) -> date:
    """The most recent such weekday strictly before today ("last Saturday" in LoCoMo usage)."""
    back = (today.weekday() - weekday) % 7 or 7
    return today - timedelta(days=back)


def week_bounds(day: date, weeks_back: int = 0) -> tuple[date, date]:
    """Monday and Sunday of the week `weeks_back` weeks before the week holding `day`."""
    monday = weekday_of_week(day, 0, -weeks_back)
    return monday, monday + timedelta(days=6)


def month_bounds(year: int, month: int) -> tuple[date, date]:
    """First and last day of a month."""
    return date(year, month, 1), date(year, month, _calendar.monthrange(year, month)[1])


def year_bounds(year: int) -> tuple[date, date]:
    """1 January and 31 December of a year."""
    return date(year, 1, 1), date(year, 12, 31)


def weekend_bounds(saturday: date) -> tuple[date, date]:
    """Saturday and Sunday of a weekend, from its Saturday."""
    return saturday, saturday + timedelta(days=1)


# Parts of a month, as days (first, last): "early/mid/late March", 月初/月中/月底 as a span, 上旬/中旬/下旬.
MONTH_PARTS = {"early": (1, 10), "mid": (11, 20), "late": (21, 31)}


def month_part(year: int, month: int, part: str) -> tuple[date, date]:
    """The days of the early/mid/late part of a month; late ends on the month's last day."""
    first, last = MONTH_PARTS[part]
    length = _calendar.monthrange(year, month)[1]
    return date(year, month, first), date(year, month, min(last, length))


def add_months(day: date, months: int, *, day_of_month: int | None = None) -> date:
    """Shift by whole months, clamping the day to the target month's length."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    wanted = day.day if day_of_month is None else day_of_month
    return date(year, month + 1, min(wanted, _calendar.monthrange(year, month + 1)[1]))


def month_end(day: date, months: int = 0) -> date:
    """Last day of the month `months` after the month of `day`."""
    first = add_months(day.replace(day=1), months)
    return first.replace(day=_calendar.monthrange(first.year, first.month)[1])


def unit_span(day: date, unit: str) -> tuple[date, date]:
    """The calendar day, week, month or year holding `day` ("three weeks ago" names a week)."""
    if unit == "week":
        return week_bounds(day)
    if unit == "month":
        return month_bounds(day.year, day.month)
    if unit == "year":
        return year_bounds(day.year)
    return day, day


def add_units(today: date, amount: float, unit: str) -> date | None:
    """today + amount units, unit one of day/week/month/year; fractional months/years round to days.
    None when the result is no calendar date ("5000 years ago", "10^9 days later"): such text is
    kept verbatim, never a crash of the ingest."""
    if unit not in ("day", "week", "month", "year"):
        raise ValueError(f"dates: unknown calendar unit {unit!r}")
    try:
        if unit == "day":
            return today + timedelta(days=round(amount))
        if unit == "week":
            return today + timedelta(days=round(7 * amount))
        whole = int(amount)
        if unit == "month":
            return add_months(today, whole) + timedelta(days=round(30 * (amount - whole)))
        return add_months(today, 12 * whole) + timedelta(days=round(365 * (amount - whole)))
    except (OverflowError, ValueError):
        return None


def year_for_month_day(
    today: date, month: int, day: int, *, past: bool = False, recent_past: bool = True
) -> date | None:
    """A year-less date: this year's, unless that is more than PAST_WINDOW_DAYS ago (then next year's)
    or last year's is less than that ago (then last year's: in February, "Dec 26" is eight weeks ago).
    In the past tense ("we met on March 5") it is the latest such date not after today. Without
    `recent_past` last year's is never taken (a part of a month: 十二月底结账 said in February is the
    coming year-end)."""
    try:
        candidate = date(today.year, month, day)
        if past:
            return candidate if candidate <= today else date(today.year - 1, month, day)
        if (today - candidate).days > PAST_WINDOW_DAYS:
            candidate = date(today.year + 1, month, day)
        elif (
            recent_past
            and candidate > today
            and (today - date(today.year - 1, month, day)).days <= PAST_WINDOW_DAYS
        ):
            candidate = date(today.year - 1, month, day)
    except ValueError:  # 29 February in a year without one
        return None
    return candidate


def month_day(today: date, month: int, day: int, year: int | None, *, past: bool) -> date | None:
    """A named month and day ("March 5", 3月5日), in the year said or by `year_for_month_day`."""
    if year is None:
        return year_for_month_day(today, month, day, past=past)
    try:
        return date(year, month, day)
    except ValueError:
        return None


def month_in_direction(today: date, month: int, *, past: bool) -> date:
    """The first day of a named month without a year ("in June", 六月份): in the past tense the
    latest one begun by today, else this year's unless it is over (then next year's)."""
    first = date(today.year, month, 1)
    if past:
        return first if first <= today else first.replace(year=today.year - 1)
    return first if month_bounds(today.year, month)[1] >= today else first.replace(year=today.year + 1)


def day_of_month(today: date, day: int, *, past: bool) -> date | None:
    """A bare day number ("26号", "the 12th"): the next one ahead, or the last one behind in past tense."""
    if not 1 <= day <= 31:
        return None
    for months in (0, -1, -2) if past else (0, 1, 2):
        first = add_months(today.replace(day=1), months)
        if day > _calendar.monthrange(first.year, first.month)[1]:
            continue
        candidate = first.replace(day=day)
        if (past and candidate <= today) or (not past and candidate >= today):
            return candidate
    return None


class _Dated(Protocol):
    time: datetime
    dates: list[date]
    deadline: date | None


def event_days(event: _Dated) -> list[date]:
    """Every date an event is about, sorted and once each: when it happened (its local date), the
    dates it names, its deadline. The one definition behind store time filters (the `event_days`
    rows, Neo4j's `days` property) and query time ranges (retrieve)."""
    return sorted({event.time.date(), *named_days(event)})


def named_days(event: _Dated) -> list[date]:
    """The dates an event names (its dates and deadline), not the day it was said."""
    return [*event.dates, *([event.deadline] if event.deadline else [])]
