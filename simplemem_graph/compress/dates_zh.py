"""Chinese date expressions resolved against the turn's local date: 下周二, 周五之前, 月底, 月中, 后天,
下个月5号, 上上周, 去年...

dateparser misses most of these forms, so they are rules. Each rule yields a daterules.Resolved (date,
span of days, label); the restatement keeps the surface and adds the label: "下周二(2026-03-17)之前".
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta

from simplemem_graph.compress import daterules
from simplemem_graph.compress.daterules import Resolved, Resolver
from simplemem_graph.compress.mentions import Mention
from simplemem_graph.compress.numerals import parse_count, parse_number
from simplemem_graph.dates import (
    add_months,
    add_units,
    day_of_month,
    month_day,
    month_end,
    month_in_direction,
    unit_span,
    weekday_of_week,
    year_for_month_day,
)

_WEEKDAYS = {
    "一": 0,
    "二": 1,
    "三": 2,
    "四": 3,
    "五": 4,
    "六": 5,
    "日": 6,
    "天": 6,
    "1": 0,
    "2": 1,
    "3": 2,
    "4": 3,
    "5": 4,
    "6": 5,
    "7": 6,
}
_WEEK_SHIFT = {"下下": 2, "下": 1, "上上": -2, "上": -1, "这": 0, "本": 0, "": 0}
_MONTH_SHIFT = {"下个": 1, "下": 1, "上个": -1, "上": -1, "这个": 0, "本": 0, "": 0}
_DAY_WORDS = {
    "大前天": -3,
    "前天": -2,
    "昨天": -1,
    "昨日": -1,
    "昨晚": -1,
    "今天": 0,
    "今日": 0,
    "今晚": 0,
    "今早": 0,
    "明天": 1,
    "明日": 1,
    "明早": 1,
    "明晚": 1,
    "后天": 2,
    "大后天": 3,
}
_YEAR_SHIFT = {"前": -2, "去": -1, "今": 0, "明": 1, "后": 2, "": 0}
_POSITIONS = {"初": "early", "上旬": "early", "中": "mid", "中旬": "mid", "下旬": "late"}
_UNITS = {
    "天": "day",
    "日": "day",
    "周": "week",
    "个星期": "week",
    "星期": "week",
    "个礼拜": "week",
    "个月": "month",
    "年": "year",
}
# A clock time's hour and minute (timeexpr.find_times reads them; here they stay with the day word).
ZH_HOUR = r"(?P<h>\d{1,2}|[一二两三四五六七八九十]{1,3})"
ZH_MINUTE = r"(?P<min>半|一刻|三刻|\d{1,2}分?|[一二三四五六七八九十]{1,3}分)?"
_SMALL_NUM = r"\d{1,2}|[一二三四五六七八九十]{1,3}"
_DEADLINE = r"(?P<dl>之前|以前|前)?"
_NOT_AFTER_NUMERAL = r"(?<![零一二两三四五六七八九十几\d])"
# "工期顺延到7月15": the day may go without 日/号 when no unit or further digit follows (7月15万 is
# no date).
_BARE_DAY_END = r"(?![\d零一二两三四五六七八九十百千万亿元块个件张台套%]|[.．,，]\d)"


def _num(text: str) -> int | None:
    value = parse_number(text)
    return int(value) if value is not None else None


# Adverbs of habit and frequency: with one, a weekday or weekend without 上/这/下 names a recurring
# time ("我一般周末去唱片店", "有时周五加班"), not one date; so does 每 right before it (每个周末).
_HABITUAL = re.compile(r"一般|平时|平常|通常|经常|常常|往往|总是|老是|有时|偶尔|向来|一向|每逢")


def _recurring(m: re.Match) -> bool:
    """The weekday or weekend of `m` recurs: no 上/这/下 of its own, and 每 before it or an adverb of
    habit in its sentence."""
    if m.group("rel"):
        return False
    return m.string[: m.start()].endswith("每") or bool(_HABITUAL.search(m.string))


# "11月2号礼拜一", "12月7日（周一）": a weekday written right after a day's date names that day, as
# "Monday, December 5" does in English; read alone from today it was another week's day.
_WEEKDAY_AFTER = re.compile(r"\s*[（(，,、]?\s*(?:周|星期|礼拜)([一二三四五六日天])")
_DAY_DATE_BEFORE = re.compile(r"(?:\d{1,2}|[一二三四五六七八九十]{1,3})[号日號]\s*[（(，,、]?\s*$")


def _weekday(m: re.Match, today: date, past: bool) -> Resolved | None:
    if _recurring(m) or (not m.group("rel") and _DAY_DATE_BEFORE.search(m.string[: m.start()])):
        return None
    shift = _WEEK_SHIFT[m.group("rel") or ""]
    day = weekday_of_week(today, _WEEKDAYS[m.group("wd")], shift)
    if past and not m.group("rel") and day > today:
        day -= timedelta(weeks=1)  # "周五去了趟苏州" said on a Tuesday: the Friday just gone
    return Resolved.one_day(day)


def _week(m: re.Match, today: date, past: bool) -> Resolved | None:
    return daterules.week_of(weekday_of_week(today, 0, _WEEK_SHIFT[m.group("rel")]), "zh")


def _weekend(m: re.Match, today: date, past: bool) -> Resolved | None:
    if _recurring(m):
        return None
    rel = m.group("rel") or ""
    saturday = weekday_of_week(today, 5, _WEEK_SHIFT[rel])
    if past and rel in ("", "这", "本") and saturday > today:
        saturday -= timedelta(weeks=1)  # "周末去爬了香山" said on a Tuesday: the weekend just gone
    return daterules.weekend_of(saturday, "zh")


def _named_month(m: re.Match, today: date, past: bool) -> Resolved | None:
    """六月份 / 6月份 / 今年六月: a whole month (the year said, else the one the tense points to)."""
    month = _num(m.group("m") or m.group("m2"))
    if month is None or not 1 <= month <= 12:
        return None
    rel = m.group("rel") or m.group("rel2")
    if rel:
        return daterules.month_of(date(today.year + _YEAR_SHIFT[rel], month, 1))
    return replace(daterules.month_of(month_in_direction(today, month, past=past)), named_month=True)


def _edge(first: date, pos: str) -> Resolved:
    """月底/月末 is the month's last day; 月初, 月中 and the 旬 are parts of the month."""
    if pos in ("底", "末"):
        return Resolved.one_day(month_end(first))
    return daterules.part_of_month(first, _POSITIONS[pos])


def _month_edge(m: re.Match, today: date, past: bool) -> Resolved | None:
    return _edge(add_months(today.replace(day=1), _MONTH_SHIFT[m.group("rel") or ""]), m.group("pos"))


def _named_month_edge(m: re.Match, today: date, past: bool) -> Resolved | None:
    """3月初 / 4月底 / 5月中旬: a part of a named month, in the year rule of M月D日."""
    month = _num(m.group("m"))
    if month is None or not 1 <= month <= 12:
        return None
    first = year_for_month_day(today, month, 1, past=past, recent_past=False)
    return _edge(first, m.group("pos")) if first else None


def _month_day(m: re.Match, today: date, past: bool) -> Resolved | None:
    number = _num(m.group("d"))
    if number is None or not 1 <= number <= 31:
        return None
    day = add_months(today.replace(day=1), _MONTH_SHIFT[m.group("rel")], day_of_month=number)
    return Resolved.one_day(day)


def _month(m: re.Match, today: date, past: bool) -> Resolved | None:
    return daterules.month_of(add_months(today.replace(day=1), _MONTH_SHIFT[m.group("rel")]))


def _year_end(m: re.Match, today: date, past: bool) -> Resolved | None:
    return Resolved.one_day(date(today.year + _YEAR_SHIFT[m.group("rel") or ""], 12, 31))


def _year(m: re.Match, today: date, past: bool) -> Resolved | None:
    return daterules.year_of(today.year + _YEAR_SHIFT[m.group("rel")])


def _absolute(m: re.Match, today: date, past: bool) -> Resolved | None:
    month, number = _num(m.group("m")), _num(m.group("d"))
    if month is None or number is None or not 1 <= month <= 12:
        return None
    day = month_day(today, month, number, int(m.group("y")) if m.group("y") else None, past=past)
    if day and not m.group("y") and (said := _WEEKDAY_AFTER.match(m.string, m.end())):
        day = daterules.year_by_weekday(day, _WEEKDAYS[said.group(1)], today)  # "3月5日星期四"
    return Resolved.one_day(day) if day else None


# The first date of a range just before a bare day: "一月八号到十五号", "8号至12号".
_RANGE_FROM = re.compile(
    rf"(?:(?:(?P<y>\d{{4}})年)?(?P<m>{_SMALL_NUM})月)?(?P<d>{_SMALL_NUM})[号日]\s*(?:到|至|~|～|-|—|–)\s*$"
)


def _range_end(m: re.Match, number: int, today: date, past: bool) -> date | None:
    """A bare day that ends a range ("一月八号到十五号") is a day of the month the range opened in
    (the next month when it is smaller: "28号到3号"), not the next 15th from today."""
    opened = _RANGE_FROM.search(m.string, 0, m.start())
    if opened is None or (first := _num(opened.group("d"))) is None:
        return None
    month = _num(opened.group("m")) if opened.group("m") else None
    if month is not None:
        year = int(opened.group("y")) if opened.group("y") else None
        start = month_day(today, month, first, year, past=past) if 1 <= month <= 12 else None
    else:
        start = day_of_month(today, first, past=past)
    if start is None:
        return None
    month_of_end = add_months(start.replace(day=1), 1 if number < start.day else 0)
    try:
        return month_of_end.replace(day=number)
    except ValueError:  # "2月8号到30号": no such day; read as a day on its own
        return None


def _bare_day(m: re.Match, today: date, past: bool) -> Resolved | None:
    number = _num(m.group("d") or m.group("dz"))
    if not number:
        return None
    day = _range_end(m, number, today, past) or day_of_month(today, number, past=past)
    return Resolved.one_day(day) if day else None


def _day_word(m: re.Match, today: date, past: bool) -> Resolved | None:
    return replace(Resolved.one_day(today + timedelta(days=_DAY_WORDS[m.group("w")])), from_today=True)


def _count(m: re.Match, today: date, past: bool) -> Resolved | None:
    raw = m.group("n")
    amount = parse_count(raw)
    if amount is None:
        return None
    direction = -1 if m.group("dir") in ("前", "之前", "以前") else 1
    unit = _UNITS[m.group("u")]
    day = add_units(today, direction * amount, unit)
    if day is None:
        return None
    return Resolved(day, unit_span(day, unit), day.isoformat(), from_today=True)


# (pattern, resolver); the core group is what gets replaced, anything after it (之前) is kept.
_RULES: list[tuple[re.Pattern, Resolver]] = [
    (
        re.compile(
            rf"(?P<core>(?:(?P<y>\d{{4}})年)?(?P<m>{_SMALL_NUM})月(?P<d>{_SMALL_NUM})(?:[日号]|{_BARE_DAY_END})){_DEADLINE}"
        ),
        _absolute,
    ),
    (
        re.compile(rf"(?P<core>(?P<rel>下个|下|上个|上|这个|本)月(?P<d>{_SMALL_NUM})[号日]){_DEADLINE}"),
        _month_day,
    ),
    (
        re.compile(
            rf"(?P<core>(?P<m>{_SMALL_NUM})月(?P<pos>底|末|初|上旬|中旬|下旬|中(?![心间国文午]))){_DEADLINE}"
        ),
        _named_month_edge,
    ),
    (
        re.compile(
            rf"{_NOT_AFTER_NUMERAL}(?P<core>(?P<rel>下个|下|上个|上|这个|本)?月(?P<pos>底|末|初|上旬|中旬|下旬|中(?![心间国文午])))"
            rf"{_DEADLINE}"
        ),
        _month_edge,
    ),
    (
        re.compile(rf"(?P<core>(?P<rel>下个|下|上个|上)月)(?![底末初份\d一二三四五六七八九十]){_DEADLINE}"),
        _month,
    ),
    (
        re.compile(
            rf"{_NOT_AFTER_NUMERAL}(?P<core>(?:(?P<rel>前|去|今|明|后)年)?(?P<m>{_SMALL_NUM})月份"
            rf"|(?P<rel2>前|去|今|明|后)年(?P<m2>{_SMALL_NUM})月(?![\d一二三四五六七八九十日号底末初中上下旬份]))"
            rf"{_DEADLINE}"
        ),
        _named_month,
    ),
    (re.compile(rf"(?P<core>(?P<rel>今|明|去)?年底){_DEADLINE}"), _year_end),
    # 去年/今年/明年 as a whole year; not 去年底 (above) nor a count ("三年前") nor 年纪/年轻.
    (
        re.compile(
            r"(?<![\d零一二两三四五六七八九十几多])(?P<core>(?P<rel>前|去|今|明|后)年)(?![底初末中纪轻级会度])"
        ),
        _year,
    ),
    (
        re.compile(
            rf"{_NOT_AFTER_NUMERAL}(?P<core>(?P<rel>下下|上上|下|上|这|本)?个?(?:周|星期|礼拜)"
            # 周1 is Monday, but 周10 is not a weekday: a digit weekday is one digit only
            rf"(?P<wd>[一二三四五六日天]|[1-7](?!\d))){_DEADLINE}"
        ),
        _weekday,
    ),
    (
        re.compile(
            rf"(?P<core>(?P<rel>下下|上上|下|上|这|本)个?(?:周|星期|礼拜))(?![一二三四五六日天1-7末])"
            rf"{_DEADLINE}"
        ),
        _week,
    ),
    (re.compile(rf"(?P<core>(?P<rel>下|上|这|本)?个?周末){_DEADLINE}"), _weekend),
    (
        re.compile(
            r"(?P<core>(?P<n>\d+|一个半|半个|[零一二两三四五六七八九十半]+)(?P<u>天|日|周|个星期|星期|个礼拜|个月|年)"
            r"(?P<dir>之后|以后|后|之内|以内|内|之前|以前|前))"
        ),
        _count,
    ),
    (
        re.compile(
            rf"(?P<core>(?P<w>大前天|大后天|前天|后天|昨天|昨日|昨晚|今天|今日|今晚|今早|明天|明日|明早|明晚)"
            # "明晚七点": the clock time shares 晚 with the day word (time atom "晚七点"), so the
            # date annotation goes after the whole "明晚七点", never between 晚 and 七点.
            rf"(?:(?<=[晚早]){ZH_HOUR}[点點](?:钟)?{ZH_MINUTE})?)"
            rf"{_DEADLINE}"
        ),
        _day_word,
    ),
    (
        re.compile(
            rf"(?<![月\d第每])(?P<core>(?P<d>\d{{1,2}})[号日]|(?P<dz>[一二三四五六七八九十]{{1,3}})号)"
            rf"(?![线楼房院机桌座位码])(?!\d){_DEADLINE}"
        ),
        _bare_day,
    ),
]
_DEADLINE_PREFIX = re.compile(r"(?:截止到|截止|截至|最晚|最迟|不晚于)$")


def _classify(m: re.Match, resolved: Resolved) -> tuple[bool, str | None]:
    """Deadline: "X之前", "截止X", "N天内"; the bound word (之前) opens a query range."""
    word = m.groupdict().get("dl") or None
    prefix = bool(_DEADLINE_PREFIX.search(m.string[: m.start()][-4:]))
    within = (m.groupdict().get("dir") or "") in ("内", "之内", "以内")
    return bool(word) or prefix or within, word or ("by" if within or prefix else None)


def find_dates_zh(text: str, today: date, *, past: bool = False) -> list[Mention]:
    """Every Chinese date expression in `text`, resolved from `today` (the turn's local date).

    Args:
        text: one sentence (offsets are relative to it).
        today: the turn's local calendar date.
        past: the sentence is in the past tense (decides a bare "26号").

    Returns:
        Date mentions, possibly overlapping (the caller resolves overlaps). `extra` holds
        `replacement` (the surface with its resolution after it), `deadline`, `span` and `bound`.

    Example:
        >>> [m.value for m in find_dates_zh("下周二之前交", date(2026, 3, 10))]
        ['2026-03-17']
    """
    return daterules.run_rules(text, today, past, _RULES, _classify, "zh")
