"""Evidence-recall metrics against tokens, shared by bench/locomo.py, longmemeval.py and zh_dev.py.

For each question a system gives two rankings of `Item`s: `top5` (what it returns at k=5) and
`deep` (a longer ranking, for k=10 and token budgets). Metrics, all means over questions:

- R@k: share of the gold turns among the turn ids of the first k items (k <= 5 from `top5`).
- R@Btok: fill a budget of B tokens best first from `deep` (an item that does not fit is skipped,
  a shorter later one may still fit) and take the recall of what was returned. Same rule and
  tokenizer (`count_tokens`) for every system.
- R@ours5: each system filled to the tokens *ours* returned at k=5 on that same question: the
  headline (ours' value there is its R@5).
- MRR: 1 / rank of the first item that shows any gold turn (0 beyond 10).
- nDCG@10: gain 1 at a rank whose item shows a gold turn not shown above it; ideal = that gain at
  each of the first min(|gold|, 10) ranks, so nDCG <= 1 however many turns an item shows.
- sess_all@5 (when gold sessions are given): 1 if every gold session has a turn in the top 5.
- ans@ours5 (when the answer is given): share of the answer's words found in the text returned
  within ours' k=5 tokens: a check that recalled ids carry the answer's words.
- tokens@5, p50/p95 latency (ms).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.baselines import Item
from simplemem_graph.text import count_tokens, tokenize

BUDGETS = (100, 200, 400, 800)
KS = (1, 3, 5, 10)


@dataclass
class Ranked:
    top5: list[Item]
    deep: list[Item]
    ms: float = 0.0


def fill_budget(items: Sequence[Item], budget: int) -> list[Item]:
    """Items best first while they fit in `budget` tokens (skipping one that does not)."""
    chosen, used = [], 0
    for item in items:
        cost = count_tokens(item.text)
        if used + cost <= budget:
            chosen.append(item)
            used += cost
    return chosen


def _recall(items: Sequence[Item], gold: set[str]) -> float:
    shown = {i for item in items for i in item.ids}
    return len(gold & shown) / len(gold)


def score_question(
    ranked: Ranked,
    gold: set[str],
    *,
    ours_budget: int,
    gold_sessions: set[str] | None = None,
    session_of: Callable[[str], str] | None = None,
    answer: str | None = None,
    own: bool = False,
) -> dict[str, float]:
    """One question's metrics. `own`: this is ours, whose budget items are its own top 5."""
    at_budget = ranked.top5 if own else fill_budget(ranked.deep, ours_budget)
    row: dict[str, float] = {}
    for k in KS:
        row[f"R@{k}"] = _recall(ranked.top5[:k] if k <= 5 else ranked.deep[:k], gold)
    for budget in BUDGETS:
        row[f"R@{budget}tok"] = _recall(fill_budget(ranked.deep, budget), gold)
    row["R@ours5"] = _recall(at_budget, gold)
    first = next((r for r, item in enumerate(ranked.deep[:10]) if gold & set(item.ids)), None)
    row["MRR"] = 0.0 if first is None else 1.0 / (first + 1)
    covered: set[str] = set()
    dcg = 0.0
    for r, item in enumerate(ranked.deep[:10]):
        new = (gold & set(item.ids)) - covered
        covered |= new
        dcg += (1.0 if new else 0.0) / math.log2(r + 2)
    ideal = sum(1.0 / math.log2(r + 2) for r in range(min(len(gold), 10)))
    row["nDCG@10"] = dcg / ideal
    if gold_sessions is not None and session_of is not None:
        sessions = {session_of(i) for item in ranked.top5 for i in item.ids}
        row["sess_all@5"] = float(gold_sessions <= sessions)
    if answer:
        # Does the returned text hold the answer's words, not just a gold turn's id? (A restatement
        # of one clause of a gold turn counts for R@k even if the answer sat in another clause.)
        words = set(tokenize(answer))
        if words:
            shown = set(tokenize(" ".join(item.text for item in at_budget)))
            row["ans@ours5"] = len(words & shown) / len(words)
    row["tokens@5"] = float(sum(count_tokens(item.text) for item in ranked.top5))
    row["ms"] = ranked.ms
    return row


@dataclass
class Board:
    """Per-question rows by system and bucket (question type); bucket "all" holds every row."""

    rows: dict[tuple[str, str], list[dict[str, float]]] = field(default_factory=dict)

    def add(self, system: str, bucket: str, row: dict[str, float]) -> None:
        self.rows.setdefault((system, bucket), []).append(row)
        self.rows.setdefault((system, "all"), []).append(row)

    def summary(self) -> dict[str, dict[str, dict[str, float]]]:
        out: dict[str, dict[str, dict[str, float]]] = {}
        for (system, bucket), rows in sorted(self.rows.items()):
            names = dict.fromkeys(m for r in rows for m in r if m != "ms")
            metrics = {m: round(statistics.fmean(r[m] for r in rows if m in r), 4) for m in names}
            ms = sorted(r["ms"] for r in rows)
            metrics["p50_ms"] = round(statistics.median(ms), 1)
            metrics["p95_ms"] = round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1)
            metrics["n"] = len(rows)
            out.setdefault(system, {})[bucket] = metrics
        for buckets in out.values():
            types = [b for b in buckets if b != "all"]
            if types:
                buckets["min over types"] = {
                    m: min(buckets[b].get(m, 0.0) for b in types) for m in buckets["all"] if m != "n"
                }
        return out


def headline(summary: dict[str, Any], ours: str = "ours") -> dict[str, Any]:
    """Ours' R@5 against the best raw-turn baseline filled to ours' k=5 tokens."""
    baselines = {s: v["all"]["R@ours5"] for s, v in summary.items() if s != ours}
    best = max(baselines, key=baselines.get)
    value = summary[ours]["all"]["R@5"]
    return {
        "ours R@5": value,
        "ours tokens@5": summary[ours]["all"]["tokens@5"],
        "best baseline": best,
        "best baseline R@ours5": baselines[best],
        "ratio": round(value / baselines[best], 3) if baselines[best] else float("inf"),
        "min over types, ours R@5": summary[ours].get("min over types", {}).get("R@5"),
        "min over types, best baseline R@ours5": summary[best].get("min over types", {}).get("R@ours5"),
    }


COLUMNS = (
    "R@1",
    "R@5",
    "R@10",
    "MRR",
    "nDCG@10",
    "tokens@5",
    *(f"R@{b}tok" for b in BUDGETS),
    "R@ours5",
    "ans@ours5",
)


def print_board(
    title: str, summary: dict[str, Any], *, extra: Sequence[str] = (), per_type: bool = True
) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=200)
    columns = (*COLUMNS, *extra, "p50_ms", "p95_ms")
    table = Table(title=title)
    table.add_column("system")
    table.add_column("bucket")
    table.add_column("n", justify="right")
    for column in columns:
        table.add_column(column, justify="right")
    for system, buckets in summary.items():
        for bucket, row in buckets.items():
            if not per_type and bucket not in ("all", "min over types"):
                continue
            table.add_row(
                system, bucket, str(row.get("n", "")), *(f"{row.get(c, float('nan')):.3g}" for c in columns)
            )
        table.add_section()
    console.print(table)
    head = headline(summary)
    console.print(
        f"headline: ours R@5 {head['ours R@5']:.3f} at {head['ours tokens@5']:.0f} tokens vs best baseline "
        f"{head['best baseline']} {head['best baseline R@ours5']:.3f} at the same tokens: {head['ratio']}x"
    )
