"""Fulltext cost of a small namespace stored next to a big one (issue 11: FTS5 matched every
tenant's rows before the namespace filter).

One store file ("shared") holds a big namespace (--big events and turns, default 100k) and a small
one (--small, default 1k), written interleaved as tenants write, with texts drawn from one
Zipf-shaped vocabulary; a second file ("alone") holds only the small namespace, the same rows. The
same queries run against the small namespace in both files: "alone" is the floor (what they cost
when nothing else is stored), and shared / alone says what the big namespace still costs the small
one. The big namespace is timed too: its own queries must not get slower.

    python3 bench/fts_namespaces.py --dir /tmp/fts --build      # write both files, then measure
    python3 bench/fts_namespaces.py --dir /tmp/fts --label after # measure existing files

Before / after on the same files: build and measure with the previous release first
(`git archive <base> | tar -x -C /tmp/base` and PYTHONPATH=/tmp/base), then measure with this
one (PYTHONPATH=.). The first open of a file written with another fulltext layout re-indexes it: `open_s`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if not os.environ.get("PYTHONPATH"):  # PYTHONPATH, when given, chooses the code measured
    sys.path.insert(0, str(REPO))

from simplemem_graph.models import (  # noqa: E402
    Event,
    GraphDelta,
    Turn,
)
from simplemem_graph.stores.embedded import EmbeddedStore  # noqa: E402

BIG, SMALL = "big-tenant", "small-tenant"
VOCABULARY = 20_000
WORDS_PER_TEXT = 14
QUERIES = 60
QUERY_WORDS = 6
REPEATS = 3  # each query's time is its median over this many runs (a shared, noisy machine)
BATCH = 1000
T0 = datetime(2024, 1, 1, 9, tzinfo=UTC)
_SYLLABLES = [c + v for c in "bcdfghjklmnprstvwz" for v in "aeiou"]


def vocabulary(rng: np.random.Generator) -> list[str]:
    words: set[str] = set()
    while len(words) < VOCABULARY:
        words.add("".join(rng.choice(_SYLLABLES, size=int(rng.integers(2, 5)))))
    return sorted(words)


def zipf_weights(n: int) -> np.ndarray:
    weights = 1.0 / np.arange(1, n + 1)
    return weights / weights.sum()


def rows(namespace: str, start: int, count: int, words: list[str], rng) -> tuple[list[Turn], list[Event]]:
    turns, events = [], []
    picks = rng.choice(len(words), size=(count, WORDS_PER_TEXT), p=zipf_weights(len(words)))
    for i, row in zip(range(start, start + count), picks, strict=True):
        text = " ".join(words[j] for j in row)
        when = T0 + timedelta(minutes=i)
        turn_id = f"s{i // 20}:{i}"
        turns.append(Turn(id=turn_id, namespace=namespace, session=f"s{i // 20}", time=when, text=text))
        events.append(
            Event(
                id=f"ev-{i}",
                namespace=namespace,
                text=text,
                source_ids=[turn_id],
                session=f"s{i // 20}",
                time=when,
            )
        )
    return turns, events


def write(store: EmbeddedStore, batch: tuple[list[Turn], list[Event]]) -> None:
    store.add_turns(batch[0], pending=False)
    if batch[1]:
        store.apply_delta(GraphDelta(namespace=batch[1][0].namespace, events=batch[1]))


def build(directory: Path, big: int, small: int) -> None:
    """Both files, from one seed: the small namespace's rows are identical in both."""
    directory.mkdir(parents=True, exist_ok=True)
    words = vocabulary(np.random.default_rng(0))
    shared, alone = EmbeddedStore(directory / "shared.db"), EmbeddedStore(directory / "alone.db")
    big_rng, small_rng = np.random.default_rng(1), np.random.default_rng(2)
    # One small batch after every (big / small) x BATCH big rows: the tenants' rows interleave.
    small_batch = max(1, BATCH * small // big)
    written_big = written_small = 0
    while written_big < big or written_small < small:
        if written_big < big:
            count = min(BATCH, big - written_big)
            write(shared, rows(BIG, written_big, count, words, big_rng))
            written_big += count
        if written_small < small:
            count = min(small_batch, small - written_small)
            batch = rows(SMALL, written_small, count, words, small_rng)
            write(shared, batch)
            write(alone, batch)
            written_small += count
        print(f"\rwritten {written_big} big, {written_small} small", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    shared.close()
    alone.close()


def queries(words: list[str]) -> list[str]:
    """Content words of ordinary frequency (ranks 20-2000 of the Zipf vocabulary)."""
    rng = np.random.default_rng(7)
    return [" ".join(rng.choice(words[20:2000], size=QUERY_WORDS, replace=False)) for _ in range(QUERIES)]


def timed(search, namespace: str, texts: list[str]) -> dict[str, float]:
    for text in texts:  # warm the page cache and SQLite's
        search(namespace, text, 15)
    per_query = []
    for text in texts:
        runs = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            search(namespace, text, 15)
            runs.append(time.perf_counter() - started)
        per_query.append(1000 * statistics.median(runs))
    ordered = sorted(per_query)
    return {
        "p50_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(ordered[round(0.95 * (len(ordered) - 1))], 3),
        "mean_ms": round(statistics.mean(ordered), 3),
    }


def measure(directory: Path) -> dict:
    texts = queries(vocabulary(np.random.default_rng(0)))
    result: dict = {}
    for name, namespaces in (("alone", [SMALL]), ("shared", [SMALL, BIG])):
        started = time.perf_counter()
        store = EmbeddedStore(directory / f"{name}.db")
        result[f"{name}_open_s"] = round(time.perf_counter() - started, 2)
        for namespace in namespaces:
            events = store.stats(namespace)["events"]
            result[f"{name}/{namespace}"] = {
                "events": events,
                "fulltext": timed(store.fulltext_search, namespace, texts),
                "turns": timed(store.turn_search, namespace, texts),
            }
        store.close()
    for channel in ("fulltext", "turns"):
        alone, shared = result[f"alone/{SMALL}"][channel], result[f"shared/{SMALL}"][channel]
        result[f"small_{channel}_shared_over_alone"] = {
            q: round(shared[q] / alone[q], 2) for q in ("p50_ms", "p95_ms", "mean_ms")
        }
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True, help="where the two store files live")
    parser.add_argument("--build", action="store_true", help="write the files first")
    parser.add_argument("--big", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--label", default="", help="a tag saved with the results (e.g. before)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.build:
        started = time.perf_counter()
        build(args.dir, args.big, args.small)
        print(f"built in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    result = {"label": args.label, "queries": QUERIES, "repeats": REPEATS, **measure(args.dir)}
    print_and_save(result, args.out)
    return 0


def print_and_save(result: dict, out: Path | None) -> None:
    """Print a benchmark's result as JSON, and write it to `out` when given."""
    print(json.dumps(result, indent=2))
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
