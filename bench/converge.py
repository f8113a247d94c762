"""Do N concurrent writers leave the graph one writer leaves? One LoCoMo conversation, the default
real embedder, ingested twice into one store kind:

- `concurrent`: N writer processes at once, writer i taking sessions i, i+N, i+2N... (each its own
  file, its own agent), into one namespace;
- `single`: one writer, the same N files one after another (`--single files`, the default: the
  same batches, consolidated in another order), or every turn in time order (`--single time`:
  other batches too, which stage 1 may compress differently);

then the global pass on each, and a diff of everything the graph holds, by stable keys: turns,
events (id, text, status, valid_to, open questions), entities (id, name, type, aliases), every
link kind (source, target, and the link's properties), and topics both as groups of events and by
id. A kind is `same` when
its key sets and properties are identical; the counts and the first few differing keys are listed.

    python bench/converge.py [--store embedded|neo4j] [--sample conv-26] [--writers 4]
                             [--turns N] [--batch-size 16] [--single files|time]
                             [--json] [--keep DIR]

Neo4j: NEO4J_URI (the two runs write one namespace in turn, deleted after each: ids depend on the
namespace). `--turns N` keeps the first N turns of the conversation (a quicker, smaller run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from simplemem_graph.models import GraphDelta
from simplemem_graph.stores.queries import EntityQuery, EventQuery, TurnQuery

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
GLOBAL_PASS_AT = datetime(2027, 1, 1, tzinfo=UTC)
SHOWN = 5  # differing keys listed per kind


def conversation(path: Path, sample: str, turns: int | None):
    from simplemem_graph.loaders import load_locomo

    loaded = load_locomo(path, sample=sample)[sample]
    return loaded[:turns] if turns else loaded


def write_files(turns, writers: int, folder: Path) -> list[Path]:
    """Writer i's file: sessions i, i+N, ... (in time order), as the concurrency test splits them."""
    sessions = list(dict.fromkeys(t.session for t in turns))
    files = []
    for i in range(writers):
        mine = set(sessions[i::writers])
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"writer{i}.jsonl"
        rows = [
            {
                "id": t.id,
                "session": t.session,
                "speaker": t.speaker,
                "time": t.time.isoformat(),
                "text": t.text,
                "agent": f"agent-{i}",
            }
            for t in turns
            if t.session in mine
        ]
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        files.append(path)
    return files


def child(store: str, namespace: str, files: list[str], batch_size: int) -> None:
    """Ingest the files, one after another, into the namespace (a writer process)."""
    from simplemem_graph.loaders import load_turns
    from simplemem_graph.memory import Memory, open_store

    memory = Memory(open_store(store), namespace=namespace)
    try:
        for file in files:
            memory.add_many(load_turns(file, fmt="jsonl", namespace=namespace), batch_size=batch_size)
    finally:
        memory.close()


def run_writers(store: str, namespace: str, groups: list[list[Path]], batch_size: int) -> float:
    """One process per group of files, all at once; the seconds until the last one is done."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    started = time.perf_counter()
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                str(Path(__file__).resolve()),
                "--batch-size",
                str(batch_size),
                "--child",
                store,
                namespace,
                *map(str, files),
            ],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for files in groups
    ]
    failures = []
    for process in processes:
        _, stderr = process.communicate()
        if process.returncode != 0:
            failures.append(stderr[-3000:])
    if failures:
        raise SystemExit("a writer failed:\n" + "\n".join(failures))
    return time.perf_counter() - started


def record_model(uri: str) -> dict[str, str | None]:
    """Make a shared Neo4j server record the default model (a store holds one model's vectors, and
    tests on the same server embed with others); returns what it recorded before, to restore."""
    from simplemem_graph.embedding import DIMENSION_KEY, MODEL_KEY, make_embedder
    from simplemem_graph.memory import open_store

    embedder = make_embedder()
    store = open_store(uri)
    try:
        before = {key: store.get_meta(key) for key in (MODEL_KEY, DIMENSION_KEY)}
        store.apply_delta(GraphDelta(meta={MODEL_KEY: embedder.name}))
        store.apply_delta(GraphDelta(meta={DIMENSION_KEY: str(embedder.dimension)}))
        return before
    finally:
        store.close()


def drop(uri: str, namespace: str, restore: dict[str, str | None] | None = None) -> None:
    """Delete the namespace (and put back the model the server recorded before, when given)."""
    from simplemem_graph.memory import open_store

    store = open_store(uri)
    try:
        store.delete_namespace(namespace)
        for key, value in (restore or {}).items():
            store.apply_delta(
                GraphDelta(deleted_meta=[key]) if value is None else GraphDelta(meta={key: value})
            )
    finally:
        store.close()


def global_pass(store: str, namespace: str) -> dict[str, int]:
    from simplemem_graph.memory import Memory, open_store

    memory = Memory(open_store(store), namespace=namespace)
    try:
        return memory.consolidate(now=GLOBAL_PASS_AT)
    finally:
        memory.close()


def graph(store_uri: str, namespace: str) -> dict[str, dict]:
    """Everything the namespace holds, by kind: stable key -> comparable value."""
    from simplemem_graph.memory import open_store

    store = open_store(store_uri)
    try:
        parts: dict[str, dict] = {
            "turns": {t.id: (t.session, t.speaker, t.text) for t in store.turns(namespace, TurnQuery())},
            "pending": {t.id: () for t in store.turns(namespace, TurnQuery(pending=True))},
            "events": {
                e.id: (e.text, str(e.status), str(e.valid_to), tuple(e.open_slots))
                for e in store.events(namespace, EventQuery(embeddings=False))
            },
            "entities": {
                e.id: (e.name, e.type, tuple(sorted(e.aliases)))
                for e in store.entities(namespace, EntityQuery())
            },
        }
        members: dict[str, set[str]] = defaultdict(set)
        for link in store.links(namespace):
            props = json.dumps(link.props, sort_keys=True, default=str)
            parts.setdefault(link.kind.value, {})[(link.source, link.target)] = props
            if link.kind.value == "IN_TOPIC":
                members[link.target].add(link.source)
        parts["topic groups"] = {tuple(sorted(group)): () for group in members.values()}
        return parts
    finally:
        store.close()


def diff(single: dict[str, dict], concurrent: dict[str, dict]) -> dict[str, dict]:
    report = {}
    for kind in sorted(set(single) | set(concurrent)):
        a, b = single.get(kind, {}), concurrent.get(kind, {})
        only_single = sorted(set(a) - set(b), key=str)
        only_concurrent = sorted(set(b) - set(a), key=str)
        changed = sorted((k for k in set(a) & set(b) if a[k] != b[k]), key=str)
        report[kind] = {
            "single": len(a),
            "concurrent": len(b),
            "only_single": len(only_single),
            "only_concurrent": len(only_concurrent),
            "different_value": len(changed),
            "same": not (only_single or only_concurrent or changed),
            "examples": {
                "only_single": [str(k) for k in only_single[:SHOWN]],
                "only_concurrent": [str(k) for k in only_concurrent[:SHOWN]],
                "different_value": [f"{k}: {a[k]} | {b[k]}" for k in changed[:SHOWN]],
            },
        }
    return report


def named(report: dict[str, dict], entities: dict) -> None:
    """Entity ids in the examples, followed by their names (readable at a glance)."""
    for row in report.values():
        for key, examples in row["examples"].items():
            out = []
            for example in examples:
                for entity_id, value in entities.items():
                    if entity_id in example:
                        example = example.replace(entity_id, f"{entity_id}<{value[0]}>")
                out.append(example)
            row["examples"][key] = out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=["embedded", "neo4j"], default="embedded")
    parser.add_argument("--data", type=Path, default=LOCOMO)
    parser.add_argument("--sample", default="conv-26")
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--turns", type=int, default=None)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument(
        "--single",
        choices=["files", "time"],
        default="files",
        help="one writer ingests the writers' files one after another (default) or all turns in time order",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", type=Path, help="write the embedded stores here and keep them")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        store, namespace, *files = args.child
        child(store, namespace, files, args.batch_size)
        return {}
    if args.writers < 2:
        parser.error("--writers: at least 2")

    turns = conversation(args.data, args.sample, args.turns)
    namespace = f"converge-{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        files = write_files(turns, args.writers, folder)
        if args.store == "neo4j":
            # One server: the two runs use one namespace in turn (ids depend on the namespace).
            uri = os.environ.get("NEO4J_URI") or parser.error("--store neo4j needs NEO4J_URI")
            uris = {"single": uri, "concurrent": uri}
            restore = record_model(uri)
        else:
            uris = {run: str(folder / f"{run}.db") for run in ("single", "concurrent")}
        if args.single == "time":  # every turn in time order: other batches than the writers'
            groups = {"single": [write_files(turns, 1, folder / "time-order")[0]]}
        else:  # the writers' files one after another: the same batches, consolidated in another order
            groups = {"single": [files]}
        groups["concurrent"] = [[f] for f in files]
        seconds, before, passes, graphs = {}, {}, {}, {}
        try:
            for run in ("single", "concurrent"):
                seconds[run] = run_writers(uris[run], namespace, groups[run], args.batch_size)
                before[run] = graph(uris[run], namespace)
                passes[run] = global_pass(uris[run], namespace)
                graphs[run] = graph(uris[run], namespace)
                if args.store == "neo4j":
                    drop(uri, namespace)
        finally:
            if args.store == "neo4j":
                drop(uri, namespace, restore)
    report = diff(graphs["single"], graphs["concurrent"])
    ingest_report = diff(before["single"], before["concurrent"])
    named(report, {**graphs["single"]["entities"], **graphs["concurrent"]["entities"]})
    result = {
        "store": args.store,
        "sample": args.sample,
        "turns": len(turns),
        "writers": args.writers,
        "batch_size": args.batch_size,
        "single_writer": args.single,
        "seconds": {k: round(v, 1) for k, v in seconds.items()},  # ingest, writers at once
        "converged": all(row["same"] for row in report.values()),
        "kinds": report,
        "before_global_pass": ingest_report,
        "global_pass": passes,
    }
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(f"{args.sample}: {len(turns)} turns, 1 writer vs {args.writers} writers, {args.store} store")
        print(f"{'kind':<16}{'1 writer':>10}{'N writers':>11}{'only 1':>8}{'only N':>8}{'changed':>9}")
        for kind, row in report.items():
            print(
                f"{kind:<16}{row['single']:>10}{row['concurrent']:>11}{row['only_single']:>8}"
                f"{row['only_concurrent']:>8}{row['different_value']:>9}"
            )
        print("converged" if result["converged"] else "DIVERGED")
        differing = [k for k, row in ingest_report.items() if not row["same"]]
        print(f"before the global pass, differing: {', '.join(differing) or 'nothing'}")
    return result


if __name__ == "__main__":
    main()
