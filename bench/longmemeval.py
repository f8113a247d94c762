"""LongMemEval-S dev: each question its own ~500-turn haystack; ours against raw-turn baselines.

For every question (the `_abs` abstention questions are skipped: they have no evidence), its
haystack is ingested into a fresh in-memory namespace, the question is asked at `question_date`,
and ours and the baselines of bench/baselines.py are scored by bench/scoring.py: turn-level
evidence recall (the `has_answer` turns, ids `<session_id>:<index>`) at k and at token budgets,
and session-level recall_all@5 (every `answer_session_ids` session among the top 5), per type.

    python3 bench/longmemeval.py --limit 6              # the first 6 questions, one of each type first
    python3 bench/longmemeval.py --ingest turns         # one verbatim event per turn (faster)
    python3 bench/longmemeval.py --json
    python3 bench/longmemeval.py --shard 0/2 --out a.json &   # two processes, one half each,
    python3 bench/longmemeval.py --shard 1/2 --out b.json     # then: --merge a.json b.json
    python3 bench/longmemeval.py --limit 48 --skip 32 --out c.json   # questions 33-48 only
    python3 bench/longmemeval.py --limit 16 --stores /tmp/lme   # keep the stores: a second run
                                                                # re-measures retrieval only

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
from bench.scoring import Board, headline, min_over_types, print_board  # noqa: E402
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


def report_of(board: Board, meta: dict[str, Any]) -> dict[str, Any]:
    summary = board.summary()
    return {"meta": meta, "results": summary, "headline": headline(summary)}


def merge(paths: list[str]) -> dict[str, Any]:
    """One report from the `--out` files of several runs on disjoint questions: each bucket's
    means weighted by its question count (exact for means); the minimum over types is taken
    again over the merged types. Latency percentiles do not merge: they are left out."""
    meta: dict[str, Any] = {"questions": [], "merged_from": paths}
    sums: dict[tuple[str, str], dict[str, float]] = {}
    counts: dict[tuple[str, str], int] = {}
    for path in paths:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
        repeated = {q["id"] for q in report["meta"]["questions"]} & {q["id"] for q in meta["questions"]}
        if repeated:
            raise SystemExit(f"--merge: {path} repeats questions {sorted(repeated)}")
        meta.update({k: v for k, v in report["meta"].items() if k not in ("questions", "shard")})
        meta["questions"] += report["meta"]["questions"]
        for system, buckets in report["results"].items():
            for bucket, metrics in buckets.items():
                if bucket == "min over types":
                    continue
                n = int(metrics["n"])
                total = sums.setdefault((system, bucket), {})
                for name, value in metrics.items():
                    if name not in ("n", "p50_ms", "p95_ms"):
                        total[name] = total.get(name, 0.0) + value * n
                counts[(system, bucket)] = counts.get((system, bucket), 0) + n
    results: dict[str, dict[str, dict[str, float]]] = {}
    for (system, bucket), total in sorted(sums.items()):
        n = counts[(system, bucket)]
        results.setdefault(system, {})[bucket] = {m: round(v / n, 4) for m, v in total.items()} | {"n": n}
    for buckets in results.values():
        buckets["min over types"] = min_over_types(buckets)
    return {"meta": meta, "results": results, "headline": headline(results)}


def open_haystack(args: argparse.Namespace, namespace: str, turns, embedder) -> tuple[Memory, int, float]:
    """A fresh in-memory store, ingested; with `--stores DIR`, a store file per question that a
    later run reopens instead of ingesting again (to re-measure retrieval alone: the file is what
    stage 1 and 2 produced when it was written, so delete DIR after changing them). The ingest
    time of a reopened store is reported as 0."""
    path = Path(args.stores) / f"{namespace}.{args.ingest}.sqlite" if args.stores else None
    done = path.with_suffix(".done") if path else None
    if path and done and done.exists():
        memory = Memory(EmbeddedStore(path), namespace=namespace, embedder=embedder)
        return memory, int(done.read_text(encoding="utf-8")), 0.0
    if path and path.exists():  # a run stopped mid-ingest left it: start over
        path.unlink()
    memory = Memory(EmbeddedStore(path or ":memory:"), namespace=namespace, embedder=embedder)
    started = time.perf_counter()
    events = ingest(memory, turns, args.ingest)
    if done:
        done.write_text(str(events), encoding="utf-8")
    return memory, events, time.perf_counter() - started


def run(args: argparse.Namespace) -> dict[str, Any]:
    records = pick(json.loads(Path(args.data).read_text(encoding="utf-8")), args.limit)
    records = records[args.skip :]
    if args.shard:
        index, count = args.shard
        records = records[index::count]
    embedder = make_embedder(args.model)
    embedder.encode(["warm up"])
    plans = [PLANS[name] for name in args.plan.split(",")]
    plan = plans[0]
    variants = {("ours" if i == 0 else f"ours-{p.name}"): (p, None) for i, p in enumerate(plans)}
    board = Board()
    meta: dict[str, Any] = {"plan": plan.name, "model": args.model, "ingest": args.ingest, "questions": []}
    meta["shard"] = args.shard
    for record in records:
        namespace = record["question_id"]
        turns, gold = haystack_turns(record, namespace)
        if not gold:
            continue
        memory, events, ingest_s = open_haystack(args, namespace, turns, embedder)
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
            Path(args.out).write_text(json.dumps(report_of(board, meta)), encoding="utf-8")
    return report_of(board, meta)


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
    parser.add_argument("--stores", help="keep each ingested haystack here; reopen it on a later run")
    parser.add_argument("--out", help="write the JSON report here after every question")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first N picked questions")
    parser.add_argument("--shard", help="i/n: only every n-th question from the i-th (parallel runs)")
    parser.add_argument("--merge", nargs="+", metavar="OUT", help="report the --out files of shards as one")
    args = parser.parse_args()
    if args.shard:
        try:
            index, count = (int(x) for x in args.shard.split("/"))
        except ValueError:
            parser.error(f"--shard wants i/n, e.g. 0/2, got {args.shard!r}")
        if not 0 <= index < count:
            parser.error(f"--shard {args.shard}: i must be in 0..n-1")
        args.shard = (index, count)
    report = merge(args.merge) if args.merge else run(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        meta = report["meta"]
        title = f"LongMemEval-S dev (plan {meta['plan']}, model {meta['model']}, ingest {meta['ingest']})"
        print_board(title, report["results"], extra=("sess_all@5",))


if __name__ == "__main__":
    main()
