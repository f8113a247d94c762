"""Dates and clock times in a sentence, resolved from the turn's own local date.

The one time-expression entry point: compression (an event's dates and restatement) and query
analysis (retrieve/timerange.py) both call `find_dates`. The turn timestamp carries its UTC offset;
the local calendar date is `turn.time.date()` in that offset, never the UTC date (EVALSETS.md).
Dates come from the Chinese and English rule sets plus numeric ISO forms; clock times are
normalised to 24-hour "HH:MM".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime

from simplemem_graph.compress.daterules import Resolved, run_rules
from simplemem_graph.compress.dates_en import find_dates_en
from simplemem_graph.compress.dates_zh import ZH_HOUR, ZH_MINUTE, find_dates_zh
from simplemem_graph.compress.mentions import Mention
from simplemem_graph.compress.numerals import parse_number
from simplemem_graph.dates import month_day

_ISO_DATE = re.compile(r"(?<!\d)(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)")
# Tense markers: they decide a bare weekday, "the 12th" or a year-less date (past: the last one).
# An arrangement looks ahead even in the past tense: "booked the dentist for May 20" and
# "约了5月20号去…" / "改到5月21号了", said on May 12, are about this May, not last year's.
EN_FUTURE = re.compile(
    r"\b(?:will|'ll|’ll|going to|gonna|shall|tomorrow|next"
    r"|booked|scheduled|rescheduled|postponed|reserved|pushed (?:it )?back|moved it)\b",
    re.IGNORECASE,
)
_EN_PAST = re.compile(r"\b(?:did|didn't|was|wasn't|were|weren't|had|hadn't|ago)\b", re.IGNORECASE)
# not 之前 ("15号之前交" is a deadline), not the direction 过来/过去 ("打过来" is a transfer to come)
ZH_PAST = re.compile(r"了|过(?![来去])|已经|昨天|上周|上个月|刚才")
ZH_FUTURE = re.compile(
    r"会|要|将|打算|准备|明天|下周|下个月|计划"
    r"|约了|约好|约在|预约|预订|订了|定在|定了|改到|改成|改在|推到|推迟到|延到|延期到|提前到"
)
# A day word can carry the part of the day: "明晚七点" is 19:00 (the date itself is read by dates_zh).
_ZH_PERIOD = r"(?P<period>凌晨|清晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|半夜|(?<=[今明昨])[早晚])"
# A Chinese-numeral hour needs a day-part word or a minute part: "快一点" is "a bit faster", not 01:00.
_ZH_TIME = re.compile(rf"{_ZH_PERIOD}?{ZH_HOUR}[点點](?:钟)?{ZH_MINUTE}")
_ZH_NOON = re.compile(r"中午|正午|午夜")
_EN_TIME = re.compile(
    r"\b(?P<h>\d{1,2})(?::(?P<min>\d{2}))?\s*(?P<ampm>a\.m\.|p\.m\.|am|pm)(?![a-z])"
    r"|\b(?P<h24>[01]?\d|2[0-3]):(?P<min24>[0-5]\d)\b"
    r"|\b(?P<noon>noon|midday|midnight)\b"
    r"|\b(?P<hoc>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+o'clock\b",
    re.IGNORECASE,
)
_AFTERNOON = {"下午", "傍晚", "晚上", "夜里", "晚"}
# A date that is moved, due or set is ahead of its sentence's tense: "the deadline moved to May 15",
# "the conference was moved to June 9", "改到6月3号" said in April are about the coming date.
_EN_AHEAD = re.compile(
    r"\b(?:due|deadline|scheduled|planned|set for|booked|reserved|launch(?:es|ing)?|starts?|opens?|"
    r"expected|promised)\b",
    re.IGNORECASE,
)
# A moved date: the new date is what the move is "to" ("moved to May 15", "pushed the review back to
# the 9th"), and the plan it is moved "from" was ahead too ("moved from 28 March to 21 March"); "we
# moved the office in April" moved something else, in the past.
_EN_MOVED_TO = re.compile(
    r"\b(?:moved|pushed|delayed|postponed|rescheduled|changed|shifted|brought forward)\b[^,.;!?]*?"
    r"\b(?:to|until|till|for|from)\s+(?:the\s+|on\s+)?$",
    re.IGNORECASE,
)
# A date on either side of a note's arrow ("completion date 20 Oct → 13 Oct") is a plan and
# what it was moved to, never a report of something done.
_BESIDE_ARROW = re.compile(r"\s?(?:→|->|=>|⇒|⟶)\s?$|\s?(?:→|->|=>|⇒|⟶)")
# Reported speech: what follows the reporting verb has its own tense ("Robert said the launch is on
# May 15": the launch is ahead, the saying is past).
_EN_REPORTING = re.compile(
    r"\b(?:said|says|told\s+\w+|mentioned|announced|confirmed|claimed|wrote|texted|emailed|informed\s+\w+)"
    r"(?:\s+that)?\s+",
    re.IGNORECASE,
)
# The date of a promise, plan or due day: "比答应的16号早了两天" (delivered early) keeps 16号 ahead.
_ZH_AHEAD = re.compile(r"答应|承诺|说好|约定|预计|预定|计划|到期|截止|定于|改到|推到|延到|推迟到|提前到")
_ZH_CHANGE_OF_STATE = re.compile(r"不[\u4e00-\u9fff]{1,3}了")
_ZH_REPORTING = re.compile(r"(?:说|表示|提到|告诉\w{0,3}|通知\w{0,3}|答应|承诺)(?:了)?[,，:：]?")
_LOCAL_BOUNDARY = re.compile(r"[,;:，；：、。!?！？]|\s[—–-]\s")


def local_date(moment: datetime) -> date:
    """The calendar date where the turn was said (its own UTC offset), not the UTC date."""
    return moment.date()


def find_dates(text: str, today: date, lang: str, *, past: bool = False) -> list[Mention]:
    """Date mentions in one sentence, from both rule sets (mixed-language text is common) and ISO forms.

    Args:
        text: the sentence.
        today: the turn's local date.
        lang: "zh" or "en"; Chinese rules only run on text with CJK characters.
        past: the sentence is in the past tense.

    Returns:
        Possibly overlapping date mentions (see `mentions.resolve_overlaps`).
    """
    found = find_dates_en(text, today, past=past)
    if re.search(r"[\u4e00-\u9fff]", text):
        found += find_dates_zh(text, today, past=past)
    found += run_rules(text, today, past, [(_ISO_DATE, _iso), (_SLASH_DATE, _slash_date)], _iso_bound, lang)
    return found


# "cutover 3/14 → 3/21", "Sat 3/28", "slipped to 4/1", "14/3": a day and a month written with a slash.
# Read only where it can be nothing else: one number above 12 says which is the day, or a weekday,
# a date word or a change arrow stands beside it (a bare 3/4 may be a fraction, 24/7 is no date).
_WEEKDAY_WORD = r"(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?"
_SLASH_DATE = re.compile(
    rf"(?<![\w/.:$£€¥-])(?P<core>(?:(?P<wd>{_WEEKDAY_WORD})\s+)?(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})(?:/(?P<y>\d{{4}}|\d{{2}}))?)"
    r"(?![\w/%]|\.\d)",
    re.IGNORECASE,
)
_DATE_CUE_BEFORE = re.compile(
    r"(?:\b(?:on|by|from|to|until|till|through|before|after|due|since|moved|pushed|cutover|date)\s+|[→⟶⇒]\s?)$",
    re.IGNORECASE,
)
_DATE_CUE_AFTER = re.compile(r"^\s?[→⟶⇒]")


def _slash_date(m: re.Match, today: date, past: bool) -> Resolved | None:
    a, b = int(m.group("a")), int(m.group("b"))
    year = int(m.group("y")) if m.group("y") else None
    if year is not None and year < 100:
        year += 2000
    if (a, b) == (24, 7) or not (1 <= a <= 31 and 1 <= b <= 31):
        return None
    readings = [(a, b)] if b > 12 else [(b, a)] if a > 12 else [(a, b), (b, a)]  # (month, day)
    cued = (
        m.group("wd")
        or year is not None
        or _DATE_CUE_BEFORE.search(m.string[: m.start()])
        or _DATE_CUE_AFTER.match(m.string[m.end() :])
    )
    if (len(readings) == 2 and not cued) or not (a > 12 or b > 12 or cued):
        return None
    # the date nearest the day it was said, whatever the tense ("slipped to 4/1" is ahead)
    years = [year] if year is not None else [today.year - 1, today.year, today.year + 1]
    days = [d for month, day in readings for y in years if (d := month_day(today, month, day, y, past=past))]
    if m.group("wd"):  # "Sat 4/4": the reading that falls on the weekday said
        wanted = _WEEKDAYS_EN.index(m.group("wd")[:3].lower())
        days = [d for d in days if d.weekday() == wanted] or days
    if not days:
        return None
    return Resolved.one_day(min(days, key=lambda d: abs((d - today).days)))  # 4/1 in March: 1 April


_WEEKDAYS_EN = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _iso(m: re.Match, today: date, past: bool) -> Resolved | None:
    try:
        return Resolved.one_day(date(int(m.group("y")), int(m.group("m")), int(m.group("d"))))
    except ValueError:
        return None


def _iso_bound(m: re.Match, resolved: Resolved) -> tuple[bool, str | None]:
    """An ISO date is never a deadline by itself ("by" before it is read by the query side)."""
    return False, None


def local_clause(sentence: str, start: int, end: int, lang: str) -> tuple[int, int]:
    """The clause of `sentence` around characters [start, end): from the last pause or reporting verb
    before the date to the next pause after it. A date's direction is that clause's, not the
    sentence's: "Robert said the launch is on May 15" is about "the launch is on May 15"."""
    head = sentence[:start]
    cut = max((m.end() for m in _LOCAL_BOUNDARY.finditer(head)), default=0)
    reporting = _ZH_REPORTING if lang == "zh" or re.search(r"[\u4e00-\u9fff]", head) else _EN_REPORTING
    cut = max([cut, *(m.end() for m in reporting.finditer(head))])
    tail = _LOCAL_BOUNDARY.search(sentence, end)
    stop = tail.start() if tail else len(sentence)
    if cut and not _EN_APPOSITION_REST.sub("", sentence[cut:start] + " " + sentence[end:stop]).strip():
        # a date standing alone between pauses restates the clause before it ("I got the ticket on
        # Valentine's Day, February 14th, which was $40"): that clause's tense is the date's
        cut = max((m.end() for m in _LOCAL_BOUNDARY.finditer(sentence[: cut - 1])), default=0)
    return cut, stop


# 是…的 after a date: when a done thing happened ("我们是2月14号那天认识的", "这本书是2月14号买的");
# a verb stands between the date and 的, so "车票是3月5号的" (the ticket for that day) is not it.
_ZH_CLEFT_PAST = re.compile(r"^[^，。！？,.!?]*?[\u4e00-\u9fff]的\s*(?:[，。！？,.!?]|$)")


# "since" right before a date (or opening its expression): the start of something still running,
# never a "since" elsewhere in the sentence ("since I've only been going a few weeks - every Saturday").
# ...unless the date is the subject of a clause "since" opens as a reason ("since Friday is a holiday").
_EN_VERB_AFTER = re.compile(r"\s*(?:is|was|are|were|will|would|has|had|'s)\b", re.IGNORECASE)
_EN_SINCE = re.compile(r"\bsince\s+(?:the\s+|early\s+|mid-?|late\s+)?$", re.IGNORECASE)


# What a date's own clause may hold besides the date and still be a restatement of the clause before.
_EN_APPOSITION_REST = re.compile(r"\b(?:on|in|at|the|of|or|and)\b|[\s,;:.()—–-]", re.IGNORECASE)


def date_points_back(
    sentence: str, mention: Mention, lang: str, past_verbs: Sequence[tuple[int, int]] = ()
) -> bool:
    """Whether a date in `sentence` takes the occurrence behind the turn (a report of something done)
    rather than the one ahead (a deadline, a plan, an arrangement, a moved date): decided by what the
    date is and by the tense of its own clause, reported speech included.

    Args:
        sentence: the sentence (mention offsets are relative to it).
        mention: a date mention of `sentence`.
        lang: "zh" or "en".
        past_verbs: [start, end) of the past-tense verbs of the sentence (English: spaCy's VBD),
            relative to it; Chinese reads 了/过/已经 from the text.
    """
    if mention.extra.get("deadline"):
        return False  # "by the 28th", "6月3号之前": a deadline is ahead whatever the verb
    since = _EN_SINCE.search(sentence[: mention.start]) or mention.surface.lower().startswith("since ")
    if since and not _EN_VERB_AFTER.match(sentence, mention.end):
        return True  # "walking every morning since mid-January": what runs since began behind
    start, end = local_clause(sentence, mention.start, mention.end, lang)
    clause = sentence[start:end]
    if re.search(r"[\u4e00-\u9fff]", clause):
        # the cue may be the reporting verb itself ("答应的16号"): read the words right before the date
        lead = sentence[max(0, min(start, mention.start - 6)) : mention.start]
        # 不…了 is a change of plan, not a past event: "周六我不去了" is about the coming Saturday
        changed = _ZH_CHANGE_OF_STATE.search(clause)
        after = sentence[mention.end : end]
        cleft = bool(_ZH_CLEFT_PAST.search(after)) and not ZH_FUTURE.search(after)
        said_done = is_past(clause, "zh") or cleft
        return not _ZH_AHEAD.search(lead) and not changed and said_done
    if (
        _EN_AHEAD.search(clause)
        or EN_FUTURE.search(clause)
        or _EN_MOVED_TO.search(sentence[start : mention.start])
        or _BESIDE_ARROW.search(sentence[max(0, mention.start - 3) : mention.start])
        or _BESIDE_ARROW.match(sentence, mention.end)
    ):
        return False
    return any(start <= a and b <= end for a, b in past_verbs)


def is_past(text: str, lang: str) -> bool:
    """Past tense by its markers, for text without a parse (a query): a past auxiliary or 了/过/昨天...,
    and no future marker. Compression reads English tense from spaCy tags instead."""
    if lang == "zh":
        return bool(ZH_PAST.search(text)) and not ZH_FUTURE.search(text)
    return bool(_EN_PAST.search(text)) and not EN_FUTURE.search(text)


def _zh_minutes(raw: str | None) -> int | None:
    if not raw:
        return 0
    if raw == "半":
        return 30
    if raw in ("一刻", "三刻"):
        return 15 if raw == "一刻" else 45
    value = parse_number(raw.rstrip("分"))
    return int(value) if value is not None and value < 60 else None


def find_times(text: str) -> list[Mention]:
    """Clock times as "HH:MM": 上午10点, 下午两点半, 中午, 7:30 pm, 11 am, noon.

    Example:
        >>> [m.value for m in find_times("明天下午两点半到三楼会议室")]
        ['14:30']
    """
    found: list[Mention] = []
    for m in _ZH_TIME.finditer(text):
        hour_raw, period = m.group("h"), m.group("period")
        if not hour_raw.isdigit() and not period and not m.group("min"):
            continue
        hour, minute = parse_number(hour_raw), _zh_minutes(m.group("min"))
        if hour is None or minute is None or hour > 24:
            continue
        hour = int(hour)
        if (period in _AFTERNOON and hour < 12) or (period == "中午" and hour < 3):
            hour += 12
        found.append(Mention("time", m.start(), m.end(), m.group(0), f"{hour % 24:02d}:{minute:02d}"))
    for m in _ZH_NOON.finditer(text):
        found.append(
            Mention("time", m.start(), m.end(), m.group(0), "00:00" if m.group(0) == "午夜" else "12:00")
        )
    for m in _EN_TIME.finditer(text):
        if m.group("noon"):
            value = "00:00" if m.group("noon").lower() == "midnight" else "12:00"
        elif m.group("hoc"):
            hour = parse_number(m.group("hoc"))
            value = f"{int(hour):02d}:00"
        elif m.group("h24"):
            value = f"{int(m.group('h24')):02d}:{m.group('min24')}"
        else:
            hour = int(m.group("h"))
            if hour > 12:
                continue
            if m.group("ampm").lower().startswith("p") and hour < 12:
                hour += 12
            elif m.group("ampm").lower().startswith("a") and hour == 12:
                hour = 0
            value = f"{hour:02d}:{m.group('min') or '00'}"
        found.append(Mention("time", m.start(), m.end(), m.group(0), value))
    return found
