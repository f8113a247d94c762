"""Pattern memories (issue 14): are planted regularities found, and nothing else? What does a pattern
save in the context pack?

A seeded generated log (zh + en; random people and organisations; dates drawn at random) holds
planted regularities of five kinds, each a group of 6-8 similar events of one subject:
    weekday      "{A} met {B} for the project review", always on one weekday
    time_of_day  "{A} called {B} about the shipment", always in the evening
    interval     "{A} sent {B} the status report", every g days (g not a multiple of 7)
    postpone     "{A} postponed the Friday review to Monday"
    outcome      "{A} did not attend the budget meeting with {B}"
with at most one event off the regularity, and as many look-alike groups: the same sentences for
other subjects, with the weekday, hour, gap, weekday pair or negation drawn at random.

Through the real pipeline (`Memory.add_many`, then `Memory.consolidate`, the global pass that mines
patterns): precision and recall of the planted (subject, kind, value); then, for each found planted
pattern, a question about the regularity: is the pattern in `search(...).patterns`, and how many
tokens the pattern takes against its evidence events (what the context would need without it).
Baseline in the same run: the same grouping with no rate threshold (any group of 4 events states its
most common value) — what a count without a rate would claim.

    python bench/patterns.py --seeds 0 1 2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.generate_stories import _EN_FIRST, _en_word, _zh_person
from simplemem_graph.consolidate.patterns import WEEKDAYS_EN, mine_patterns
from simplemem_graph.memory import Memory
from simplemem_graph.models import EventStatus, Turn
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EventQuery, RecallFilter
from simplemem_graph.text import count_tokens

KINDS = ("weekday", "time_of_day", "interval", "postpone", "outcome")
ZH_WEEKDAYS = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")


def _names(rng: random.Random, used: set[str], lang: str) -> tuple[str, str]:
    if lang == "zh":
        return _zh_person(rng, used)[0], _zh_person(rng, used)[0]
    a = f"{rng.choice(_EN_FIRST)} {_en_word(rng, used).capitalize()}"
    b = f"{_en_word(rng, used).capitalize()} Holdings"
    return a, b


def _text(
    kind: str, lang: str, a: str, b: str, *, negated: bool = True, pair: tuple[int, int] = (4, 0)
) -> str:
    if lang == "zh":
        return {
            "weekday": f"{a}和{b}开了项目例会",
            "time_of_day": f"{a}给{b}打了电话",
            "interval": f"{a}把周报发给了{b}",
            "postpone": f"{a}把{ZH_WEEKDAYS[pair[0]]}的评审推迟到下{ZH_WEEKDAYS[pair[1]]}",
            "outcome": f"{a}没有参加和{b}的例会" if negated else f"{a}参加了和{b}的例会",
        }[kind]
    return {
        "weekday": f"{a} met {b} for the project review",
        "time_of_day": f"{a} called {b} about the shipment",
        "interval": f"{a} sent {b} the status report",
        "postpone": f"{a} postponed the {WEEKDAYS_EN[pair[0]]} review to {WEEKDAYS_EN[pair[1]]}",
        "outcome": f"{a} did not attend the budget meeting with {b}"
        if negated
        else f"{a} attended the budget meeting with {b}",
    }[kind]


def _group(rng: random.Random, kind: str, lang: str, a: str, b: str, start: datetime, planted: bool):
    """(time, text) of one group, and the planted value (None for a look-alike)."""
    n = rng.randint(6, 8)
    off = rng.randrange(n) if planted and rng.random() < 0.6 else -1  # at most one event off the rule
    rows: list[tuple[datetime, str]] = []
    weekday = rng.randrange(7)
    gap = rng.choice([3, 4, 5, 6, 9, 10, 11, 12, 13])
    day = start + timedelta(days=rng.randint(0, 6))
    value = None
    for i in range(n):
        regular = planted and i != off
        hour = rng.randint(8, 20)
        if kind == "weekday":
            day = start + timedelta(days=7 * i)
            wd = weekday if regular else rng.choice([d for d in range(7) if d != weekday])
            when = day + timedelta(days=(wd - day.weekday()) % 7)
            value = WEEKDAYS_EN[weekday]
        elif kind == "time_of_day":
            when = start + timedelta(days=rng.randint(0, 60))
            hour = rng.randint(18, 21) if regular else rng.randint(8, 16)
            value = "evening"
        elif kind == "interval":
            day = day + timedelta(
                days=gap if regular or (not planted and rng.random() < 0.2) else rng.randint(1, 16)
            )
            if not planted:
                day = day + timedelta(days=rng.randint(0, 9))
            when = day
            value = f"{gap}d"
        elif kind == "postpone":
            when = start + timedelta(days=rng.randint(0, 60))
            pair = (4, 0) if regular else (rng.randrange(7), rng.randrange(7))
            if not planted:
                pair = (rng.randrange(7), rng.randrange(7))
            rows.append((when.replace(hour=hour), _text(kind, lang, a, b, pair=pair)))
            value = "Friday->Monday"
            continue
        else:
            when = start + timedelta(days=rng.randint(0, 60))
            negated = regular if planted else rng.random() < 0.5
            rows.append((when.replace(hour=hour), _text(kind, lang, a, b, negated=negated)))
            value = "not"
            continue
        rows.append((when.replace(hour=hour, minute=rng.randint(0, 59)), _text(kind, lang, a, b)))
    return rows, (value if planted else None)


def generate(seed: int):
    rng = random.Random(seed)
    start = datetime(2026, rng.randint(1, 6), rng.randint(1, 20), 0, 0)
    used: set[str] = set()
    turns: list[Turn] = []
    planted: list[dict] = []
    for lang in ("zh", "en"):
        tz = timezone(timedelta(hours=8)) if lang == "zh" else UTC
        for kind in KINDS:
            for is_planted in (True, True, False, False):
                a, b = _names(rng, used, lang)
                rows, value = _group(rng, kind, lang, a, b, start, is_planted)
                session = f"{lang}-{kind}-{len(planted)}-{len(turns)}"
                for i, (when, text) in enumerate(rows):
                    turns.append(
                        Turn(
                            id=f"{session}:{i}",
                            session=session,
                            speaker="Dana" if lang == "en" else "王敏",
                            time=when.replace(tzinfo=tz),
                            text=text,
                        )
                    )
                planted.append({"lang": lang, "kind": kind, "subject": a, "value": value, "other": b})
    turns.sort(key=lambda t: (t.time, t.id))
    return turns, planted


def _matches(pattern, gold: dict) -> bool:
    return (
        gold["value"] is not None
        and pattern.kind == gold["kind"]
        and pattern.value == gold["value"]
        and (gold["subject"] in pattern.subject or pattern.subject in gold["subject"])
    )


def _pr(found: list, gold: list[dict]) -> dict:
    wanted = [g for g in gold if g["value"] is not None]
    true = [p for p in found if any(_matches(p, g) for g in wanted)]
    hit = [g for g in wanted if any(_matches(p, g) for p in found)]
    return {
        "precision": round(len(true) / len(found), 3) if found else 1.0,
        "recall": round(len(hit) / len(wanted), 3) if wanted else 1.0,
        "found": len(found),
        "planted": len(wanted),
    }


def run_seed(seed: int, embedder) -> dict:
    turns, gold = generate(seed)
    memory = Memory(EmbeddedStore(":memory:"), namespace=f"p{seed}", embedder=embedder)
    memory.add_many(turns)
    now = max(t.time for t in turns) + timedelta(days=1)
    memory.consolidate(now=now)
    found = memory.patterns()
    patterns = [p for p, _ in found]
    statuses = [EventStatus.ACTIVE, EventStatus.DONE, EventStatus.ARCHIVED, EventStatus.SUPERSEDED]
    events = memory.store.events(memory.namespace, EventQuery(filter=RecallFilter(statuses=statuses)))
    baseline = [c.pattern for c in mine_patterns(events, memory.namespace, now=now, min_rate=0.0)]
    by_kind = {
        kind: _pr([p for p in patterns if p.kind == kind], [g for g in gold if g["kind"] == kind])
        for kind in KINDS
    }
    # Tokens: a true pattern against the evidence events it stands for; and does search surface it?
    saved, surfaced, asked = [], 0, 0
    for pattern, evidence in found:
        match = next((g for g in gold if _matches(pattern, g)), None)
        if match is None:
            continue
        asked += 1
        query = (
            f"{match['subject']}通常什么时候和{match['other']}联系？"
            if match["lang"] == "zh"
            else f"When does {match['subject']} usually deal with {match['other']}?"
        )
        result = memory.search(query, at=now)
        surfaced += any(p.id == pattern.id for p in result.patterns)
        saved.append((count_tokens(pattern.text), sum(count_tokens(e.text) for e in evidence)))
    memory.close()
    pattern_tokens = sum(a for a, _ in saved)
    evidence_tokens = sum(b for _, b in saved)
    return {
        "seed": seed,
        "turns": len(turns),
        "ours": _pr(patterns, gold),
        "baseline_no_rate": _pr(baseline, gold),
        "by_kind": by_kind,
        "surfaced_in_search": f"{surfaced}/{asked}",
        "pattern_tokens": pattern_tokens,
        "evidence_tokens": evidence_tokens,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from simplemem_graph.embedding import make_embedder

    embedder = make_embedder()
    started = time.perf_counter()
    rows = [run_seed(seed, embedder) for seed in args.seeds]
    for row in rows:
        if args.json:
            print(json.dumps(row, ensure_ascii=False))
            continue
        ours, base = row["ours"], row["baseline_no_rate"]
        kinds = " ".join(f"{k} {v['recall']:.2f}/{v['precision']:.2f}" for k, v in row["by_kind"].items())
        print(
            f"seed {row['seed']} ({row['turns']} turns): P {ours['precision']:.3f} R {ours['recall']:.3f}"
            f" ({ours['found']} found, {ours['planted']} planted)"
            f" | no-rate baseline P {base['precision']:.3f}"
            f" R {base['recall']:.3f} ({base['found']}) | R/P by kind: {kinds} | search shows the pattern"
            f" {row['surfaced_in_search']} | tokens pattern {row['pattern_tokens']} vs its events"
            f" {row['evidence_tokens']}"
        )
    for part in ("ours", "baseline_no_rate"):
        for metric in ("precision", "recall"):
            values = [r[part][metric] for r in rows]
            print(f"{part:>17} {metric:>9}: mean {sum(values) / len(values):.3f}  min {min(values):.3f}")
    tokens = sum(r["pattern_tokens"] for r in rows), sum(r["evidence_tokens"] for r in rows)
    if tokens[1]:
        print(
            f"tokens: patterns {tokens[0]} vs their evidence events {tokens[1]}"
            f" ({tokens[0] / tokens[1]:.3f}x)"
        )
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
