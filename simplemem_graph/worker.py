"""The background worker: consolidation of pending turns and the global pass on a schedule, every run
recorded in the store's job log, and an alert when a run fails or does abnormally little.

The seed (5.3) asks for jobs that report their status and alert "instead of failing silently with
slices piling up in the pending queue". So a run is written twice (started, then finished) with
its status, how many turns it processed and how many were still pending after it; `jobs --check`,
`/healthz` and the WARNING log line read the latest run of each kind.

APScheduler runs the schedule (one instance per job at a time, missed runs coalesced); `run_job`
is also what `simplemem-graph worker --once` and the tests call directly.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from simplemem_graph.models import JobRun

if TYPE_CHECKING:
    from simplemem_graph.memory import Memory

log = logging.getLogger("simplemem_graph.worker")

JOB_KINDS = ("consolidate", "global_pass")
# A run that processes less than this share of the recent mean, while turns wait, raises an alert.
ALERT_SHARE = 0.2
RECENT_RUNS = 10  # runs of the same kind the mean is taken over
BATCHES_PER_RUN = 16  # one consolidate run takes at most this many batches (the queue may be long)


def new_job_id() -> str:
    """Sortable and unique without counting rows: start time in ms, then randomness."""
    return f"job-{int(time.time() * 1000):013d}-{uuid.uuid4().hex[:8]}"


def run_job(memory: Memory, kind: str, *, now: datetime | None = None) -> JobRun:
    """Run one job on one namespace and record it (status ok, failed or alert). Never raises for
    a failing job: the failure is the job's status, its error and a log line at ERROR."""
    if kind not in JOB_KINDS:
        raise ValueError(f"run_job: unknown job kind {kind!r}; expected one of {JOB_KINDS}")
    store = memory.store
    started = datetime.now(UTC)
    pending_before = memory.pending()
    run = JobRun(id=new_job_id(), namespace=memory.namespace, kind=kind, started=started)
    store.record_job(run)
    clock = time.perf_counter()
    set_aside: list[dict[str, str]] = []
    try:
        if kind == "consolidate":
            report = memory.process_pending(max_batches=BATCHES_PER_RUN)
            run.processed = report.turns_consolidated
            set_aside = report.failed
        else:
            counts = memory.consolidate(now=now)
            # Every event of the namespace is aged and tiered by the pass: that is its workload
            # (tier_hot / tier_cold are only the events that moved).
            run.processed = int(counts.get("tier_events", 0))
        run.status = "ok"
    except Exception as e:  # the job's failure is recorded and logged, never swallowed silently
        run.status = "failed"
        run.error = f"{type(e).__name__}: {e}"
        log.exception("job %s failed on namespace %r", kind, memory.namespace)
    run.finished = datetime.now(UTC)
    run.duration_ms = round((time.perf_counter() - clock) * 1000, 1)
    run.pending_after = memory.pending()
    if run.status == "ok" and set_aside:
        # The queue went on past them, but they need a look: `retry` (CLI, REST) re-queues them.
        run.status = "alert"
        run.error = f"{len(set_aside)} turn(s) set aside, their consolidation failed: " + "; ".join(
            f"{f['turn_id']}: {f['error']}" for f in set_aside[:3]
        )
        log.warning("job %s on namespace %r: %s", kind, memory.namespace, run.error)
    if run.status == "ok" and kind == "consolidate":
        alert = abnormal_run(
            run, pending_before, store.list_jobs(memory.namespace, kind=kind, limit=RECENT_RUNS)
        )
        if alert:
            run.status = "alert"
            run.error = alert
            log.warning("job %s on namespace %r: %s", kind, memory.namespace, alert)
    store.record_job(run)
    return run


def abnormal_run(run: JobRun, pending_before: int, recent: Sequence[JobRun]) -> str | None:
    """Why a finished consolidate run is abnormal, or None.

    Abnormal: turns were waiting and it processed none of them, or it processed less than
    ALERT_SHARE of the mean of the recent successful runs that processed anything."""
    if pending_before == 0:
        return None
    if run.processed == 0:
        return f"{pending_before} turns were pending and the run processed none"
    done = [r.processed for r in recent if r.id != run.id and r.status == "ok" and r.processed > 0]
    if done:
        mean = sum(done) / len(done)
        if run.processed < ALERT_SHARE * mean and run.pending_after > 0:
            return (
                f"processed {run.processed} turns, under {ALERT_SHARE:.0%} of the recent mean "
                f"({mean:.1f}), with {run.pending_after} still pending"
            )
    return None


def latest_problems(memory: Memory) -> list[JobRun]:
    """The latest run of each kind, when it failed or alerted: what `jobs --check` and /healthz report."""
    problems = []
    for kind in JOB_KINDS:
        latest = memory.store.list_jobs(memory.namespace, kind=kind, limit=1)
        if latest and latest[0].status in ("failed", "alert"):
            problems.append(latest[0])
    return problems


class Worker:
    """Runs the jobs of some namespaces on a schedule, in a background thread.

    Args:
        memory_for: namespace -> Memory (the CLI's and the server's factory).
        namespaces: the namespaces to serve; None: every namespace in the store, re-read each run.
        interval_s: how often pending turns are consolidated.
        global_every_s: how often the global pass runs on namespaces that changed since the last one.
    """

    def __init__(
        self,
        memory_for: Callable[[str], Memory],
        *,
        namespaces: Sequence[str] | None = None,
        interval_s: float = 5.0,
        global_every_s: float = 3600.0,
    ):
        from apscheduler.schedulers.background import BackgroundScheduler

        self._memory_for = memory_for
        self._namespaces = list(namespaces) if namespaces is not None else None
        self._memories: dict[str, Memory] = {}
        self._changed: set[str] = set()
        self._lock = threading.Lock()
        self.scheduler = BackgroundScheduler(job_defaults={"coalesce": True, "max_instances": 1})
        self.scheduler.add_job(self.consolidate_pending, "interval", seconds=interval_s, id="consolidate")
        self.scheduler.add_job(self.global_pass, "interval", seconds=global_every_s, id="global_pass")

    def _memory(self, namespace: str) -> Memory:
        if namespace not in self._memories:
            self._memories[namespace] = self._memory_for(namespace)
        return self._memories[namespace]

    def namespaces(self) -> list[str]:
        if self._namespaces is not None:
            return self._namespaces
        any_memory = next(iter(self._memories.values()), None) or self._memory_for("default")
        self._memories.setdefault(any_memory.namespace, any_memory)
        return any_memory.namespaces()

    def consolidate_pending(self) -> list[JobRun]:
        """One consolidate run per namespace with pending turns."""
        runs = []
        with self._lock:
            for namespace in self.namespaces():
                memory = self._memory(namespace)
                if memory.pending():
                    runs.append(run_job(memory, "consolidate"))
                    self._changed.add(namespace)
        return runs

    def global_pass(self, *, all_namespaces: bool = False) -> list[JobRun]:
        """The global pass on namespaces that took new turns since the last pass (or all)."""
        runs = []
        with self._lock:
            targets = self.namespaces() if all_namespaces else sorted(self._changed)
            for namespace in targets:
                runs.append(run_job(self._memory(namespace), "global_pass"))
            self._changed.clear()
        return runs

    def start(self) -> None:
        self.scheduler.start()

    def stop(self) -> None:
        self.scheduler.shutdown(wait=True)
