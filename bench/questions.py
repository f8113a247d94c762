"""Active memory (issue 14): are the missing slots of tasks, meetings and commitments found, and are
the questions closed by the later turns that answer them?

A seeded generated set (zh + en, random names, places, objects, dates), never looked at while the
rules were written: each item is a session whose first turn creates a task, a meeting or a
commitment with a random subset of its key slots; for half of the missing slots a reply comes later
("张伟负责这件事", "It will be at the Kelbury office") while other sessions talk in between;
look-alike statements that need no question (visits, receipts) are mixed in.

Measured through the real pipeline (`Memory.add_many`, embedded store, the default embedder):
    detection   (item, slot) pairs asked after the first turns vs the slots really missing
    closure     (item, slot) pairs closed after the replies vs the slots really answered
Baselines in the same run: `ask-all` asks every slot of every task/meeting/commitment its kind
words find (no slot reading); `latest-open` closes, for each reply, the newest open question of that
slot in any session (no subject matching).

    python bench/questions.py --seeds 0 1 2 --items 40
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))

from bench.generate_stories import _en_word, _zh_person, _zh_place
from simplemem_graph.consolidate.questions import KIND_SLOTS, filled_slots, question_kind
from simplemem_graph.memory import Memory
from simplemem_graph.models import Turn
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EventQuery

ZH_OBJECTS = ["报价单", "合同", "样品", "发票", "方案", "清单", "图纸", "报告"]
EN_OBJECTS = ["quote", "contract", "samples", "invoice", "proposal", "checklist", "drawings", "report"]


@dataclass
class Item:
    session: str
    kind: str
    missing: set[str]
    turns: list[tuple[str, str]] = field(default_factory=list)  # (speaker, text) of the opener
    replies: dict[str, str] = field(default_factory=dict)  # slot -> reply text


def _zh_date(d: datetime) -> str:
    return f"{d.month}月{d.day}日"


def _en_date(d: datetime) -> str:
    return d.strftime("%B ") + str(d.day)


def _zh_item(rng: random.Random, used: set[str], session: str, now: datetime) -> Item:
    kind = rng.choice(list(KIND_SLOTS))
    owner, _ = _zh_person(rng, used)
    other, _ = _zh_person(rng, used)
    place = _zh_place(rng, used)
    obj = rng.choice(ZH_OBJECTS)
    due = now + timedelta(days=rng.randint(3, 20))
    amount = rng.randint(2, 90) * 100
    have = {slot for slot in KIND_SLOTS[kind] if rng.random() < 0.5}
    d = f"{_zh_date(due)}之前" if "deadline" in have else ""
    if kind == "task":
        text = f"{owner}会{d}把{obj}发给{other}" if "owner" in have else f"{d}要把{obj}发给{other}"
    elif kind == "meeting":
        when = f"{_zh_date(due)}下午{rng.randint(2, 5)}点" if "time" in have else ""
        where = f"在{place}" if "place" in have else ""
        text = f"我们{when}{where}和{other}开会" if when or where else f"我们要和{other}开个会"
    else:
        money = f"{amount}元" if "amount" in have else "钱"
        text = f"我{d}把{money}付给{other}"
    later = due + timedelta(days=rng.randint(1, 5))
    replies = {
        "owner": f"{owner}负责这件事",
        "deadline": f"这件事{_zh_date(later)}之前完成",
        "time": f"会议定在{_zh_date(later)}上午10点",
        "place": f"地点在{place}",
        "amount": f"金额是{amount}元",
    }
    return Item(session, kind, set(KIND_SLOTS[kind]) - have, [("王敏", text)], replies)


def _en_item(rng: random.Random, used: set[str], session: str, now: datetime) -> Item:
    kind = rng.choice(list(KIND_SLOTS))
    owner, other, place = (_en_word(rng, used).capitalize() for _ in range(3))
    obj = rng.choice(EN_OBJECTS)
    due = now + timedelta(days=rng.randint(3, 20))
    amount = rng.randint(2, 90) * 100
    have = {slot for slot in KIND_SLOTS[kind] if rng.random() < 0.5}
    d = f" by {_en_date(due)}" if "deadline" in have else ""
    if kind == "task":
        text = (
            f"{owner} will send the {obj} to {other}{d}"
            if "owner" in have
            else (f"The {obj} needs to be sent to {other}{d}")
        )
    elif kind == "meeting":
        when = f" on {_en_date(due)} at {rng.randint(2, 5)}pm" if "time" in have else ""
        where = f" at the {place} office" if "place" in have else ""
        text = f"We will meet {other}{when}{where}" if when or where else f"We need to meet {other}"
    else:
        money = f"${amount}" if "amount" in have else "back"
        text = f"I will pay {other} {money}{d}" if money != "back" else f"I will pay {other} back{d}"
    later = due + timedelta(days=rng.randint(1, 5))
    replies = {
        "owner": f"{owner} will handle it",
        "deadline": f"It is due by {_en_date(later)}",
        "time": f"The meeting is on {_en_date(later)} at 10am",
        "place": f"It will be at the {place} office",
        "amount": f"It is ${amount}",
    }
    return Item(session, kind, set(KIND_SLOTS[kind]) - have, [("Dana", text)], replies)


def _distractor(rng: random.Random, used: set[str], lang: str, session: str) -> str:
    if lang == "zh":
        person, _ = _zh_person(rng, used)
        return rng.choice(
            [f"{person}昨天去了{_zh_place(rng, used)}", f"{person}说{rng.choice(ZH_OBJECTS)}已经收到了"]
        )
    person = _en_word(rng, used).capitalize()
    return rng.choice(
        [
            f"{person} visited {_en_word(rng, used).capitalize()} yesterday",
            f"{person} said the {rng.choice(EN_OBJECTS)} arrived",
        ]
    )


def generate(seed: int, items: int):
    """Items, distractor sessions, and the two phases of turns (openers, then replies)."""
    rng = random.Random(seed)
    tz8, tz0 = timezone(timedelta(hours=8)), UTC
    start = datetime(2026, rng.randint(1, 9), rng.randint(1, 20), 9, 0)
    made: list[Item] = []
    openers: list[Turn] = []
    replies: list[Turn] = []
    gold_closed: set[tuple[str, str]] = set()
    used: set[str] = set()
    clock = start
    for n in range(items):
        lang = "zh" if n % 2 == 0 else "en"
        tz = tz8 if lang == "zh" else tz0
        session = f"{lang}-{seed}-{n}"
        clock += timedelta(minutes=rng.randint(20, 90))
        item = (_zh_item if lang == "zh" else _en_item)(rng, used, session, clock)
        made.append(item)
        for speaker, text in item.turns:
            openers.append(
                Turn(
                    id=f"{session}:0",
                    session=session,
                    speaker=speaker,
                    time=clock.replace(tzinfo=tz),
                    text=text,
                )
            )
        if rng.random() < 0.3:
            d_session = f"{lang}-{seed}-d{n}"
            openers.append(
                Turn(
                    id=f"{d_session}:0",
                    session=d_session,
                    speaker=item.turns[0][0],
                    time=(clock + timedelta(minutes=5)).replace(tzinfo=tz),
                    text=_distractor(rng, used, lang, d_session),
                )
            )
    clock += timedelta(hours=2)
    order = list(range(len(made)))
    rng.shuffle(order)
    for n in order:
        item = made[n]
        tz = tz8 if item.session.startswith("zh") else tz0
        for i, slot in enumerate(sorted(item.missing)):
            if rng.random() < 0.5:
                continue
            clock += timedelta(minutes=rng.randint(1, 10))
            replies.append(
                Turn(
                    id=f"{item.session}:{i + 1}",
                    session=item.session,
                    speaker=item.turns[0][0],
                    time=clock.replace(tzinfo=tz),
                    text=item.replies[slot],
                )
            )
            gold_closed.add((item.session, slot))
    return made, openers, replies, gold_closed


def _asked(memory: Memory) -> set[tuple[str, str]]:
    return {(q.event.session, q.slot) for q in memory.questions(limit=None)}


def _pr(predicted: set, gold: set) -> dict[str, float]:
    hit = len(predicted & gold)
    return {
        "precision": round(hit / len(predicted), 3) if predicted else 1.0,
        "recall": round(hit / len(gold), 3) if gold else 1.0,
        "predicted": len(predicted),
        "gold": len(gold),
    }


def run_seed(seed: int, items: int, embedder) -> dict:
    made, openers, replies, gold_closed = generate(seed, items)
    gold_missing = {(i.session, s) for i in made for s in i.missing}
    memory = Memory(EmbeddedStore(":memory:"), namespace=f"q{seed}", embedder=embedder)
    memory.add_many(openers)
    asked = _asked(memory)
    # Baseline ask-all: every required slot of every event whose kind words say task/meeting/commitment.
    ask_all = set()
    for event in memory.store.events(memory.namespace, EventQuery()):
        kind = question_kind(event)
        if kind:
            ask_all |= {(event.session, s) for s in KIND_SLOTS[kind]}
    memory.add_many(replies)
    still = _asked(memory)
    closed = asked - still
    # Baseline latest-open: each reply closes the newest open question of its slot, in any session.
    open_now = sorted(asked, key=lambda pair: next(t.time for t in openers if t.session == pair[0]))
    latest = set()
    for turn in replies:
        # The baseline reads which slots a reply states with the same slot reader as ours.
        events = memory.events_of_turn(turn.id)
        slots = set().union(*(filled_slots(e) for e in events)) if events else set()
        for s in sorted(slots):
            pending = [p for p in open_now if p[1] == s and p not in latest]
            if pending:
                latest.add(pending[-1])
    memory.close()
    by_lang = {}
    for lang in ("zh", "en"):
        keep = lambda pairs, lang=lang: {p for p in pairs if p[0].startswith(lang)}  # noqa: E731
        by_lang[lang] = {
            "detect": _pr(keep(asked), keep(gold_missing)),
            "close": _pr(keep(closed), keep(gold_closed)),
        }
    return {
        "seed": seed,
        "turns": len(openers) + len(replies),
        "detect": _pr(asked, gold_missing),
        "close": _pr(closed, gold_closed),
        "baseline_ask_all": _pr(ask_all, gold_missing),
        "baseline_latest_open": _pr(latest, gold_closed),
        "by_lang": by_lang,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from simplemem_graph.embedding import make_embedder

    embedder = make_embedder()
    started = time.perf_counter()
    rows = [run_seed(seed, args.items, embedder) for seed in args.seeds]
    for row in rows:
        if args.json:
            print(json.dumps(row, ensure_ascii=False))
        else:
            ask_all, detect = row["baseline_ask_all"], row["detect"]
            print(
                f"seed {row['seed']}: detect P {detect['precision']:.3f} R {detect['recall']:.3f}"
                f" (ask-all P {ask_all['precision']:.3f} R {ask_all['recall']:.3f})"
                f" | close P {row['close']['precision']:.3f} R {row['close']['recall']:.3f}"
                f" (latest-open P {row['baseline_latest_open']['precision']:.3f}"
                f" R {row['baseline_latest_open']['recall']:.3f})"
                f" | zh detect R {row['by_lang']['zh']['detect']['recall']:.3f}"
                f" en detect R {row['by_lang']['en']['detect']['recall']:.3f}"
            )
    for part in ("detect", "close", "baseline_ask_all", "baseline_latest_open"):
        for metric in ("precision", "recall"):
            values = [r[part][metric] for r in rows]
            print(f"{part:>22} {metric:>9}: mean {sum(values) / len(values):.3f}  min {min(values):.3f}")
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
