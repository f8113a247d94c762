"""Pattern memories (seed 6.2, 模式级): regularities counted over many similar events.

Deterministic: events are grouped by (subject, action, counterpart); inside a group one regular
value is looked for along each dimension:
    weekday      the day of the week the event happened on (its first named date, else its time)
    time_of_day  morning / afternoon / evening / night (a time in the text, else the event's time)
    interval     days between consecutive occurrences ("every 14 days")
    postpone     a move from one weekday to another (推迟 / postponed / moved ... to ...)
    outcome      the event was stated in the negative ("did not attend"), or cancelled later
A group with at least MIN_SUPPORT events of one value, making at least MIN_RATE of the group, is a
pattern: a count and a rate, not a hunch. It is restated in the language most of its events were
written in and linked to them by EVIDENCED_BY. The global pass re-mines every time: a pattern whose
group later breaks the regularity (its rate falls under MIN_RATE) is retired, not deleted.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from itertools import pairwise
from statistics import median

from simplemem_graph.embedding import Embedder
from simplemem_graph.models import (
    Event,
    EventStatus,
    GraphDelta,
    Link,
    LinkKind,
    Pattern,
    PatternStatus,
    stable_id,
)
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EventQuery, RecallFilter

MIN_SUPPORT = 4  # events that follow the regularity
MIN_RATE = 0.75  # ... out of every event of the group
INTERVAL_TOLERANCE_DAYS = 1
MIN_INTERVAL_DAYS = 2  # daily habits are not worth a memory; weekly ones are the weekday pattern

POSTPONE = re.compile(
    r"\b(?:postpone[sd]?|reschedul(?:e|ed|es)|push(?:ed)? back|moved?|delay(?:ed|s)?|defer(?:red|s)?)\b"
    r"|推迟|延期|改到|推到|挪到|延后|顺延|改期",
    re.IGNORECASE,
)
_TIME = re.compile(r"^(\d{1,2}):(\d{2})")
WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAYS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
PARTS_EN = {
    "morning": "in the morning",
    "afternoon": "in the afternoon",
    "evening": "in the evening",
    "night": "at night",
}
PARTS_ZH = {"morning": "上午", "afternoon": "下午", "evening": "晚上", "night": "夜里"}


@dataclass(frozen=True)
class Candidate:
    """A regularity found in the events, before it is compared with the stored patterns."""

    pattern: Pattern
    evidence: tuple[str, ...]


def _group_key(event: Event) -> tuple[str, str, str] | None:
    """(subject, action, counterpart): who does what with whom or what."""
    action = (event.action or "").strip().lower()
    if not action:
        return None
    people = [p for p in event.participants if p.type in ("person", "org")]
    agents = [p.name for p in people if p.role == "agent"]
    subject = agents[0] if agents else event.speaker
    others = sorted({p.name for p in people if p.name != subject})
    counterpart = ", ".join(others) if others else (event.object or "").strip().lower()
    return subject, action, counterpart


def _occurred(event: Event) -> date:
    return event.dates[0] if event.dates else event.time.date()


def _part_of_day(event: Event) -> str:
    hour = event.time.hour
    for atom in event.atoms:
        match = _TIME.match(atom.value) if atom.kind == "time" else None
        if match:
            hour = int(match.group(1))
            break
    if 5 <= hour < 12:
        return "morning"
    if 12 <= hour < 17:
        return "afternoon"
    if 17 <= hour < 22:
        return "evening"
    return "night"


def _values(events: Sequence[Event]) -> dict[str, dict[str, str]]:
    """Per dimension: event id -> its value (only events that have one)."""
    values: dict[str, dict[str, str]] = defaultdict(dict)
    for event in events:
        if POSTPONE.search(event.text) and len(event.dates) >= 2:
            start, end = event.dates[0], event.dates[-1]
            values["postpone"][event.id] = f"{WEEKDAYS_EN[start.weekday()]}->{WEEKDAYS_EN[end.weekday()]}"
            continue  # its dates are the move, not when it happened
        values["weekday"][event.id] = WEEKDAYS_EN[_occurred(event).weekday()]
        values["time_of_day"][event.id] = _part_of_day(event)
        if event.negated:
            values["outcome"][event.id] = "not"
        elif event.status == EventStatus.ARCHIVED:
            values["outcome"][event.id] = "cancelled"
        else:
            values["outcome"][event.id] = "as stated"
    return values


def _interval(
    events: Sequence[Event], min_support: int, min_rate: float
) -> tuple[str, list[str], int] | None:
    """A regular gap between consecutive occurrences: (value, evidence ids, gaps counted)."""
    ordered = sorted(events, key=lambda e: (_occurred(e), e.id))
    days = [(_occurred(b) - _occurred(a)).days for a, b in pairwise(ordered)]
    if len(days) < min_support - 1:
        return None
    typical = round(median(days))
    if typical < MIN_INTERVAL_DAYS or typical % 7 == 0:
        return None
    regular = [i for i, gap in enumerate(days) if abs(gap - typical) <= INTERVAL_TOLERANCE_DAYS]
    if len(regular) + 1 < min_support or len(regular) < min_rate * len(days):
        return None
    evidence = sorted({ordered[i].id for i in regular} | {ordered[i + 1].id for i in regular})
    return f"{typical}d", evidence, len(days)


def mine_patterns(
    events: Sequence[Event],
    namespace: str,
    *,
    now: datetime,
    min_support: int = MIN_SUPPORT,
    min_rate: float = MIN_RATE,
) -> list[Candidate]:
    """Every regularity of the events (see the module docstring), deterministic and ordered by id.
    `min_support` / `min_rate` are parameters for the benchmark's baselines; the pass uses the defaults."""
    groups: dict[tuple[str, str, str], list[Event]] = defaultdict(list)
    for event in events:
        key = _group_key(event)
        if key is not None:
            groups[key].append(event)
    found: list[Candidate] = []
    for key, members in groups.items():
        if len(members) < min_support:
            continue
        by_id = {e.id: e for e in members}
        for kind, values in _values(members).items():
            if len(values) < min_support:
                continue
            value, support = Counter(values.values()).most_common(1)[0]
            if value == "as stated" or support < min_support or support < min_rate * len(values):
                continue
            evidence = sorted(i for i, v in values.items() if v == value)
            found.append(
                _candidate(namespace, key, kind, value, [by_id[i] for i in evidence], len(values), now)
            )
        interval = _interval(members, min_support, min_rate)
        if interval is not None:
            value, evidence, gaps = interval
            found.append(
                _candidate(namespace, key, "interval", value, [by_id[i] for i in evidence], gaps + 1, now)
            )
    return sorted(found, key=lambda c: c.pattern.id)


def _candidate(
    namespace: str,
    key: tuple[str, str, str],
    kind: str,
    value: str,
    evidence: list[Event],
    total: int,
    now: datetime,
) -> Candidate:
    subject, action, counterpart = key
    lang = Counter(e.lang for e in evidence).most_common(1)[0][0]
    support = len(evidence)
    times = sorted(e.time for e in evidence)
    pattern = Pattern(
        id=stable_id("pat", namespace, subject, action, counterpart, kind, value),
        namespace=namespace,
        text=restate(
            lang,
            key,
            kind,
            value,
            support,
            total,
            _occurred(min(evidence, key=_occurred)),
            _occurred(max(evidence, key=_occurred)),
        ),
        lang=lang,
        kind=kind,
        subject=subject,
        action=action,
        value=value,
        support=support,
        total=total,
        rate=round(support / total, 4),
        first_seen=times[0],
        last_seen=times[-1],
        updated_at=now,
    )
    return Candidate(pattern, tuple(e.id for e in evidence))


def restate(
    lang: str,
    key: tuple[str, str, str],
    kind: str,
    value: str,
    support: int,
    total: int,
    first: date,
    last: date,
) -> str:
    """The regularity in words, with its count, rate and span."""
    subject, action, counterpart = key
    span_en = f"{support} of {total} times, {first.isoformat()} to {last.isoformat()}"
    span_zh = f"{total}次中{support}次，{first.isoformat()}至{last.isoformat()}"
    if lang == "zh":
        what = f"{subject}{action}{counterpart}" if counterpart else f"{subject}{action}"
        if kind == "weekday":
            return f"{subject}通常在{WEEKDAYS_ZH[WEEKDAYS_EN.index(value)]}{action}{counterpart}（{span_zh}）"
        if kind == "time_of_day":
            return f"{subject}通常在{PARTS_ZH[value]}{action}{counterpart}（{span_zh}）"
        if kind == "interval":
            return f"{what}大约每{value[:-1]}天一次（{span_zh}）"
        if kind == "postpone":
            start, end = (WEEKDAYS_ZH[WEEKDAYS_EN.index(v)] for v in value.split("->"))
            return f"{subject}常把{counterpart or '任务'}从{start}推迟到{end}（{span_zh}）"
        if value == "cancelled":
            return f"{what}常被取消（{span_zh}）"
        return f"{subject}常常没有{action}{counterpart}（{span_zh}）"
    what = f"{subject}: {action} {counterpart}".strip()
    if kind == "weekday":
        return f"{what}, usually on {value}s ({span_en})"
    if kind == "time_of_day":
        return f"{what}, usually {PARTS_EN[value]} ({span_en})"
    if kind == "interval":
        return f"{what}, about every {value[:-1]} days ({span_en})"
    if kind == "postpone":
        start, end = value.split("->")
        return f"{subject} usually moves {counterpart or 'tasks'} from {start} to {end} ({span_en})"
    if value == "cancelled":
        return f"{what}, usually cancelled ({span_en})"
    return f"{what}, usually not done ({span_en})"


def plan_patterns(
    store: GraphStore, namespace: str, *, now: datetime, embedder: Embedder | None = None
) -> GraphDelta:
    """The global pass's pattern step: re-mine, then plan new and changed patterns with their
    EVIDENCED_BY links and retire the stored ones that no longer hold, as one delta (reads only).

    Its counts: patterns_active, patterns_new, patterns_retired."""
    # Superseded events count: "moved the review to Monday" is replaced by the next move, but each
    # move happened, and the moves together are the regularity.
    statuses = [EventStatus.ACTIVE, EventStatus.DONE, EventStatus.ARCHIVED, EventStatus.SUPERSEDED]
    events = store.events(namespace, EventQuery(filter=RecallFilter(statuses=statuses), embeddings=False))
    candidates = mine_patterns(events, namespace, now=now)
    stored = {p.id: p for p in store.patterns(namespace)}
    found = {c.pattern.id for c in candidates}
    old_links = store.links(namespace, kinds=[LinkKind.EVIDENCED_BY], node_ids=sorted(found)) if found else []
    old_evidence: dict[str, set[str]] = defaultdict(set)
    for link in old_links:
        old_evidence[link.source].add(link.target)
    texts = [
        c.pattern.text
        for c in candidates
        if stored.get(c.pattern.id) is None
        or stored[c.pattern.id].text != c.pattern.text
        or stored[c.pattern.id].embedding is None
    ]
    vectors = dict(zip(texts, embedder.encode(texts), strict=True)) if embedder is not None and texts else {}
    delta = GraphDelta(namespace=namespace)
    counts = {"patterns_active": len(candidates), "patterns_new": 0, "patterns_retired": 0}
    for candidate in candidates:
        pattern, before = candidate.pattern, stored.get(candidate.pattern.id)
        if before is None or before.status != PatternStatus.ACTIVE:
            counts["patterns_new"] += 1
        vector = vectors.get(pattern.text)
        embedding = vector.tolist() if vector is not None else (before.embedding if before else None)
        unchanged = before is not None and before.model_copy(
            update={"updated_at": now}
        ) == pattern.model_copy(update={"embedding": before.embedding})
        if not unchanged:
            delta.patterns.append(pattern.model_copy(update={"embedding": embedding}))
        evidence = set(candidate.evidence)
        delta.links += [
            Link(kind=LinkKind.EVIDENCED_BY, source=pattern.id, target=i, namespace=namespace)
            for i in sorted(evidence - old_evidence[pattern.id])
        ]
        delta.removed_links += [
            Link(kind=LinkKind.EVIDENCED_BY, source=pattern.id, target=i, namespace=namespace)
            for i in sorted(old_evidence[pattern.id] - evidence)
        ]
    for pattern_id, pattern in sorted(stored.items()):
        if pattern_id not in found and pattern.status == PatternStatus.ACTIVE:
            # Broken by later events: kept with its evidence for the record, no longer searched.
            delta.patterns.append(
                pattern.model_copy(update={"status": PatternStatus.RETIRED, "updated_at": now})
            )
            counts["patterns_retired"] += 1
    delta.counts = counts
    return delta
