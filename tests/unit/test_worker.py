"""The worker's job log: every run recorded, failures and abnormally small runs raise an alert
(a WARNING log line, `jobs --check` exit 1, `/healthz` degraded). Real embedded store files."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from simplemem_graph.memory import CONSOLIDATION_LEASE, Memory
from simplemem_graph.models import Turn
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.worker import Worker, run_job
from tests.durability_support import HashEmbedder

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


class CorruptModel(HashEmbedder):
    """An embedder whose weights are broken: every encode fails."""

    def encode(self, texts) -> np.ndarray:
        raise RuntimeError("model weights are corrupt")


def _turns(namespace: str, n: int, start: int = 0) -> list[Turn]:
    return [
        Turn(
            id=f"s:{i}",
            namespace=namespace,
            session="s",
            speaker="Ana",
            time=T0 + timedelta(minutes=i),
            text=f"Order {i}: Kalo Ltd ships {i + 10} units to Vitor on 2026-06-{(i % 27) + 1:02d}.",
        )
        for i in range(start, start + n)
    ]


def _jobs_cli(db, *args):
    return subprocess.run(
        [sys.executable, "-m", "simplemem_graph", "--store", str(db), "--namespace", "w", "jobs", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_runs_are_recorded_with_what_they_processed(tmp_path):
    db = tmp_path / "m.db"
    memory = Memory(EmbeddedStore(db), namespace="w", embedder=HashEmbedder())
    memory.store.add_turns(_turns("w", 20))  # logged by someone, not consolidated yet
    worker = Worker(lambda ns: memory.with_namespace(ns), namespaces=["w"])
    (run,) = worker.consolidate_pending()
    assert (run.kind, run.status, run.processed, run.pending_after) == ("consolidate", "ok", 20, 0)
    assert memory.stats()["events"] > 0
    assert worker.consolidate_pending() == []  # nothing pending: no run
    (passed,) = worker.global_pass()
    assert passed.kind == "global_pass" and passed.status == "ok" and passed.processed > 0
    # The pass ages every event (its workload); `stats` reports the tier sizes and its moves.
    stats = memory.stats()
    assert passed.processed == stats["events"]
    # Events of May 2026 tiered now: ages run from the newest event, so none has gone cold.
    assert stats["events_by_tier"] == {"hot": stats["events"]}
    assert stats["last_tier_pass"]["to_cold"] == 0 and stats["last_tier_pass"]["hot"] == stats["events"]
    memory.close()

    listed = _jobs_cli(db, "--json")
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [(r["kind"], r["status"]) for r in rows] == [("global_pass", "ok"), ("consolidate", "ok")]
    assert {"kind", "started", "finished", "status", "processed", "pending_after", "error"} <= set(rows[0])
    assert _jobs_cli(db, "--check").returncode == 0


def test_a_failing_job_is_reported_by_jobs_and_jobs_check(tmp_path, caplog):
    db = tmp_path / "m.db"
    memory = Memory(EmbeddedStore(db), namespace="w", embedder=CorruptModel())
    memory.store.add_turns(_turns("w", 5))
    with caplog.at_level(logging.ERROR, logger="simplemem_graph.worker"):
        run = run_job(memory, "consolidate")
    assert run.status == "failed" and "model weights are corrupt" in run.error
    assert run.pending_after == 5  # nothing half-done: the turns wait for the next run
    assert any("job consolidate failed" in r.getMessage() for r in caplog.records)
    with TestClient(create_app(memory, api_keys="")) as client:
        health = client.get("/healthz").json()
        assert health["status"] == "degraded" and health["problems"][0]["status"] == "failed"
        page = client.get("/v1/namespaces/w/jobs").json()
        assert page["items"][0]["error"].endswith("model weights are corrupt")
    memory.close()

    checked = _jobs_cli(db, "--check")
    assert checked.returncode == 1
    assert "consolidate: latest run failed" in checked.stderr


def test_a_run_that_processes_nothing_while_turns_wait_alerts(tmp_path, caplog):
    memory = Memory(EmbeddedStore(tmp_path / "m.db"), namespace="w", embedder=HashEmbedder())
    memory.store.add_turns(_turns("w", 10))
    assert run_job(memory, "consolidate").status == "ok"
    # Another process took the consolidation lease and hangs on to it: turns pile up.
    memory.store.add_turns(_turns("w", 10, start=10))
    assert memory.store.acquire_lease("w", CONSOLIDATION_LEASE, f"other-host:1:1:{'x' * 8}", 600)
    with caplog.at_level(logging.WARNING, logger="simplemem_graph.worker"):
        stuck = run_job(memory, "consolidate")
    assert stuck.status == "alert" and stuck.processed == 0 and stuck.pending_after == 10
    assert "10 turns were pending and the run processed none" in stuck.error
    assert any(r.levelno == logging.WARNING and "processed none" in r.getMessage() for r in caplog.records)
    memory.close()


def test_a_run_far_below_the_recent_mean_alerts():
    from simplemem_graph.models import JobRun
    from simplemem_graph.worker import abnormal_run

    recent = [JobRun(id=f"j{i}", kind="consolidate", started=T0, status="ok", processed=64) for i in range(5)]
    small = JobRun(id="now", kind="consolidate", started=T0, status="ok", processed=3, pending_after=400)
    assert "under 20% of the recent mean (64.0)" in abnormal_run(small, 403, recent)
    normal = small.model_copy(update={"processed": 40})
    assert abnormal_run(normal, 440, recent) is None
    drained = small.model_copy(update={"pending_after": 0})  # a small tail, nothing left: fine
    assert abnormal_run(drained, 3, recent) is None


@pytest.mark.parametrize("kind", ["bogus"])
def test_an_unknown_job_kind_is_refused(tmp_path, kind):
    memory = Memory(EmbeddedStore(tmp_path / "m.db"), namespace="w", embedder=HashEmbedder())
    with pytest.raises(ValueError, match="unknown job kind"):
        run_job(memory, kind)
    memory.close()
    bad = _jobs_cli(tmp_path / "m.db", "--kind", kind)
    assert bad.returncode == 2 and "--kind 'bogus'" in bad.stderr
