"""`Memory`: the one place that wires the stages to a store. Everything else calls this.

>>> from simplemem_graph import Memory
>>> mem = Memory.open(":memory:", namespace="demo")
>>> mem.add("Acme moved the kickoff to 2026-03-12 because their CTO is travelling", speaker="Ana")
>>> [hit.event.text for hit in mem.search("when is the Acme kickoff?").results]
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
import threading
import time as time_module
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import numpy as np

from simplemem_graph.compress import CompressStats, compress
from simplemem_graph.config import Settings, check_turn_size, is_neo4j_uri, sqlite_path, validate_namespace
from simplemem_graph.consolidate import Conflict, consolidate, consolidate_pass, list_conflicts
from simplemem_graph.consolidate.calibration import configured_calibration
from simplemem_graph.consolidate.global_pass import tier_pass_key
from simplemem_graph.consolidate.questions import build_questions
from simplemem_graph.consolidate.similarity import content_terms
from simplemem_graph.consolidate.topics import TOPIC_KEYWORDS, event_keywords, label_from_keywords
from simplemem_graph.embedding import Embedder, check_store_model, make_embedder, reembed_store
from simplemem_graph.errors import (
    ConfigError,
    ConsolidationError,
    InputError,
    ModelLoadError,
    NotFoundError,
    StoreUnavailableError,
)
from simplemem_graph.loaders import as_time
from simplemem_graph.models import (
    DEFAULT_STATUSES,
    RECORD_SESSION_PREFIX,
    Event,
    EventStatus,
    Feedback,
    Hit,
    JobRun,
    LinkKind,
    Pattern,
    PatternStatus,
    Question,
    Topic,
    Turn,
    stable_id,
)
from simplemem_graph.retrieve import RetrievalResult, build_context, fill_budget, retrieve
from simplemem_graph.retrieve.rerank import LinearScorer, learned_scorer
from simplemem_graph.retrieve.story import Story, entity_story
from simplemem_graph.stores.base import GraphStore, new_lease_holder
from simplemem_graph.text import count_tokens
from simplemem_graph.vectors import unit

SAMPLE_CONVERSATION = Path(__file__).parent / "data" / "sample_conversation.jsonl"
# One writer at a time consolidates a namespace; a holder that dies loses it after this long at most
# (at once when it ran on this host: its pid is gone).
CONSOLIDATION_LEASE = "consolidate"
LEASE_TTL_S = 300.0
AGENT_FILTER_WIDENING = 4  # rank this many times k before keeping one agent's memories
QUESTION_SCAN = 500  # newest open-question events read to rank questions (importance favours recent)
RERANKER_META_PREFIX = "reranker:"  # + namespace: weights `train-reranker --apply` wrote (store meta)
MAX_FEEDBACK_IDS = 200  # event ids per feedback list: far more than any result list
MAX_ERROR_CHARS = 500  # of a set-aside turn's error: enough to diagnose, never a copy of the turn


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


def open_store(uri: str | None, settings: Settings | None = None, *, dimension: int = 384) -> GraphStore:
    """A store from a URI: a path or sqlite:/// for the embedded store, neo4j:// or bolt:// for Neo4j."""
    settings = settings or Settings.from_env()
    if uri is not None and is_neo4j_uri(uri):
        from simplemem_graph.stores.neo4j import Neo4jStore

        auth = (settings.neo4j_user, settings.neo4j_password) if settings.neo4j_user else None
        return Neo4jStore.connect(
            uri,
            database=settings.neo4j_database,
            auth=auth,
            dimension=dimension,
            retry_s=settings.neo4j_retry_s,
        )
    from simplemem_graph.stores.embedded import EmbeddedStore

    return EmbeddedStore(sqlite_path(uri))


class Memory:
    """Lifelong memory for one namespace (a user, an agent, a team) over one store.

    Args:
        store: a `GraphStore` (EmbeddedStore, Neo4jStore).
        namespace: the tenant every read and write is scoped to.
        embedder: sentence embedder; default `settings.embedding_model`, loaded on first use.
        settings: recall/final k, decay policy, model names.
    """

    def __init__(
        self,
        store: GraphStore,
        *,
        namespace: str | None = None,
        embedder: Embedder | None = None,
        settings: Settings | None = None,
        agent: str | None = None,
    ):
        self.settings = settings or Settings.from_env()
        self.store = store
        self.namespace = validate_namespace(namespace or self.settings.namespace)
        self.embedder = embedder or make_embedder(self.settings.embedding_model)
        self.calibration = configured_calibration(self.settings.calibration, self.embedder.name)
        self._model_checked = False
        self.agent = agent  # written on every turn this Memory logs (unless the turn names one)
        # The names role-labelled speakers gave ("我叫陈阳"), kept across batches of this process so
        # "我" of "user" reads the same name after the batch that introduced it.
        self._introduced: dict[str, dict[str, str]] = {}
        self._threads = threading.local()  # a lease holder id per thread (see `_holder`)

    @property
    def _holder(self) -> str:
        """Who holds the consolidation lease: this process *and thread*, so two threads sharing one
        Memory (the server and its worker) never both think they hold it."""
        holder = getattr(self._threads, "holder", None)
        if holder is None:
            holder = self._threads.holder = new_lease_holder()
        return holder

    @classmethod
    def open(cls, store: str | None = None, *, namespace: str | None = None, **kwargs) -> Memory:
        """Open a store by URI (see `open_store`) and wrap it."""
        settings = kwargs.pop("settings", None) or Settings.from_env()
        return cls(
            open_store(store or settings.store, settings), namespace=namespace, settings=settings, **kwargs
        )

    def with_namespace(self, namespace: str) -> Memory:
        """The same store, models and settings, scoped to another namespace."""
        return Memory(
            self.store, namespace=namespace, embedder=self.embedder, settings=self.settings, agent=self.agent
        )

    # ---- write --------------------------------------------------------------------------------
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
        links = self.store.list_links(self.namespace, kinds=[LinkKind.FROM], node_ids=[turn_id])
        events = self.store.get_events(self.namespace, [lk.source for lk in links if lk.target == turn_id])
        return sorted(events, key=lambda e: (e.time, e.id))

    def turns(self, *, session: str | None = None) -> list[Turn]:
        """The raw log of this namespace (of one session when given), oldest first."""
        turns = self.store.get_turns(self.namespace)
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
        return self.store.count_pending(self.namespace)

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
            if wait_for is not None and not self.store.pending_turns(self.namespace, limit=1, ids=wait_for):
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
            turns = self.store.pending_chunk(self.namespace)
            if not turns:
                return
            self._consolidate_or_set_aside(turns, report)
            if self.store.pending_turns(self.namespace, limit=1, ids=[t.id for t in turns]):
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
                self.store.set_aside_turns(self.namespace, {turns[0].id: error})
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
            for _, turn_id, error in self.store.failed_turns(self.namespace)
        ]

    def jobs(self, *, kind: str | None = None, limit: int = 50) -> list[JobRun]:
        """The worker's recorded runs in this namespace (of one kind when given), newest first."""
        return self.store.list_jobs(self.namespace, kind=kind, limit=limit)

    def retry_failed(self) -> IngestReport:
        """Put the turns set aside back in the queue and consolidate them (those that fail again
        are set aside again, listed in the report's `failed`)."""
        retried = self.store.retry_turns(self.namespace)
        report = self.process_pending() if retried else IngestReport()
        return report

    def _compress_and_consolidate(self, turns: list[Turn], report: IngestReport) -> None:
        self._check_model()
        sessions = sorted({t.session for t in turns})
        speakers = {
            (self.namespace, session): names
            for session, names in self.store.session_speakers(self.namespace, sessions).items()
        }
        events = compress(
            turns,
            embedder=self.embedder,
            stats=report.compress,
            speakers=speakers,
            introduced=self._introduced,
        )
        delta = consolidate(
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
        set_aside = {turn_id for _, turn_id, _ in self.store.failed_turns(self.namespace)}
        turns = [
            t
            for t in self.store.get_turns(self.namespace)
            if t.id not in set_aside and not (t.session or "").startswith(RECORD_SESSION_PREFIX)
        ]
        events = self.store.list_events(self.namespace)
        self.store.delete_events(self.namespace, [e.id for e in events])
        self.store.remove_links(self.store.list_links(self.namespace))
        report = IngestReport()
        for start in range(0, len(turns), 64):
            batch = turns[start : start + 64]
            # A turn that fails is reported in `failed` and left out, not the end of the rebuild.
            self._consolidate_or_set_aside(batch, report)
            if progress:
                progress(len(batch))
        return report

    # ---- read ---------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        at: datetime | str | None = None,
        include_archived: bool = False,
        session: str | None = None,
        budget: int | None = None,
        agent: str | None = None,
    ) -> RetrievalResult:
        """The k (default 5) memories most useful for `query`, each with score, sources and path.

        `at` is when the question is asked: it anchors "last week" or 上周 (default: now).
        `budget` (tokens) instead returns as many memories as fit, best first.
        `agent` keeps only memories written by that agent (several agents sharing one namespace).
        Retrieved events are refreshed (access count, last access).
        """
        if not isinstance(query, str) or not query.strip():
            raise InputError("search: `query` must be a non-empty string")
        if agent is not None and not agent.strip():
            raise InputError("search: `agent` must be a non-empty agent name")
        self._check_model()
        at = datetime.now(UTC) if at is None else as_time(at, "search: `at`")
        final_k = k or self.settings.final_k
        # An agent filter is applied to a wider ranking, so k memories of that agent remain.
        asked_k = final_k * AGENT_FILTER_WIDENING if agent else final_k
        result = retrieve(
            query,
            self.store,
            namespace=self.namespace,
            embedder=self.embedder,
            at=at,
            k=asked_k,
            recall_k=max(self.settings.recall_k, 3 * asked_k),
            include_archived=include_archived,
            session=session,
            decay=self.settings.decay_for(self.namespace),
            budget=None if agent else budget,
            scorer=self._stored_reranker(),
        )
        if agent:
            kept = [hit for hit in result.hits if hit.event.agent == agent]
            if budget is not None:
                kept = fill_budget(kept, budget)
            result.hits = kept if budget is not None else kept[:final_k]
            result.context_tokens = sum(count_tokens(hit.event.text) for hit in result.hits)
        if result.hits:
            self.store.touch_events(self.namespace, [h.event.id for h in result.hits], at)
        result.patterns = self.patterns_for(query, result.hits)
        return result

    # ---- memory above the event (issue 14) ------------------------------------------------------
    def questions(self, *, limit: int | None = 20, at: datetime | str | None = None) -> list[Question]:
        """Open questions of active memory, most important first: the key slots (deadline, owner,
        amount, place, time) that tasks, meetings and commitments still lack."""
        if limit is not None and (not isinstance(limit, int) or limit < 1):
            raise InputError(f"questions: `limit` must be a positive integer, got {limit!r}")
        events = self.store.open_question_events(self.namespace, limit=QUESTION_SCAN)
        found = build_questions(events, at=_time_or_now(at, "questions: `at`"))
        return found if limit is None else found[:limit]

    def questions_for(
        self, hits: Sequence[Hit], *, at: datetime | str | None = None, limit: int = 3
    ) -> list[Question]:
        """Open questions of the hits' topic: about a hit, or an event sharing an entity or topic with one."""
        open_events = self.store.open_question_events(self.namespace, limit=QUESTION_SCAN)
        if not open_events or not hits:
            return []
        hit_ids = {h.event.id for h in hits}
        ids = sorted(hit_ids | {e.id for e in open_events})
        reach: dict[str, set[str]] = {}
        for link in self.store.list_links(
            self.namespace, kinds=[LinkKind.MENTIONS, LinkKind.IN_TOPIC], node_ids=ids
        ):
            reach.setdefault(link.source, set()).add(link.target)
        near = set().union(*(reach.get(i, set()) for i in hit_ids))
        related = [e for e in open_events if e.id in hit_ids or reach.get(e.id, set()) & near]
        return build_questions(related, at=_time_or_now(at, "questions: `at`"))[:limit]

    def patterns(self, *, include_retired: bool = False) -> list[tuple[Pattern, list[Event]]]:
        """Pattern memories with the events they were counted from (oldest first)."""
        statuses = None if include_retired else [PatternStatus.ACTIVE]
        patterns = self.store.list_patterns(self.namespace, statuses=statuses)
        if not patterns:
            return []
        evidence: dict[str, list[str]] = {}
        links = self.store.list_links(
            self.namespace, kinds=[LinkKind.EVIDENCED_BY], node_ids=[p.id for p in patterns]
        )
        for link in links:
            evidence.setdefault(link.source, []).append(link.target)
        events = {
            e.id: e
            for e in self.store.get_events(self.namespace, sorted({t for v in evidence.values() for t in v}))
        }
        return [
            (
                p,
                sorted(
                    (events[i] for i in evidence.get(p.id, []) if i in events), key=lambda e: (e.time, e.id)
                ),
            )
            for p in patterns
        ]

    def patterns_for(self, query: str, hits: Sequence[Hit], *, limit: int = 2) -> list[Pattern]:
        """Active patterns above the hits: those evidenced by a hit, or naming the query's words and
        subject. Patterns are few per namespace (one per regular group), so all are read."""
        patterns = self.store.list_patterns(self.namespace, statuses=[PatternStatus.ACTIVE])
        if not patterns:
            return []
        hit_ids = [h.event.id for h in hits]
        counted: dict[str, int] = {}
        for link in (
            self.store.list_links(self.namespace, kinds=[LinkKind.EVIDENCED_BY], node_ids=hit_ids)
            if hit_ids
            else []
        ):
            if link.target in hit_ids:
                counted[link.source] = counted.get(link.source, 0) + 1
        terms = content_terms(query.casefold())
        scored = []
        for p in patterns:
            shared = len(terms & content_terms(p.text.casefold()))
            named = p.subject.casefold() in query.casefold()
            if counted.get(p.id) or (named and shared >= 2):
                scored.append((counted.get(p.id, 0) + 0.1 * shared, p))
        return [p for _, p in sorted(scored, key=lambda x: (-x[0], x[1].id))[:limit]]

    def context(
        self,
        query: str,
        *,
        k: int | None = None,
        at: datetime | str | None = None,
        knowledge: Sequence[str] = (),
        instruction: str = "",
        budget_tokens: int = 600,
        questions: bool = True,
    ) -> str:
        """A prompt block in the seed's order: memories, then external knowledge, then the instruction.

        Pattern memories that summarise the hits go above them (issue 14); with `questions`, the
        open questions of the hits' topic follow the memories, for the agent to ask."""
        at = _time_or_now(at, "context: `at`")
        result = self.search(query, k=k, at=at)
        asks = (
            [q.question + " — " + q.event.text for q in self.questions_for(result.hits, at=at)]
            if questions
            else []
        )
        return build_context(
            result.hits,
            knowledge=knowledge,
            instruction=instruction,
            budget_tokens=budget_tokens,
            patterns=[p.text for p in result.patterns],
            questions=asks,
        )

    def timeline(
        self,
        entity: str,
        *,
        date_from: date | None = None,
        date_to: date | None = None,
        include_archived=False,
    ) -> list[Hit]:
        """The story of an entity (by canonical name or any alias), oldest first: see `story`.
        Each hit's path says why it is there; replaced values say SUPERSEDED BY, the latest CURRENT."""
        return self.story(
            entity, date_from=date_from, date_to=date_to, include_archived=include_archived
        ).hits

    def story(
        self,
        entity: str,
        *,
        date_from: date | None = None,
        date_to: date | None = None,
        include_archived=False,
    ) -> Story:
        """An entity's story: its aliases, people, suppliers, its events (superseded ones included,
        as history) and the SUPERSEDES chains of its changing values.

        Raises:
            NotFoundError: no entity has that name.
        """
        statuses = None if include_archived else [*DEFAULT_STATUSES, EventStatus.SUPERSEDED]
        try:
            return entity_story(
                self.store, self.namespace, entity, statuses=statuses, date_from=date_from, date_to=date_to
            )
        except NotFoundError as e:
            if self.exists():
                raise
            raise NotFoundError(f"{e} (nothing was ever written to this namespace)") from e

    def conflicts(self) -> list[Conflict]:
        """Unresolved CONTRADICTS pairs, for the agent (or a person) to clarify."""
        return list_conflicts(self.store, self.namespace)

    def namespaces(self) -> list[str]:
        """Every namespace in the store (not only this one)."""
        return self.store.namespaces()

    def stats(self) -> dict[str, Any]:
        """The store's counts for this namespace (`events_by_tier`: tier sizes now), and
        `last_tier_pass`: when the global pass last moved tiers, the time ages were measured from,
        the events it moved `to_hot` / `to_cold` and the tier sizes after it (None before any)."""
        counts = self.store.stats(self.namespace)
        recorded = self.store.get_meta(tier_pass_key(self.namespace))
        counts["last_tier_pass"] = json.loads(recorded) if recorded else None
        names = self.store.namespaces()
        counts["namespaces"] = len(names)  # in the store, not 1 for "this one"
        counts["namespace_exists"] = self.namespace in names
        counts["failed"] = len(self.store.failed_turns(self.namespace))
        return counts

    def exists(self) -> bool:
        """Whether anything was ever written to this namespace (a turn or an event): a read of a
        namespace that does not exist answers nothing, and says so, since a typo would look like
        an empty memory."""
        return self.namespace in self.store.namespaces()

    # ---- maintenance --------------------------------------------------------------------------
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

    def forget(
        self,
        *,
        event_id: str | None = None,
        entity: str | None = None,
        turn_id: str | None = None,
        everything: bool = False,
        dry_run: bool = False,
    ) -> Erasure:
        """Erase what was said, so that nothing of it stays in the store: not in the raw log (its
        turns become tombstones that `rebuild` and a re-ingest of the same file honour), the
        events, their vectors, the fulltext indexes, the links, or a topic's keywords.

        - `event_id`: the event and the turns it was made from (an event restates its turns: the
          turns go, and with them every event made from them);
        - `turn_id`: the turn and every event made from it;
        - `entity` (a name or alias): every turn that names it (in its text or as its speaker),
          every event that mentions it, and the entity with its aliases' links;
        - `everything`: the whole namespace, raw log included.

        With `dry_run`, nothing is changed: the returned `Erasure` lists what would go.

        Raises:
            InputError: not exactly one of event_id, entity, turn_id, everything.
            NotFoundError: no such event, turn or entity in this namespace.
        """
        given = [
            x for x in (event_id, entity, turn_id, everything or None) if x is not None and x is not False
        ]
        if len(given) != 1:
            raise InputError("forget: give exactly one of event_id, entity, turn_id or everything=True")
        if everything:
            erasure = Erasure(namespace=self.namespace, dry_run=dry_run, everything=True)
            erasure.event_count = self.store.stats(self.namespace).get("events", 0)
            if not dry_run:
                self.store.delete_namespace(self.namespace)
                self.store.delete_meta(self._reranker_key)  # weights learned from the deleted feedback
                self.store.delete_meta(tier_pass_key(self.namespace))
                self.store.scrub()
            return erasure
        erasure = self._erasure_plan(event_id=event_id, entity=entity, turn_id=turn_id, dry_run=dry_run)
        if not dry_run:
            with self._lease():  # no consolidation of this namespace writes meanwhile
                self._erase(erasure)
        return erasure

    def _erasure_plan(
        self, *, event_id: str | None, entity: str | None, turn_id: str | None, dry_run: bool
    ) -> Erasure:
        """The turns, events and entities one `forget` call erases."""
        erasure = Erasure(namespace=self.namespace, dry_run=dry_run)
        turns: list[Turn] = []
        events: list[Event] = []
        if event_id is not None:
            events = self.store.get_events(self.namespace, [event_id])
            if not events:
                raise NotFoundError(f"forget: no event {event_id!r} in namespace {self.namespace!r}")
            turns = self.store.get_turns(self.namespace, events[0].source_ids)
        elif turn_id is not None:
            turns = self.store.get_turns(self.namespace, [turn_id])
            if not turns:
                raise NotFoundError(f"forget: no turn {turn_id!r} in namespace {self.namespace!r}")
        else:
            assert entity is not None
            matches = self.store.find_entities(self.namespace, entity.strip())
            if not matches:
                raise NotFoundError(f"forget: no entity named {entity!r} in namespace {self.namespace!r}")
            erasure.entities = sorted({m.name for m in matches})
            erasure.entity_ids = sorted({m.id for m in matches})
            events = self.store.entity_events(self.namespace, erasure.entity_ids, statuses=None)
            names = {n for m in matches for n in (m.name, *m.aliases)}
            named = _name_finder(names)
            sources = {source for e in events for source in e.source_ids}
            turns = [
                t
                for t in self.store.get_turns(self.namespace)
                if t.id in sources or named(t.text) or named(t.speaker)
            ]
        # Every event made from an erased turn restates some of it: it goes too.
        turn_ids = sorted({t.id for t in turns})
        made = (
            self.store.list_links(self.namespace, kinds=[LinkKind.FROM], node_ids=turn_ids)
            if turn_ids
            else []
        )
        event_ids = {e.id for e in events} | {lk.source for lk in made if lk.target in set(turn_ids)}
        all_events = self.store.get_events(self.namespace, sorted(event_ids))
        erasure.turns = [{"id": t.id, "text": t.text} for t in sorted(turns, key=lambda t: (t.time, t.id))]
        erasure.events = [
            {"id": e.id, "text": e.text} for e in sorted(all_events, key=lambda e: (e.time, e.id))
        ]
        erasure.event_count = len(erasure.events)
        return erasure

    def _erase(self, erasure: Erasure) -> None:
        event_ids = [e["id"] for e in erasure.events]
        links = (
            self.store.list_links(
                self.namespace, kinds=[LinkKind.IN_TOPIC, LinkKind.EVIDENCED_BY], node_ids=event_ids
            )
            if event_ids
            else []
        )
        topics = sorted({lk.target for lk in links if lk.kind == LinkKind.IN_TOPIC})
        patterns = sorted({lk.source for lk in links if lk.kind == LinkKind.EVIDENCED_BY})
        # A pattern's text summarises its evidence: mined again by the global pass from what is left.
        self.store.delete_patterns(self.namespace, patterns)
        self.store.delete_events(self.namespace, event_ids)
        self.store.forget_turns(self.namespace, [t["id"] for t in erasure.turns])
        for entity_id in erasure.entity_ids:
            self.store.delete_entity(self.namespace, entity_id)
        self._redescribe_topics(topics)
        self.store.scrub()

    def _redescribe_topics(self, topic_ids: Sequence[str]) -> None:
        """Topics that lost members keep their other events, but their keywords, label and centroid
        were drawn from the erased ones too: recompute them from the members left."""
        if not topic_ids:
            return
        left = {t.id: t for t in self.store.list_topics(self.namespace) if t.id in set(topic_ids)}
        members: dict[str, list[str]] = {}
        for link in self.store.list_links(self.namespace, kinds=[LinkKind.IN_TOPIC], node_ids=list(left)):
            if link.target in left:
                members.setdefault(link.target, []).append(link.source)
        updated = [
            _describe_topic(topic, self.store.get_events(self.namespace, members.get(topic.id, [])))
            for topic in left.values()
        ]
        self.store.upsert_topics(updated)

    def export(self) -> Iterator[dict[str, Any]]:
        """Every record of the namespace (raw log, events, entities, topics, links) as JSON dicts."""
        return self.store.export_records(self.namespace)

    def export_jsonl(self, path: str | Path) -> int:
        count = 0
        with open(path, "w", encoding="utf-8") as f:
            for record in self.export():
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
                count += 1
        return count

    def import_records(self, records: Iterable[dict[str, Any]]) -> dict[str, int]:
        """Load exported records into this namespace; importing the same file twice changes nothing."""
        records = list(records)
        for number, record in enumerate(records, 1):
            if (
                isinstance(record, dict)
                and record.get("type") == "turn"
                and isinstance(record.get("text"), str)
            ):
                check_turn_size(record["text"], f"import: record {number}")
        try:
            return self.store.import_records(records, namespace=self.namespace)
        except (ValueError, TypeError) as e:  # pydantic's ValidationError is a ValueError
            raise InputError(f"import: {e}") from e

    # ---- feedback and the namespace's reranker (issue 10) ----------------------------------------
    def feedback(
        self,
        query: str,
        helpful: Sequence[str],
        shown: Sequence[str] | None = None,
        *,
        at: datetime | str | None = None,
    ) -> Feedback:
        """Record which memories helped answer `query`: labelled use for `train_reranker`.

        Args:
            query: the question as it was searched.
            helpful: ids of the events that helped the answer (may be empty when `shown` is given:
                nothing shown helped).
            shown: ids of the events the caller saw (e.g. the search results); the shown ones not
                in `helpful` are the negatives. None: every memory recall finds for the query counts
                as seen.
            at: when the question was asked, as passed to `search` (default now); naive is UTC.

        Returns:
            The recorded `Feedback`. Recording the same feedback twice keeps one record.

        Raises:
            InputError: an empty query, no ids at all, or an id that is not an event of this
                namespace (then nothing is written).
        """
        if not isinstance(query, str) or not query.strip():
            raise InputError("feedback: `query` must be a non-empty string")
        helpful_ids = _feedback_ids(helpful, "helpful")
        shown_ids = None if shown is None else _feedback_ids(shown, "shown")
        if not helpful_ids and not shown_ids:
            raise InputError("feedback: give the helpful event ids (or the shown ones, when none helped)")
        at = _time_or_now(at, "feedback: `at`")
        record = Feedback(
            id=stable_id(
                "fb",
                self.namespace,
                query,
                at.isoformat(),
                ",".join(helpful_ids),
                "\x00" if shown_ids is None else ",".join(shown_ids),
            ),
            namespace=self.namespace,
            query=query,
            at=at,
            helpful=helpful_ids,
            shown=shown_ids,
        )
        self.store.add_feedback(record)
        return record

    @property
    def _reranker_key(self) -> str:
        return RERANKER_META_PREFIX + self.namespace

    def _stored_reranker(self) -> LinearScorer | None:
        """The weights `train_reranker` applied to this namespace, or None (the shipped ones).

        Read on every search (one key lookup), so weights applied by another process, e.g. the
        CLI while the server runs, take effect on the next search."""
        raw = self.store.get_meta(self._reranker_key)
        return None if raw is None else _scorer_from_meta(raw, self._reranker_key)

    def reranker(self) -> tuple[LinearScorer, str]:
        """The reranker `search` uses here and where it comes from: "store" (trained on this
        namespace's feedback) or "shipped" (the package's weights)."""
        stored = self._stored_reranker()
        return (stored, "store") if stored is not None else (learned_scorer(), "shipped")

    def train_reranker(self, *, folds: int = 5, apply: bool = False) -> dict[str, Any]:
        """Retrain the reranker from this namespace's feedback, with k-fold cross-validation.

        Each feedback's candidate pool is rebuilt from the store as `search` would see it at the
        question's time, with today's features. On each fold, weights fitted on the other folds
        are compared with the weights in use on the fold's held-out questions (MRR of the first
        helpful memory, R@5 of helpful memories). With `apply`, weights fitted on all feedback
        replace the ones in use (in the store's meta, for this namespace) only when they are better
        on average and worse on no fold.

        Returns:
            The report: `train-reranker --json`.

        Raises:
            InputError: too few labelled queries for `folds`, or labels of one kind only.
        """
        from simplemem_graph.retrieve.training import cross_validate, feedback_pool, fit_feedback

        records = self.store.list_feedback(self.namespace)
        final_k = self.settings.final_k
        pools = [
            feedback_pool(
                record,
                self.store,
                embedder=self.embedder,
                k=final_k,
                recall_k=max(self.settings.recall_k, 3 * final_k),
                decay=self.settings.decay_for(self.namespace),
            )
            for record in records
        ]
        current, source = self.reranker()
        validation = cross_validate(pools, current, folds=folds, namespace=self.namespace)
        name = f"feedback-{self.namespace}"
        retrained = fit_feedback(pools, name)
        applied = bool(apply and validation.improves)
        if applied:
            self.store.set_meta(
                self._reranker_key,
                json.dumps(
                    {
                        "name": name,
                        "weights": retrained.weights,
                        "bias": retrained.bias,
                        "trained_at": datetime.now(UTC).isoformat(),
                        "feedback": len(records),
                        "folds": folds,
                        "cv_gain_mrr": round(validation.mean_gain, 4),
                    }
                ),
            )
        return {
            "namespace": self.namespace,
            "feedback": len(records),
            "queries": sum(p.evaluable for p in pools),
            "helpful_outside_pool": sum(p.helpful_outside_pool for p in pools),
            "metric": "mrr",
            "current_source": source,
            **validation.as_dict(),  # per fold and mean: "current" / "retrained" MRR and R@5
            "current_weights": {"name": current.name, "weights": dict(current.weights), "bias": current.bias},
            "retrained_weights": {
                "name": retrained.name,
                "weights": dict(retrained.weights),
                "bias": retrained.bias,
            },
            "applied": applied,
        }

    def reset_reranker(self) -> bool:
        """Drop this namespace's trained weights (search goes back to the shipped ones); True when
        there were some."""
        had = self.store.get_meta(self._reranker_key) is not None
        self.store.delete_meta(self._reranker_key)
        return had

    # ---- embedding model (issue 10) -------------------------------------------------------------
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

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass
class Erasure:
    """What one `forget` call erased (or, with `dry_run`, would erase)."""

    namespace: str
    dry_run: bool = False
    everything: bool = False
    turns: list[dict[str, str]] = field(default_factory=list)  # {"id", "text"} (text before erasure)
    events: list[dict[str, str]] = field(default_factory=list)  # {"id", "text"}
    entities: list[str] = field(default_factory=list)  # canonical names
    entity_ids: list[str] = field(default_factory=list)
    event_count: int = 0

    def as_dict(self, *, texts: bool | None = None) -> dict[str, Any]:
        """JSON-ready; the texts are listed for a dry run only (unless `texts` says otherwise), so
        the report of an erasure does not carry what it erased."""
        texts = self.dry_run if texts is None else texts
        return {
            "namespace": self.namespace,
            "dry_run": self.dry_run,
            "everything": self.everything,
            "events_deleted": self.event_count,
            "turns_erased": len(self.turns),
            "entities": self.entities,
            "events": self.events if texts else [e["id"] for e in self.events],
            "turns": self.turns if texts else [t["id"] for t in self.turns],
        }


def _describe_topic(topic: Topic, members: Sequence[Event]) -> Topic:
    """A topic's keywords, label, centroid and size from its members alone (as the global pass
    describes a community)."""
    counts = Counter(k for e in members for k in event_keywords(e))
    keywords = [k for k, _ in counts.most_common(TOPIC_KEYWORDS)]
    vectors = [e.embedding for e in members if e.embedding is not None]
    centroid = unit(np.mean(np.asarray(vectors, dtype=np.float32), axis=0)) if vectors else None
    return topic.model_copy(
        update={
            "keywords": keywords,
            "label": label_from_keywords(keywords),
            "centroid": None if centroid is None else centroid.tolist(),
            "size": len(members),
        }
    )


def _name_finder(names: Iterable[str]) -> Callable[[str], bool]:
    """Whether a text names any of `names`, case-insensitively: as a whole word where a name is
    made of word characters at its ends in a script that separates words with spaces, anywhere in
    the text otherwise (Chinese has no spaces between words)."""
    patterns = []
    for name in sorted({n.strip() for n in names if n and n.strip()}):
        escaped = re.escape(name)
        if name.isascii():
            escaped = r"(?<!\w)" + escaped + r"(?!\w)"
        patterns.append(escaped)
    if not patterns:
        return lambda text: False
    finder = re.compile("|".join(patterns), re.IGNORECASE)
    return lambda text: bool(text) and finder.search(text) is not None


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


def _feedback_ids(ids: Sequence[str] | None, name: str) -> list[str]:
    """Validated, de-duplicated event ids (order kept)."""
    if isinstance(ids, str) or not isinstance(ids, Sequence):
        raise InputError(f"feedback: `{name}` must be a list of event ids, got {type(ids).__name__}")
    if len(ids) > MAX_FEEDBACK_IDS:
        raise InputError(f"feedback: at most {MAX_FEEDBACK_IDS} `{name}` ids, got {len(ids)}")
    bad = [i for i in ids if not isinstance(i, str) or not i.strip()]
    if bad:
        raise InputError(f"feedback: `{name}` ids must be non-empty strings, got {bad[:5]}")
    return list(dict.fromkeys(ids))


@functools.lru_cache(maxsize=64)
def _scorer_from_meta(raw: str, key: str) -> LinearScorer:
    """Parsed once per distinct stored value: searches do not re-parse the JSON."""
    try:
        data = json.loads(raw)
    except ValueError as e:
        raise ConfigError(
            f"reranker: the weights stored under {key!r} are not JSON ({e}); "
            "`train-reranker --reset` removes them"
        ) from e
    return LinearScorer.from_dict(data, where=f"store meta {key!r}")
