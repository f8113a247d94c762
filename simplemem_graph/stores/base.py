"""The `GraphStore` contract: what every store (embedded SQLite, Neo4j) must do, and nothing more.

Stages talk to a store only through this class. Every method is scoped to one namespace (the
tenant), every write is idempotent on ids (writing the same node or link twice changes nothing),
and a write is one transaction: it lands whole or not at all.

The contract is small on purpose (26 public methods, counted by `tests/contract`):
- the raw log: `add_turns`, `turns(TurnQuery...)`, `change_turns(TurnChange)`;
- graph reads, one per family, the query object (`stores.queries`) saying which read: `events`,
  `entities`, `topics`, `links`, `patterns`, `feedback`, `text_search`, `vector_search`, `walk`;
- one writer, `apply_delta(GraphDelta)`, and what it coordinates with: `entity_revision`,
  `get_meta`, leases and the job log;
- administration: `namespaces`, `stats`, `delete_namespace`, `scrub`, export / import, `close`.
The public reads dispatch to the private reads each store implements (`stores.parts`).

The shared contract suite in `tests/contract/` runs the same tests against every store.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar, cast

from simplemem_graph.errors import InputError
from simplemem_graph.models import (
    RECORD_SESSION_PREFIX,
    Event,
    Feedback,
    GraphDelta,
    JobRun,
    Link,
    LinkKind,
    Pattern,
    ScoredId,
    Topic,
    Turn,
)
from simplemem_graph.stores.helpers import (
    chunk_key,
    compression_counts,
    in_date_range,
    lease_holder_alive,
    new_lease_holder,
    storyline_rank,
    turn_memory,
)
from simplemem_graph.stores.parts import StoreParts
from simplemem_graph.stores.queries import (
    EVERY_EVENT,
    SEARCHED,
    EntitiesNamed,
    EntityQuery,
    EntityRead,
    EventQuery,
    EventRead,
    EventVectors,
    FailedTurns,
    PendingCount,
    RankedStorylines,
    RecallFilter,
    SessionChains,
    SessionSpeakers,
    StorylineTails,
    Subgraph,
    TextQuery,
    TextRead,
    TopicQuery,
    TurnChange,
    TurnQuery,
    TurnRead,
    TurnRecall,
    WalkRead,
    Walks,
)
from simplemem_graph.stores.records import export_namespace, import_into

# Helpers every store shares live in helpers.py; they are importable from here as before.
__all__ = [
    "ENTITY_INDEX_LINKS",
    "RECORD_SESSION_PREFIX",
    "GraphStore",
    "chunk_key",
    "compression_counts",
    "in_date_range",
    "lease_holder_alive",
    "new_lease_holder",
    "storyline_rank",
    "turn_memory",
]

# The links `EntityIndex.load` reads besides the entities: a change to any of them moves the
# namespace's entity revision on (`GraphStore.entity_revision`).
ENTITY_INDEX_LINKS = frozenset({LinkKind.ALIAS_OF, LinkKind.WORKS_AT, LinkKind.CANDIDATE_ALIAS})

R = TypeVar("R")


def _namespace(namespace: str | None, query: object) -> str:
    """The namespace a per-namespace read needs: None is only for the reads across namespaces."""
    if namespace is None:
        raise InputError(f"store: {type(query).__name__} reads one namespace; got None")
    return namespace


class GraphStore(StoreParts):
    """Persistence, recall channels and graph walks for one memory graph."""

    kind: str  # "embedded" | "neo4j", reported by stats()

    # ---- raw log ----------------------------------------------------------------------------
    @abstractmethod
    def add_turns(self, turns: Sequence[Turn], *, pending: bool = True) -> list[Turn]:
        """Append turns to the immutable raw log, marked pending (or done, for an import that brings
        its graph along); return only those not already logged.

        Idempotent on (namespace, id): a turn already present is left unchanged and not returned.
        Logging and marking pending are one transaction: the pending queue is durable. The turns of
        one call form a chunk (see `TurnQuery.chunk`), keyed by their earliest time and first id.
        """

    def turns(self, namespace: str | None, query: TurnRead[R]) -> R:
        """A read of the raw log (`TurnQuery`, `SessionSpeakers`, `FailedTurns`, `PendingCount`);
        only `FailedTurns` and `PendingCount` take None for every namespace."""
        if isinstance(query, FailedTurns):
            return cast(R, self._failed_turns(namespace))
        if isinstance(query, PendingCount):
            return cast(R, self._count_pending(namespace))
        ns = _namespace(namespace, query)
        if isinstance(query, SessionSpeakers):
            return cast(R, self._session_speakers(ns, query.sessions))
        if isinstance(query, TurnQuery):
            if query.chunk:
                return cast(R, self._pending_chunk(ns))
            if query.pending:
                ids = None if query.ids is None else list(query.ids)
                return cast(R, self._pending_turns(ns, query.limit, ids=ids))
            return cast(R, self._get_turns(ns, None if query.ids is None else list(query.ids)))
        raise InputError(f"store.turns: not a turn query: {query!r}")

    def change_turns(self, namespace: str, change: TurnChange) -> int:
        """Change turn states (see `TurnChange`); returns how many turns were retried or erased
        (0 for turns set aside). Already erased turns are not counted."""
        given = [bool(change.failed), change.retry, bool(change.forget)]
        if sum(given) > 1:
            raise InputError("store.change_turns: give one of failed, retry or forget")
        if change.failed:
            self._set_aside_turns(namespace, dict(change.failed))
            return 0
        if change.retry:
            return self._retry_turns(namespace)
        return self._forget_turns(namespace, list(change.forget)) if change.forget else 0

    # ---- graph reads: the query object says which read --------------------------------------
    def events(self, namespace: str, query: EventRead[R]) -> R:
        """A read of events (`EventQuery`, `StorylineTails`, `RankedStorylines`, `EventVectors`)."""
        if isinstance(query, EventQuery):
            return cast(R, self._event_query(namespace, query))
        if isinstance(query, StorylineTails):
            return cast(R, self._recent_entity_events(namespace, list(query.entity_ids), limit=query.limit))
        if isinstance(query, RankedStorylines):
            f = query.filter
            return cast(
                R,
                self._entity_recall(
                    namespace,
                    query.groups,
                    query.vector,
                    limit=query.limit,
                    statuses=f.statuses,
                    time_from=f.time_from,
                    time_to=f.time_to,
                ),
            )
        if isinstance(query, EventVectors):
            return cast(R, self._event_vectors(namespace, statuses=query.statuses))
        raise InputError(f"store.events: not an event query: {query!r}")

    def _event_query(self, namespace: str, query: EventQuery) -> list[Event]:
        chosen = [query.ids is not None, query.sessions is not None, query.entity_ids is not None]
        if sum(chosen) + query.open_questions > 1:
            raise InputError("EventQuery: give at most one of ids, sessions, entity_ids, open_questions")
        f = query.filter
        found: list[Event] | None = None
        if query.ids is not None:
            found = self._get_events(namespace, list(query.ids))
        elif query.sessions is not None:
            limit = 200 if query.limit is None else query.limit
            found = self._session_events(namespace, list(query.sessions), since=query.since, limit=limit)
        elif query.open_questions:
            found = self._open_question_events(namespace, limit=query.limit)
        if found is not None:
            # These reads pick a few events by key; the filter, when given, is applied to them here.
            return found if f == EVERY_EVENT else [e for e in found if f.admits(e)]
        if query.entity_ids is not None:
            return self._entity_events(
                namespace,
                list(query.entity_ids),
                statuses=f.statuses,
                time_from=f.time_from,
                time_to=f.time_to,
            )
        return self._list_events(
            namespace,
            statuses=f.statuses,
            time_from=f.time_from,
            time_to=f.time_to,
            embeddings=query.embeddings,
        )

    def entities(self, namespace: str, query: EntityRead[R]) -> R:
        """A read of entities (`EntityQuery`, `EntitiesNamed`)."""
        if isinstance(query, EntitiesNamed):
            return cast(R, self._find_entities_many(namespace, list(query.names)))
        if isinstance(query, EntityQuery):
            if query.name is not None and query.starting is not None:
                raise InputError("EntityQuery: give at most one of name and starting")
            if query.name is not None:
                return cast(R, self._find_entities(namespace, query.name))
            if query.starting is not None:
                return cast(R, self._entities_named_from(namespace, list(query.starting)))
            return cast(R, self._list_entities(namespace))
        raise InputError(f"store.entities: not an entity query: {query!r}")

    def topics(self, namespace: str, query: TopicQuery | None = None) -> list[Topic]:
        """Topics (see `TopicQuery`; every topic with its centroid when None)."""
        query = query or TopicQuery()
        if query.near is not None:
            return self._nearest_topics(namespace, query.near, query.k)
        return self._list_topics(namespace, centroids=query.centroids)

    def links(
        self,
        namespace: str,
        *,
        kinds: Sequence[LinkKind] | None = None,
        node_ids: Sequence[str] | None = None,
    ) -> list[Link]:
        """Links of the given kinds (all when None) touching any of node_ids (all when None)."""
        return self._links(namespace, kinds=kinds, node_ids=node_ids)

    def patterns(self, namespace: str, *, statuses: Sequence[str] | None = None) -> list[Pattern]:
        """Pattern memories of a namespace (any status when None), by id."""
        return self._patterns(namespace, statuses=statuses)

    def feedback(self, namespace: str) -> list[Feedback]:
        """The namespace's labelled searches, oldest question first (`at`, then id)."""
        return self._feedback(namespace)

    def text_search(self, namespace: str, query: TextRead[R]) -> R:
        """A lexical search (`TextQuery` over events or turns, `TurnRecall`)."""
        if isinstance(query, TurnRecall):
            f = query.filter
            return cast(
                R,
                self._turn_recall(
                    namespace,
                    query.text,
                    query.k,
                    statuses=f.statuses,
                    time_from=f.time_from,
                    time_to=f.time_to,
                    bare_turns=query.bare_turns,
                ),
            )
        if isinstance(query, TextQuery):
            if query.target == "turns":
                return cast(R, self._turn_search(namespace, query.text, query.k))
            if query.target != "events":
                raise InputError(f"TextQuery: target must be 'events' or 'turns', not {query.target!r}")
            f = query.filter
            return cast(
                R,
                self._fulltext_search(
                    namespace,
                    query.text,
                    query.k,
                    statuses=f.statuses,
                    time_from=f.time_from,
                    time_to=f.time_to,
                ),
            )
        raise InputError(f"store.text_search: not a text query: {query!r}")

    def vector_search(
        self,
        namespace: str,
        vector: Sequence[float],
        k: int,
        *,
        filter: RecallFilter = SEARCHED,
        tier: str | None = None,
    ) -> list[ScoredId]:
        """Top-k events that pass `filter` by cosine similarity of their embedding to `vector`,
        best first.

        `tier` ("hot" or "cold"): only the events of that tier (`Event.tier`, set by the global
        pass), searched without reading the other tier's vectors; None: every event."""
        return self._vector_search(
            namespace,
            vector,
            k,
            statuses=filter.statuses,
            time_from=filter.time_from,
            time_to=filter.time_to,
            tier=tier,
        )

    def walk(self, namespace: str, query: WalkRead[R]) -> R:
        """A walk along links (`Walks`, `SessionChains`, `Subgraph`)."""
        if isinstance(query, Walks):
            return cast(R, self._expand_walks(namespace, list(query.seeds), list(query.walks)))
        if isinstance(query, SessionChains):
            return cast(
                R,
                self._session_chains(
                    namespace, list(query.event_ids), forward=query.forward, steps=query.steps
                ),
            )
        if isinstance(query, Subgraph):
            return cast(R, self._events_and_links(namespace, list(query.ids), list(query.kinds)))
        raise InputError(f"store.walk: not a walk query: {query!r}")

    # ---- the one writer, and what it coordinates with ---------------------------------------
    @abstractmethod
    def apply_delta(self, delta: GraphDelta) -> int | None:
        """Apply a delta in ONE transaction: THE writer of the graph (a consolidation batch, a
        global-pass step, an erasure, a retrieval's access refresh, a labelled search...).

        Order: removed links go, then events, entities, topics and links are upserted, event
        patches are set, patterns upserted, `turns_done` marked done, meta keys set and removed,
        `touched` events get access_count + 1 and last_accessed = `touched_at`, `feedback` is
        recorded (every event id it names must be an event of its namespace, else InputError and
        nothing of the delta is written); last the deleted entities, events, topics and patterns go
        with their links, and after deleted entities or events the orphans they leave: topics no
        event is IN, and entities no event MENTIONS unless an ALIAS_OF / CANDIDATE_ALIAS / WORKS_AT
        link ties them to an entity that is still mentioned. A crash (or an error) leaves the store
        exactly as before the call.

        Returns the namespace's `entity_revision` after the write when it was still
        `delta.entity_revision` when the write began (nobody else changed the entities since the
        delta was computed), else None; always None for a store without revisions."""

    def entity_revision(self, namespace: str) -> int | None:
        """A number that moves on whenever the namespace's entities or its ALIAS_OF, WORKS_AT or
        CANDIDATE_ALIAS links change, by any writer; None when the store keeps none (then nothing
        derived from them is kept between batches). Consolidation keeps its entity index in memory
        while this has not moved, instead of reading every entity for every batch."""
        return None

    @abstractmethod
    def get_meta(self, key: str) -> str | None:
        """A store-wide setting, or None when it was never set."""

    @abstractmethod
    def acquire_lease(self, namespace: str, name: str, holder: str, ttl_s: float) -> bool:
        """Take (or renew) the named lease of a namespace for `holder` until now + ttl_s.

        True when `holder` now holds it; False when another live holder does. A lease whose time
        ran out, or whose holder `lease_holder_alive` says is dead, may be taken over. Atomic
        across processes: at most one holder at a time."""

    @abstractmethod
    def release_lease(self, namespace: str, name: str, holder: str) -> None:
        """Give the lease back (only if `holder` holds it)."""

    @abstractmethod
    def record_job(self, run: JobRun) -> None:
        """Insert or replace a job run by id (one row per run: started, then finished)."""

    @abstractmethod
    def list_jobs(
        self, namespace: str | None = None, *, kind: str | None = None, limit: int = 50
    ) -> list[JobRun]:
        """Job runs, newest first (of one namespace, or of all when None)."""

    # ---- administration ---------------------------------------------------------------------
    @abstractmethod
    def namespaces(self) -> list[str]:
        """Namespaces with at least one turn or event."""

    @abstractmethod
    def stats(self, namespace: str | None = None) -> dict[str, Any]:
        """Counts: turns, pending (turns not consolidated yet), events, entities, topics, relations
        (by kind), namespaces, store; events by status and tier; `compression` (what the dual
        trigger did, see `compression_counts`); patterns by status and open questions."""

    @abstractmethod
    def delete_namespace(self, namespace: str) -> None:
        """Delete everything of a namespace, raw log included."""

    @abstractmethod
    def scrub(self) -> None:
        """After an erasure, make the store drop what it keeps of deleted data beyond the nodes
        (an index's deleted postings, a write-ahead log)."""

    def export_records(self, namespace: str) -> Iterator[dict[str, Any]]:
        """Every record of a namespace as JSON-ready dicts tagged by `type`; `import_records`
        of this output into an empty namespace rebuilds the same graph."""
        return export_namespace(self, namespace)

    def import_records(
        self, records: Iterable[dict[str, Any]], namespace: str | None = None
    ) -> dict[str, int]:
        """Write exported records (into `namespace` when given, else their own); return counts."""
        return import_into(self, records, namespace)

    @abstractmethod
    def close(self) -> None:
        """Release connections and file handles."""
