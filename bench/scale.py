"""Cost against store size: does ingest and search stay flat from 1k to 100k events (and beyond)?

Two modes, both with their baseline in the same run:

- `store` (no model): a synthetic namespace grows through the store contract alone — events with
  clustered 384-d vectors, turns, entities (a Zipf-shaped cast plus one speaker mentioned by every
  event), topics, MENTIONS / NEXT / FROM / IN_TOPIC links — in batches of 50 events, as ingest
  writes them. At each checkpoint size: insert throughput over the last batches, vector /
  fulltext / expand / entity-storyline p50 and p95, cold start (a new process: open the store and
  run the first vector search), the global pass (time and peak RSS, in a child process), disk per
  event. The baseline for vector search is exact top-10 by numpy over the same vectors in RAM.
- `pipeline` (the real model): the synthetic namespace of each size gets real turns (LoCoMo dev)
  through `Memory.add_many`, then real questions through `Memory.search`. Reported: ingest turns/s,
  search p50 / p95, store calls per search, against the floor = one query embedding + exact top-10
  over the namespace's vectors, in the same run.

    python3 bench/scale.py --sizes 1000,10000,100000                 # embedded store
    python3 bench/scale.py --global-pass-only --sizes 10000,30000,100000 [--event-noise 0.15]
    python3 bench/scale.py --store neo4j --sizes 10000,100000        # NEO4J_URI or the test launcher
    python3 bench/scale.py --mode pipeline --sizes 1000,10000,50000
    python3 bench/scale.py --mode haystack --haystacks 3          # LongMemEval-S haystacks vs floor
    python3 bench/scale.py --plot docs/scale/scale.png docs/scale/scale-*.json

Results go to bench/results/scale-<store>-<mode>.json (--out to change); --plot draws cost against
size from result files.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from simplemem_graph.consolidate.name_matching import entity_id  # noqa: E402
from simplemem_graph.models import (  # noqa: E402
    DEFAULT_STATUSES,
    EVENT_LINKS,
    Entity,
    Event,
    GraphDelta,
    Link,
    LinkKind,
    Participant,
    Topic,
    Turn,
    Walk,
)
from simplemem_graph.stores.base import GraphStore  # noqa: E402
from simplemem_graph.stores.queries import EventQuery, RecallFilter, TextQuery, Walks  # noqa: E402
from simplemem_graph.text import tokenize  # noqa: E402

DIM = 384
BATCH = 50  # events per write batch, about one ingest batch
CLUSTERS = 256
SPEAKER = "Ana Quell"  # the speaker of every event: one entity in every storyline (a hub)
QUERIES = 60
T0 = datetime(2024, 1, 1, 9, tzinfo=UTC)
RESULTS = REPO / "bench" / "results"
_SYLLABLES = [c + v for c in "bcdfghjklmnprstvwz" for v in "aeiou"]
# Characters for synthetic names; deliberately not lexicon.ZH_SURNAMES (the generator stays independent).
_HANZI = (
    "王李张刘陈杨黄赵周吴徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈"
)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def summary_ms(values: list[float]) -> dict[str, float]:
    ms = [1000 * v for v in values]
    return {"p50_ms": statistics.median(ms), "p95_ms": percentile(ms, 0.95), "mean_ms": statistics.mean(ms)}


class Synthetic:
    """A seeded synthetic namespace: random words and names (en and zh), clustered unit vectors."""

    def __init__(self, namespace: str, seed: int = 0, event_noise: float = 0.35):
        self.namespace = namespace
        self.event_noise = event_noise  # 0.35: events of a cluster at cosine ~0.3; 0.15: ~0.75
        self.rng = np.random.default_rng(seed)
        self.centres = self._unit(self.rng.standard_normal((CLUSTERS, DIM)))
        self.words = sorted({self._word() for _ in range(5000)})
        self.entities: list[Entity] = []
        self.count = 0
        self.session_tail: dict[str, str] = {}

    @staticmethod
    def _unit(x: np.ndarray) -> np.ndarray:
        return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)

    def _word(self) -> str:
        return "".join(self.rng.choice(_SYLLABLES, size=int(self.rng.integers(2, 4))))

    def _name(self) -> tuple[str, str]:
        if self.rng.random() < 0.5:
            return "".join(self.rng.choice(list(_HANZI), size=int(self.rng.integers(2, 4)))), "person"
        return f"{self._word().title()} {self._word().title()}", str(self.rng.choice(["person", "org"]))

    def vector_near(self, cluster: int, noise: float = 0.35) -> np.ndarray:
        return self._unit(self.centres[cluster] + noise * self.rng.standard_normal(DIM) / np.sqrt(DIM) * 4)

    def batch(self, n: int) -> tuple[list[Turn], list[Event], list[Entity], list[Topic], list[Link]]:
        ns = self.namespace
        turns, events, links = [], [], []
        new_entities: list[Entity] = []
        if not self.entities:
            speaker = Entity(id=entity_id(ns, SPEAKER), namespace=ns, name=SPEAKER, type="person")
            self.entities.append(speaker)
            new_entities.append(speaker)
        for _ in range(n):
            i = self.count
            self.count += 1
            if self.rng.random() < 0.1 or len(self.entities) < 20:  # the cast grows with the log
                name, type_ = self._name()
                entity = Entity(id=entity_id(ns, name), namespace=ns, name=name, type=type_)
                self.entities.append(entity)
                new_entities.append(entity)
            session = f"s{i // 20}"
            when = T0 + timedelta(minutes=37 * i)
            cluster = int(self.rng.integers(0, CLUSTERS))
            # Zipf-shaped mentions: a few entities in many events, most in a handful.
            picks = {min(len(self.entities) - 1, int(self.rng.zipf(1.6))) for _ in range(2)}
            names = [self.entities[p].name for p in picks if p]
            words = list(self.rng.choice(self.words, size=12))
            text = " ".join([*names, *words])
            event_id, turn_id = f"ev-{i}", f"{session}:{i}"
            turns.append(Turn(id=turn_id, namespace=ns, session=session, time=when, text=text))
            events.append(
                Event(
                    id=event_id,
                    namespace=ns,
                    text=text,
                    source_ids=[turn_id],
                    session=session,
                    speaker=SPEAKER,
                    time=when,
                    # The names as stage 1 hands them over: the global pass resolves them again.
                    participants=[
                        Participant(name=self.entities[p].name, type=self.entities[p].type)
                        for p in sorted(picks)
                        if p
                    ],
                    embedding=self.vector_near(cluster, self.event_noise).tolist(),
                    keywords=words[:3],
                )
            )
            links.append(Link(kind=LinkKind.FROM, source=event_id, target=turn_id, namespace=ns))
            # Mention props as ingest writes them (the global pass's re-derivation reads the role).
            mentions = {self.entities[0].id: {"role": "speaker", "surface": SPEAKER}}
            mentions |= {
                self.entities[p].id: {"role": "mention", "surface": self.entities[p].name} for p in picks if p
            }
            links += [
                Link(kind=LinkKind.MENTIONS, source=event_id, target=target, namespace=ns, props=props)
                for target, props in mentions.items()
            ]
            links.append(Link(kind=LinkKind.IN_TOPIC, source=event_id, target=f"tp-{cluster}", namespace=ns))
            links.append(
                Link(kind=LinkKind.ON, source=event_id, target=when.date().isoformat(), namespace=ns)
            )
            if session in self.session_tail:
                links.append(
                    Link(
                        kind=LinkKind.NEXT,
                        source=self.session_tail[session],
                        target=event_id,
                        namespace=ns,
                        props={"scope": f"session:{session}"},
                    )
                )
            self.session_tail[session] = event_id
        topics = [
            Topic(
                id=f"tp-{c}",
                namespace=ns,
                label=f"topic {c}",
                keywords=[],
                centroid=self.centres[c].tolist(),
                size=1,
            )
            for c in {int(lk.target[3:]) for lk in links if lk.kind is LinkKind.IN_TOPIC}
        ]
        return turns, events, new_entities, topics, links


def write_batch(store: GraphStore, batch) -> None:
    turns, events, entities, topics, links = batch
    # The synthetic history arrives with its graph, as an import does: its turns are not pending.
    # (Logged pending, the pipeline mode's first `add_many` compressed every synthetic turn too,
    # which made ingest look O(store).)
    store.add_turns(turns, pending=False)
    if events or entities or topics or links:
        namespace = (events or entities or topics or links)[0].namespace
        store.apply_delta(
            GraphDelta(namespace=namespace, events=events, entities=entities, topics=topics, links=links)
        )


def open_store(kind: str, path: str, namespace: str) -> GraphStore:
    if kind == "embedded":
        from simplemem_graph.stores.embedded import EmbeddedStore

        return EmbeddedStore(path)
    from simplemem_graph.stores.neo4j import Neo4jStore
    from tests import neo4j_server

    return Neo4jStore.connect(path, auth=neo4j_server.configured_auth(), dimension=DIM)


def measure_searches(store: GraphStore, synth: Synthetic, vectors: np.ndarray, ids: list[str]) -> dict:
    """p50/p95 of each read the search path makes, and the exact numpy top-10 baseline."""
    ns = synth.namespace
    rng = np.random.default_rng(7)
    queries = [synth.vector_near(int(c), noise=0.5) for c in rng.integers(0, CLUSTERS, QUERIES)]
    texts = [" ".join(rng.choice(synth.words, size=6)) for _ in range(QUERIES)]
    timings: dict[str, list[float]] = {"vector": [], "exact_numpy": [], "fulltext": [], "turns": []}
    timings.update({"expand": [], "entity_events": [], "get_events": []})
    overlap = []
    for q, text in zip(queries, texts, strict=True):
        started = time.perf_counter()
        hits = store.vector_search(ns, q.tolist(), 10)
        timings["vector"].append(time.perf_counter() - started)
        started = time.perf_counter()
        exact = np.argpartition(-(vectors @ q), 10)[:10]
        timings["exact_numpy"].append(time.perf_counter() - started)
        overlap.append(len({h.id for h in hits} & {ids[j] for j in exact}) / 10)
        started = time.perf_counter()
        store.text_search(ns, TextQuery(text, 15))
        timings["fulltext"].append(time.perf_counter() - started)
        started = time.perf_counter()
        store.text_search(ns, TextQuery(text, 15, target="turns"))
        timings["turns"].append(time.perf_counter() - started)
        seeds = [h.id for h in hits[:5]]
        started = time.perf_counter()
        store.walk(
            ns,
            Walks(
                seeds,
                [
                    Walk(
                        kinds=[*EVENT_LINKS, LinkKind.MENTIONS],
                        hops=2,
                        statuses=list(DEFAULT_STATUSES),
                        limit=50,
                    )
                ],
            ),
        )[0]
        timings["expand"].append(time.perf_counter() - started)
        entity = synth.entities[int(rng.integers(1, len(synth.entities)))]
        started = time.perf_counter()
        store.events(ns, EventQuery(entity_ids=[entity.id], filter=RecallFilter()))
        timings["entity_events"].append(time.perf_counter() - started)
        started = time.perf_counter()
        store.events(ns, EventQuery(ids=[h.id for h in hits]))
        timings["get_events"].append(time.perf_counter() - started)
    result = {name: summary_ms(values) for name, values in timings.items()}
    result["vector_recall_at_10"] = statistics.mean(overlap)
    return result


_COLD = """
import sys, time, json
started = time.perf_counter()
sys.path.insert(0, {repo!r})
from bench.scale import open_store
from simplemem_graph.models import DEFAULT_STATUSES, EVENT_LINKS, LinkKind, Walk
from simplemem_graph.stores.queries import Walks
imported = time.perf_counter()
store = open_store({kind!r}, {path!r}, {ns!r})
opened = time.perf_counter()
store.vector_search({ns!r}, {vector!r}, 10)
first = time.perf_counter()
walk = Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=2, statuses=list(DEFAULT_STATUSES))
store.walk({ns!r}, Walks([{seed!r}], [walk]))
expanded = time.perf_counter()
print(json.dumps({{"import_s": imported - started, "open_s": opened - imported,
                  "first_vector_search_s": first - opened, "first_expand_s": expanded - first,
                  "open_to_first_search_s": first - imported}}))
"""

_GLOBAL = """
import sys, time, json, resource
sys.path.insert(0, {repo!r})
from datetime import datetime, UTC
from bench.scale import open_store
from simplemem_graph.config import DecayPolicy
from simplemem_graph.consolidate import consolidate_pass
store = open_store({kind!r}, {path!r}, {ns!r})
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
now = datetime(2030, 1, 1, tzinfo=UTC)
counts = consolidate_pass(store, {ns!r}, now=now, embedder=None, decay=DecayPolicy())
print(json.dumps({{"seconds": time.perf_counter() - started, "peak_rss_mb": resource.getrusage(
    resource.RUSAGE_SELF).ru_maxrss / 1024, "rss_before_mb": before / 1024, "counts": counts}}))
"""


def child(code: str, timeout: float) -> dict[str, Any]:
    try:
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:.0f} s"}
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["?"])[-1], "returncode": out.returncode}
    return json.loads(out.stdout.strip().splitlines()[-1])


def disk_bytes(path: str) -> int:
    base = Path(path)
    return sum(p.stat().st_size for p in base.parent.glob(base.name + "*") if p.is_file()) + sum(
        p.stat().st_size for p in base.parent.glob(base.name + "*/**/*") if p.is_file()
    )


def server_usage(pid: int | None, events: int) -> dict[str, Any]:
    """The Neo4j server's peak and current RSS, and its store and transaction-log bytes per event
    (found through the files the process holds open), when its pid is known (--server-pid, or the
    launcher this script or run.sh started)."""
    if pid is None or not Path(f"/proc/{pid}").exists():
        return {"error": "server pid unknown: pass --server-pid"}
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    usage: dict[str, Any] = {
        "peak_rss_mb": int(status["VmHWM"].split()[0]) / 1024,
        "rss_mb": int(status["VmRSS"].split()[0]) / 1024,
    }
    data_dir = None
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        target = os.readlink(fd) if fd.is_symlink() else ""
        if "/databases/neo4j/" in target:
            data_dir = Path(target.split("/databases/neo4j/")[0])
            break
    if data_dir is not None:
        for part in ("databases", "transactions"):
            folder = data_dir / part / "neo4j"
            size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
            usage[f"{part}_bytes_per_event"] = size / events
    return usage


def launcher_pid() -> int | None:
    """The pid of the server tests/neo4j-server/run.sh started, if it is still running."""
    pidfile = REPO / "tests" / "neo4j-server" / "target" / "neo4j.pid"
    if pidfile.is_file() and Path(f"/proc/{pidfile.read_text().strip()}").exists():
        return int(pidfile.read_text().strip())
    return None


def run_store_mode(args) -> dict[str, Any]:
    sizes = sorted(int(s) for s in args.sizes.split(","))
    workdir = Path(tempfile.mkdtemp(prefix="scale-"))
    namespace = f"scale-{uuid.uuid4().hex[:6]}"
    path = str(workdir / "scale.db") if args.store == "embedded" else args.uri
    store = open_store(args.store, path, namespace)
    synth = Synthetic(namespace, event_noise=args.event_noise)
    tokenize("warm up the tokeniser")  # jieba loads its dictionary on first use
    matrix = np.empty((sizes[-1], DIM), dtype=np.float32)  # every vector, for the numpy baseline
    ids: list[str] = []
    rows = []
    try:
        for size in sizes:
            # Up to the last `measured` events the store is filled in batches of --fill-batch (faster
            # on a server); the last ones go in ingest-sized batches of BATCH, and are what is timed.
            measured = min(size - synth.count, BATCH * 20)
            batch_times: list[float] = []
            filled, fill_s = 0, 0.0
            while synth.count < size:
                left = size - synth.count
                timed = left <= measured
                batch = synth.batch(min(BATCH, left) if timed else min(args.fill_batch, left - measured))
                started = time.perf_counter()
                write_batch(store, batch)
                elapsed = time.perf_counter() - started
                if timed:
                    batch_times.append(elapsed / len(batch[1]))
                else:
                    filled, fill_s = filled + len(batch[1]), fill_s + elapsed
                for event in batch[1]:
                    matrix[len(ids)] = event.embedding
                    ids.append(event.id)
                if not timed and synth.count % 50_000 < len(batch[1]):
                    print(f"  {synth.count} events, {filled / fill_s:.0f}/s", file=sys.stderr, flush=True)
            row: dict[str, Any] = {
                "events": size,
                "entities": len(synth.entities),
                "insert_events_per_s": 1.0 / statistics.mean(batch_times),
            }
            if filled:
                row["fill"] = {"events": filled, "batch": args.fill_batch, "events_per_s": filled / fill_s}
            if not args.global_pass_only:
                row["search"] = measure_searches(store, synth, matrix[:size], ids)
                if args.store == "embedded":
                    row["disk_bytes_per_event"] = disk_bytes(path) / size
                else:
                    row["server"] = server_usage(args.server_pid, size)
                row["cold_start"] = child(
                    _COLD.format(
                        repo=str(REPO),
                        kind=args.store,
                        path=path,
                        ns=namespace,
                        vector=matrix[0].tolist(),
                        seed=ids[len(ids) // 2],
                    ),
                    timeout=args.child_timeout,
                )
            if not args.no_global_pass and size <= args.global_pass_max:
                row["global_pass"] = child(
                    _GLOBAL.format(repo=str(REPO), kind=args.store, path=path, ns=namespace),
                    timeout=args.child_timeout,
                )
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        if args.store == "neo4j" and not args.keep_namespace:
            store.delete_namespace(namespace)
        store.close()
    return {
        "mode": "store",
        "store": args.store,
        "batch": BATCH,
        "dim": DIM,
        "event_noise": args.event_noise,
        "rows": rows,
    }


def run_pipeline_mode(args) -> dict[str, Any]:
    from simplemem_graph.embedding import SentenceTransformerEmbedder
    from simplemem_graph.memory import Memory
    from simplemem_graph.stores.embedded import EmbeddedStore

    sys.path.insert(0, str(REPO / "bench"))
    from stores import StoreTimer, load_inputs, warm_up  # the LoCoMo loaders of bench/stores.py

    turns, questions = load_inputs(args.data, args.sample, args.questions)
    turns = turns[: args.turns]
    embedder = SentenceTransformerEmbedder()
    warm_up(embedder)
    rows = []
    for size in sorted(int(s) for s in args.sizes.split(",")):
        workdir = Path(tempfile.mkdtemp(prefix="scale-pipe-"))
        path = str(workdir / "scale.db")
        namespace = "default"
        store = (
            EmbeddedStore(path) if args.store == "embedded" else open_store(args.store, args.uri, namespace)
        )
        synth = Synthetic(namespace)
        while synth.count < size:
            write_batch(store, synth.batch(min(500, size - synth.count)))
        # The real turns land in the same namespace after the synthetic history.
        shift = T0 + timedelta(minutes=37 * size + 60) - min(t.time for t in turns)
        real = [t.model_copy(update={"namespace": namespace, "time": t.time + shift}) for t in turns]
        memory = Memory(store, namespace=namespace, embedder=embedder)
        # Wall and CPU seconds (all threads of this process): on a shared machine the wall clock
        # carries the other jobs' load, the CPU time mostly the work done.
        started, cpu_started = time.perf_counter(), time.process_time()
        memory.add_many(real)
        ingest_s, ingest_cpu_s = time.perf_counter() - started, time.process_time() - cpu_started
        embed_started, cpu_started = time.perf_counter(), time.process_time()
        embedder.encode([t.text for t in real])
        embed_floor_s = time.perf_counter() - embed_started
        embed_floor_cpu_s = time.process_time() - cpu_started
        at = max(t.time for t in real) + timedelta(days=1)
        latencies, floors, calls = [], [], []
        search_store: dict[str, dict[str, float]] = {}  # method -> calls, seconds over all questions
        all_events = store.events(namespace, EventQuery(filter=RecallFilter(None)))
        matrix = np.asarray([e.embedding for e in all_events if e.embedding is not None], dtype=np.float32)
        timer = StoreTimer(store)  # after the floor's own read: only the searches' calls count
        for question in questions:
            started = time.perf_counter()
            memory.search(question, k=5, at=at)
            latencies.append(time.perf_counter() - started)
            per_method = timer.snapshot()
            calls.append(sum(int(v["calls"]) for v in per_method.values()))
            for method, spent in per_method.items():
                totals = search_store.setdefault(method, {"calls": 0, "seconds": 0.0})
                totals["calls"] += int(spent["calls"])
                totals["seconds"] += spent["seconds"]
            started = time.perf_counter()
            q = embedder.encode([question])[0]
            np.argpartition(-(matrix @ q), 10)[:10]
            floors.append(time.perf_counter() - started)
        row = {
            "events": size,
            "turns": len(real),
            "ingest_turns_per_s": len(real) / ingest_s,
            "ingest_s": ingest_s,
            "ingest_floor_s": embed_floor_s,
            "ingest_over_floor": ingest_s / embed_floor_s,
            "ingest_cpu_s": ingest_cpu_s,
            "ingest_floor_cpu_s": embed_floor_cpu_s,
            "ingest_cpu_over_floor": ingest_cpu_s / embed_floor_cpu_s,
            "ingest_turns_per_cpu_s": len(real) / ingest_cpu_s,
            "search": summary_ms(latencies),
            "floor": summary_ms(floors),
            "search_p95_over_floor_p95": percentile(latencies, 0.95) / percentile(floors, 0.95),
            "store_calls_per_search": {"mean": statistics.mean(calls), "max": max(calls)},
            "search_store_calls": dict(sorted(search_store.items(), key=lambda item: -item[1]["seconds"])),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
        if args.store == "neo4j":
            store.delete_namespace(namespace)
        store.close()
    return {"mode": "pipeline", "store": args.store, "sample": args.sample, "rows": rows}


_HAYSTACK_FLOOR = """
import json, sys, time
sys.path.insert(0, "bench")
from longmemeval import haystack_turns, pick
from simplemem_graph.embedding import make_embedder
record = pick(json.load(open({data!r})), None)[{pick}]
turns, _gold = haystack_turns(record, record["question_id"])
embedder = make_embedder({model!r})
embedder.encode([t.text for t in turns])
print(json.dumps({{"turns": len(turns)}}))
"""
_HAYSTACK_INGEST = """
import json, sys, tempfile, time
sys.path.insert(0, "bench")
from longmemeval import haystack_turns, pick
from simplemem_graph.embedding import make_embedder
from simplemem_graph.memory import Memory
from simplemem_graph.stores.embedded import EmbeddedStore
record = pick(json.load(open({data!r})), None)[{pick}]
turns, _gold = haystack_turns(record, record["question_id"])
embedder = make_embedder({model!r})
store = EmbeddedStore(tempfile.mkdtemp() + "/h.db")
memory = Memory(store, namespace=record["question_id"], embedder=embedder)
report = memory.add_many(turns)
# search on the whole haystack: the question, then the other questions of the file (more samples)
questions = [record["question"]] + [r["question"] for r in pick(json.load(open({data!r})), None)[:{searches}]]
at = haystack_turns(record, record["question_id"])[0][-1].time
search = {{"k5": [], "budget200": []}}
wall0, cpu0 = time.perf_counter(), time.process_time()
for query in questions[:{searches}]:
    for key, kwargs in (("k5", {{"k": 5}}), ("budget200", {{"budget": 200}})):
        started = time.perf_counter()
        memory.search(query, at=at, **kwargs)
        search[key].append(time.perf_counter() - started)
spent = {{"wall": time.perf_counter() - wall0, "cpu": time.process_time() - cpu0}}
print(json.dumps({{"turns": len(turns), "events": report.events, "chars": sum(len(t.text) for t in turns),
                  "search_s": search, "search_spent": spent}}))
"""


def timed_child(code: str, timeout: float) -> dict[str, Any]:
    """Run `code` in a new process: its result plus wall and CPU seconds (user + sys) of the process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = child(code, timeout)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {**result, "wall_s": time.perf_counter() - started, "cpu_s": cpu}


def run_haystack_mode(args) -> dict[str, Any]:
    """LongMemEval-S haystacks ingested whole by a new process, against the floor: a new process
    that loads the same model and embeds the same turns. Floor and ingest alternate (floor, ingest,
    floor) so both see the same machine; the ratio uses the mean of the two floors."""
    data = str(args.lme_data)
    rows = []
    for pick in range(args.haystacks):
        params = {"data": data, "pick": pick, "model": args.model, "searches": args.searches}
        floor_a = timed_child(_HAYSTACK_FLOOR.format(**params), args.child_timeout)
        ingest = timed_child(_HAYSTACK_INGEST.format(**params), args.child_timeout)
        # the searches after the ingest are timed apart: the ratio to the floor is the ingest's
        spent = ingest.get("search_spent") or {"wall": 0.0, "cpu": 0.0}
        ingest["wall_s"] -= spent["wall"]
        ingest["cpu_s"] -= spent["cpu"]
        floor_b = timed_child(_HAYSTACK_FLOOR.format(**params), args.child_timeout)
        floor_wall = (floor_a["wall_s"] + floor_b["wall_s"]) / 2
        floor_cpu = (floor_a["cpu_s"] + floor_b["cpu_s"]) / 2
        row = {
            "pick": pick,
            **{k: ingest.get(k) for k in ("turns", "events", "chars", "error")},
            "ingest_wall_s": ingest["wall_s"],
            "ingest_cpu_s": ingest["cpu_s"],
            "floor_wall_s": [floor_a["wall_s"], floor_b["wall_s"]],
            "floor_cpu_s": [floor_a["cpu_s"], floor_b["cpu_s"]],
            "wall_over_floor": ingest["wall_s"] / floor_wall,
            "cpu_over_floor": ingest["cpu_s"] / floor_cpu,
            # seconds per search on the whole haystack, k=5 and a 200-token budget: mean and max
            "search_s": {
                key: {"mean": statistics.mean(times), "max": max(times), "n": len(times)}
                for key, times in (ingest.get("search_s") or {}).items()
                if times
            },
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    ratios = [r["wall_over_floor"] for r in rows]
    return {
        "mode": "haystack",
        "store": "embedded",
        "model": args.model,
        "rows": rows,
        "wall_over_floor": {"mean": statistics.mean(ratios), "max": max(ratios), "min": min(ratios)},
        "search_s": {
            key: {
                "mean": statistics.mean(r["search_s"][key]["mean"] for r in rows),
                "max": max(r["search_s"][key]["max"] for r in rows),
            }
            for key in ("k5", "budget200")
            if all(key in r["search_s"] for r in rows)
        },
    }


def plot(out: Path, files: list[Path]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    for file in files:
        data = json.loads(file.read_text())
        if data["mode"] == "haystack":  # no store-size axis: reported as a table
            continue
        label = f"{data['store']} {data.get('label', '')}".strip()
        rows = data["rows"]
        x = [r["events"] for r in rows]
        if data["mode"] == "store" and all("search" in r for r in rows):
            axes[0].plot(x, [r["insert_events_per_s"] for r in rows], "o-", label=label)
            axes[1].plot(x, [r["search"]["vector"]["p95_ms"] for r in rows], "o-", label=f"{label} vector")
            axes[1].plot(x, [r["search"]["expand"]["p95_ms"] for r in rows], "s--", label=f"{label} expand")
            axes[1].plot(
                x, [r["search"]["exact_numpy"]["p95_ms"] for r in rows], ":", label=f"{label} numpy exact"
            )
            cold = [(r["events"], r["cold_start"].get("open_to_first_search_s")) for r in rows]
            axes[2].plot(
                *zip(*[c for c in cold if c[1] is not None], strict=True), "o-", label=f"{label} cold"
            )

        if data["mode"] == "store":  # the global pass, also from --global-pass-only runs
            passes = [(r["events"], r.get("global_pass", {}).get("seconds")) for r in rows]
            passes = [p for p in passes if p[1] is not None]
            if passes:
                axes[2].plot(*zip(*passes, strict=True), "s--", label=f"{label} global pass")
        elif data["mode"] == "pipeline":
            axes[0].plot(x, [r["ingest_turns_per_s"] for r in rows], "o-", label=f"{label} turns/s")
            if all("ingest_turns_per_cpu_s" in r for r in rows):
                per_cpu = [r["ingest_turns_per_cpu_s"] for r in rows]
                axes[0].plot(x, per_cpu, "s--", label=f"{label} turns per CPU-s")
            axes[1].plot(x, [r["search"]["p95_ms"] for r in rows], "o-", label=f"{label} search")
            axes[1].plot(x, [r["floor"]["p95_ms"] for r in rows], ":", label=f"{label} floor")
    for ax, title in zip(
        axes, ["insert (events/s or turns/s)", "read p95 (ms)", "cold start / global pass (s)"], strict=True
    ):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("events in the namespace")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["store", "pipeline", "haystack"], default="store")
    parser.add_argument("--store", choices=["embedded", "neo4j"], default="embedded")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--label", default="", help="a tag saved with the results (e.g. baseline)")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--global-pass-max", type=int, default=10**9, help="skip the pass above this size")
    parser.add_argument("--no-global-pass", action="store_true")
    parser.add_argument(
        "--global-pass-only", action="store_true", help="store mode: grow the namespace, run only the pass"
    )
    parser.add_argument(
        "--event-noise",
        type=float,
        default=0.35,
        help="spread of event vectors around their cluster: 0.35 puts cluster mates at cosine ~0.34, "
        "under the topic threshold (the pass makes one topic per event); 0.15 at ~0.74 (Louvain at work)",
    )
    parser.add_argument("--child-timeout", type=float, default=1800)
    parser.add_argument(
        "--fill-batch",
        type=int,
        default=BATCH,
        help="events per batch while filling up to each size (the last 1,000 are timed in batches of 50)",
    )
    parser.add_argument(
        "--keep-namespace", action="store_true", help="leave the data on the server (a throw-away one)"
    )
    parser.add_argument("--server-pid", type=int, default=None, help="the Neo4j server's pid (RSS, disk)")
    parser.add_argument(
        "--data", type=Path, default=REPO.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
    )
    parser.add_argument("--sample", default="conv-26")
    parser.add_argument("--turns", type=int, default=200, help="real turns ingested per size (pipeline)")
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--plot", type=Path, default=None, help="draw the given result files into this PNG")
    parser.add_argument("--haystacks", type=int, default=3, help="LongMemEval-S haystacks (haystack mode)")
    parser.add_argument(
        "--searches", type=int, default=10, help="searches timed per haystack after ingest (haystack mode)"
    )
    parser.add_argument("--model", default="all-MiniLM-L6-v2", help="embedding model (haystack mode)")
    parser.add_argument(
        "--lme-data",
        type=Path,
        default=REPO.parent / "shared" / "data" / "longmemeval" / "longmemeval_s_dev.json",
    )
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args(argv)
    if args.plot:
        plot(args.plot, args.files)
        return 0
    launcher = None
    args.uri = None
    if args.store == "neo4j":
        from tests import neo4j_server

        args.uri = neo4j_server.configured_uri()
        if args.uri is None:
            launcher = neo4j_server.start_launcher()
            args.uri = launcher.uri
        args.server_pid = args.server_pid or (launcher.process.pid if launcher else launcher_pid())
    try:
        modes = {"store": run_store_mode, "pipeline": run_pipeline_mode, "haystack": run_haystack_mode}
        result = modes[args.mode](args)
    finally:
        if launcher is not None:
            launcher.stop()
    result["label"] = args.label
    result["machine"] = {
        "cpus": os.cpu_count(),
        "python_peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    out = args.out or RESULTS / f"scale-{args.store}-{args.mode}{'-' + args.label if args.label else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
