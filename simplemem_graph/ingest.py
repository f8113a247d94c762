"""Ingest: the raw log, the pending queue and its lease, stages 1 and 2 per batch, set-aside turns,
rebuilds, the global pass run under the lease, and the embedding model check. `Memory` is stacked
on it (see memory.py); the attributes below are set by `Memory.__init__`."""

from __future__ import annotations

import sqlite3
import threading
import time as time_module
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from simplemem_graph.compress import CompressStats, compress
from simplemem_graph.config import Settings, check_turn_size
from simplemem_graph.consolidate import consolidate, consolidate_pass
from simplemem_graph.consolidate.calibration import EmbedderCalibration
from simplemem_graph.consolidate.entity_index import EntityIndex
from simplemem_graph.embedding import Embedder, check_store_model, reembed_store
from simplemem_graph.errors import (
    ConfigError,
    ConsolidationError,
    InputError,
    ModelLoadError,
    StoreUnavailableError,
)
from simplemem_graph.loaders import as_time
from simplemem_graph.models import (
    RECORD_SESSION_PREFIX,
    Event,
    GraphDelta,
    JobRun,
    LinkKind,
    Turn,
    stable_id,
)
from simplemem_graph.stores.base import GraphStore, new_lease_holder
from simplemem_graph.stores.queries import (
    EventQuery,
    FailedTurns,
    PendingCount,
    SessionSpeakers,
    TurnChange,
    TurnQuery,
)

# One writer at a time consolidates a namespace; a holder that dies loses it after this long at most
# (at once when it ran on this host: its pid is gone).
CONSOLIDATION_LEASE = "consolidate"
LEASE_TTL_S = 300.0
MAX_ERROR_CHARS = 500  # of a set-aside turn's error: enough to diagnose, never a copy of the turn


# Entity indexes kept between batches, per store and namespace (see `kept_entity_index`); a few
# namespaces per store, so a server with many tenants keeps the busiest ones, not all.

_KEPT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()
KEPT_NAMESPACES = 16


def kept_entity_index(store: GraphStore, namespace: str) -> EntityIndex:
    """The namespace's EntityIndex: the one kept from the last batch while the store's entity
    revision says nothing changed since (any writer, any path), else read from the store.

    The kept index is handed out once: a caller that fails, or computes without writing, simply
    does not give it back (`keep_entity_index`), and the next batch reads the store."""
    revision = store.entity_revision(namespace)  # read before loading: a later change shows
    with _KEPT_LOCK:
        kept = _KEPT.get(store, {}).pop(namespace, None)
    if revision is not None and kept is not None and kept.revision == revision:
        return kept
    index = EntityIndex.load(store, namespace)
    index.revision = revision
    return index


def keep_entity_index(store: GraphStore, index: EntityIndex, revision: int | None) -> None:
    """Keep `index` for the next batch: `revision` is what `apply_delta` returned, the store's
    revision after writing the delta computed with this index (None: someone else wrote too)."""
    if revision is None:
        return
    index.revision = revision
    with _KEPT_LOCK:
        kept = _KEPT.setdefault(store, {})
        kept.pop(index.namespace, None)
        kept[index.namespace] = index
        while len(kept) > KEPT_NAMESPACES:
            kept.pop(next(iter(kept)))


def consolidate_batch(
    events: Sequence[Event],
    store: GraphStore,
    *,
    embedder: Embedder | None = None,
    turns_done: Sequence[str] = (),
    namespace: str | None = None,
    calibration: EmbedderCalibration | None = None,
) -> GraphDelta:
    """Stage 2 for one batch: plan it (`consolidate`, which writes nothing) with the namespace's kept
    entity index, write the delta in one transaction together with marking `turns_done` done, and
    keep the index for the next batch. Returns the delta written (with its counts)."""
    ns = events[0].namespace if events else namespace
    index = kept_entity_index(store, ns) if ns is not None and events else None
    delta = consolidate(
        events,
        store,
        index=index,
        embedder=embedder,
        turns_done=turns_done,
        namespace=namespace,
        calibration=calibration,
    )
    if delta.is_empty():
        return delta
    revision = store.apply_delta(delta)
    if index is not None:
        # The index now holds what the delta wrote: kept for the next batch if nothing else
        # changed the entities meanwhile.
        keep_entity_index(store, index, revision)
    return delta


@dataclass
class IngestReport:
    """What one `add_many` call did."""

    turns_new: int = 0
    turns_skipped: int = 0  # already in the raw log: re-ingesting changes nothing
    turns_consolidated: int = 0  # pending turns this call consolidated (its own, or left by others)
    # Turns whose consolidation failed, set aside with their error (`Memory.retry_failed`):
    # {"turn_id", "error"} each.
    failed: list[dict[str, str]] = field(default_factory=list)
    events: int = 0
    event_ids: list[str] = field(default_factory=list)
    compress: CompressStats = field(default_factory=CompressStats)
    consolidate: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "turns_new": self.turns_new,
            "turns_skipped": self.turns_skipped,
            "turns_consolidated": self.turns_consolidated,
            "turns_failed": len(self.failed),
            "failed": self.failed,
            "events": self.events,
            "compress": self.compress.as_dict(),
            "consolidate": self.consolidate,
        }


class Ingest:
    """Logging turns and consolidating them, one writer of a namespace at a time."""

    settings: Settings
    store: GraphStore
    namespace: str
    embedder: Embedder
    calibration: EmbedderCalibration | None
    agent: str | None
    _model_checked: bool
    _introduced: dict[str, dict[str, str]]
    _threads: threading.local

    @property
    def _holder(self) -> str:
        """Who holds the consolidation lease: this process *and thread*, so two threads sharing one
        Memory (the server and its worker) never both think they hold it."""
        holder = getattr(self._threads, "holder", None)
        if holder is None:
            holder = self._threads.holder = new_lease_holder()
        return holder

    def add(
        self,
        text: str,
        *,
        speaker: str = "user",
        session: str = "default",
        time: datetime | str | None = None,
        turn_id: str | None = None,
        agent: str | None = None,
    ) -> list[Event]:
        """Remember one turn; return the events it was compressed into (none for chit-chat).

        Without `turn_id` the id is derived from the content (session, speaker, time, text):
        unique without counting rows, and the same call retried after a failure is not logged twice.
        `time` is a datetime or an ISO 8601 string (naive: UTC).

        Raises:
            TurnTooLargeError: `text` is longer than `config.MAX_TURN_CHARS` (nothing is written).
            ConsolidationError: the turn was logged but could not be consolidated; it is set aside
                (see `retry_failed`) and the namespace goes on with the turns after it.
        """
        turn = self.make_turn(text, speaker=speaker, session=session, time=time, turn_id=turn_id, agent=agent)
        report = self.add_many([turn])
        mine = [f for f in report.failed if f["turn_id"] == turn.id]
        if mine:
            raise ConsolidationError(
                f"add: turn {turn.id!r} was logged but set aside, its consolidation failed: "
                f"{mine[0]['error']} (`retry_failed` tries again)"
            )
        return self.events_of_turn(turn.id)

    def make_turn(
        self,
        text: str,
        *,
        speaker: str = "user",
        session: str = "default",
        time: datetime | str | None = None,
        turn_id: str | None = None,
        agent: str | None = None,
    ) -> Turn:
        """A turn of this namespace with the defaults filled in (time now, naive times UTC, an id
        derived from the content: `<session>:<hash of speaker, time, text>`)."""
        if not isinstance(text, str) or not text.strip():
            raise InputError("add: `text` must be a non-empty string")
        check_turn_size(text, "add")
        time = datetime.now(UTC) if time is None else as_time(time, "add: `time`")
        if turn_id is None:
            turn_id = f"{session}:{stable_id('t', session, speaker, time.isoformat(), text)[2:]}"
        return Turn(
            id=turn_id,
            namespace=self.namespace,
            session=session,
            speaker=speaker,
            time=time,
            text=text,
            agent=agent or self.agent,
        )

    def events_of_turn(self, turn_id: str) -> list[Event]:
        """The events made from one logged turn (through their FROM provenance links)."""
        links = self.store.links(self.namespace, kinds=[LinkKind.FROM], node_ids=[turn_id])
        events = self.store.events(
            self.namespace, EventQuery(ids=[lk.source for lk in links if lk.target == turn_id])
        )
        return sorted(events, key=Event.log_order)

    def turns(self, *, session: str | None = None) -> list[Turn]:
        """The raw log of this namespace (of one session when given), oldest first."""
        turns = self.store.turns(self.namespace, TurnQuery())
        return turns if session is None else [t for t in turns if t.session == session]

    def add_many(
        self, turns: Iterable[Turn], *, progress: Callable[[int], None] | None = None, batch_size: int = 64
    ) -> IngestReport:
        """Log, compress and consolidate turns in batches; already-logged turns are skipped.

        Each batch is logged as pending in one transaction, then consolidated (by this process, or
        by another writer of the namespace that holds the consolidation lease); the call returns when
        every turn it logged is consolidated. Pending turns left by an interrupted run are
        consolidated too. `progress(n)` is called after each batch with the number of turns it handled.
        """
        report = IngestReport()
        if isinstance(turns, Sequence):
            # A list is checked whole first: a turn over the limit anywhere in it writes nothing.
            for turn in turns:
                check_turn_size(turn.text, f"add_many: turn {turn.id!r}")
        batch: list[Turn] = []
        for turn in turns:
            check_turn_size(turn.text, f"add_many: turn {turn.id!r}")
            if turn.namespace != self.namespace:
                turn = turn.model_copy(update={"namespace": self.namespace})
            if turn.agent is None and self.agent is not None:
                turn = turn.model_copy(update={"agent": self.agent})
            batch.append(turn)
            if len(batch) >= batch_size:
                self._ingest_batch(batch, report)
                if progress:
                    progress(len(batch))
                batch = []
        if batch:
            self._ingest_batch(batch, report)
            if progress:
                progress(len(batch))
        return report

    def _ingest_batch(self, turns: list[Turn], report: IngestReport) -> None:
        new_turns = self.store.add_turns(turns)
        report.turns_new += len(new_turns)
        report.turns_skipped += len(turns) - len(new_turns)
        self.process_pending(report=report, wait_for=[t.id for t in turns])

    def pending(self) -> int:
        """Turns logged but not consolidated yet (an interrupted ingest, another writer's batch)."""
        return self.store.turns(self.namespace, PendingCount())

    def process_pending(
        self,
        *,
        report: IngestReport | None = None,
        wait_for: Sequence[str] | None = None,
        max_batches: int | None = None,
    ) -> IngestReport:
        """Consolidate pending turns, oldest first, one transaction per batch.

        Only one writer consolidates a namespace at a time (a lease in the store, taken over when
        its holder dies): the graph is built in time order whoever logged the turns. With
        `wait_for`, returns once those turns are consolidated (perhaps by another writer);
        otherwise once the queue is empty (or `max_batches` were done).
        """
        report = report if report is not None else IngestReport()
        delay = 0.05
        while True:
            if wait_for is not None and not self.store.turns(
                self.namespace, TurnQuery(pending=True, limit=1, ids=wait_for)
            ):
                return report
            if self.store.acquire_lease(self.namespace, CONSOLIDATION_LEASE, self._holder, LEASE_TTL_S):
                try:
                    self._drain(report, max_batches)
                finally:
                    self.store.release_lease(self.namespace, CONSOLIDATION_LEASE, self._holder)
                if wait_for is None or max_batches is not None:
                    return report
                delay = 0.05
                continue
            if wait_for is None:
                return report  # another writer is consolidating: it drains the queue
            time_module.sleep(delay)
            delay = min(delay * 2, 1.0)

    def _drain(self, report: IngestReport, max_batches: int | None) -> None:
        done = 0
        while max_batches is None or done < max_batches:
            # A chunk at a time, as it was logged: the same batches whoever consolidates them.
            turns = self.store.turns(self.namespace, TurnQuery(chunk=True))
            if not turns:
                return
            self._consolidate_or_set_aside(turns, report)
            if self.store.turns(self.namespace, TurnQuery(pending=True, limit=1, ids=[t.id for t in turns])):
                # A delta that does not consume its turns would loop here forever: fail loudly.
                raise ConsolidationError(
                    f"consolidate: a batch of {len(turns)} turns in namespace {self.namespace!r} "
                    "was applied but its turns are still pending"
                )
            done += 1
            # Still alive and working: keep the lease for another stretch.
            self.store.acquire_lease(self.namespace, CONSOLIDATION_LEASE, self._holder, LEASE_TTL_S)

    def _consolidate_or_set_aside(self, turns: list[Turn], report: IngestReport) -> None:
        """Consolidate a chunk; when that fails because of what the turns hold, consolidate them one
        by one and set aside (failed, with the error) those that still fail, so one bad turn never
        holds up the turns logged after it. Failures of the store or the models are raised: they
        are not the turns' fault, and the turns stay pending for the next run."""
        try:
            self._compress_and_consolidate(turns, report)
            return
        except Exception as e:
            if _not_the_turns_fault(e) or not self._pipeline_works():
                raise
            if len(turns) == 1:
                error = f"{type(e).__name__}: {e}"[:MAX_ERROR_CHARS]
                self.store.change_turns(self.namespace, TurnChange(failed={turns[0].id: error}))
                report.failed.append({"turn_id": turns[0].id, "error": error})
                return
        for turn in turns:
            self._consolidate_or_set_aside([turn], report)

    def _pipeline_works(self) -> bool:
        """Whether stage 1 (models included) handles a plain one-line turn: when it does not, a
        failure is the setup's (a broken model), not the turns', and nothing is set aside."""
        probe = Turn(
            id="probe", namespace=self.namespace, session="probe", time=datetime.now(UTC), text="Ana met Bo."
        )
        try:
            compress([probe], embedder=self.embedder)
        except Exception:
            return False
        return True

    def failed(self) -> list[dict[str, str]]:
        """The turns set aside because their consolidation failed: {"turn_id", "error"} each."""
        return [
            {"turn_id": turn_id, "error": error}
            for _, turn_id, error in self.store.turns(self.namespace, FailedTurns())
        ]

    def jobs(self, *, kind: str | None = None, limit: int = 50) -> list[JobRun]:
        """The worker's recorded runs in this namespace (of one kind when given), newest first."""
        return self.store.list_jobs(self.namespace, kind=kind, limit=limit)

    def retry_failed(self) -> IngestReport:
        """Put the turns set aside back in the queue and consolidate them (those that fail again
        are set aside again, listed in the report's `failed`)."""
        retried = self.store.change_turns(self.namespace, TurnChange(retry=True))
        report = self.process_pending() if retried else IngestReport()
        return report

    def _compress_and_consolidate(self, turns: list[Turn], report: IngestReport) -> None:
        self._check_model()
        sessions = sorted({t.session for t in turns})
        speakers = {
            (self.namespace, session): names
            for session, names in self.store.turns(self.namespace, SessionSpeakers(sessions)).items()
        }
        events = compress(
            turns,
            embedder=self.embedder,
            stats=report.compress,
            speakers=speakers,
            introduced=self._introduced,
        )
        delta = consolidate_batch(
            events,
            self.store,
            embedder=self.embedder,
            turns_done=[t.id for t in turns],
            namespace=self.namespace,
            calibration=self.calibration,
        )
        report.turns_consolidated += len(turns)
        report.events += len(events)
        report.event_ids.extend(e.id for e in events)
        for key, value in delta.counts.items():
            report.consolidate[key] = report.consolidate.get(key, 0) + value

    def rebuild(self, *, progress: Callable[[int], None] | None = None) -> IngestReport:
        """Drop this namespace's graph and rebuild it from the raw log, the source of truth."""
        # Erased turns are tombstones `get_turns` never returns; set-aside ones would fail again.
        set_aside = {turn_id for _, turn_id, _ in self.store.turns(self.namespace, FailedTurns())}
        turns = [
            t
            for t in self.store.turns(self.namespace, TurnQuery())
            if t.id not in set_aside and not (t.session or "").startswith(RECORD_SESSION_PREFIX)
        ]
        events = self.store.events(self.namespace, EventQuery())
        self.store.apply_delta(GraphDelta(namespace=self.namespace, deleted_events=[e.id for e in events]))
        self.store.apply_delta(
            GraphDelta(namespace=self.namespace, removed_links=self.store.links(self.namespace))
        )
        report = IngestReport()
        for start in range(0, len(turns), 64):
            batch = turns[start : start + 64]
            # A turn that fails is reported in `failed` and left out, not the end of the rebuild.
            self._consolidate_or_set_aside(batch, report)
            if progress:
                progress(len(batch))
        return report

    def consolidate(self, *, now: datetime | str | None = None) -> dict[str, int]:
        """Consolidate pending turns, then the global pass: merge duplicates, resolve aliases, decay
        and tier moves. Returns counts (`pending_consolidated`: turns taken from the queue)."""
        report = self.process_pending()
        with self._lease():
            counts = consolidate_pass(
                self.store,
                self.namespace,
                now=_time_or_now(now, "consolidate: `now`"),
                embedder=self.embedder,
                decay=self.settings.decay_for(self.namespace),
                calibration=self.calibration,
            )
        return {"pending_consolidated": report.turns_consolidated, **counts}

    @contextmanager
    def _lease(self) -> Iterator[None]:
        """Hold the namespace's consolidation lease (waiting for another writer to finish)."""
        delay = 0.05
        while not self.store.acquire_lease(self.namespace, CONSOLIDATION_LEASE, self._holder, LEASE_TTL_S):
            time_module.sleep(delay)
            delay = min(delay * 2, 1.0)
        try:
            yield
        finally:
            self.store.release_lease(self.namespace, CONSOLIDATION_LEASE, self._holder)

    def _check_model(self) -> None:
        """Once per Memory: the store's vectors must come from this embedder (recorded on first use)."""
        if not self._model_checked:
            check_store_model(self.store, self.embedder)
            self._model_checked = True

    def reembed(self, *, progress: Callable[[int], None] | None = None) -> dict[str, int]:
        """Re-embed every event of the store (all namespaces) with this Memory's embedder."""
        counts = reembed_store(self.store, self.embedder, progress=progress)
        self._model_checked = True
        return counts


def _time_or_now(value: datetime | str | None, where: str) -> datetime:
    """Now, or the given datetime / ISO 8601 string as an aware datetime (naive: UTC)."""
    return datetime.now(UTC) if value is None else as_time(value, where)


def _not_the_turns_fault(error: Exception) -> bool:
    """Whether a failed consolidation is the store's or the setup's doing (an unreachable or locked
    store, a model that does not load, a setting) rather than the turns': then the turns stay pending
    and the error is raised, instead of being set aside."""
    if isinstance(error, StoreUnavailableError | ModelLoadError | ConfigError | sqlite3.Error | OSError):
        return True
    return type(error).__module__.split(".")[0] == "neo4j"
