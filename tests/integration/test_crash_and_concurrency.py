"""Nothing lost: kill -9 at random points, several writers at once, on both stores (real processes).

- Crash: an ingest is killed with SIGKILL 20 times (half inside an `apply_delta` transaction, half
  at a random moment), restarted each time, then run to the end; the memory must hold exactly what
  one uninterrupted run holds: the same turns, events (ids, texts, statuses), entities and links.
- Crash in maintenance: the global pass over an ingested, retrieved-from memory is killed after
  each of its write transactions in turn, inside each of them before the commit, and at random
  moments, restarted each time, then run to the end; the graph must be the one an uninterrupted
  pass leaves: every event field the pass changes, entities, every link kind with properties,
  topics, patterns and the tier record. A step that wrote in two transactions would leave a
  half-applied step that the next pass applies again (a merge adds a copy's accesses twice).
- Concurrency: 4 processes (200 turns each) ingest their own sessions of one conversation (the same people and
  companies recur) into one namespace at once, while searches run; the memory must hold what one
  writer ingesting the same files one after another holds.

The children use `HashEmbedder` (see tests/durability_support.py): the stores, the queue and the
graph are real; only the embedding model is a light one, so 40 process starts take seconds.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from simplemem_graph.consolidate.global_pass import tier_pass_key
from simplemem_graph.memory import Memory, open_store
from simplemem_graph.models import GraphDelta, LinkKind
from simplemem_graph.stores.queries import EntityQuery, EventQuery, TurnQuery
from tests.durability_support import (
    GLOBAL_PASS_AT,
    READY,
    HashEmbedder,
    child_command,
    child_env,
    generated_sessions,
    snapshot,
    whole_graph,
    write_jsonl,
)

CRASH_POINTS = 20
BATCH = "4"  # turns per batch: 45 batches in the crash test's file, more than 20 kills can finish
CHILD_TIMEOUT_S = 600


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def store_uri(request, tmp_path):
    """A store URI of each kind; `fresh()` gives an empty place to write (a new file, or a new
    namespace name on the one Neo4j server) and the test deletes what it wrote."""
    if request.param == "embedded":
        return lambda name: str(tmp_path / f"{name}.db")
    uri = request.getfixturevalue("neo4j_uri")
    return lambda name: uri


def _run_to_end(command: list[str]) -> str:
    done = subprocess.run(command, env=child_env(), capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    assert done.returncode == 0, f"child failed ({done.returncode}):\n{done.stderr[-3000:]}"
    return done.stdout


def _run_and_kill(command: list[str], after_ready_s: float | None) -> int:
    """Start the child, wait until its models are loaded, let it work, then SIGKILL it (None: it
    kills itself, see --kill-in-delta)."""
    child = subprocess.Popen(
        command, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = child.stdout.readline()
        assert line.strip() == READY, f"child did not start: {line!r} {child.stderr.read()[-3000:]}"
        if after_ready_s is not None:
            time.sleep(after_ready_s)
            if child.poll() is None:
                child.send_signal(signal.SIGKILL)
        return child.wait(timeout=CHILD_TIMEOUT_S)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
        child.stderr.close()


def _snapshot(uri: str, namespace: str) -> dict[str, object]:
    store = open_store(uri)
    try:
        return snapshot(store, namespace)
    finally:
        store.close()


def _drop(uri: str, namespace: str) -> None:
    store = open_store(uri)
    try:
        store.delete_namespace(namespace)
        store.apply_delta(
            GraphDelta(deleted_meta=[tier_pass_key(namespace)])
        )  # the pass's record is meta, as forget(everything) knows
    finally:
        store.close()


def _after_global_pass(uri: str, namespace: str) -> dict[str, object]:
    """Run the global pass, then: the snapshot, with every entity's type and aliases, every event's
    status, valid_to and open questions, and every link's properties."""
    memory = Memory(open_store(uri), namespace=namespace, embedder=HashEmbedder())
    try:
        memory.consolidate(now=datetime(2027, 1, 1, tzinfo=UTC))
        store = memory.store
        return {
            **snapshot(store, namespace),
            "entities": sorted(
                (e.id, e.name, e.type, tuple(sorted(e.aliases)))
                for e in store.entities(namespace, EntityQuery())
            ),
            "events": sorted(
                (e.id, e.text, e.status, str(e.valid_to), tuple(e.open_slots))
                for e in store.events(namespace, EventQuery())
            ),
            "links": sorted(
                (lk.kind.value, lk.source, lk.target, json.dumps(lk.props, sort_keys=True, default=str))
                for lk in store.links(namespace)
            ),
        }
    finally:
        memory.close()


@pytest.mark.timeout(1800)
def test_kill_minus_9_at_20_points_then_rerun_holds_what_one_uninterrupted_run_holds(store_uri, tmp_path):
    sessions = generated_sessions(7, sessions=6, turns_per_session=30)
    file = write_jsonl(tmp_path / "turns.jsonl", [turn for session in sessions for turn in session])
    namespace = f"crash-{uuid.uuid4().hex[:8]}"
    reference_uri, crashed_uri = store_uri("reference"), store_uri("crashed")

    _run_to_end(child_command(reference_uri, namespace, file, "--batch-size", BATCH))
    expected = _snapshot(reference_uri, namespace)
    assert expected["pending"] == [] and len(expected["turns"]) == 180 and expected["events"]
    if reference_uri == crashed_uri:  # one Neo4j server: the same namespace again, emptied first
        _drop(reference_uri, namespace)

    rng = random.Random(20261203)
    kills, inside = 0, 0
    for attempt in range(3 * CRASH_POINTS):
        if kills == CRASH_POINTS:
            break
        if attempt % 2 == 0:  # inside consolidation: SIGKILL mid-transaction, before the commit
            nth = rng.randint(1, 2)
            command = child_command(
                crashed_uri, namespace, file, "--batch-size", BATCH, "--kill-in-delta", str(nth)
            )
            code = _run_and_kill(command, after_ready_s=None)
            inside += code == -signal.SIGKILL
        else:  # anywhere: logging a batch, compressing, reading context, committing...
            command = child_command(crashed_uri, namespace, file, "--batch-size", BATCH)
            code = _run_and_kill(command, after_ready_s=rng.uniform(0.0, 1.0))
        assert code in (0, -signal.SIGKILL), code
        if code == 0:
            break  # the ingest finished before this kill: nothing left to interrupt
        kills += 1
    # The file is long enough that every crash point interrupts real work.
    assert kills == CRASH_POINTS and inside >= CRASH_POINTS // 3, (kills, inside)
    _run_to_end(child_command(crashed_uri, namespace, file, "--batch-size", BATCH))
    final = _snapshot(crashed_uri, namespace)
    try:
        for part in ("turns", "pending", "entities", "events", "links"):
            assert final[part] == expected[part], part
    finally:
        _drop(crashed_uri, namespace)
        if reference_uri != crashed_uri:
            _drop(reference_uri, namespace)


def _ingest_and_retrieve(uri: str, namespace: str, file) -> None:
    """The memory the global pass runs on: the file ingested, then every event retrieved once (at
    a fixed time), so merged copies carry accesses the merge must add exactly once."""
    _run_to_end(child_command(uri, namespace, file, "--batch-size", BATCH))
    store = open_store(uri)
    try:
        store.apply_delta(
            GraphDelta(
                namespace=namespace,
                touched=[e.id for e in store.events(namespace, EventQuery())],
                touched_at=GLOBAL_PASS_AT,
            )
        )
    finally:
        store.close()


def _global_pass_graph(uri: str, namespace: str) -> dict[str, object]:
    store = open_store(uri)
    try:
        return whole_graph(store, namespace)
    finally:
        store.close()


def _global_pass(uri: str, namespace: str, file, *extra: str, after_ready_s: float | None = None) -> int:
    """Run the global pass in a child; with `extra` kill flags or `after_ready_s` it is killed."""
    command = child_command(uri, namespace, file, "--global-pass", *extra)
    if not extra and after_ready_s is None:
        _run_to_end(command)
        return 0
    return _run_and_kill(command, after_ready_s=after_ready_s)


@pytest.mark.timeout(2400)
def test_kill_minus_9_during_the_global_pass_then_a_full_pass_gives_the_uninterrupted_graph(
    store_uri, tmp_path
):
    sessions = generated_sessions(7, sessions=6, turns_per_session=30)
    file = write_jsonl(tmp_path / "turns.jsonl", [turn for session in sessions for turn in session])
    namespace = f"gpcrash-{uuid.uuid4().hex[:8]}"
    reference_uri = store_uri("reference")
    _ingest_and_retrieve(reference_uri, namespace, file)
    before = _global_pass_graph(reference_uri, namespace)
    if reference_uri != store_uri("crashed"):  # embedded: keep the memory before the pass
        shutil.copyfile(reference_uri, tmp_path / "before.db")
        shutil.copytree(reference_uri + ".vectors", tmp_path / "before.db.vectors")

    def memory_before_the_pass(name: str) -> str:
        """A store holding `before`: a copy of the file, or on Neo4j the namespace built again."""
        uri = store_uri(name)
        if uri == reference_uri:
            _drop(uri, namespace)
            _ingest_and_retrieve(uri, namespace, file)
        else:
            shutil.copyfile(tmp_path / "before.db", uri)
            shutil.copytree(tmp_path / "before.db.vectors", uri + ".vectors")
        assert _global_pass_graph(uri, namespace) == before
        return uri

    done = json.loads(
        _run_to_end(child_command(reference_uri, namespace, file, "--global-pass")).splitlines()[-1]
    )
    expected = _global_pass_graph(reference_uri, namespace)
    writes = done["writes"]  # the pass's write calls, in order
    # The pass has work to do on this memory: copies to merge (with accesses), topics, patterns.
    assert done["counts"]["duplicates_merged"] > 0 and done["counts"]["topics"] > 0, done["counts"]
    assert expected["events"] != before["events"] and expected["patterns"]
    try:
        # Every transaction of the pass in order: killed inside it before its commit (nothing of
        # it may stay), then right after its commit (all of it must). The restart runs the pass
        # from the start each time, so transaction n is first really applied in the run killed
        # in it: a step whose writes were split would be left half-applied there.
        uri = memory_before_the_pass("crashed")
        deltas = 0
        for n, write in enumerate(writes, start=1):
            if write == "apply_delta":  # the hook fires inside the delta, after its links
                deltas += 1
                code = _global_pass(uri, namespace, file, "--kill-in-delta", str(deltas))
                assert code == -signal.SIGKILL, (n, write, code)
            if n < len(writes):
                code = _global_pass(uri, namespace, file, "--kill-after-write", str(n))
                assert code == -signal.SIGKILL, (n, write, code)
        _global_pass(uri, namespace, file)
        final = _global_pass_graph(uri, namespace)
        for part in expected:
            assert final[part] == expected[part], f"killed at each transaction: {part}"

        # Anywhere: reading, computing, writing.
        uri = memory_before_the_pass("crashed-randomly")
        rng = random.Random(20261205)
        for _ in range(6):
            code = _global_pass(uri, namespace, file, after_ready_s=rng.uniform(0.0, 1.5))
            assert code in (0, -signal.SIGKILL), code
        _global_pass(uri, namespace, file)
        final = _global_pass_graph(uri, namespace)
        for part in expected:
            assert final[part] == expected[part], f"killed at random: {part}"
    finally:
        _drop(reference_uri, namespace)
        for name in ("crashed", "crashed-randomly"):
            if store_uri(name) != reference_uri and Path(store_uri(name)).exists():
                _drop(store_uri(name), namespace)


@pytest.mark.timeout(1800)
def test_four_writers_at_once_build_the_graph_one_writer_builds(store_uri, tmp_path):
    sessions = generated_sessions(11, sessions=16, turns_per_session=50)  # 4 writers x 200 turns
    files = [
        write_jsonl(tmp_path / f"agent{i}.jsonl", [t for s in sessions[i::4] for t in s]) for i in range(4)
    ]
    namespace = f"writers-{uuid.uuid4().hex[:8]}"
    single_uri, shared_uri = store_uri("single"), store_uri("shared")

    for file in files:  # one writer, the files one after another
        _run_to_end(child_command(single_uri, namespace, file))
    expected = _snapshot(single_uri, namespace)
    expected_after = _after_global_pass(single_uri, namespace)
    if single_uri == shared_uri:
        _drop(single_uri, namespace)

    # Four writers at once, and a reader searching the namespace the whole time.
    errors: list[BaseException] = []
    stop = threading.Event()

    def search_throughout() -> None:
        memory = Memory(open_store(shared_uri), namespace=namespace, embedder=HashEmbedder())
        try:
            while not stop.is_set():
                memory.search("what did they quote?")
                memory.stats()
        except BaseException as e:  # reported by the test below
            errors.append(e)
        finally:
            memory.close()

    reader = threading.Thread(target=search_throughout)
    reader.start()
    writers = [
        subprocess.Popen(
            child_command(shared_uri, namespace, file, "--agent", f"agent-{i}"),
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, file in enumerate(files)
    ]
    try:
        outcomes = [(w.wait(timeout=CHILD_TIMEOUT_S), w.stderr.read()[-3000:]) for w in writers]
    finally:
        stop.set()
        reader.join(timeout=120)
        for w in writers:
            w.stdout.close()
            w.stderr.close()
    try:
        assert all(code == 0 for code, _ in outcomes), outcomes
        assert not errors, errors
        got = _snapshot(shared_uri, namespace)
        assert got["pending"] == []
        assert got["turns"] == expected["turns"]  # no turn lost
        assert got["entities"] == expected["entities"]  # no duplicate, none missing
        # The same events (ids, texts), provenance and day links, whatever order batches arrived in.
        # (Statuses, SUPERSEDES and CONTRADICTS between events that arrive out of time order are
        # re-derived by the global pass, below.)
        assert [e[:2] for e in got["events"]] == [e[:2] for e in expected["events"]]
        for kind in (LinkKind.FROM, LinkKind.ON):
            links = [lk for lk in got["links"] if lk[0] == kind.value]
            assert links == [lk for lk in expected["links"] if lk[0] == kind.value], kind
        # After the next global pass: the same graph, link for link, in every kind, properties
        # included (entities and aliases re-resolved in time order, MENTIONS with implied subjects,
        # NEXT chains by event time, SUPERSEDES / CONTRADICTS and statuses, topics named after their
        # oldest member, CAUSES, employers, days...).
        after = _after_global_pass(shared_uri, namespace)
        assert after["entities"] == expected_after["entities"]
        assert after["events"] == expected_after["events"]
        kinds = {lk[0] for lk in after["links"]} | {lk[0] for lk in expected_after["links"]}
        assert {LinkKind.MENTIONS.value, LinkKind.NEXT.value, LinkKind.IN_TOPIC.value} <= kinds
        for kind in sorted(kinds):
            links = [lk for lk in after["links"] if lk[0] == kind]
            assert links == [lk for lk in expected_after["links"] if lk[0] == kind], kind
        store = open_store(shared_uri)
        try:
            turns = {t.id: t for t in store.turns(namespace, TurnQuery())}
            for event in store.events(namespace, EventQuery()):  # every event's provenance resolves
                assert all(source in turns for source in event.source_ids)
                assert event.agent == turns[event.source_ids[0]].agent
            assert {t.agent for t in turns.values()} == {f"agent-{i}" for i in range(4)}
        finally:
            store.close()
    finally:
        _drop(shared_uri, namespace)
        if single_uri != shared_uri:
            _drop(single_uri, namespace)
