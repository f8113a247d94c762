"""Neo4j faults: the server restarts in the middle of an ingest, or cannot be reached at all.

A server of the test's own (the Maven-built launcher, with its data in a kept directory) is
stopped and started again on the same port and data while a child process ingests: the driver
retries the transactions that failed, every write is idempotent, and the ingest must finish
with the graph an uninterrupted run builds.
"""

from __future__ import annotations

import socket
import subprocess
import time
import uuid

import pytest

from simplemem_graph.errors import StoreUnavailableError
from simplemem_graph.memory import open_store
from tests import neo4j_server
from tests.durability_support import (
    READY,
    child_command,
    child_env,
    generated_sessions,
    snapshot,
    write_jsonl,
)

pytestmark = pytest.mark.neo4j


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def own_server(tmp_path):
    if neo4j_server.missing_tools():
        pytest.fail(f"the fault test needs {neo4j_server.missing_tools()} to run its own Neo4j")
    port, data = _free_port(), tmp_path / "neo4j-data"
    servers = [neo4j_server.start_launcher(port=port, data_dir=data)]

    def restart() -> None:
        servers[-1].stop()
        servers.append(neo4j_server.start_launcher(port=port, data_dir=data))

    yield servers[0].uri, restart
    servers[-1].stop()


def _snapshot(uri: str, namespace: str) -> dict[str, object]:
    store = open_store(uri)
    try:
        return snapshot(store, namespace)
    finally:
        store.close()


@pytest.mark.timeout(1200)
def test_server_restart_mid_ingest_the_ingest_finishes_and_each_batch_lands_once(own_server, tmp_path):
    uri, restart = own_server
    sessions = generated_sessions(5, sessions=3, turns_per_session=20)
    file = write_jsonl(tmp_path / "turns.jsonl", [turn for session in sessions for turn in session])
    namespace = f"fault-{uuid.uuid4().hex[:8]}"
    command = child_command(uri, namespace, file, "--batch-size", "6")

    done = subprocess.run(command, env=child_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    expected = _snapshot(uri, namespace)
    store = open_store(uri)
    store.delete_namespace(namespace)
    store.close()

    child = subprocess.Popen(
        command, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == READY
        time.sleep(1.5)  # mid-ingest: batches have been applied, more are coming
        assert child.poll() is None, "the ingest finished before the restart; make the file longer"
        restart()
        code = child.wait(timeout=600)
        stderr = child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
        child.stdout.close()
        child.stderr.close()
    assert code == 0, stderr[-3000:]
    assert _snapshot(uri, namespace) == expected


def test_an_unreachable_server_is_a_clear_error_naming_the_uri():
    uri = f"neo4j://127.0.0.1:{_free_port()}"
    with pytest.raises(StoreUnavailableError, match=uri.replace(".", r"\.")):
        open_store(uri)
