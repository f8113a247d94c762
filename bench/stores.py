"""Neo4j against the embedded store on LoCoMo: ingest time, search latency, agreement of results.

Both stores get the same turns through the same pipeline (`Memory.add_many`: compress,
consolidate) with one shared embedding model, then answer the same questions (`Memory.search`,
k=5) in the same order. The embedded store is the baseline; every ratio is neo4j / embedded.
Store time is the time spent inside store methods alone (compression and embedding excluded), so
it isolates what the choice of store costs.

    python3 bench/stores.py                         # conv-26, its first 100 questions
    python3 bench/stores.py --sample all --questions 0 --json
    NEO4J_URI=neo4j://localhost:7687 python3 bench/stores.py   # an existing server

Without NEO4J_URI the throw-away test server (tests/neo4j-server, Java + Maven) is started and
stopped. The namespace used on Neo4j is deleted at the end.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from simplemem_graph.embedding import SentenceTransformerEmbedder  # noqa: E402
from simplemem_graph.loaders import load_locomo  # noqa: E402
from simplemem_graph.memory import Memory  # noqa: E402
from simplemem_graph.models import Turn  # noqa: E402
from simplemem_graph.stores.base import GraphStore  # noqa: E402
from simplemem_graph.stores.embedded import EmbeddedStore  # noqa: E402
from simplemem_graph.stores.neo4j import Neo4jStore  # noqa: E402
from tests import neo4j_server  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
K = 5


class StoreTimer:
    """Wraps every contract method of a store (on the instance) to count its calls and wall time.

    Only calls from outside the store count (a store method calling another of its own, such as
    the embedded walk reading links, is neither a second call nor time counted twice): each
    counted call is one round trip on Neo4j."""

    def __init__(self, store: GraphStore):
        self.calls: dict[str, list[float]] = {}  # method -> [calls, seconds]
        self._local = threading.local()  # call depth per thread
        for name, member in vars(GraphStore).items():
            if not name.startswith("_") and callable(member) and name != "close":
                setattr(store, name, self._timed(name, getattr(store, name)))

    def _timed(self, name: str, method):
        @functools.wraps(method)
        def timed(*args, **kwargs):
            if getattr(self._local, "depth", 0):
                return method(*args, **kwargs)
            self._local.depth = 1
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self._local.depth = 0
                entry = self.calls.setdefault(name, [0, 0.0])
                entry[0] += 1
                entry[1] += time.perf_counter() - started

        return timed

    @property
    def count(self) -> int:
        return int(sum(calls for calls, _ in self.calls.values()))

    @property
    def seconds(self) -> float:
        return sum(seconds for _, seconds in self.calls.values())

    def snapshot(self) -> dict[str, dict[str, float]]:
        """Calls and seconds per method, costliest first; then the counters start again."""
        ranked = sorted(self.calls.items(), key=lambda item: -item[1][1])
        self.calls = {}
        return {name: {"calls": int(calls), "seconds": seconds} for name, (calls, seconds) in ranked}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def warm_up(embedder) -> None:
    """Load the spaCy pipeline and the compressor's lazy state outside any timing, so the first
    store measured does not pay for them."""
    scratch = Memory(EmbeddedStore(":memory:"), namespace="warm-up", embedder=embedder)
    when = datetime(2026, 1, 5, 9, tzinfo=UTC)
    scratch.add_many([Turn(id="w:1", session="w", time=when, text="Ana met Acme on Monday.")])
    scratch.search("Who did Ana meet?")
    scratch.close()


def run_store(kind: str, store: GraphStore, namespace: str, turns, questions, embedder) -> dict[str, Any]:
    """Ingest the turns, then ask every question; return timings and each question's top-k ids."""
    timer = StoreTimer(store)
    memory = Memory(store, namespace=namespace, embedder=embedder)
    started = time.perf_counter()
    report = memory.add_many(turns)
    ingest_s = time.perf_counter() - started
    ingest_store_s = timer.seconds
    ingest_calls = timer.snapshot()

    at = max(t.time for t in turns) + timedelta(days=1)
    latencies_ms, store_ms, top_ids, calls = [], [], [], []
    for question in questions:
        before = timer.seconds
        calls_before = timer.count
        started = time.perf_counter()
        result = memory.search(question, k=K, at=at)
        latencies_ms.append(1000 * (time.perf_counter() - started))
        store_ms.append(1000 * (timer.seconds - before))
        calls.append(timer.count - calls_before)
        top_ids.append([hit.event.id for hit in result.hits])
    return {
        "store": kind,
        "turns": len(turns),
        "events": report.events,
        "ingest_s": ingest_s,
        "ingest_store_s": ingest_store_s,
        "search_p50_ms": statistics.median(latencies_ms),
        "search_p95_ms": percentile(latencies_ms, 0.95),
        "search_store_p50_ms": statistics.median(store_ms),
        "store_calls_per_search": {"mean": statistics.mean(calls), "max": max(calls)},
        "ingest_store_calls": ingest_calls,
        "search_store_calls": timer.snapshot(),
        "top_ids": top_ids,
    }


def agreement(a: list[list[str]], b: list[list[str]]) -> dict[str, float]:
    """How far two stores' answers agree: mean top-k overlap, same top-1, same top-k set."""
    pairs = list(zip(a, b, strict=True))
    overlap = [len(set(x) & set(y)) / max(len(x), len(y), 1) for x, y in pairs]
    return {
        "top5_overlap": statistics.mean(overlap),
        "top1_same": statistics.mean(float(x[:1] == y[:1]) for x, y in pairs),
        "top5_same_set": statistics.mean(float(set(x) == set(y)) for x, y in pairs),
    }


def load_inputs(path: Path, sample: str, limit: int):
    """Turns of the chosen conversation(s) and their questions (the first `limit`; 0 = all)."""
    chosen = None if sample == "all" else sample
    conversations = load_locomo(path, sample=chosen)
    turns = [t for sample_turns in conversations.values() for t in sample_turns]
    records = json.loads(path.read_text(encoding="utf-8"))
    questions = [qa["question"] for r in records if str(r["sample_id"]) in conversations for qa in r["qa"]]
    return turns, questions[:limit] if limit else questions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo file (default: dev split)")
    parser.add_argument("--sample", default="conv-26", help="a sample_id, or 'all'")
    parser.add_argument("--questions", type=int, default=100, help="questions to ask (0 = all)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    turns, questions = load_inputs(args.data, args.sample, args.questions)
    embedder = SentenceTransformerEmbedder()
    warm_up(embedder)

    launcher = None
    uri = neo4j_server.configured_uri()
    if uri is None:
        launcher = neo4j_server.start_launcher()
        uri = launcher.uri
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    neo4j = Neo4jStore.connect(uri, auth=neo4j_server.configured_auth(), dimension=embedder.dimension)
    try:
        embedded = run_store("embedded", EmbeddedStore(":memory:"), namespace, turns, questions, embedder)
        graph = run_store("neo4j", neo4j, namespace, turns, questions, embedder)
    finally:
        neo4j.delete_namespace(namespace)
        neo4j.close()
        if launcher is not None:
            launcher.stop()

    ratios = {
        key: graph[key] / embedded[key] if embedded[key] else float("nan")
        for key in ("ingest_s", "ingest_store_s", "search_p50_ms", "search_p95_ms", "search_store_p50_ms")
    }
    summary = {
        "data": str(args.data),
        "sample": args.sample,
        "questions": len(questions),
        "k": K,
        "embedded": {k: v for k, v in embedded.items() if k != "top_ids"},
        "neo4j": {k: v for k, v in graph.items() if k != "top_ids"},
        "ratio_neo4j_over_embedded": ratios,
        "agreement": agreement(embedded["top_ids"], graph["top_ids"]),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"LoCoMo {args.sample}: {len(turns)} turns, {len(questions)} questions, k={K}")
    print(f"{'':22}{'embedded':>12}{'neo4j':>12}{'ratio':>8}")
    for key, label in [
        ("ingest_s", "ingest total (s)"),
        ("ingest_store_s", "ingest in store (s)"),
        ("search_p50_ms", "search p50 (ms)"),
        ("search_p95_ms", "search p95 (ms)"),
        ("search_store_p50_ms", "search in store p50"),
    ]:
        print(f"{label:22}{embedded[key]:12.2f}{graph[key]:12.2f}{ratios[key]:8.2f}")
    for phase in ("ingest_store_calls", "search_store_calls"):
        top = list(graph[phase].items())[:4]
        costliest = ", ".join(f"{name} {entry['calls']}x {entry['seconds']:.1f}s" for name, entry in top)
        print(f"neo4j {phase.replace('_', ' ')}: {costliest}")
    agree = summary["agreement"]
    print(
        f"agreement: top-5 overlap {agree['top5_overlap']:.3f}, same top-1 {agree['top1_same']:.3f}, "
        f"same top-5 set {agree['top5_same_set']:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
