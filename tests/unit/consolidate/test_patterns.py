"""Pattern memories (issue 14): regularities counted over hand-built events, refreshed and retired."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from simplemem_graph.consolidate.global_pass import run_step
from simplemem_graph.consolidate.patterns import mine_patterns, plan_patterns
from simplemem_graph.models import Event, LinkKind, Participant, PatternStatus
from simplemem_graph.stores.embedded import EmbeddedStore
from tests.store_writes import write

MONDAY = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)  # a Monday


def _meeting(event_id: str, when: datetime, *, who: str = "Bob", lang: str = "en", **fields) -> Event:
    return Event(
        id=event_id,
        namespace="t",
        text=f"Tom met {who} {event_id}",
        source_ids=[f"s:{event_id}"],
        session="s",
        time=when,
        action="meet",
        lang=lang,
        participants=[Participant(name="Tom", role="agent"), Participant(name=who, role="target")],
        **fields,
    )


def _weekly(n: int, offsets: list[int] | None = None) -> list[Event]:
    offsets = offsets or [0] * n
    return [_meeting(f"m{i}", MONDAY + timedelta(days=7 * i + offsets[i])) for i in range(n)]


def test_a_weekday_regularity_with_support_and_rate_becomes_a_pattern():
    events = _weekly(6, [0, 0, 2, 0, 0, 0])  # one Wednesday among Mondays
    [weekday] = [c for c in mine_patterns(events, "t", now=MONDAY) if c.pattern.kind == "weekday"]
    p = weekday.pattern
    assert (p.subject, p.action, p.value, p.support, p.total, p.rate) == (
        "Tom",
        "meet",
        "Monday",
        5,
        6,
        0.8333,
    )
    assert "m2" not in weekday.evidence and len(weekday.evidence) == 5
    assert p.text.startswith("Tom: meet Bob, usually on Mondays (5 of 6 times")


def test_scattered_look_alikes_and_small_groups_make_no_pattern():
    scattered = [
        _meeting(f"x{i}", MONDAY + timedelta(days=d), who="Ann") for i, d in enumerate([0, 3, 8, 12, 16, 22])
    ]
    few = _weekly(3)
    kinds = {(c.pattern.subject, c.pattern.kind) for c in mine_patterns(scattered + few, "t", now=MONDAY)}
    assert ("Tom", "weekday") not in kinds


def test_a_chinese_postponement_regularity_is_restated_in_chinese():
    events = [
        Event(
            id=f"p{i}",
            namespace="t",
            text=f"李明把{i}号的任务推迟到下周一",
            source_ids=[f"s:p{i}"],
            session="s",
            time=MONDAY + timedelta(days=7 * i + 4),
            action="推迟",
            lang="zh",
            dates=[date(2026, 3, 6) + timedelta(days=7 * i), date(2026, 3, 9) + timedelta(days=7 * i)],
            participants=[Participant(name="李明", role="agent")],
        )
        for i in range(4)
    ]
    [postpone] = [c.pattern for c in mine_patterns(events, "t", now=MONDAY) if c.pattern.kind == "postpone"]
    assert postpone.value == "Friday->Monday"
    assert postpone.text.startswith("李明常把任务从周五推迟到周一（4次中4次，2026-03-06至")


def test_refresh_writes_evidence_then_retires_a_broken_pattern():
    store = EmbeddedStore(":memory:")
    write(store, events=_weekly(5))
    counts = run_step(store, plan_patterns(store, "t", now=MONDAY))
    assert counts["patterns_new"] >= 1
    [weekday] = [p for p in store.patterns("t") if p.kind == "weekday"]
    links = store.links("t", kinds=[LinkKind.EVIDENCED_BY], node_ids=[weekday.id])
    assert sorted(lk.target for lk in links) == [f"m{i}" for i in range(5)]
    assert run_step(store, plan_patterns(store, "t", now=MONDAY))["patterns_new"] == 0  # idempotent
    # Four later meetings on Thursdays break "on Mondays" (5 of 9 < 0.75).
    write(store, events=[_meeting(f"t{i}", MONDAY + timedelta(days=38 + 7 * i)) for i in range(4)])
    counts = run_step(store, plan_patterns(store, "t", now=MONDAY + timedelta(days=70)))
    assert counts["patterns_retired"] >= 1
    [retired] = [p for p in store.patterns("t") if p.id == weekday.id]
    assert retired.status == PatternStatus.RETIRED
    assert store.patterns("t", statuses=[PatternStatus.ACTIVE]) == [
        p for p in store.patterns("t") if p.status == PatternStatus.ACTIVE
    ]
    store.close()
