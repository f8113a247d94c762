"""English date expressions resolved against the turn's local date.

Covers the business forms of EVALSETS.md (next Tuesday, Wednesday next week, by Friday, the day after
tomorrow, end of the month, in/within N days, N days ago, Month D) and LoCoMo's conversational ones
(yesterday, last Saturday, last week, next month, two weekends ago), and the Friday before last,
mid-March, early next month. Week and month expressions resolve to their first day; every mention
also carries the span of days it names (daterules.Resolved), which is what a query range is.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta

from simplemem_graph.compress.daterules import (
    Resolved,
    Resolver,
    month_of,
    part_of_month,
    run_rules,
    week_of,
    weekend_of,
    year_by_weekday,
    year_of,
)
from simplemem_graph.compress.mentions import Mention
from simplemem_graph.compress.numerals import EN_NUMBER_WORD_PATTERN, parse_count
from simplemem_graph.dates import (
    EN_MONTHS,
    EN_WEEKDAYS,
    add_months,
    add_units,
    day_of_month,
    month_day,
    month_end,
    month_in_direction,
    previous_weekday,
    unit_span,
    upcoming_weekday,
    weekday_of_week,
)

_WEEKDAYS = EN_WEEKDAYS
_MONTHS = EN_MONTHS
_WD = "(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
# Month names must be capitalised ("May 8", not "may 5 people come"), so this part is case-sensitive.
_MONTH = (
    "(?P<m>(?-i:January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec))"
    # the dot of a short form ("Jun."), not the full stop after a whole name ("in June.")
    "(?:(?<=Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\\.|(?<=Sept)\\.)?"
)
_ANY_MONTH = _MONTH.replace("(?P<m>", "(?:", 1)  # in a lookahead beside another month group
_DL = r"(?:(?P<dl>by|before|until|till|no later than|not later than)\s+)?"
_COUNT = rf"(?P<n>\d+|an?|one|{EN_NUMBER_WORD_PATTERN}|a couple of|couple of)"


def _weekday(m: re.Match, today: date, past: bool) -> Resolved | None:
    wd = _WEEKDAYS[m.group("wd").lower()]
    rel = (m.group("rel") or "").lower()
    week = (m.group("wk") or "").lower()
    if not (rel or week or m.group("dl")) and _names_a_kind_of_thing(m):
        return None
    if week == "next week" or rel == "next":
        day = weekday_of_week(today, wd, 1)
    elif week == "last week":
        day = weekday_of_week(today, wd, -1)
    elif rel in ("last", "past"):
        day = previous_weekday(today, wd)
    elif rel in ("this", "this coming", "coming") or week == "this week" or m.group("dl"):
        day = upcoming_weekday(today, wd)
    else:  # a bare weekday takes its direction from the sentence's tense
        day = previous_weekday(today, wd) if past else upcoming_weekday(today, wd)
    return Resolved.one_day(day)


# "the Sunday mass", "my Friday class", "a Saturday market": a weekday between a determiner and a
# noun says what kind of thing it is, not the day it happened, when its sentence dates it
# otherwise ("I attended the Sunday mass at St. Mary's on January 2nd" had read "Sunday" as the
# last Sunday before the turn: a second, wrong day of one event; LongMemEval dev).
_DETERMINER_BEFORE = re.compile(r"\b(?:the|a|an|my|our|his|her|their|your|its)\s+$", re.IGNORECASE)
_NOUN_AFTER = re.compile(
    r"\s+(?!(?:morning|afternoon|evening|night|noon|at|on|in|and|or|the|to|for)\b)[a-z]{3,}\b"
)
_NEAR_CHARS = 80
_MONTH_DAY_IN = re.compile(
    rf"{_ANY_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_ANY_MONTH}"
)


def _names_a_kind_of_thing(m: re.Match) -> bool:
    """The weekday of `m` stands between a determiner and a noun, and a month and day are named
    within `_NEAR_CHARS` of it."""
    text, start, end = m.string, m.start("wd"), m.end("wd")
    if not (_DETERMINER_BEFORE.search(text, 0, start) and _NOUN_AFTER.match(text, end)):
        return False
    # Near it, not in its sentence as full stops cut it: "St. Mary's" has one.
    return bool(_MONTH_DAY_IN.search(text, max(0, start - _NEAR_CHARS), end + _NEAR_CHARS))


def _day_word(m: re.Match, today: date, past: bool) -> Resolved | None:
    word = re.sub(r"\s+", " ", m.group("w").lower())
    offsets = {
        "the day after tomorrow": 2,
        "the day before yesterday": -2,
        "tomorrow": 1,
        "yesterday": -1,
        "today": 0,
        "tonight": 0,
        "this morning": 0,
        "this afternoon": 0,
        "this evening": 0,
        "last night": -1,
    }
    return replace(Resolved.one_day(today + timedelta(days=offsets[word])), from_today=True)


def _count(m: re.Match, today: date, past: bool) -> Resolved | None:
    pre, post = (m.group("pre") or "").lower(), (m.group("post") or "").lower()
    if not pre and not post:
        return None  # "3 days" alone is a duration, not a date
    raw = m.group("n").lower()
    amount = parse_count(raw)
    if amount is None:
        return None
    unit = m.group("u").lower().rstrip("s")
    direction = -1 if post in ("ago", "before") else 1
    if unit == "weekend":
        if abs(amount) > 52 * 1000:  # no calendar week that far away
            return None
        return weekend_of(weekday_of_week(today, 5, int(direction * amount)), "en")
    day = add_units(today, direction * amount, unit)
    if day is None:
        return None
    return Resolved(day, unit_span(day, unit), day.isoformat(), from_today=True)


def _end_of(m: re.Match, today: date, past: bool) -> Resolved | None:
    shift = {"next": 1, "last": -1, "this": 0, "": 0}[(m.group("rel") or "").lower()]
    unit = m.group("u").lower()
    if unit == "month":
        day = month_end(today, shift)
    elif unit == "week":
        day = weekday_of_week(today, 4, shift)  # the working week ends on Friday
    elif unit == "year":
        day = date(today.year + shift, 12, 31)
    else:  # end of the day
        day = today
    return Resolved.one_day(day)


def _shifted_period(unit: str, shift: int, today: date) -> Resolved:
    if unit == "week":
        return week_of(weekday_of_week(today, 0, shift), "en")
    if unit == "weekend":
        return weekend_of(weekday_of_week(today, 5, shift), "en")
    if unit == "month":
        return month_of(add_months(today.replace(day=1), shift))
    return year_of(today.year + shift)


def _period(m: re.Match, today: date, past: bool) -> Resolved | None:
    rel = re.sub(r"\s+", " ", m.group("rel").lower())
    shift = {"next": 1, "the following": 1, "last": -1, "past": -1, "this": 0, "over the": 0}[rel]
    unit = m.group("u").lower()
    if unit == "weekend" and shift == 0 and past and weekday_of_week(today, 5) > today:
        shift = -1  # "we went hiking over the weekend" said on a Tuesday: the weekend just gone
    return _shifted_period(unit, shift, today)


def _before_last(m: re.Match, today: date, past: bool) -> Resolved | None:
    """ "the Friday before last" (the one before last Friday), "the week after next"."""
    shift = -2 if m.group("dir").lower().startswith("before") else 2
    if m.group("wd"):
        wd = _WEEKDAYS[m.group("wd").lower()]
        last = previous_weekday(today, wd) if shift < 0 else upcoming_weekday(today, wd)
        return Resolved.one_day(last + timedelta(weeks=shift // 2))
    return _shifted_period(m.group("u").lower(), shift, today)


def _month_part(m: re.Match, today: date, past: bool) -> Resolved | None:
    """Part of a month: "mid-March", "early next month", "the middle of May 2026"."""
    part = _PARTS[re.sub(r"\s+", " ", m.group("part").lower())]
    if m.group("m"):
        month = _MONTHS[m.group("m").lower()]
        first = month_day(today, month, 1, int(m.group("y")) if m.group("y") else None, past=past)
        if first and past and not m.group("y") and part_of_month(first, part).span[0] > today:
            first = first.replace(year=first.year - 1)  # "mid-October" said on 3 October: last year's
    else:
        first = add_months(today.replace(day=1), {"next": 1, "last": -1, "this": 0}[m.group("rel").lower()])
    return part_of_month(first, part)


def _month_day(m: re.Match, today: date, past: bool) -> Resolved | None:
    year = int(m.group("y")) if m.group("y") else None
    day = month_day(today, _MONTHS[m.group("m").lower()], int(m.group("d")), year, past=past)
    if day and year is None:
        # "Monday, December 5": the weekday is part of the date and says its year
        said = m.group("wd") + " " if m.group("wd") else m.string[: m.start()]
        day = _year_by_weekday(day, said, today)
    return Resolved.one_day(day) if day else None


# A weekday's name, or its capitalised short form ("Fri 27 Nov"): not any word it opens ("last
# month on May 15th" read "month" as Monday and moved a past date to next year), nor a verb ("sat").
_WEEKDAY_BEFORE = re.compile(
    r"\b((?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"(?:Mon|Tue|Tues|Wed|Weds|Thu|Thur|Thurs|Fri|Sat|Sun)\b)\.?,?\s+$"
)
_WEEKDAY_INDEX = {d: i for i, d in enumerate(("mon", "tue", "wed", "thu", "fri", "sat", "sun"))}


def _year_by_weekday(day: date, before: str, today: date) -> date:
    """ "Fri 27 Nov": a weekday written before a year-less date says which year it is ("handover Fri 27
    Nov → Wed 25 Nov (AGM brought forward)" is this year's)."""
    said = _WEEKDAY_BEFORE.search(before)
    return year_by_weekday(day, _WEEKDAY_INDEX[said.group(1)[:3].lower()], today) if said else day


def _month_year(m: re.Match, today: date, past: bool) -> Resolved | None:
    return month_of(date(int(m.group("y")), _MONTHS[m.group("m").lower()], 1))


def _named_month(m: re.Match, today: date, past: bool) -> Resolved | None:
    """ "in June", "last March", "by October": a whole month. A bare capitalised name is not read
    ("May I ask"): a preposition, a deadline word or last/next/this must introduce it."""
    if not (m.group("prep") or m.group("rel") or m.group("dl")):
        return None
    month = _MONTHS[m.group("m").lower()]
    rel = (m.group("rel") or "").lower()
    this_month, first = today.replace(day=1), date(today.year, month, 1)
    if rel == "last":  # the latest such month before this one
        first = first if first < this_month else first.replace(year=today.year - 1)
    elif rel == "next":  # the first such month after this one
        first = first if first > this_month else first.replace(year=today.year + 1)
    else:
        first = month_in_direction(today, month, past=past)
    return replace(month_of(first), named_month=not rel)


def _weekday_and_day(m: re.Match, today: date, past: bool) -> Resolved | None:
    """ "Tuesday the 9th": the nearest 9th that is a Tuesday, ahead (behind in the past tense); both
    words name one day, so neither is read alone."""
    wd, wanted = _WEEKDAYS[m.group("wd").lower()], int(m.group("d"))
    step = -1 if past else 1
    year, month = today.year, today.month
    for _ in range(36):  # a given day of the month falls on each weekday within 14 months
        try:
            day = date(year, month, wanted)
        except ValueError:
            day = None
        if day is not None and day.weekday() == wd and (day <= today if past else day >= today):
            return Resolved.one_day(day)
        month += step
        if month == 13:
            year, month = year + 1, 1
        elif month == 0:
            year, month = year - 1, 12
    return None


def _bare_day(m: re.Match, today: date, past: bool) -> Resolved | None:
    day = day_of_month(today, int(m.group("d")), past=past)
    return Resolved.one_day(day) if day else None


_PARTS = {
    "early": "early",
    "the beginning of": "early",
    "the start of": "early",
    "mid": "mid",
    "the middle of": "mid",
    "late": "late",
}
_FLAGS = re.IGNORECASE
_RULES: list[tuple[re.Pattern, Resolver]] = [
    (
        re.compile(
            rf"\b{_DL}(?P<core>the\s+(?:{_WD}|(?P<u>week|weekend|month|year))\s+"
            r"(?P<dir>before\s+last|after\s+next))\b",
            _FLAGS,
        ),
        _before_last,
    ),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?P<part>early|mid|late|the\s+beginning\s+of|the\s+start\s+of|"
            rf"the\s+middle\s+of)[\s-]+(?:(?P<rel>next|last|this)\s+month|{_MONTH}(?:,?\s+(?P<y>\d{{4}}))?))\b",
            _FLAGS,
        ),
        _month_part,
    ),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?:on\s+)?(?:{_WD},?\s+)?{_MONTH}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?"
            rf"(?:,?\s+(?P<y>\d{{4}}))?)\b",
            _FLAGS,
        ),
        _month_day,
    ),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?:on\s+)?(?:{_WD},?\s+)?(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}"
            rf"(?:,?\s+(?P<y>\d{{4}}))?)\b",
            _FLAGS,
        ),
        _month_day,
    ),
    (re.compile(rf"\b(?P<core>(?:in\s+)?{_MONTH}\s+(?P<y>\d{{4}}))\b", _FLAGS), _month_year),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?:(?P<prep>in|during|since|through|throughout|over|from|of)\s+)?"
            rf"(?:(?P<rel>last|next|this)\s+)?{_MONTH})(?![\s-]*\d)(?!\w)",
            _FLAGS,
        ),
        _named_month,
    ),
    (
        re.compile(
            # a month after it names the day on its own ("Tuesday the 9th of June": the month-day rule)
            rf"\b{_DL}(?P<core>(?:on\s+)?{_WD},?\s+(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th))\b"
            rf"(?!\s+(?:of\s+)?{_MONTH})",
            _FLAGS,
        ),
        _weekday_and_day,
    ),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?:(?P<rel>this coming|this|next|last|coming|past)\s+)?{_WD}"
            rf"(?:\s+(?P<wk>next week|this week|last week))?)\b"
            # "Saturday, June 10th" is one day: the date names it (a weekday before it says its year)
            rf"(?!,?\s+(?:the\s+)?(?:{_ANY_MONTH}\s+\d|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_ANY_MONTH}))",
            _FLAGS,
        ),
        _weekday,
    ),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?P<w>the\s+day\s+after\s+tomorrow|the\s+day\s+before\s+yesterday|tomorrow|"
            rf"yesterday|today|tonight|this\s+morning|this\s+afternoon|this\s+evening|last\s+night))\b",
            _FLAGS,
        ),
        _day_word,
    ),
    (
        re.compile(
            rf"\b(?P<core>(?:(?P<pre>in|within|after)\s+)?{_COUNT}\s+(?P<u>days?|weeks?|months?|years?|"
            rf"weekends?)(?:\s+(?P<post>ago|from\s+now|before))?)\b",
            _FLAGS,
        ),
        _count,
    ),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?:the\s+)?end\s+of\s+(?:the\s+)?(?:(?P<rel>this|next|last)\s+)?"
            rf"(?P<u>month|week|year|day))\b",
            _FLAGS,
        ),
        _end_of,
    ),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?P<rel>next|last|this|past|the following|over\s+the)\s+"
            r"(?P<u>week|weekend|month|year))\b",
            _FLAGS,
        ),
        _period,
    ),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?:on\s+)?the\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th))(?=\s*(?:[,.;!?]|$|at\b|in\b|"
            rf"and\b|but\b|like\b|as\b|when\b|for\b|with\b|so\b|morning|afternoon|evening|"
            # "on the 22nd last month": the period beside it says which month (run_rules)
            rf"(?:last|next|this)\s+month\b))",
            _FLAGS,
        ),
        _bare_day,
    ),
]


def _classify(m: re.Match, resolved: Resolved) -> tuple[bool, str | None]:
    """Deadline: "by/before/until X", "within N days"; the bound word opens a query range."""
    word = (m.groupdict().get("dl") or "").lower() or None
    if (m.groupdict().get("pre") or "").lower() == "within":
        word = "within"
    return word is not None, word


def find_dates_en(text: str, today: date, *, past: bool = False) -> list[Mention]:
    """Every English date expression in `text`, resolved from `today` (the turn's local date).

    Args:
        text: one sentence (offsets are relative to it).
        today: the turn's local calendar date.
        past: the sentence is in the past tense (decides a bare "Monday" or "the 12th").

    Returns:
        Date mentions, possibly overlapping; `extra` holds `replacement`, `deadline`, `span`, `bound`.

    Example:
        >>> [m.value for m in find_dates_en("by Wednesday next week", date(2026, 2, 6))]
        ['2026-02-11']
    """
    return run_rules(text, today, past, _RULES, _classify, "en")
