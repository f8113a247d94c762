"""Support for the crash and concurrency tests: generated conversations, a light embedder, and the
child process that ingests (and may be killed with SIGKILL).

Run as a script, it is the child:

    python tests/durability_support.py --store S --namespace NS --file turns.jsonl [--kill-in-delta N]

It prints READY once its models are loaded, then ingests the file with `Memory.add_many`. With
`--kill-in-delta N` it SIGKILLs itself in the middle of the N-th `apply_delta` transaction, after
some of its statements ran and before it commits: the crash lands inside consolidation.

With `--global-pass` it runs `Memory.consolidate` (the global pass, at GLOBAL_PASS_AT) instead of
ingesting, and prints {"writes": [...], "counts": ...}: the store write calls the pass made, in
order, by method name (each one transaction). With `--kill-after-write N` it SIGKILLs itself
right after the N-th write call returned (committed): the crash lands between two transactions.

The embedder is feature hashing (tokens -> 384 buckets): deterministic, loads in no time, and
gives real vectors with real overlaps. What these tests check (nothing lost, the same graph) does
not depend on retrieval quality, and 40 process starts with the transformer would take minutes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import signal
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from simplemem_graph.stores.queries import EntityQuery, EventQuery, RecallFilter, TopicQuery, TurnQuery

ROOT = Path(__file__).resolve().parents[1]
READY = "READY"
GLOBAL_PASS_AT = datetime(2027, 1, 1, tzinfo=UTC)
# Every GraphStore method that writes the graph or its meta, one transaction per call: the contract
# has one writer.
GRAPH_WRITES = ("apply_delta",)


class HashEmbedder:
    """Bag of tokens hashed into `dimension` signed buckets, L2-normalised."""

    name = "feature-hashing-384"

    def __init__(self, dimension: int = 384):
        self.dimension = dimension

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        from simplemem_graph.text import tokenize

        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in tokenize(text):
                digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
                bucket = int.from_bytes(digest[:4], "little") % self.dimension
                out[row, bucket] += 1.0 if digest[4] & 1 else -1.0
            norm = np.linalg.norm(out[row])
            out[row] = out[row] / norm if norm else out[row]
            if not norm:
                out[row, 0] = 1.0
        return out



class RecordingEmbedder(HashEmbedder):
    """HashEmbedder that remembers every text it was asked to encode (in `seen`)."""

    def __init__(self):
        super().__init__()
        self.seen: list[str] = []

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.seen.extend(texts)
        return super().encode(texts)

# ---- generated conversations ------------------------------------------------------------------------
_SYLLABLES = ["ka", "lo", "mi", "ren", "sa", "tor", "vi", "del", "no", "bra", "quin", "zu", "fe", "ha"]
_ORG_SUFFIX = ["Ltd", "Group", "Labs", "Systems", "Trading"]
_ZH_SURNAMES = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张"
_ZH_GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚桂"


def _word(rng: random.Random, parts: int = 2) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(parts)).capitalize()


def generated_sessions(seed: int, *, sessions: int, turns_per_session: int) -> list[list[dict]]:
    """Sessions of a two-person conversation about a few made-up people and companies (random
    names, dates and amounts, English and Chinese); the same entities recur across sessions."""
    rng = random.Random(seed)
    people = [f"{_word(rng)} {_word(rng)}" for _ in range(4)]
    orgs = [f"{_word(rng, 3)} {rng.choice(_ORG_SUFFIX)}" for _ in range(3)]
    zh_people = [rng.choice(_ZH_SURNAMES) + rng.choice(_ZH_GIVEN) for _ in range(2)]
    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC) + timedelta(days=rng.randrange(200))
    templates = [
        lambda d: f"{rng.choice(people)} from {rng.choice(orgs)} quoted {rng.randrange(2, 90)} USD per unit",
        lambda d: f"We meet {rng.choice(people)} on {(d + timedelta(days=rng.randrange(1, 20))).date()}",
        lambda d: (
            f"{rng.choice(orgs)} will not ship before "
            f"{(d + timedelta(days=rng.randrange(3, 30))).date()}" + "."
        ),
        lambda d: f"If {rng.choice(orgs)} pays {rng.randrange(1, 50) * 1000} USD we start the project",
        lambda d: f"{rng.choice(zh_people)}说{rng.choice(orgs)}下周二之前要{rng.randrange(10, 99)}台样机",
        lambda d: f"{rng.choice(people)} moved to {rng.choice(orgs)} last month",
        lambda d: "ok, sounds good",
        lambda d: f"{rng.choice(zh_people)}的报价是{rng.randrange(2, 60)}万元",
    ]
    result = []
    for s in range(sessions):
        begin = start + timedelta(days=7 * s)
        turns = []
        for i in range(turns_per_session):
            when = begin + timedelta(minutes=3 * i)
            turns.append(
                {
                    "id": f"s{seed}-{s}:{i + 1}",
                    "session": f"s{seed}-{s}",
                    "time": when.isoformat(),
                    "speaker": ("Ana", "Bo")[i % 2],
                    "text": rng.choice(templates)(when),
                }
            )
        result.append(turns)
    return result


def write_jsonl(path: Path, turns: Sequence[dict]) -> Path:
    path.write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in turns), encoding="utf-8")
    return path


# ---- snapshots ----------------------------------------------------------------------------------------
def snapshot(store, namespace: str) -> dict[str, object]:
    """What the memory holds, comparable across runs: ids of turns, events and entities, every link."""
    return {
        "turns": sorted(t.id for t in store.turns(namespace, TurnQuery())),
        "pending": sorted(t.id for t in store.turns(namespace, TurnQuery(pending=True))),
        "events": sorted((e.id, e.text, e.status) for e in store.events(namespace, EventQuery())),
        "entities": sorted((e.id, e.name) for e in store.entities(namespace, EntityQuery())),
        "links": sorted((lk.kind.value, lk.source, lk.target) for lk in store.links(namespace)),
    }


def whole_graph(store, namespace: str) -> dict[str, object]:
    """Everything the global pass writes, comparable across runs: every event of any status with
    the fields the pass changes (sources, accesses, tier, status, valid_to, open questions),
    entities with types and aliases, every link with its properties, topics, patterns, and the
    tier pass the store's meta records."""
    return {
        "events": sorted(
            (
                e.id,
                e.text,
                e.status,
                e.tier,
                e.access_count,
                str(e.last_accessed),
                tuple(e.source_ids),
                str(e.valid_to),
                tuple(e.open_slots),
            )
            for e in store.events(namespace, EventQuery(filter=RecallFilter(None)))
        ),
        "entities": sorted(
            (e.id, e.name, e.type, tuple(sorted(e.aliases))) for e in store.entities(namespace, EntityQuery())
        ),
        "links": sorted(
            (lk.kind.value, lk.source, lk.target, json.dumps(lk.props, sort_keys=True, default=str))
            for lk in store.links(namespace)
        ),
        "topics": sorted(
            (t.id, t.label, tuple(t.keywords), t.size)
            for t in store.topics(namespace, TopicQuery(centroids=False))
        ),
        "patterns": sorted(p.model_dump_json() for p in store.patterns(namespace)),
        "tier_pass": store.get_meta(f"tier_pass/{namespace}"),
    }


# ---- the child ------------------------------------------------------------------------------------------
def child_command(store: str, namespace: str, file: Path, *extra: str) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--store", store, "--namespace", namespace,
            "--file", str(file), *extra]  # fmt: skip


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def _kill_inside_delta(store, nth: int) -> None:
    """Make the nth apply_delta SIGKILL this process after its link statements ran, before commit."""
    calls = {"apply_delta": 0}
    original_apply = store.apply_delta
    inner_name = "_write_links" if store.kind == "embedded" else "_add_links_in"
    original_inner = getattr(store, inner_name)

    def apply_delta(delta):
        calls["apply_delta"] += 1
        return original_apply(delta)

    def inner(*args, **kwargs):
        result = original_inner(*args, **kwargs)
        if calls["apply_delta"] == nth:
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    store.apply_delta = apply_delta
    setattr(store, inner_name, inner)


def _count_writes(store, kill_after: int) -> list[str]:
    """Record the store's write calls (method names, in order); SIGKILL this process right after
    the `kill_after`-th returns (0: never). Returns the live record."""
    calls: list[str] = []

    def counted(name, original):
        def write(*args, **kwargs):
            result = original(*args, **kwargs)
            calls.append(name)
            if len(calls) == kill_after:
                os.kill(os.getpid(), signal.SIGKILL)
            return result

        return write

    for name in GRAPH_WRITES:
        setattr(store, name, counted(name, getattr(store, name)))
    return calls


def main(argv: Sequence[str] | None = None) -> None:
    sys.path.insert(0, str(ROOT))
    from simplemem_graph.compress import compress
    from simplemem_graph.loaders import load_turns
    from simplemem_graph.memory import Memory, open_store
    from simplemem_graph.models import Turn

    parser = argparse.ArgumentParser()
    parser.add_argument("--store", required=True)
    parser.add_argument("--namespace", required=True)
    parser.add_argument("--file", required=True, type=Path)
    parser.add_argument("--kill-in-delta", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--agent", default=None)
    parser.add_argument("--global-pass", action="store_true")
    parser.add_argument("--kill-after-write", type=int, default=0)
    args = parser.parse_args(argv)

    store = open_store(args.store)
    memory = Memory(store, namespace=args.namespace, embedder=HashEmbedder(), agent=args.agent)
    turns = load_turns(args.file, fmt="jsonl", namespace=args.namespace)
    # Load the English pipeline before READY, without writing anything.
    compress([Turn(id="w", session="w", time=datetime.now(UTC), text="Warm up the English pipeline.")])
    if args.kill_in_delta:
        _kill_inside_delta(store, args.kill_in_delta)
    writes = _count_writes(store, args.kill_after_write)
    print(READY, flush=True)
    if args.global_pass:
        counts = memory.consolidate(now=GLOBAL_PASS_AT)
        print(json.dumps({"writes": writes, "counts": counts}), flush=True)
        store.close()
        return
    report = memory.add_many(turns, batch_size=args.batch_size)
    print(json.dumps(report.as_dict()), flush=True)
    store.close()


if __name__ == "__main__":
    main()
