"""The `GraphStore` contract: what every store (embedded SQLite, Neo4j) must do, and nothing more.

Stages talk to a store only through this class. Every method is scoped to one namespace (the
tenant), every write is idempotent on ids (writing the same node or link twice changes nothing),
and a batch call is one transaction: it lands whole or not at all.

The shared contract suite in `tests/contract/` runs the same tests against every store.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from datetime import date
from typing import Any, TypeVar, cast

import numpy as np

from simplemem_graph.errors import InputError
from simplemem_graph.models import (
    DEFAULT_STATUSES,
    EVENT_LINKS,
    RECORD_SESSION_PREFIX,
    Entity,
    Event,
    Feedback,
    GraphDelta,
    JobRun,
    Link,
    LinkKind,
    Neighbor,
    Pattern,
    ScoredId,
    Topic,
    Turn,
    Walk,
)
from simplemem_graph.stores import defaults
from simplemem_graph.stores.helpers import (
    chunk_key,
    compression_counts,
    in_date_range,
    lease_holder_alive,
    new_lease_holder,
    storyline_rank,
    turn_memory,
)
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
from simplemem_graph.vectors import unit_rows

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


class GraphStore(ABC):
    """Persistence, recall channels and graph walks for one memory graph.

    Filters shared by the recall methods:
        statuses: event statuses to keep (default: active and done).
        time_from / time_to: keep events whose `time` date, `deadline` or any of `dates` falls in
            the closed range [time_from, time_to]; None means unbounded.
    """

    kind: str  # "embedded" | "neo4j", reported by stats()

    # ---- the contract's reads: one method per family, the query object says which read ----------
    # Each dispatches to the store's private implementation of that read; a new way to read is a
    # new query field and a branch here and in the stores, never a new public method.

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
        if query.ids is not None:
            return self._get_events(namespace, list(query.ids))
        if query.sessions is not None:
            limit = 200 if query.limit is None else query.limit
            found = self._session_events(namespace, list(query.sessions), since=query.since, limit=limit)
            return [e for e in found if f.admits(e)] if f != EVERY_EVENT else found
        if query.entity_ids is not None:
            return self._entity_events(
                namespace,
                list(query.entity_ids),
                statuses=f.statuses,
                time_from=f.time_from,
                time_to=f.time_to,
            )
        if query.open_questions:
            return self._open_question_events(namespace, limit=query.limit)
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

    # ---- raw log ---------------------------------------------------------------------------
    @abstractmethod
    def add_turns(self, turns: Sequence[Turn], *, pending: bool = True) -> list[Turn]:
        """Append turns to the immutable raw log, marked pending (or done, for an import that brings
        its graph along); return only those not already logged.

        Idempotent on (namespace, id): a turn already present is left unchanged and not returned.
        Logging and marking pending are one transaction: the pending queue is durable. The turns of
        one call form a chunk (see `pending_chunk`), keyed by their earliest time and first id.
        """

    @abstractmethod
    def _pending_turns(
        self, namespace: str, limit: int | None = None, *, ids: Sequence[str] | None = None
    ) -> list[Turn]:
        """Logged turns not consolidated yet (see `apply_delta`), oldest first (time, then id);
        only those among `ids` when given."""

    @abstractmethod
    def _count_pending(self, namespace: str | None) -> int:
        """How many logged turns wait for consolidation (of every namespace when None): one count
        through the pending index, no turn read."""

    @abstractmethod
    def _pending_chunk(self, namespace: str) -> list[Turn]:
        """The pending turns of the oldest pending *chunk* (the turns one `add_turns` call logged),
        oldest first; [] when nothing is pending.

        Consolidation takes a chunk at a time, so a batch is consolidated exactly as it was logged,
        whatever other writers logged in between or whoever consolidates it: stage 1 and 2 see the
        same batches in every run, and the graph does not depend on the interleaving."""

    @abstractmethod
    def _session_speakers(self, namespace: str, sessions: Sequence[str]) -> dict[str, list[str]]:
        """The speakers of each session in the raw log, in order of their first turn."""

    @abstractmethod
    def _get_turns(self, namespace: str, ids: Sequence[str] | None = None) -> list[Turn]:
        """Turns by id (all of the namespace when ids is None), ordered by time then id."""

    @abstractmethod
    def _set_aside_turns(self, namespace: str, failures: dict[str, str]) -> None:
        """Mark pending turns failed, each with its error (turn id -> error): consolidation skips
        them, so one turn that cannot be consolidated never blocks the turns after it, until
        `retry_turns` puts them back in the queue."""

    @abstractmethod
    def _failed_turns(self, namespace: str | None) -> list[tuple[str, str, str]]:
        """(namespace, turn id, error) of the turns set aside (of every namespace when None)."""

    @abstractmethod
    def _retry_turns(self, namespace: str) -> int:
        """Put a namespace's failed turns back in the pending queue; return how many."""

    @abstractmethod
    def _forget_turns(self, namespace: str, ids: Sequence[str]) -> int:
        """Erase turns from the raw log: their text, speaker and agent are removed (also from the
        turn fulltext index) and a tombstone (id, session, time) stays, which `get_turns` and
        `add_turns` honour: the turn is never read, rebuilt or logged again. Returns how many
        turns were erased (already erased ones are not counted)."""

    @abstractmethod
    def scrub(self) -> None:
        """After an erasure, make the store drop what it keeps of deleted data beyond the nodes
        (an index's deleted postings, a write-ahead log)."""

    # ---- nodes -------------------------------------------------------------------------------
    @abstractmethod
    def _upsert_events(self, events: Sequence[Event]) -> None:
        """Insert or replace events by (namespace, id), embeddings included."""

    @abstractmethod
    def _get_events(self, namespace: str, ids: Sequence[str]) -> list[Event]:
        """Events by id, in the order asked; unknown ids are left out."""

    @abstractmethod
    def _list_events(
        self,
        namespace: str,
        *,
        statuses: Sequence[str] | None = None,
        time_from: date | None = None,
        time_to: date | None = None,
        embeddings: bool = True,
    ) -> list[Event]:
        """All events of a namespace (any status when statuses is None), oldest first.

        `embeddings=False` leaves every `embedding` None: a pass over the whole namespace that does
        not compare vectors reads the rest of the events without 384 Python floats each (read the
        vectors as one matrix with `event_vectors`). Never write such an event back whole: upsert
        would clear its embedding; use `update_events`, or `get_events` first."""

    @abstractmethod
    def _upsert_entities(self, entities: Sequence[Entity]) -> None:
        """Insert or replace entities by (namespace, id)."""

    @abstractmethod
    def _list_entities(self, namespace: str) -> list[Entity]:
        """All entities of a namespace."""

    @abstractmethod
    def _find_entities(self, namespace: str, name: str) -> list[Entity]:
        """Entities whose canonical name or any alias equals `name`, case-insensitively."""

    @abstractmethod
    def _upsert_topics(self, topics: Sequence[Topic]) -> None:
        """Insert or replace topics by (namespace, id)."""

    @abstractmethod
    def _list_topics(self, namespace: str, *, centroids: bool = True) -> list[Topic]:
        """All topics of a namespace, by id; `centroids=False` leaves every `centroid` None (the
        global pass only needs the ids and sizes of every topic)."""

    # ---- links -------------------------------------------------------------------------------
    @abstractmethod
    def _add_links(self, links: Sequence[Link]) -> None:
        """Add links; idempotent on (namespace, kind, source, target), props replaced."""

    @abstractmethod
    def links(
        self,
        namespace: str,
        *,
        kinds: Sequence[LinkKind] | None = None,
        node_ids: Sequence[str] | None = None,
    ) -> list[Link]:
        """Links of the given kinds (all when None) touching any of node_ids (all when None)."""

    # ---- recall channels -----------------------------------------------------------------------
    @abstractmethod
    def _vector_search(
        self,
        namespace: str,
        vector: Sequence[float],
        k: int,
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
        tier: str | None = None,
    ) -> list[ScoredId]:
        """Top-k events by cosine similarity of their embedding to `vector`, best first.

        `tier` ("hot" or "cold"): only the events of that tier (`Event.tier`, set by the global
        pass), searched without reading the other tier's vectors; None: every event."""

    @abstractmethod
    def _fulltext_search(
        self,
        namespace: str,
        query: str,
        k: int,
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[ScoredId]:
        """Top-k events by lexical relevance of their text to `query` (Chinese tokenised), best
        first. `query` is user text: it is never interpreted as query syntax."""

    @abstractmethod
    def _turn_search(self, namespace: str, query: str, k: int) -> list[ScoredId]:
        """Top-k turns of the raw log by lexical relevance of their text to `query` (Chinese
        tokenised), best first; ids are turn ids. `query` is user text: it is never interpreted as
        query syntax. The raw log is the source of truth, so this channel sees every word that
        was said, whatever stage 1 kept."""

    def _turn_recall(
        self,
        namespace: str,
        query: str,
        k: int,
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
        bare_turns: bool = False,
    ) -> list[Event]:
        """The events made from the k turns most lexically relevant to `query` (`turn_search`),
        through their FROM links, that pass the status and date filters: ordered by their best
        turn's rank, then by id. One round trip for what would be a search, its provenance links
        and the events. This default makes those three calls.

        With `bare_turns`, a hit turn no event was made from comes back as a verbatim memory of
        the turn (`turn_memory`, id "turn-..."), at its rank: one more call, only when there is
        such a turn."""
        return defaults.turn_recall(
            self,
            namespace,
            query,
            k,
            statuses=statuses,
            time_from=time_from,
            time_to=time_to,
            bare_turns=bare_turns,
        )

    @abstractmethod
    def _entity_events(
        self,
        namespace: str,
        entity_ids: Sequence[str],
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[Event]:
        """Events that MENTION any of the entities or of their aliases (ALIAS_OF, either
        direction), oldest first: an entity's storyline."""

    def _entity_recall(
        self,
        namespace: str,
        groups: Sequence[Sequence[str]],
        vector: Sequence[float] | np.ndarray,
        *,
        limit: int,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[tuple[Event, list[int]]]:
        """The storylines of a question's entities, ranked, in one call: the best `limit` events
        that MENTION the entities of any group (or their aliases), each with the indexes of the
        groups that name it, in `storyline_rank` order (named by more groups, then closer to
        `vector`, then oldest).

        A speaker's storyline can hold thousands of events: the store ranks them and returns the
        few the search keeps, in one round trip for every entity of the question. This default
        reads each storyline through `entity_events`."""
        return defaults.entity_recall(
            self,
            namespace,
            groups,
            vector,
            limit=limit,
            statuses=statuses,
            time_from=time_from,
            time_to=time_to,
        )

    @abstractmethod
    def _expand(
        self,
        namespace: str,
        seed_ids: Sequence[str],
        *,
        hops: int = 2,
        kinds: Sequence[LinkKind] = (*EVENT_LINKS, LinkKind.MENTIONS),
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        limit: int = 50,
    ) -> list[Neighbor]:
        """Association-chain completion: events reachable from the seeds within `hops` steps.

        One step is an event-to-event link of `kinds` (either direction) or, when MENTIONS is in
        `kinds`, Event-MENTIONS->Entity<-MENTIONS-Event (one hop through a shared entity). Seeds
        are not returned; each event is returned once, at its shortest distance, nearest first,
        with the path of link names that reached it ("NEXT", "CAUSES", "MENTIONS <entity name>").
        """

    # ---- atomic writes, leases, job log ----------------------------------------------------------
    @abstractmethod
    def apply_delta(self, delta: GraphDelta) -> int | None:
        """Apply a consolidation delta in ONE transaction: removed links go, then events, entities,
        topics and links are upserted, event patches are set, `turns_done` are marked done, meta
        keys are set, and last the deleted entities, events and topics go with their links (and,
        after deleted entities or events, the orphans they leave, as in `delete_events`).
        A crash (or an error) leaves the store exactly as before the call.

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

    # ---- maintenance ---------------------------------------------------------------------------

    @abstractmethod
    def delete_namespace(self, namespace: str) -> None:
        """Delete everything of a namespace, raw log included."""

    @abstractmethod
    def namespaces(self) -> list[str]:
        """Namespaces with at least one turn or event."""

    @abstractmethod
    def stats(self, namespace: str | None = None) -> dict[str, Any]:
        """Counts: turns, pending (turns not consolidated yet), events, entities, topics, relations
        (by kind), namespaces, store; events by status and tier; `compression` (what the dual
        trigger did, see `compression_counts`); patterns by status and open questions."""

    @abstractmethod
    def close(self) -> None:
        """Release connections and file handles."""

    def _events_and_links(
        self, namespace: str, ids: Sequence[str], kinds: Sequence[LinkKind]
    ) -> tuple[list[Event], list[Link]]:
        """The events of `ids` (as `get_events`) and the links of `kinds` whose two ends are both
        among them (sorted by kind, source, target), in one call: a search reads its candidate
        pool as a small subgraph, e.g. which candidate SUPERSEDES which."""
        wanted = set(ids)
        links = self.links(namespace, kinds=kinds, node_ids=list(wanted)) if wanted else []
        return self._get_events(namespace, ids), [
            link for link in links if link.source in wanted and link.target in wanted
        ]

    def _expand_walks(
        self, namespace: str, seed_ids: Sequence[str], walks: Sequence[Walk]
    ) -> list[list[Neighbor]]:
        """Several `expand` walks from the same seeds in one call (one read transaction on a
        server), each walk on its own: the neighbours of each walk, in order."""
        return [
            self._expand(namespace, seed_ids, hops=w.hops, kinds=w.kinds, statuses=w.statuses, limit=w.limit)
            for w in walks
        ]

    # ---- batched reads: one call for many items ----------------------------------------------------
    # One call instead of one per item, so a search or an ingest batch makes a bounded number of
    # store calls (one round trip each on a server). The defaults here are correct but slow (built on
    # the methods above); stores override them with one indexed query.

    def _find_entities_many(self, namespace: str, names: Sequence[str]) -> dict[str, list[Entity]]:
        """`find_entities` for several names: name -> entities (names with no entity left out)."""
        found = {name: self._find_entities(namespace, name) for name in dict.fromkeys(names)}
        return {name: entities for name, entities in found.items() if entities}

    def _entities_named_from(self, namespace: str, firsts: Sequence[str]) -> list[Entity]:
        """Entities with a canonical name or alias that starts with one of the characters `firsts`
        (case-insensitively): what a shortened Chinese name in a query can stand for. This default
        reads every entity; the embedded store answers from its name index."""
        wanted = {c.casefold() for c in firsts}
        return [
            e
            for e in self._list_entities(namespace)
            if any(n[:1].casefold() in wanted for n in (e.name, *e.aliases))
        ]

    def _session_events(
        self, namespace: str, sessions: Sequence[str], *, since: date | None = None, limit: int = 200
    ) -> list[Event]:
        """Events of the sessions (any status) whose time is on or after `since`: the newest
        `limit` of each session, oldest first."""
        wanted = set(sessions)
        events = [e for e in self._list_events(namespace) if e.session in wanted]
        events = [e for e in events if since is None or e.time.date() >= since]
        kept: list[Event] = []
        for session in wanted:
            kept += [e for e in events if e.session == session][-limit:] if limit > 0 else []
        return sorted(kept, key=lambda e: (e.time, e.id))

    def _recent_entity_events(
        self, namespace: str, entity_ids: Sequence[str], *, limit: int = 200
    ) -> dict[str, list[Event]]:
        """Per entity: the newest `limit` events (any status) that mention it or an alias, oldest
        first (the tail of its storyline)."""
        return {
            entity: self._entity_events(namespace, [entity], statuses=None)[-limit:] if limit > 0 else []
            for entity in dict.fromkeys(entity_ids)
        }

    def _session_chains(
        self, namespace: str, event_ids: Sequence[str], *, forward: bool, steps: int = 8
    ) -> dict[str, list[Event]]:
        """Per event: up to `steps` events that follow it (or precede it) along NEXT links scoped to
        its session ("session:..." scope), nearest first, any status."""
        return defaults.session_chains(self, namespace, event_ids, forward=forward, steps=steps)

    def _nearest_topics(self, namespace: str, vectors: Sequence[Sequence[float]], k: int) -> list[Topic]:
        """The topics whose centroid is among the k nearest (cosine) to any of `vectors`."""
        topics = [t for t in self._list_topics(namespace) if t.centroid is not None]
        if not topics or not vectors or k <= 0:
            return []
        matrix = np.asarray([t.centroid for t in topics], dtype=np.float32)
        queries = np.asarray(vectors, dtype=np.float32)
        scores = queries @ matrix.T
        keep = {int(j) for row in scores for j in np.argsort(-row)[:k]}
        return [topics[j] for j in sorted(keep)]

    def _event_vectors(
        self, namespace: str, *, statuses: Sequence[str] | None = None
    ) -> tuple[list[str], np.ndarray]:
        """The ids and embeddings of the namespace's events that have one (any status when
        `statuses` is None), oldest first as in `list_events`: (ids, float32 unit rows, one per id).

        The global pass compares every event with its nearest neighbours: it reads the vectors as
        one matrix (the embedded store gathers them from its vector file, Neo4j returns the packed
        float32 bytes), not as events holding Python lists of floats. This default reads events."""
        events = [e for e in self._list_events(namespace, statuses=statuses) if e.embedding is not None]
        if not events:
            return [], np.zeros((0, 0), dtype=np.float32)
        matrix = np.asarray([e.embedding for e in events], dtype=np.float32)
        return [e.id for e in events], unit_rows(matrix).astype(np.float32, copy=False)

    # ---- memory above the event: open questions and patterns --------------------------------------
    @abstractmethod
    def _open_question_events(self, namespace: str, *, limit: int | None = None) -> list[Event]:
        """Active events that still lack a key slot (non-empty `open_slots`), newest first: the
        open questions of active memory. Read through an index, not by scanning every event."""

    @abstractmethod
    def _upsert_patterns(self, patterns: Sequence[Pattern]) -> None:
        """Insert or replace pattern memories by (namespace, id). `apply_delta` writes
        `delta.patterns` the same way, in its one transaction; EVIDENCED_BY links are links."""

    @abstractmethod
    def patterns(self, namespace: str, *, statuses: Sequence[str] | None = None) -> list[Pattern]:
        """Pattern memories of a namespace (any status when None), by id."""

    # ---- store-wide settings (the embedding model the vectors were made with) ------------------
    @abstractmethod
    def get_meta(self, key: str) -> str | None:
        """A store-wide setting, or None when it was never set."""

    # ---- labelled searches and per-namespace reranker weights ------------------------------------
    @abstractmethod
    def feedback(self, namespace: str) -> list[Feedback]:
        """The namespace's labelled searches, oldest question first (`at`, then id)."""

    # ---- export / import (shared logic; stores may override for speed) -------------------------
    def export_records(self, namespace: str) -> Iterator[dict[str, Any]]:
        """Every record of a namespace as JSON-ready dicts tagged by `type`; `import_records`
        of this output into an empty namespace rebuilds the same graph."""
        return export_namespace(self, namespace)

    def import_records(
        self, records: Iterable[dict[str, Any]], namespace: str | None = None
    ) -> dict[str, int]:
        """Write exported records (into `namespace` when given, else their own); return counts."""
        return import_into(self, records, namespace)
