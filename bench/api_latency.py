"""REST API round-trip latency vs the in-process Python call, in one run.

Starts `simplemem-graph serve` as a real process on 127.0.0.1 (its own empty store), opens an
in-process `Memory` on another empty store, then makes the same calls through both, alternating
call by call: `add` (one turn per call), `search`, and `stats` (cheap, so it shows the bare HTTP
cost). Prints p50/p95 per operation and the HTTP overhead (p50 ratio and ms). Both stores grow
identically, so each pair of calls does the same work.

    python -m bench.api_latency                 # from the repo root: 40 timed calls per operation and side
    python -m bench.api_latency --n 100 --json  # machine-readable
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from simplemem_graph.memory import SAMPLE_CONVERSATION, Memory
from simplemem_graph.models import Turn

QUERIES = (
    "When is the Northwind quote due?",
    "What is Northwind's price ceiling?",
    "博瑞科技的交货日期是什么时候？",
    "首付款什么时候到账？",
    "How many scanners does the supplier have in stock?",
)


def _turn_texts() -> list[str]:
    return [json.loads(line)["text"] for line in SAMPLE_CONVERSATION.read_text(encoding="utf-8").splitlines()]


def _turns(n: int) -> list[Turn]:
    """n distinct turns cycling through the sample conversation, one minute apart."""
    texts = _turn_texts()
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    return [
        Turn(
            id=f"bench:{i}",
            session=f"bench{i // len(texts)}",
            speaker="Maya",
            text=texts[i % len(texts)],
            time=start + timedelta(minutes=i),
        )
        for i in range(n)
    ]


def _percentiles(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    p95_index = min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))
    return {
        "p50_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(ordered[p95_index], 2),
        "n": len(ordered),
    }


def _time_ms(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def _served(store: Path) -> Iterator[str]:
    """`simplemem-graph serve` on a free loopback port; yields its base URL once healthy."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "simplemem_graph", "--store", str(store), "serve", "--port", str(port)],
        env={**os.environ, "SIMPLEMEM_API_KEYS": ""},
        cwd=Path(__file__).resolve().parents[1],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"serve exited with status {process.returncode}")
            try:
                if httpx.get(f"{base}/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("serve did not become healthy within 180 s")
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def run(n: int, warmup: int) -> dict[str, object]:
    """Alternate in-process and HTTP calls, so both sides see the same machine load over time."""
    turns = _turns(warmup + n)
    queries = [QUERIES[i % len(QUERIES)] for i in range(warmup + n)]
    asked_at = "2026-03-20T09:00:00+08:00"
    samples: dict[str, dict[str, list[float]]] = {
        op: {"in_process": [], "http": []} for op in ("add", "search", "stats")
    }
    with tempfile.TemporaryDirectory() as tmp, _served(Path(tmp) / "served.db") as base:
        memory = Memory.open(str(Path(tmp) / "inprocess.db"), namespace="bench")
        url = f"{base}/v1/namespaces/bench"
        with httpx.Client(timeout=120) as http:

            def post(path: str, body: object) -> None:
                http.post(url + path, json=body).raise_for_status()

            def get(path: str) -> None:
                http.get(url + path).raise_for_status()

            for op, calls in (
                (
                    "add",
                    [
                        (
                            lambda t=t: memory.add_many([t]),
                            lambda t=t: post("/turns", t.model_dump(mode="json", exclude={"namespace"})),
                        )
                        for t in turns
                    ],
                ),
                (
                    "search",
                    [
                        (
                            lambda q=q: memory.search(q, at=datetime.fromisoformat(asked_at)),
                            lambda q=q: post("/search", {"query": q, "at": asked_at}),
                        )
                        for q in queries
                    ],
                ),
                # A cheap call (a few COUNT queries): what is left is almost all HTTP + JSON overhead.
                ("stats", [(memory.stats, lambda: get("/stats")) for _ in range(warmup + n)]),
            ):
                for i, (in_process, over_http) in enumerate(calls):
                    local_ms, http_ms = _time_ms(in_process), _time_ms(over_http)
                    if i >= warmup:
                        samples[op]["in_process"].append(local_ms)
                        samples[op]["http"].append(http_ms)
        memory.close()

    report: dict[str, object] = {"n": n, "warmup": warmup, "operations": {}}
    for op, sides in samples.items():
        base_stats, http_stats = _percentiles(sides["in_process"]), _percentiles(sides["http"])
        report["operations"][op] = {  # type: ignore[index]
            "in_process": base_stats,
            "http": http_stats,
            "p50_ratio": round(http_stats["p50_ms"] / base_stats["p50_ms"], 3),
            "p50_overhead_ms": round(http_stats["p50_ms"] - base_stats["p50_ms"], 2),
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=40, help="timed calls per operation and side")
    parser.add_argument("--warmup", type=int, default=5, help="untimed calls first (model warm-up, caches)")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    args = parser.parse_args()
    report = run(args.n, args.warmup)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{'operation':<10}{'in-process p50/p95 ms':>24}{'HTTP p50/p95 ms':>20}{'p50 ratio':>11}{'+ms':>8}")
    for op, row in report["operations"].items():  # type: ignore[union-attr]
        base, http = row["in_process"], row["http"]
        in_process = f"{base['p50_ms']:>12.2f} / {base['p95_ms']:<9.2f}"
        over_http = f"{http['p50_ms']:>9.2f} / {http['p95_ms']:<8.2f}"
        print(f"{op:<10}{in_process}{over_http}{row['p50_ratio']:>9.2f}x{row['p50_overhead_ms']:>8.2f}")


if __name__ == "__main__":
    main()
