"""LongMemEval-S dev: each question its own ~500-turn haystack; ours against raw-turn baselines.

For every question (the `_abs` abstention questions are skipped: they have no evidence), its
haystack is ingested into a fresh in-memory namespace, the question is asked at `question_date`,
and ours and the baselines of bench/baselines.py are scored by bench/scoring.py: turn-level
evidence recall (the `has_answer` turns, ids `<session_id>:<index>`) at k and at token budgets,
and session-level recall_all@5 (every `answer_session_ids` session among the top 5), per type.

    python3 bench/longmemeval.py --limit 6              # the first 6 questions, one of each type first
    python3 bench/longmemeval.py --ingest turns         # one verbatim event per turn (faster)
    python3 bench/longmemeval.py --json

Ingest time per haystack is printed: it bounds how many questions a run can afford.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.harness import EvalQuestion, evaluate, ingest  # noqa: E402
from bench.scoring import Board, headline, print_board  # noqa: E402
from simplemem_graph.embedding import DEFAULT_EMBEDDING_MODEL, make_embedder  # noqa: E402
from simplemem_graph.loaders import longmemeval_haystack, parse_longmemeval_date  # noqa: E402
from simplemem_graph.memory import Memory  # noqa: E402
from simplemem_graph.retrieve import PLANS  # noqa: E402
from simplemem_graph.stores.embedded import EmbeddedStore  # noqa: E402

DATA_DIR = Path(os.environ.get("SIMPLEMEM_SHARED_DATA", REPO.parent / "shared" / "data"))
DEFAULT_DATA = DATA_DIR / "longmemeval" / "longmemeval_s_dev.json"


# The readers live in the package (replay reads LongMemEval records too).
parse_date = parse_longmemeval_date
haystack_turns = longmemeval_haystack


def pick(records: list[dict[str, Any]], limit: int | None) -> list[dict[str, Any]]:
    """Non-abstention questions; with a limit, round-robin over the types so each is represented."""
    kept = [r for r in records if not r["question_id"].endswith("_abs")]
    if not limit:
        return kept
    by_type: dict[str, list[dict[str, Any]]] = {}
    for r in kept:
        by_type.setdefault(r["question_type"], []).append(r)
    order: list[dict[str, Any]] = []
    while len(order) < min(limit, len(kept)):
        for items in by_type.values():
            if items and len(order) < limit:
                order.append(items.pop(0))
    return order


def run(args: argparse.Namespace) -> dict[str, Any]:
    records = pick(json.loads(Path(args.data).read_text(encoding="utf-8")), args.limit)
    embedder = make_embedder(args.model)
    embedder.encode(["warm up"])
    plans = [PLANS[name] for name in args.plan.split(",")]
    plan = plans[0]
    variants = {("ours" if i == 0 else f"ours-{p.name}"): (p, None) for i, p in enumerate(plans)}
    board = Board()
    meta: dict[str, Any] = {"plan": plan.name, "model": args.model, "ingest": args.ingest, "questions": []}
    for record in records:
        namespace = record["question_id"]
        turns, gold = haystack_turns(record, namespace)
        if not gold:
            continue
        memory = Memory(EmbeddedStore(":memory:"), namespace=namespace, embedder=embedder)
        started = time.perf_counter()
        events = ingest(memory, turns, args.ingest)
        ingest_s = time.perf_counter() - started
        question = EvalQuestion(
            record["question"],
            gold,
            record["question_type"],
            parse_date(record["question_date"]),
            set(record["answer_session_ids"]),
            str(record["answer"]),
        )
        evaluate(memory, turns, [question], variants, board, session_of=lambda i: i.rsplit(":", 1)[0])
        info = {"id": namespace, "type": record["question_type"], "turns": len(turns), "events": events}
        info["ingest_s"] = round(ingest_s, 1)
        meta["questions"].append(info)
        print(json.dumps(info), file=sys.stderr, flush=True)
        memory.close()
        if args.out:  # a long run keeps what it has measured so far
            summary = board.summary()
            report = {"meta": meta, "results": summary, "headline": headline(summary)}
            Path(args.out).write_text(json.dumps(report, indent=2), encoding="utf-8")
    summary = board.summary()
    return {"meta": meta, "results": summary, "headline": headline(summary)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--limit", type=int, help="at most this many questions (types round-robin)")
    parser.add_argument("--plan", default="default", help="plan(s), comma-separated, first = headline")
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL)
    parser.add_argument("--ingest", default="pipeline", choices=("pipeline", "turns"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", help="write the JSON report here after every question")
    args = parser.parse_args()
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        title = f"LongMemEval-S dev (plan {args.plan}, model {args.model}, ingest {args.ingest})"
        print_board(title, report["results"], extra=("sess_all@5",))


if __name__ == "__main__":
    main()
