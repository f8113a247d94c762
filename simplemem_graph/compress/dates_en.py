"""English date expressions resolved against the turn's local date.

Covers the business forms of EVALSETS.md (next Tuesday, Wednesday next week, by Friday, the day after
tomorrow, end of the month, in/within N days, N days ago, Month D) and LoCoMo's conversational ones
(yesterday, last Saturday, last week, next month, two weekends ago). Week and month expressions
resolve to their first day and are restated as "the week of <date>" / "<YYYY-MM>".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from simplemem_graph.compress.mentions import Mention
from simplemem_graph.compress.numerals import EN_NUMBER_WORD_PATTERN, parse_number
from simplemem_graph.dates import (
    EN_MONTHS,
    EN_WEEKDAYS,
    add_months,
    add_units,
    day_of_month,
    month_end,
    previous_weekday,
    upcoming_weekday,
    weekday_of_week,
    year_for_month_day,
)

_WEEKDAYS = EN_WEEKDAYS
_MONTHS = EN_MONTHS
_WD = "(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
# Month names must be capitalised ("May 8", not "may 5 people come"), so this part is case-sensitive.
_MONTH = (
    "(?P<m>(?-i:January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec))\\.?"
)
_DL = r"(?:(?P<dl>by|before|until|till|no later than|not later than)\s+)?"
_COUNT = rf"(?P<n>\d+|an?|one|{EN_NUMBER_WORD_PATTERN}|a couple of|couple of)"
_PREPOSITIONS = {
    "on",
    "by",
    "before",
    "until",
    "till",
    "after",
    "from",
    "since",
    "for",
    "of",
    "to",
    "between",
    "through",
    "than",
    "as",
    "in",
    "at",
}


def _weekday(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    wd = _WEEKDAYS[m.group("wd").lower()]
    rel = (m.group("rel") or "").lower()
    week = (m.group("wk") or "").lower()
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
    return day, day.isoformat()


def _day_word(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
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
    day = today + timedelta(days=offsets[word])
    part = {
        "tonight": "night",
        "this morning": "morning",
        "this afternoon": "afternoon",
        "this evening": "evening",
        "last night": "night",
    }.get(word)
    return day, f"the {part} of {day.isoformat()}" if part else day.isoformat()


def _count(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    pre, post = (m.group("pre") or "").lower(), (m.group("post") or "").lower()
    if not pre and not post:
        return None  # "3 days" alone is a duration, not a date
    raw = m.group("n").lower()
    amount = 1 if raw in ("a", "an") else 2 if "couple" in raw else parse_number(raw)
    if amount is None:
        return None
    unit = m.group("u").lower().rstrip("s")
    direction = -1 if post in ("ago", "before") else 1
    if unit == "weekend":
        day = weekday_of_week(today, 5, int(direction * amount))
        return day, f"the weekend of {day.isoformat()}"
    day = add_units(today, direction * amount, unit)
    return day, day.isoformat()


def _end_of(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
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
    return day, day.isoformat()


def _period(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    rel = m.group("rel").lower()
    shift = {"next": 1, "the following": 1, "last": -1, "past": -1, "this": 0}[rel]
    unit = m.group("u").lower()
    if unit == "week":
        day = weekday_of_week(today, 0, shift)
        return day, f"the week of {day.isoformat()}"
    if unit == "weekend":
        day = weekday_of_week(today, 5, shift)
        return day, f"the weekend of {day.isoformat()}"
    if unit == "month":
        day = add_months(today.replace(day=1), shift)
        return day, day.isoformat()[:7]
    day = date(today.year + shift, 1, 1)
    return day, str(day.year)


def _month_day(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    month = _MONTHS[m.group("m").lower()]
    number = int(m.group("d"))
    if m.group("y"):
        try:
            day = date(int(m.group("y")), month, number)
        except ValueError:
            return None
    else:
        day = year_for_month_day(today, month, number)
    return (day, m.group("core")) if day else None  # absolute: keep the surface


def _month_year(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    return date(int(m.group("y")), _MONTHS[m.group("m").lower()], 1), m.group("core")


def _bare_day(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    day = day_of_month(today, int(m.group("d")), past=past)
    return (day, day.isoformat()) if day else None


_FLAGS = re.IGNORECASE
_RULES: list[tuple[re.Pattern, Callable[[re.Match, date, bool], tuple[date, str] | None]]] = [
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?:on\s+)?{_MONTH}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<y>\d{{4}}))?)\b",
            _FLAGS,
        ),
        _month_day,
    ),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?:on\s+)?(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}"
            rf"(?:,?\s+(?P<y>\d{{4}}))?)\b",
            _FLAGS,
        ),
        _month_day,
    ),
    (re.compile(rf"\b(?P<core>(?:in\s+)?{_MONTH}\s+(?P<y>\d{{4}}))\b", _FLAGS), _month_year),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?:(?P<rel>this coming|this|next|last|coming|past)\s+)?{_WD}"
            rf"(?:\s+(?P<wk>next week|this week|last week))?)\b",
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
            rf"\b{_DL}(?P<core>(?P<rel>next|last|this|past|the following)\s+"
            r"(?P<u>week|weekend|month|year))\b",
            _FLAGS,
        ),
        _period,
    ),
    (
        re.compile(
            rf"\b{_DL}(?P<core>(?:on\s+)?the\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th))(?=\s*(?:[,.;!?]|$|at\b|in\b|"
            rf"and\b|morning|afternoon|evening))",
            _FLAGS,
        ),
        _bare_day,
    ),
]
_DEADLINE_WORDS = {
    "by": "by",
    "before": "before",
    "until": "until",
    "till": "until",
    "no later than": "by",
    "not later than": "by",
}


def _restate(m: re.Match, text: str, core: str) -> str:
    """Put a preposition where the sentence needs one: "remind me on 2026-05-20", "by 2026-02-11"."""
    deadline = (m.groupdict().get("dl") or "").lower()
    pre = (m.groupdict().get("pre") or "").lower()
    if deadline:
        return f"{_DEADLINE_WORDS[deadline]} {core}"
    if pre == "within":
        return f"by {core}"
    if core == m.group("core"):  # absolute surface kept as written
        return core
    previous = re.findall(r"[A-Za-z']+", text[: m.start()][-20:])
    if (previous and previous[-1].lower() in _PREPOSITIONS) or text[m.end() :].startswith("'s"):
        return core
    if core.startswith("the week"):
        return f"in {core}"
    if core.startswith("the weekend"):
        return f"on {core}"
    if re.fullmatch(r"\d{4}(?:-\d{2})?", core):
        return core if previous and previous[-1].lower() == "in" else f"in {core}"
    if m.group("core").lower().startswith(("end", "the end")):
        return core
    return core if core.startswith("the ") else f"on {core}"


def find_dates_en(text: str, today: date, *, past: bool = False) -> list[Mention]:
    """Every English date expression in `text`, resolved from `today` (the turn's local date).

    Args:
        text: one sentence (offsets are relative to it).
        today: the turn's local calendar date.
        past: the sentence is in the past tense (decides a bare "Monday" or "the 12th").

    Returns:
        Date mentions, possibly overlapping; `extra` holds `replacement` and `deadline`.

    Example:
        >>> [m.value for m in find_dates_en("by Wednesday next week", date(2026, 2, 6))]
        ['2026-02-11']
    """
    found: list[Mention] = []
    for pattern, resolve in _RULES:
        for m in pattern.finditer(text):
            resolved = resolve(m, today, past)
            if resolved is None:
                continue
            day, core_restated = resolved
            deadline = bool(m.groupdict().get("dl")) or (m.groupdict().get("pre") or "").lower() == "within"
            found.append(
                Mention(
                    "date",
                    m.start(),
                    m.end(),
                    m.group(0),
                    day.isoformat(),
                    {"replacement": _restate(m, text, core_restated), "deadline": deadline},
                )
            )
    return found
