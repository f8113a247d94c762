"""Our generated Chinese dev set (bench/zh_devset.py): ours against raw-turn baselines.

Each haystack (a month of a user's daily messages and companion chat) goes into a fresh
namespace through the normal pipeline; every question is asked the day after the last session.
Scores per question type (single, noisy, computed, update, temporal) by bench/scoring.py, with
BM25 over character uni+bigrams among the baselines. Nothing here was tuned on the seed reported:
develop on one seed, report another.

    python3 bench/zh_dev.py --seed 11 --haystacks 10
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
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


def run(args: argparse.Namespace) -> dict[str, Any]:
    data = generate(args.seed, args.haystacks)
    embedder = make_embedder(args.model)
    embedder.encode(["warm up"])
    plans = [PLANS[name] for name in args.plan.split(",")]
    plan = plans[0]
    variants = {("ours" if i == 0 else f"ours-{p.name}"): (p, None) for i, p in enumerate(plans)}
    board = Board()
    meta: dict[str, Any] = {"plan": plan.name, "model": args.model, "seed": args.seed, "haystacks": []}
    for haystack in data["haystacks"]:
        namespace = haystack["id"]
        turns = [Turn(namespace=namespace, **t) for t in haystack["turns"]]
        memory = Memory(EmbeddedStore(":memory:"), namespace=namespace, embedder=embedder)
        started = time.perf_counter()
        events = ingest(memory, turns, args.ingest)
        at = datetime.fromisoformat(haystack["at"])
        questions = [
            EvalQuestion(q["query"], set(q["gold_turns"]), q["type"], at) for q in haystack["questions"]
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
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--haystacks", type=int, default=10)
    parser.add_argument("--plan", default="default", help="plan(s), comma-separated, first = headline")
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL)
    parser.add_argument("--ingest", default="pipeline", choices=("pipeline", "turns"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print_board(
            f"Chinese dev set, seed {args.seed} (plan {args.plan}, model {args.model})", report["results"]
        )


if __name__ == "__main__":
    main()
