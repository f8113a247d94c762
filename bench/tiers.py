"""What searching the hot tier first saves: vector search p50 / p95 over the hot tier alone
against the whole namespace, on one store, in one run.

A synthetic namespace (bench/scale.py's `Synthetic`: clustered 384-d vectors, one event every 37
minutes) of --events events is written through the store contract; the global pass's decay then
tiers it at the time of its newest event (`plan_decay`: cold after 90 days untouched, hot at most
`hot_limit`). The same query vectors are searched with `tier="hot"` and over every tier; floors:
exact numpy top-10 over the same rows in RAM (hot rows, all rows).

    python3 bench/tiers.py --events 100000
    python3 bench/tiers.py --store neo4j --events 100000      # NEO4J_URI or the test launcher
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.fts_namespaces import print_and_save  # noqa: E402
from bench.scale import BATCH, CLUSTERS, QUERIES, Synthetic, open_store, summary_ms, write_batch  # noqa: E402
from simplemem_graph.config import DecayPolicy  # noqa: E402
from simplemem_graph.consolidate.global_pass import plan_decay, run_step  # noqa: E402
from simplemem_graph.stores.queries import EventQuery  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=["embedded", "neo4j"], default="embedded")
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    launcher, uri = None, None
    if args.store == "neo4j":
        from tests import neo4j_server

        uri = neo4j_server.configured_uri()
        if uri is None:
            launcher = neo4j_server.start_launcher()
            uri = launcher.uri
    namespace = f"tiers-{uuid.uuid4().hex[:6]}"
    path = str(Path(tempfile.mkdtemp(prefix="tiers-")) / "tiers.db") if args.store == "embedded" else uri
    store = open_store(args.store, path, namespace)
    synth = Synthetic(namespace)
    vectors, ids, times = [], [], []
    try:
        started = time.perf_counter()
        while synth.count < args.events:
            batch = synth.batch(min(BATCH, args.events - synth.count))
            write_batch(store, batch)
            vectors += [np.asarray(e.embedding, dtype=np.float32) for e in batch[1]]
            ids += [e.id for e in batch[1]]
            times += [e.time for e in batch[1]]
        write_s = time.perf_counter() - started
        started = time.perf_counter()
        counts = run_step(store, plan_decay(store, namespace, now=max(times), decay=DecayPolicy()))
        decay_s = time.perf_counter() - started
        hot_ids = {e.id for e in store.events(namespace, EventQuery()) if e.tier == "hot"}
        matrix = np.vstack(vectors)
        hot_rows = np.array([i for i, event_id in enumerate(ids) if event_id in hot_ids])
        hot_matrix = matrix[hot_rows]
        rng = np.random.default_rng(7)
        queries = [synth.vector_near(int(c), noise=0.5) for c in rng.integers(0, CLUSTERS, QUERIES)]
        timings: dict[str, list[float]] = {"all": [], "hot": [], "floor_all": [], "floor_hot": []}
        hot_share_of_full_top10 = []
        for q in queries:
            for tier, key in ((None, "all"), ("hot", "hot")):
                started = time.perf_counter()
                hits = store.vector_search(namespace, q.tolist(), 10, tier=tier)
                timings[key].append(time.perf_counter() - started)
                if tier is None:
                    hot_share_of_full_top10.append(sum(h.id in hot_ids for h in hits) / max(1, len(hits)))
            for rows, key in ((matrix, "floor_all"), (hot_matrix, "floor_hot")):
                started = time.perf_counter()
                np.argpartition(-(rows @ q), 10)[:10]
                timings[key].append(time.perf_counter() - started)
        result = {
            "store": args.store,
            "events": args.events,
            "write_s": round(write_s, 1),
            "decay_s": round(decay_s, 1),
            "tiers": {"hot": counts["hot_events"], "cold": counts["cold_events"]},
            "search": {key: summary_ms(values) for key, values in timings.items()},
            "hot_share_of_full_top10": statistics.mean(hot_share_of_full_top10),
        }
        result["hot_p95_over_all_p95"] = result["search"]["hot"]["p95_ms"] / result["search"]["all"]["p95_ms"]
    finally:
        if args.store == "neo4j":
            store.delete_namespace(namespace)
        store.close()
        if launcher is not None:
            launcher.stop()
    print_and_save(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
