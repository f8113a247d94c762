"""Structural compression and throughput of stage 1 on LoCoMo dev, against baselines in the same run.

Methods compared on the same turns:
- raw:      every turn stored verbatim (ratio 1.0 by definition);
- clauses:  a naive splitter that keeps every clause verbatim (no information test, no fields);
- compress: simplemem-graph stage 1.

Reported per method: tokens of stored texts / tokens of raw turns (text.count_tokens), items per
turn, structured fields per item, the share of QA evidence turns that still yield at least one
stored item (what the information test costs retrieval), and throughput in turns/s with the models
loaded (median of --repeat runs), without and with embedding.

Run from the repo root:
    python bench/compression_ratio.py [--repeat 3] [--no-embed] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from simplemem_graph.compress import CompressStats, compress, load_english_pipeline  # noqa: E402
from simplemem_graph.compress.segment import split_clauses, split_sentences  # noqa: E402
from simplemem_graph.loaders import load_locomo  # noqa: E402
from simplemem_graph.models import Event, Turn  # noqa: E402
from simplemem_graph.text import count_tokens  # noqa: E402

LOCOMO_DEV = REPO.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
STRUCTURED_FIELDS = (
    "action",
    "object",
    "participants",
    "deadline",
    "dates",
    "location",
    "quantities",
    "negated",
    "condition",
    "topic",
    "keywords",
    "is_task",
)


def naive_clauses(turns: list[Turn]) -> list[tuple[str, str]]:
    """Baseline: every clause of every turn, verbatim, as (turn id, text)."""
    out = []
    for turn in turns:
        for sentence in split_sentences(turn.text):
            out += [(turn.id, c.text) for c in split_clauses(turn.text, sentence)]
    return out


def evidence_turns(path: Path) -> set[str]:
    """The dia_ids named as QA evidence (multi-id strings split; malformed ids normalised)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    ids = set()
    for sample in data:
        for qa in sample["qa"]:
            for raw in qa.get("evidence", []):
                for piece in re.split(r"[;,\s]+", raw):
                    m = re.fullmatch(r"D:?(\d+):0*(\d+)", piece.strip())
                    if m:
                        ids.add(f"D{m.group(1)}:{m.group(2)}")
    return ids


def _filled_fields(event: Event) -> int:
    return sum(1 for name in STRUCTURED_FIELDS if getattr(event, name) not in (None, [], False, ""))


def _timed(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def run(repeat: int, embed: bool) -> dict:
    """Measure every method; returns the report dict."""
    conversations = load_locomo(LOCOMO_DEV)
    turns = [t for c in conversations.values() for t in c]
    evidence = evidence_turns(LOCOMO_DEV)
    known_ids = {(t.session.split(":")[0], t.id) for t in turns}
    raw_tokens = sum(count_tokens(t.text) for t in turns)
    load_english_pipeline()
    compress(turns[:20])  # warm up spaCy and jieba outside the timings

    def per_conversation(fn):
        return [item for c in conversations.values() for item in fn(c)]

    raw_s, _ = _timed(lambda: [t.text for t in turns], repeat)
    clause_s, clauses = _timed(lambda: naive_clauses(turns), repeat)
    stats = CompressStats()
    compress_s, events = _timed(
        lambda: per_conversation(lambda c: compress(c, stats=CompressStats())), repeat
    )
    compress(turns, stats=stats)
    evidence_in = {tid for _, tid in known_ids if tid in evidence}

    def kept_evidence(ids: set[str]) -> float:
        return len(evidence_in & ids) / len(evidence_in)

    methods = {
        "raw": {
            "items": len(turns),
            "tokens": raw_tokens,
            "seconds": raw_s,
            "fields_per_item": 0.0,
            "evidence_kept": 1.0,
        },
        "clauses": {
            "items": len(clauses),
            "tokens": sum(count_tokens(text) for _, text in clauses),
            "seconds": clause_s,
            "fields_per_item": 0.0,
            "evidence_kept": kept_evidence({tid for tid, _ in clauses}),
        },
        "compress": {
            "items": len(events),
            "tokens": sum(count_tokens(e.text) for e in events),
            "seconds": compress_s,
            "fields_per_item": statistics.mean(_filled_fields(e) for e in events) if events else 0.0,
            "evidence_kept": kept_evidence({e.source_ids[0] for e in events}),
        },
    }
    for row in methods.values():
        row["token_ratio"] = row["tokens"] / raw_tokens
        row["items_per_turn"] = row["items"] / len(turns)
        row["turns_per_s"] = len(turns) / row["seconds"] if row["seconds"] else float("inf")
    report = {
        "turns": len(turns),
        "raw_tokens": raw_tokens,
        "evidence_turns": len(evidence_in),
        "methods": methods,
        "compress_stats": stats.as_dict(),
        "repeat": repeat,
    }
    if embed:
        from simplemem_graph.embedding import SentenceTransformerEmbedder

        embedder = SentenceTransformerEmbedder()
        embedder.encode(["warm up"])
        raw_embed_s, _ = _timed(lambda: embedder.encode([t.text for t in turns]), repeat)
        full_s, _ = _timed(lambda: per_conversation(lambda c: compress(c, embedder=embedder)), repeat)
        report["with_embedding"] = {
            "raw_turns_per_s": len(turns) / raw_embed_s,
            "compress_turns_per_s": len(turns) / full_s,
        }
    return report


def _print(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Stage 1 on LoCoMo dev: {report['turns']} turns, {report['raw_tokens']} tokens")
    for column in (
        "method",
        "items",
        "items/turn",
        "token ratio",
        "fields/item",
        "evidence turns kept",
        "turns/s (no embedding)",
    ):
        table.add_column(column, justify="left" if column == "method" else "right")
    for name, row in report["methods"].items():
        table.add_row(
            name,
            str(row["items"]),
            f"{row['items_per_turn']:.2f}",
            f"{row['token_ratio']:.3f}",
            f"{row['fields_per_item']:.1f}",
            f"{row['evidence_kept']:.1%}",
            f"{row['turns_per_s']:.0f}",
        )
    console = Console()
    console.print(table)
    if "with_embedding" in report:
        e = report["with_embedding"]
        console.print(
            f"with embedding (all-MiniLM-L6-v2): raw turns {e['raw_turns_per_s']:.0f} turns/s · "
            f"compress {e['compress_turns_per_s']:.0f} turns/s"
        )
    console.print(f"compress stats: {report['compress_stats']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per method (median reported)")
    parser.add_argument("--no-embed", action="store_true", help="skip the timings with embedding")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = run(args.repeat, not args.no_embed)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
