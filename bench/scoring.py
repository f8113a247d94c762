"""Evidence-recall metrics against tokens, shared by bench/locomo.py, longmemeval.py and zh_dev.py.

For each question a system gives two rankings of `Item`s: `top5` (what it returns at k=5) and
`deep` (a longer ranking, for k=10 and token budgets). Metrics, all means over questions:

- R@k: share of the gold turns among the turn ids of the first k items (k <= 5 from `top5`).
- R@Btok: fill a budget of B tokens best first and take the recall of what was returned. A raw
  baseline is filled from `deep` with its last item cut to fit (a sceptic's baseline: never left
  with unused room); ours is what the product itself returns for `budget=B` (`Ranked.budgets`),
  uncut. Same tokenizer (`count_tokens`) for every system.
- ans@Btok: answer coverage at B tokens: the share of the gold answer's content words present in
  the returned text, a date also found in its ISO form ("7 May 2023" in "2023-05-07"); Chinese
  is counted in character bigrams (`answer_units`: jieba cuts one string differently in context). This is
  the headline: a recalled turn id does not show that the answer reached the agent.
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

import calendar
import math
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.baselines import CJK_RUN, Item
from simplemem_graph.text import count_tokens, token_prefix, tokenize

BUDGETS = (100, 200, 400, 800)
KS = (1, 3, 5, 10)


@dataclass
class Ranked:
    top5: list[Item]
    deep: list[Item]
    ms: float = 0.0
    # What the system itself returns for each token budget; None: fill `deep` by `fill_budget`.
    budgets: dict[int, list[Item]] | None = None


def fill_budget(items: Sequence[Item], budget: int) -> list[Item]:
    """Items best first until `budget` tokens are used; the first item that does not fit is cut
    to the room left (it keeps its ids) and ends the list."""
    chosen, used = [], 0
    for item in items:
        cost = count_tokens(item.text)
        if used + cost <= budget:
            chosen.append(item)
            used += cost
            continue
        room = budget - used
        if room > 0:
            chosen.append(Item(item.ids, token_prefix(item.text, room)))
        break
    return chosen


_MONTHS = {calendar.month_name[i].lower(): i for i in range(1, 13)}
_MONTH_RE = "|".join(_MONTHS) + "|" + "|".join(m[:3] for m in _MONTHS)
# The date shapes gold answers use: "7 May 2023", "May 7, 2023", "May 2023", "2023年5月7日".
_DATE_SHAPES = (
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.I), "dmy"),
    (re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I), "mdy"),
    (re.compile(rf"\b({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.I), "my"),
    (re.compile(r"(\d{4})年(\d{1,2})月(?:(\d{1,2})[日号])?"), "zh"),
    # "5月22号" without a year: its ISO tail "-05-22" is found in any year's "YYYY-05-22".
    (re.compile(r"(?<!\d)(\d{1,2})月(\d{1,2})[日号]"), "zh-md"),
)


def _month(name: str) -> int:
    name = name.lower()
    return _MONTHS.get(name) or next(i for m, i in _MONTHS.items() if m.startswith(name[:3]))


def answer_dates(answer: str) -> list[tuple[str, str]]:
    """(the date as the answer writes it, its ISO form: YYYY-MM-DD or YYYY-MM) for each date."""
    found, taken = [], []
    for pattern, shape in _DATE_SHAPES:
        for m in pattern.finditer(answer):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue  # "May 2023" inside "7 May 2023" is the same date
            if shape == "dmy":
                iso = f"{m[3]}-{_month(m[2]):02d}-{int(m[1]):02d}"
            elif shape == "mdy":
                iso = f"{m[3]}-{_month(m[1]):02d}-{int(m[2]):02d}"
            elif shape == "my":
                iso = f"{m[2]}-{_month(m[1]):02d}"
            elif shape == "zh-md":
                iso = f"-{int(m[1]):02d}-{int(m[2]):02d}"
            else:
                iso = f"{m[1]}-{int(m[2]):02d}" + (f"-{int(m[3]):02d}" if m[3] else "")
            taken.append((m.start(), m.end()))
            found.append((m.group(0), iso))
    return found


def answer_units(text: str) -> set[str]:
    """The content units answer coverage counts in a text: `tokenize`'s words outside Chinese, and
    each run of Chinese characters as its character bigrams and its single characters.

    Chinese is not matched by jieba words: jieba cuts one string differently by its context
    (钢琴 alone, 钢琴曲 in "学习一些钢琴曲子"; 宫保鸡丁 as 宫保鸡 + 丁), so an answer written word for
    word in a text could read as missed. Bigrams are segmentation-free and graded: a memory that
    names 曼彻斯特 but not 海边的曼彻斯特 gets part of the credit."""
    units = set(tokenize(CJK_RUN.sub(" ", text)))
    for run in CJK_RUN.findall(text):
        units.update(run[i : i + 2] for i in range(len(run) - 1))
        units.update(run)
    return units


def _answer_keys(answer: str) -> set[str]:
    """What an answer is scored on: its words outside Chinese and the bigrams of its Chinese runs.
    A lone character between numbers (块 in 373块, 月 and 号 in 5月22号) is a unit word: the number
    carries the answer, and the character alone would be found in any text that has it anywhere
    (日 in 生日); it counts only when it is all the answer has."""
    keys = set(tokenize(CJK_RUN.sub(" ", answer)))
    lone = set()
    for run in CJK_RUN.findall(answer):
        if len(run) == 1:
            lone.add(run)
        keys.update(run[i : i + 2] for i in range(len(run) - 1))
    return keys or lone


def answer_coverage(answer: str, text: str) -> float | None:
    """The share of the answer's content units (`_answer_keys`: words, Chinese character bigrams)
    found in `text` (`answer_units`), None for an answer without any; the units of a date count as
    found when the text has the date in ISO form."""
    keys = _answer_keys(answer)
    if not keys:
        return None
    found = keys & answer_units(text)
    for written, iso in answer_dates(answer):
        if iso in text:
            found |= keys & _answer_keys(written)
    return len(found) / len(keys)


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
        shown = ranked.budgets[budget] if ranked.budgets else fill_budget(ranked.deep, budget)
        row[f"R@{budget}tok"] = _recall(shown, gold)
        coverage = answer_coverage(answer, " ".join(item.text for item in shown)) if answer else None
        if coverage is not None:
            row[f"ans@{budget}tok"] = coverage
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
        coverage = answer_coverage(answer, " ".join(item.text for item in at_budget))
        if coverage is not None:
            row["ans@ours5"] = coverage
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
            if any(b != "all" for b in buckets):
                buckets["min over types"] = min_over_types(buckets)
        return out


def min_over_types(buckets: dict[str, dict[str, float]]) -> dict[str, float]:
    """Per metric of bucket "all", its lowest value over the question types that have it: a type
    without a value of a metric (LoCoMo's adversarial questions have no answer to cover) is not its
    minimum."""
    types = [b for b in buckets if b not in ("all", "min over types")]
    return {
        m: min(buckets[b][m] for b in types if m in buckets[b])
        for m in buckets["all"]
        if m != "n" and any(m in buckets[b] for b in types)
    }


def _best_baseline(summary: dict[str, Any], metric: str) -> tuple[str | None, float]:
    """The raw baseline (not one of ours' variants) with the highest mean `metric`."""
    values = {
        s: v["all"][metric] for s, v in summary.items() if not s.startswith("ours") and metric in v["all"]
    }
    if not values:
        return None, 0.0
    best = max(values, key=values.get)
    return best, values[best]


def _ratio(value: float, base: float) -> float:
    return round(value / base, 3) if base else float("inf")


def headline(summary: dict[str, Any], ours: str = "ours") -> dict[str, Any]:
    """Answer coverage at each token budget against the best raw baseline at that budget (the best
    of turns and sentences, BM25, dense and hybrid, chosen per budget), then ours' R@5 against the
    best baseline filled to ours' k=5 tokens."""
    coverage = {}
    for budget in BUDGETS:
        metric = f"ans@{budget}tok"
        if metric not in summary[ours]["all"]:
            continue
        best, base = _best_baseline(summary, metric)
        value = summary[ours]["all"][metric]
        coverage[str(budget)] = {
            "ours": value,
            "best baseline": best,
            "baseline": base,
            "ratio": _ratio(value, base),
            "min over types, ours": summary[ours].get("min over types", {}).get(metric),
        }
    best, base = _best_baseline(summary, "R@ours5")
    value = summary[ours]["all"]["R@5"]
    return {
        "answer coverage by budget": coverage,
        "ours R@5": value,
        "ours tokens@5": summary[ours]["all"]["tokens@5"],
        "best baseline": best,
        "best baseline R@ours5": base,
        "ratio": _ratio(value, base),
        "min over types, ours R@5": summary[ours].get("min over types", {}).get("R@5"),
        "min over types, best baseline R@ours5": summary[best].get("min over types", {}).get("R@ours5")
        if best
        else None,
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
    *(f"ans@{b}tok" for b in BUDGETS),
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
    for budget, cov in head["answer coverage by budget"].items():
        console.print(
            f"answer coverage at {budget} tokens: ours {cov['ours']:.3f} vs best baseline "
            f"{cov['best baseline']} {cov['baseline']:.3f}: {cov['ratio']}x"
        )
    console.print(
        f"evidence: ours R@5 {head['ours R@5']:.3f} at {head['ours tokens@5']:.0f} tokens vs best baseline "
        f"{head['best baseline']} {head['best baseline R@ours5']:.3f} at the same tokens: {head['ratio']}x"
    )
