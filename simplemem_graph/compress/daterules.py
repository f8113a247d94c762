"""What every date rule returns, and the one loop that turns rule matches into date mentions.

Both rule sets (dates_en.py, dates_zh.py) and the ISO form go through `date_mention`, so compression
(the event's dates, its restatement) and query analysis (retrieve/timerange.py: the range a question
names) read an expression the same way: a mention carries the representative date (`value`, what the
event's `dates` hold) and the span of days the expression names (`extra["span"]`, what a query range
is). The restatement keeps the surface as said and adds the resolved date after it: "下周二(2026-03-17)之前",
"by next Tuesday (2026-03-17)".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from simplemem_graph.compress.mentions import Mention
from simplemem_graph.dates import month_bounds, month_part, week_bounds, weekend_bounds, year_bounds


@dataclass(frozen=True)
class Resolved:
    """A date expression read from its turn's local date.

    day: the representative date (an event's `dates`, a deadline).
    span: first and last day the expression names (a week, a month, mid-March, one day).
    label: how the restatement writes the resolution ("2026-03-17", "week of 2026-03-16", "2026-04").
    """

    day: date
    span: tuple[date, date]
    label: str
    # a month named without a year ("in June", 六月份): a statement reads it by what the event is,
    # a question by its own convention (the latest such month), so query analysis reads it itself
    named_month: bool = False
    # counted from today ("yesterday", "3 days ago", 前天): a period said beside it moves nothing
    from_today: bool = False

    @classmethod
    def one_day(cls, day: date) -> Resolved:
        return cls(day, (day, day), day.isoformat())


def interval_label(span: tuple[date, date]) -> str:
    """A span of days as an ISO 8601 interval, or one date when it is a single day."""
    start, end = span
    return start.isoformat() if start == end else f"{start.isoformat()}/{end.isoformat()}"


def week_of(monday: date, lang: str) -> Resolved:
    """A calendar week, dated by its Monday."""
    label = f"{monday.isoformat()}当周" if lang == "zh" else f"week of {monday.isoformat()}"
    return Resolved(monday, week_bounds(monday), label)


def weekend_of(saturday: date, lang: str) -> Resolved:
    """A weekend, dated by its Saturday."""
    label = f"{saturday.isoformat()}周末" if lang == "zh" else f"weekend of {saturday.isoformat()}"
    return Resolved(saturday, weekend_bounds(saturday), label)


def month_of(first: date) -> Resolved:
    """A whole month, dated by its first day."""
    return Resolved(first, month_bounds(first.year, first.month), first.isoformat()[:7])


def year_of(year: int) -> Resolved:
    """A whole year, dated by 1 January."""
    return Resolved(date(year, 1, 1), year_bounds(year), str(year))


def part_of_month(first: date, part: str) -> Resolved:
    """Early/mid/late in a month (月初/月中/下旬, "mid-March"): dated by its 1st, 15th and last day,
    which is what 月初, 月中 and 月底 mean when a single date is needed (a deadline)."""
    span = month_part(first.year, first.month, part)
    day = {"early": span[0], "mid": first.replace(day=15), "late": span[1]}[part]
    return Resolved(day, span, interval_label(span))


Resolver = Callable[[re.Match, date, bool], Resolved | None]

_ISO_IN = re.compile(r"\d{4}-\d{2}(?:-\d{2})?")


def year_by_weekday(day: date, weekday: int, today: date) -> date:
    """A weekday written beside a year-less date ("Fri 27 Nov", "3月5日星期四") says which year it is,
    whatever the tense around it guessed: the year nearest today whose date falls on that weekday
    (0 = Monday); `day` when it already does or none of the three years around today does."""
    if day.weekday() == weekday:
        return day
    fitting = []
    for year in (today.year - 1, today.year, today.year + 1):
        try:
            candidate = day.replace(year=year)
        except ValueError:  # 29 February
            continue
        if candidate.weekday() == weekday:
            fitting.append(candidate)
    return min(fitting, key=lambda d: abs((d - today).days)) if fitting else day


def annotated(surface: str, label: str, lang: str) -> str:
    """The surface with its resolution after it; unchanged when the surface already says it in ISO."""
    if label in surface or (_ISO_IN.fullmatch(surface.strip()) and surface.strip() in label):
        return surface
    return f"{surface}({label})" if lang == "zh" else f"{surface} ({label})"


def date_mention(m: re.Match, resolved: Resolved, *, lang: str, deadline: bool, bound: str | None) -> Mention:
    """A date mention for a rule match; the annotation goes right after the `core` group, so a
    deadline word written after it (之前) stays after it."""
    core_start, core_end = (m.start("core"), m.end("core")) if "core" in m.groupdict() else m.span()
    text = m.string
    replacement = annotated(text[m.start() : core_end], resolved.label, lang) + text[core_end : m.end()]
    return Mention(
        "date",
        m.start(),
        m.end(),
        m.group(0),
        resolved.day.isoformat(),
        {
            "replacement": replacement,
            "deadline": deadline,
            "span": resolved.span,
            "bound": bound,  # the word that opens a query range on one side: by/before/之前...
            "core": (core_start, core_end),
            "named_month": resolved.named_month,
        },
    )


def run_rules(
    text: str,
    today: date,
    past: bool,
    rules: list[tuple[re.Pattern, Resolver]],
    classify: Callable[[re.Match, Resolved], tuple[bool, str | None]],
    lang: str,
) -> list[Mention]:
    """Every match of every rule that resolves, as mentions (possibly overlapping).

    `classify(match, resolved)` says whether the match is a deadline and which bound word it carries.
    """
    matches: list[tuple[re.Match, Resolver, Resolved]] = []
    for pattern, resolve in rules:
        for m in pattern.finditer(text):
            resolved = resolve(m, today, past)
            if resolved is not None:
                matches.append((m, resolve, resolved))
    found: list[Mention] = []
    for m, resolve, resolved in matches:
        resolved = _inside_named_period(m, resolve, resolved, matches, today) or resolved
        deadline, bound = classify(m, resolved)
        found.append(date_mention(m, resolved, lang=lang, deadline=deadline, bound=bound))
    return found


# What may stand between a period and the day in it: "last week on Monday", "last month, on the
# 15th", "上个月的15号", "on May 3rd last year".
_PERIOD_DAY_GAP = re.compile(r"[\s,，的]*(?:(?:on|in)\s+)?", re.IGNORECASE)


def _inside_named_period(
    m: re.Match,
    resolve: Resolver,
    resolved: Resolved,
    matches: list[tuple[re.Match, Resolver, Resolved]],
    today: date,
) -> Resolved | None:
    """A single day said right beside a period ("last week on Monday", "last year on March 3rd",
    "on the 15th last month") is that day of that period: read again from the period's last day
    looking back (from its first day looking ahead for a period still to come), kept only when it
    falls inside the period; a period around today keeps the reading from today. Read alone from
    today, "last week on Monday" was this week's Monday and "last year on March 3rd" this year's;
    a text that contradicts itself ("last month on May 15th" said on 15 May) keeps the reading
    from today."""
    if resolved.span[0] != resolved.span[1] or resolved.from_today:
        return None
    for other, _, period in matches:
        first, last = period.span
        if first == last or (other.end() > m.start() and m.end() > other.start()):
            continue  # not a period, or another reading of the same words
        text = m.string
        if other.end() <= m.start():
            if not _PERIOD_DAY_GAP.fullmatch(text[other.end() : m.start()]):
                continue
        elif text[m.end() : other.start()].strip():
            continue  # after the day, only a space: "on Monday, next week I fly" are two times
        if first <= today <= last:
            return None  # a period around today: the day read from today is already in it
        ahead = first > today
        again = resolve(m, first if ahead else last, not ahead)
        if again is not None and first <= again.day <= last:
            return again
    return None
