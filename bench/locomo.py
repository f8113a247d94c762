"""LoCoMo evidence retrieval: simplemem-graph against BM25 and dense retrieval over raw turns.

Each conversation of the dev file is ingested into a fresh namespace of an in-memory embedded
store through the normal pipeline (`Memory.add_many`: compress, consolidate). Every question is
then asked at a time just after the conversation's last session. Metrics are turn-level: a
question's recall@k is the share of its evidence dia_ids found among the source_ids of the top-k
memories. Two baselines run in the same process on the raw turns ("Speaker: text"): BM25
(rank-bm25, the package tokenizer) and dense cosine with the same embedding model.

    python3 bench/locomo.py                      # both dev conversations, rich table
    python3 bench/locomo.py --sample conv-26 --json
    python3 bench/locomo.py --plan recall-only    # an ablation (see simplemem_graph/retrieve/plans.py)
    python3 bench/locomo.py --ingest turns        # one verbatim event per turn: retrieval alone

Metrics: recall@1/3/5/10, MRR (first memory covering any evidence turn), nDCG@10 (gain = evidence
turns a memory newly covers; ideal = one per rank), context tokens at k=5 (`count_tokens` of the
returned texts), p50/p95 latency per query. k=1..5 come from the k=5 call (recall 15, the
default), k=10 metrics from a k=10 call (recall 30), as `Memory.search` would size them.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
from rank_bm25 import BM25Okapi

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from simplemem_graph.consolidate import consolidate  # noqa: E402
from simplemem_graph.embedding import SentenceTransformerEmbedder  # noqa: E402
from simplemem_graph.loaders import load_locomo  # noqa: E402
from simplemem_graph.memory import Memory  # noqa: E402
from simplemem_graph.models import Event, Participant, Turn, stable_id  # noqa: E402
from simplemem_graph.retrieve import PLANS, retrieve  # noqa: E402
from simplemem_graph.stores.embedded import EmbeddedStore  # noqa: E402
from simplemem_graph.text import count_tokens, tokenize  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
KS = (1, 3, 5, 10)
_EVIDENCE_ID = re.compile(r"^D(\d+):(\d+)$")


@dataclass
class Question:
    sample: str
    text: str
    category: int
    evidence: list[str]


@dataclass
class Ranked:
    """One system's answer to one question: source ids per rank, at k=5 and k=10."""

    top5: list[list[str]]
    top10: list[list[str]]
    tokens5: int
    ms: float


@dataclass
class Scores:
    values: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, value: float) -> None:
        self.values.setdefault(name, []).append(value)

    def mean(self, name: str) -> float:
        items = self.values.get(name, [])
        return sum(items) / len(items) if items else 0.0


def parse_evidence(raw: list[str], known: set[str]) -> tuple[list[str], int]:
    """Evidence ids, split on ; , and spaces, normalised (D30:05 -> D30:5, D:11:26 -> D11:26);
    returns the ids that name real turns and the count of those skipped."""
    ids, skipped = [], 0
    for item in raw:
        for piece in re.split(r"[;,\s]+", str(item)):
            if not piece:
                continue
            cleaned = re.sub(r"^D:", "D", piece.strip())
            match = _EVIDENCE_ID.match(cleaned)
            norm = f"D{int(match[1])}:{int(match[2])}" if match else None
            if norm in known:
                ids.append(norm)
            else:
                skipped += 1
    return list(dict.fromkeys(ids)), skipped


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
        questions.append(Question(sample, qa["question"], int(qa["category"]), evidence))
    return questions, skipped_ids, no_evidence


def turn_text(turn: Turn) -> str:
    return f"{turn.speaker}: {turn.text}"


class RawTurnBaselines:
    """BM25 and dense cosine over the raw turns of one conversation."""

    def __init__(self, turns: list[Turn], embedder):
        self.turns = turns
        self.texts = [turn_text(t) for t in turns]
        self.bm25 = BM25Okapi([tokenize(t) or ["_"] for t in self.texts])
        self.embedder = embedder
        self.matrix = embedder.encode(self.texts)

    def _ranked(self, scores: np.ndarray, started: float) -> Ranked:
        order = np.argsort(-scores, kind="stable")[:10]
        ids = [[self.turns[i].id] for i in order]
        ms = (time.perf_counter() - started) * 1000
        return Ranked(ids[:5], ids, sum(count_tokens(self.texts[i]) for i in order[:5]), ms)

    def bm25_rank(self, question: str) -> Ranked:
        started = time.perf_counter()
        return self._ranked(np.asarray(self.bm25.get_scores(tokenize(question))), started)

    def dense_rank(self, question: str) -> Ranked:
        started = time.perf_counter()
        return self._ranked(self.matrix @ self.embedder.encode([question])[0], started)


def ingest_turn_events(memory: Memory, turns: list[Turn]) -> int:
    """The `--ingest turns` ablation: one verbatim event per turn ("Speaker: text"), then the real
    stage 2. It measures retrieval on its own, whatever stage 1 keeps or restates."""
    memory.store.add_turns(turns)
    texts = [turn_text(t) for t in turns]
    vectors = memory.embedder.encode(texts)
    events = [
        Event(
            id=stable_id("ev", memory.namespace, t.id),
            namespace=memory.namespace,
            text=text,
            source_ids=[t.id],
            session=t.session,
            speaker=t.speaker,
            time=t.time,
            participants=[Participant(name=t.speaker, type="person", role="agent")],
            verbatim=True,
            embedding=vector.tolist(),
        )
        for t, text, vector in zip(turns, texts, vectors, strict=True)
    ]
    consolidate(events, memory.store, embedder=memory.embedder)
    return len(events)


def score_question(ranked: Ranked, evidence: list[str], scores: Scores) -> None:
    gold = set(evidence)
    for k in KS:
        top = ranked.top5[:k] if k <= 5 else ranked.top10[:k]
        found = gold & {s for sources in top for s in sources}
        scores.add(f"R@{k}", len(found) / len(gold))
    first = next((i for i, sources in enumerate(ranked.top10) if gold & set(sources)), None)
    scores.add("MRR", 0.0 if first is None else 1.0 / (first + 1))
    covered: set[str] = set()
    dcg = 0.0
    for i, sources in enumerate(ranked.top10):
        gain = len((gold & set(sources)) - covered)
        covered |= gold & set(sources)
        dcg += gain / math.log2(i + 2)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(gold), 10)))
    scores.add("nDCG@10", dcg / ideal)
    scores.add("tokens@5", ranked.tokens5)
    scores.add("ms", ranked.ms)


def run(args: argparse.Namespace) -> dict[str, Any]:
    data = json.loads(Path(args.data).read_text(encoding="utf-8"))
    samples = [args.sample] if args.sample else [s["sample_id"] for s in data]
    embedder = SentenceTransformerEmbedder()
    embedder.encode(["warm up"])
    plan = PLANS[args.plan]
    systems = ("simplemem", "bm25", "dense")
    scores: dict[tuple[str, int], Scores] = {}
    meta: dict[str, Any] = {"plan": plan.name, "ingest": args.ingest, "samples": {}, "k": 5, "recall_k": 15}
    for sample in samples:
        turns = load_locomo(args.data, sample=sample, namespace=sample)[sample]
        known = {t.id for t in turns}
        questions, skipped_ids, no_evidence = load_questions(data, sample, known)
        memory = Memory(EmbeddedStore(":memory:"), namespace=sample, embedder=embedder)
        started = time.perf_counter()
        events = (
            memory.add_many(turns).events if args.ingest == "pipeline" else ingest_turn_events(memory, turns)
        )
        ingest_s = time.perf_counter() - started
        at = max(t.time for t in turns) + timedelta(hours=1)
        baselines = RawTurnBaselines(turns, embedder)
        meta["samples"][sample] = {
            "turns": len(turns),
            "events": events,
            "questions": len(questions),
            "skipped_evidence_ids": skipped_ids,
            "questions_without_valid_evidence": no_evidence,
            "ingest_s": round(ingest_s, 1),
            "asked_at": at.isoformat(),
        }
        for question in questions:
            answers = {
                "simplemem": _ask(memory, question.text, at, plan),
                "bm25": baselines.bm25_rank(question.text),
                "dense": baselines.dense_rank(question.text),
            }
            for system in systems:
                for bucket in (question.category, 0):
                    score_question(
                        answers[system], question.evidence, scores.setdefault((system, bucket), Scores())
                    )
    return {"meta": meta, "results": _summarise(scores, systems)}


def _ask(memory: Memory, question: str, at, plan) -> Ranked:
    """Retrieve directly (not `Memory.search`): a benchmark must not refresh access counts between
    questions, or the answer to one question would depend on the ones asked before it."""
    common = {"namespace": memory.namespace, "embedder": memory.embedder, "at": at, "plan": plan}
    five = retrieve(question, memory.store, k=5, recall_k=15, **common)
    ten = retrieve(question, memory.store, k=10, recall_k=30, **common)
    return Ranked(
        [h.event.source_ids for h in five.hits],
        [h.event.source_ids for h in ten.hits],
        five.context_tokens,
        five.took_ms,
    )


def _summarise(scores: dict[tuple[str, int], Scores], systems) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for (system, bucket), s in sorted(scores.items()):
        name = "overall" if bucket == 0 else f"{bucket}-{CATEGORIES[bucket]}"
        ms = sorted(s.values["ms"])
        results.setdefault(system, {})[name] = {
            "n": len(ms),
            **{m: round(s.mean(m), 4) for m in (*(f"R@{k}" for k in KS), "MRR", "nDCG@10")},
            "tokens@5": round(s.mean("tokens@5"), 1),
            "p50_ms": round(statistics.median(ms), 2),
            "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 2),
        }
    overall = {system: results[system]["overall"] for system in systems}
    multi = {system: results[system].get("1-multi-hop", {}) for system in systems}
    results["ratios"] = {
        "R@5 vs bm25": _ratio(overall["simplemem"]["R@5"], overall["bm25"]["R@5"]),
        "R@5 vs dense": _ratio(overall["simplemem"]["R@5"], overall["dense"]["R@5"]),
        "multi-hop R@10 vs bm25": _ratio(multi["simplemem"].get("R@10", 0), multi["bm25"].get("R@10", 0)),
        "tokens@5": overall["simplemem"]["tokens@5"],
    }
    return results


def _ratio(a: float, b: float) -> float:
    return round(a / b, 3) if b else float("inf")


def print_table(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console() if sys.stdout.isatty() else Console(width=160)
    results = report["results"]
    table = Table(title=f"LoCoMo dev evidence retrieval (plan {report['meta']['plan']})")
    columns = ["n", "R@1", "R@3", "R@5", "R@10", "MRR", "nDCG@10", "tokens@5", "p50_ms", "p95_ms"]
    table.add_column("system")
    table.add_column("category")
    for column in columns:
        table.add_column(column, justify="right")
    for system in ("simplemem", "bm25", "dense"):
        for category, row in results[system].items():
            table.add_row(system, category, *(str(row[c]) for c in columns))
        table.add_section()
    console.print(table)
    ratios = results["ratios"]
    console.print(
        f"R@5 vs BM25 {ratios['R@5 vs bm25']}x (target 1.25), "
        f"vs dense {ratios['R@5 vs dense']}x (target 1.25); "
        f"multi-hop R@10 vs BM25 {ratios['multi-hop R@10 vs bm25']}x (target 1.5); "
        f"tokens@5 {ratios['tokens@5']} (target <= 600)"
    )
    for sample, info in report["meta"]["samples"].items():
        console.print(f"{sample}: {json.dumps(info)}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", default=str(DEFAULT_DATA), help="LoCoMo file (default: the dev split)")
    parser.add_argument("--sample", help="one conversation, e.g. conv-26")
    parser.add_argument("--plan", default="default", choices=sorted(PLANS), help="retrieval plan")
    parser.add_argument(
        "--ingest",
        default="pipeline",
        choices=("pipeline", "turns"),
        help="pipeline: Memory.add_many (compress + consolidate); turns: one verbatim event per turn "
        "+ consolidate (isolates retrieval from stage 1)",
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    args = parser.parse_args()
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)


if __name__ == "__main__":
    main()
