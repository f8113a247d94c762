"""Chinese retrieval: ours against raw baselines, on our generated set or on real chat.

Scored as bench/locomo.py scores English (bench/scoring.py, bench/harness.py): the headline is
answer coverage at 100/200/400/800 tokens (the share of the gold answer's content units in the
returned text; Chinese counted in character bigrams, `scoring.answer_units`), ours at budget B
being the product's own `retrieve(budget=B)`, against BM25 (character uni+bigrams), BM25 +-1,
dense and hybrid over whole turns and over sentences (split on 。！？!?；and newlines), each
filled to B with its last item cut; evidence recall beside it. Means and minimums per bucket.

`--set generated` (bench/zh_devset.py):
Each haystack (a month of a user's daily messages and companion chat) goes into a fresh
namespace through the normal pipeline; every question is asked the day after the last session.
Scores per question type (single, noisy, computed, update, temporal) by bench/scoring.py, with
BM25 over character uni+bigrams among the baselines. Nothing here was tuned on the seed reported:
develop on one seed, report another.

`--set memorybank`: the real companion chat of ../shared/data/memorybank_cn (five users, ten days
each, as "user"/"assistant" turns, one haystack per user) with the hand-written questions of
bench/data/memorybank_cn_questions.json (one per fact a user states, gold = that turn, the answer
copied from that turn's words), asked the day after the last session; bucketed by the form of the
question ("…来着", "那个…", "我…的…", plain). Anything tuned on it is tuned on users 1-3
(`--users 1-3`) and reported on users 4-5 (`--users 4-5`).

`--set dailyfacts --file F`: first-person daily facts written by someone who read no code (F: {"items":
[{"id", "fact", "question", "answer"}]}), said as user turns inside the MemoryBank chat of all five
users (fact i to user i mod 5, on a day and at a place drawn with `--seed`), every question asked
the day after the last session; scored as memorybank. Tune on the dev file only.

    python3 bench/zh_dev.py --seed 11 --haystacks 10
    python3 bench/zh_dev.py --set memorybank --users 4-5
    python3 bench/zh_dev.py --set dailyfacts --file bench/data/zh_daily_facts_dev.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.harness import EvalQuestion, evaluate, ingest  # noqa: E402
from bench.scoring import Board, headline, print_board  # noqa: E402
from bench.zh_devset import generate  # noqa: E402
from simplemem_graph.embedding import DEFAULT_EMBEDDING_MODEL, make_embedder  # noqa: E402
from simplemem_graph.memory import Memory  # noqa: E402
from simplemem_graph.models import Turn  # noqa: E402
from simplemem_graph.retrieve import PLANS  # noqa: E402
from simplemem_graph.stores.embedded import EmbeddedStore  # noqa: E402

DATA_DIR = Path(os.environ.get("SIMPLEMEM_SHARED_DATA", REPO.parent / "shared" / "data"))
MEMORYBANK = DATA_DIR / "memorybank_cn" / "memory_bank_cn_dev.json"
MEMORYBANK_QUESTIONS = REPO / "bench" / "data" / "memorybank_cn_questions.json"
DAILY_FACTS = REPO / "bench" / "data" / "zh_daily_facts_dev.json"
_CST = timezone(timedelta(hours=8))


def question_form(query: str) -> str:
    """The bucket of a question by its wording: the forms people use to ask about their own past."""
    if query.rstrip("？?").endswith("来着"):
        return "laizhe"
    if "那个" in query or "那部" in query or "那道" in query or "那幅" in query or "那首" in query:
        return "nage"
    if "我" in query and "的" in query:
        return "wo-de"
    return "plain"


def _chat_turns(name: str, record: dict[str, Any], inserted: dict[str, list[tuple[int, dict]]] | None = None):
    """A MemoryBank user's days as sessions of "user"/"assistant" turns (ids "<user>|<day>|<i>" for
    the user's turn, "...|a" for the reply), and the evening of the last day. `inserted`: day ->
    [(position among the day's pairs, {"id", "text"})], user turns said just before that pair (ids
    "<user>|<day>|<id>")."""
    turns, last = [], None
    for day, pairs in sorted(record["history"].items()):
        base = datetime.fromisoformat(day).replace(hour=20, tzinfo=_CST)
        extra = sorted((inserted or {}).get(day, []), key=lambda pair: pair[0])
        for position, fact in extra:
            turns.append(
                {
                    "id": f"{name}|{day}|{fact['id']}",
                    "session": day,
                    "time": base + timedelta(minutes=2 * position, seconds=-30),
                    "speaker": "user",
                    "text": fact["text"],
                }
            )
        for i, pair in enumerate(pairs):
            at = base + timedelta(minutes=2 * i)
            for suffix, speaker, text, when in (
                ("", "user", pair["query"], at),
                ("|a", "assistant", pair["response"], at + timedelta(minutes=1)),
            ):
                turns.append(
                    {
                        "id": f"{name}|{day}|{i}{suffix}",
                        "session": day,
                        "time": when,
                        "speaker": speaker,
                        "text": text,
                    }
                )
        last = base
    turns.sort(key=lambda t: t["time"])
    return turns, last


def _memorybank_records(users: Sequence[int] | None) -> list[tuple[int, str, dict[str, Any]]]:
    """(position, user name, record) of the MemoryBank users at `users` (1-based; None: all)."""
    records = json.loads(MEMORYBANK.read_text(encoding="utf-8"))
    if users is not None and not all(1 <= u <= len(records) for u in users):
        raise ValueError(f"zh_dev: --users takes positions 1..{len(records)}, got {list(users)}")
    return [
        (position, name, record)
        for position, (name, record) in enumerate(records.items(), start=1)
        if users is None or position in users
    ]


def memorybank_haystacks(
    users: Sequence[int] | None = None, questions_file: Path = MEMORYBANK_QUESTIONS
) -> list[dict[str, Any]]:
    """One haystack per MemoryBank user: its chat (`_chat_turns`), and its questions with their
    gold answers, bucketed by their "kind" when the file gives one, else by their form.
    `users`: 1-based positions in the data file (None: all)."""
    questions = json.loads(questions_file.read_text(encoding="utf-8"))["questions"]
    haystacks = []
    for position, name, record in _memorybank_records(users):
        turns, last = _chat_turns(name, record)
        known = {t["id"] for t in turns}
        asked = []
        for q in questions:
            if q["user"] != name:
                continue
            gold = f"{name}|{q['turn']}"
            if gold not in known:
                raise ValueError(f"zh_dev: question {q['q']!r} names turn {gold!r}, not in the data")
            if not q.get("answer"):
                raise ValueError(f"zh_dev: question {q['q']!r} has no gold answer")
            asked.append(
                {
                    "query": q["q"],
                    "gold_turns": [gold],
                    "type": q.get("kind") or question_form(q["q"]),
                    "answer": q["answer"],
                }
            )
        haystacks.append(
            {
                "id": f"mb-{position}",
                "turns": turns,
                "at": (last + timedelta(days=1)).isoformat(),
                "questions": asked,
            }
        )
    return haystacks


def load_daily_facts(path: Path) -> list[dict[str, Any]]:
    """The items of a daily-facts file: {"items": [{"id", "fact", "question", "answer"}, ...]}, or an
    item said over several turns, {"id", "facts": [turn, ...], "gold": [indices of the turns that
    carry the answer], "question", "answer", "kind"} (a value changed later, an answer in parts, a
    look-alike about someone else). Returned with "facts" and "gold" in every item."""
    try:
        items = json.loads(Path(path).read_text(encoding="utf-8"))["items"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"zh_dev: cannot read daily facts from {path}: {e}") from e
    out = []
    for item in items:
        said = "facts" if "facts" in item else "fact"
        missing = [k for k in ("id", said, "question", "answer") if not str(item.get(k, "")).strip()]
        if missing:
            raise ValueError(f"zh_dev: daily fact {item.get('id')!r} in {path} lacks {missing}")
        facts = item["facts"] if said == "facts" else [item["fact"]]
        gold = item.get("gold", [0] if said == "fact" else None)
        if (
            not isinstance(facts, list)
            or not gold
            or not all(isinstance(i, int) and 0 <= i < len(facts) for i in gold)
        ):
            raise ValueError(f"zh_dev: daily fact {item['id']!r} in {path}: gold must index its facts")
        out.append({**item, "facts": facts, "gold": gold})
    return out


def daily_facts_haystacks(path: Path, seed: int) -> list[dict[str, Any]]:
    """Each MemoryBank user's chat with its share of the items (item i goes to user i mod 5), each
    turn of an item said as a user turn on its own day, in the item's order, at places drawn with
    `seed`; every question asked the day after the last session, gold = the item's gold turns,
    the answer as the file gives it, bucketed by the item's "kind" when it has one."""
    import random

    facts = load_daily_facts(path)
    records = _memorybank_records(None)
    rng = random.Random(seed)
    haystacks = []
    for index, (position, name, record) in enumerate(records):
        mine = facts[index :: len(records)]
        days = sorted(record["history"])
        inserted: dict[str, list[tuple[int, dict]]] = {}
        said_as: dict[tuple[str, int], str] = {}
        for fact in mine:
            # one turn: the draws of the single-fact files, unchanged; several: distinct days in order
            on = (
                [rng.choice(days)]
                if len(fact["facts"]) == 1
                else sorted(rng.sample(days, len(fact["facts"])))
            )
            for k, (day, text) in enumerate(zip(on, fact["facts"], strict=True)):
                place = rng.randint(0, len(record["history"][day]))
                turn = fact["id"] if len(fact["facts"]) == 1 else f"{fact['id']}.{k}"
                inserted.setdefault(day, []).append((place, {"id": turn, "text": text}))
                said_as[(fact["id"], k)] = turn
        turns, last = _chat_turns(name, record, inserted)
        gold = {t["id"].rsplit("|", 1)[1]: t["id"] for t in turns if t["speaker"] == "user"}
        haystacks.append(
            {
                "id": f"df-{position}",
                "turns": turns,
                "at": (last + timedelta(days=1)).isoformat(),
                "questions": [
                    {
                        "query": f["question"],
                        "gold_turns": [gold[said_as[(f["id"], k)]] for k in f["gold"]],
                        "type": f.get("kind") or question_form(f["question"]),
                        "answer": f["answer"],
                    }
                    for f in mine
                ],
            }
        )
    return haystacks


def _positions(value: str) -> list[int]:
    """Positions such as "1-3" or "4,5", as a list: [1, 2, 3] or [4, 5]."""
    out: list[int] = []
    try:
        for part in value.split(","):
            first, _, last = part.partition("-")
            out.extend(range(int(first), int(last or first) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected positions such as 1-3 or 4,5, got {value!r}") from None
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.set == "memorybank":
        data = {"haystacks": memorybank_haystacks(args.users, args.questions)}
    elif args.set == "dailyfacts":
        data = {"haystacks": daily_facts_haystacks(args.file, args.seed)}
    else:
        data = generate(args.seed, args.haystacks)
    embedder = make_embedder(args.model)
    embedder.encode(["warm up"])
    plans = [PLANS[name] for name in args.plan.split(",")]
    plan = plans[0]
    variants = {("ours" if i == 0 else f"ours-{p.name}"): (p, None) for i, p in enumerate(plans)}
    board = Board()
    meta: dict[str, Any] = {
        "set": args.set,
        "plan": plan.name,
        "model": args.model,
        "seed": args.seed,
        "users": args.users,
        "haystacks": [],
    }
    for haystack in data["haystacks"]:
        namespace = haystack["id"]
        turns = [Turn(namespace=namespace, **t) for t in haystack["turns"]]
        memory = Memory(EmbeddedStore(":memory:"), namespace=namespace, embedder=embedder)
        started = time.perf_counter()
        events = ingest(memory, turns, args.ingest)
        at = datetime.fromisoformat(haystack["at"])
        questions = [
            EvalQuestion(q["query"], set(q["gold_turns"]), q["type"], at, answer=q.get("answer"))
            for q in haystack["questions"]
        ]
        evaluate(memory, turns, questions, variants, board)
        meta["haystacks"].append(
            {
                "id": namespace,
                "turns": len(turns),
                "events": events,
                "ingest_s": round(time.perf_counter() - started, 1),
            }
        )
        memory.close()
    summary = board.summary()
    return {"meta": meta, "results": summary, "headline": headline(summary)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", default="generated", choices=("generated", "memorybank", "dailyfacts"))
    parser.add_argument(
        "--file",
        type=Path,
        default=DAILY_FACTS,
        help="dailyfacts only: the facts file (default: the dev file; tune on nothing else)",
    )
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--haystacks", type=int, default=10)
    parser.add_argument("--plan", default="default", help="plan(s), comma-separated, first = headline")
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL)
    parser.add_argument("--ingest", default="pipeline", choices=("pipeline", "turns"))
    parser.add_argument(
        "--users",
        type=_positions,
        help="memorybank only: users by position in the data file, e.g. 1-3 (tuning) or 4-5 (report)",
    )
    parser.add_argument(
        "--questions",
        type=Path,
        default=MEMORYBANK_QUESTIONS,
        help="memorybank only: the question file (default: the dev questions; "
        "bench/data/memorybank_cn_questions2.json is held out)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.questions != MEMORYBANK_QUESTIONS and args.set != "memorybank":
        parser.error("--questions is the MemoryBank question file: use it with --set memorybank")
    if args.users is not None and args.set != "memorybank":
        parser.error("--users picks MemoryBank users: use it with --set memorybank")
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print_board(
            f"Chinese {args.set} set, seed {args.seed} (plan {args.plan}, model {args.model})",
            report["results"],
        )


if __name__ == "__main__":
    main()
