"""What a store implements behind the `GraphStore` contract: one private method per read.

`GraphStore`'s public reads (`turns`, `events`, `entities`, `topics`, `links`, `text_search`,
`walk`...) take a query object and dispatch it to one of these. A store implements the abstract
ones; the others are composed from them (correct, but several round trips where a store can make
one) and a store overrides them with one indexed query when it can. A new optimisation is a new
private method here, a branch in one public read, and the stores' queries: never a new public
method every caller and store must learn.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import date

import numpy as np

from simplemem_graph.models import (
    DEFAULT_STATUSES,
    EVENT_LINKS,
    Entity,
    Event,
    Feedback,
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
from simplemem_graph.vectors import unit_rows


class StoreParts(ABC):
    """The reads each store provides, by the query they answer.

    Filters shared by the event reads and searches:
        statuses: event statuses to keep (None: any).
        time_from / time_to: keep events whose `time` date, `deadline` or any of `dates` falls in
            the closed range [time_from, time_to]; None means unbounded.
    """

    # ---- raw log ----------------------------------------------------------------------------
    @abstractmethod
    def _get_turns(self, namespace: str, ids: Sequence[str] | None = None) -> list[Turn]:
        """Turns by id (all of the namespace when ids is None), ordered by time then id."""

    @abstractmethod
    def _pending_turns(
        self, namespace: str, limit: int | None = None, *, ids: Sequence[str] | None = None
    ) -> list[Turn]:
        """Logged turns not consolidated yet (see `apply_delta`), oldest first (time, then id);
        only those among `ids` when given."""

    @abstractmethod
    def _pending_chunk(self, namespace: str) -> list[Turn]:
        """The pending turns of the oldest pending *chunk* (the turns one `add_turns` call logged),
        oldest first; [] when nothing is pending.

        Consolidation takes a chunk at a time, so a batch is consolidated exactly as it was logged,
        whatever other writers logged in between or whoever consolidates it: stage 1 and 2 see the
        same batches in every run, and the graph does not depend on the interleaving."""

    @abstractmethod
    def _count_pending(self, namespace: str | None) -> int:
        """How many logged turns wait for consolidation (of every namespace when None): one count
        through the pending index, no turn read."""

    @abstractmethod
    def _session_speakers(self, namespace: str, sessions: Sequence[str]) -> dict[str, list[str]]:
        """The speakers of each session in the raw log, in order of their first turn."""

    @abstractmethod
    def _failed_turns(self, namespace: str | None) -> list[tuple[str, str, str]]:
        """(namespace, turn id, error) of the turns set aside (of every namespace when None)."""

    @abstractmethod
    def _set_aside_turns(self, namespace: str, failures: dict[str, str]) -> None:
        """Mark pending turns failed, each with its error (turn id -> error): consolidation skips
        them, so one turn that cannot be consolidated never blocks the turns after it, until
        `TurnChange(retry=True)` puts them back in the queue."""

    @abstractmethod
    def _retry_turns(self, namespace: str) -> int:
        """Put a namespace's failed turns back in the pending queue; return how many."""

    @abstractmethod
    def _forget_turns(self, namespace: str, ids: Sequence[str]) -> int:
        """Erase turns from the raw log: their text, speaker and agent are removed (also from the
        turn fulltext index) and a tombstone (id, session, time) stays, which every read and
        `add_turns` honour: the turn is never read, rebuilt or logged again. Returns how many
        turns were erased (already erased ones are not counted)."""

    # ---- events -----------------------------------------------------------------------------
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
        vectors as one matrix with `_event_vectors`). Never write such an event back whole: it would
        clear its embedding; patch it (`GraphDelta.event_patches`), or read it by id first."""

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

    @abstractmethod
    def _open_question_events(self, namespace: str, *, limit: int | None = None) -> list[Event]:
        """Active events that still lack a key slot (non-empty `open_slots`), newest first: the
        open questions of active memory. Read through an index, not by scanning every event."""

    def _recent_entity_events(
        self, namespace: str, entity_ids: Sequence[str], *, limit: int = 200
    ) -> dict[str, list[Event]]:
        """Per entity: the newest `limit` events (any status) that mention it or an alias, oldest
        first (the tail of its storyline)."""
        return {
            entity: self._entity_events(namespace, [entity], statuses=None)[-limit:] if limit > 0 else []
            for entity in dict.fromkeys(entity_ids)
        }

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
        reads each storyline through `_entity_events`."""
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

    def _event_vectors(
        self, namespace: str, *, statuses: Sequence[str] | None = None
    ) -> tuple[list[str], np.ndarray]:
        """The ids and embeddings of the namespace's events that have one (any status when
        `statuses` is None), oldest first as in `_list_events`: (ids, float32 unit rows, one per id).

        The global pass compares every event with its nearest neighbours: it reads the vectors as
        one matrix (the embedded store gathers them from its vector file, Neo4j returns the packed
        float32 bytes), not as events holding Python lists of floats. This default reads events."""
        events = [e for e in self._list_events(namespace, statuses=statuses) if e.embedding is not None]
        if not events:
            return [], np.zeros((0, 0), dtype=np.float32)
        matrix = np.asarray([e.embedding for e in events], dtype=np.float32)
        return [e.id for e in events], unit_rows(matrix).astype(np.float32, copy=False)

    # ---- entities, topics, links, patterns, feedback ----------------------------------------
    @abstractmethod
    def _list_entities(self, namespace: str) -> list[Entity]:
        """All entities of a namespace."""

    @abstractmethod
    def _find_entities(self, namespace: str, name: str) -> list[Entity]:
        """Entities whose canonical name or any alias equals `name`, case-insensitively."""

    def _find_entities_many(self, namespace: str, names: Sequence[str]) -> dict[str, list[Entity]]:
        """`_find_entities` for several names: name -> entities (names with no entity left out)."""
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

    @abstractmethod
    def _list_topics(self, namespace: str, *, centroids: bool = True) -> list[Topic]:
        """All topics of a namespace, by id; `centroids=False` leaves every `centroid` None (the
        global pass only needs the ids and sizes of every topic)."""

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

    @abstractmethod
    def _links(
        self,
        namespace: str,
        *,
        kinds: Sequence[LinkKind] | None = None,
        node_ids: Sequence[str] | None = None,
    ) -> list[Link]:
        """Links of the given kinds (all when None) touching any of node_ids (all when None)."""

    @abstractmethod
    def _patterns(self, namespace: str, *, statuses: Sequence[str] | None = None) -> list[Pattern]:
        """Pattern memories of a namespace (any status when None), by id."""

    @abstractmethod
    def _feedback(self, namespace: str) -> list[Feedback]:
        """The namespace's labelled searches, oldest question first (`at`, then id)."""

    # ---- lexical and vector search ----------------------------------------------------------
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
        """The events made from the k turns most lexically relevant to `query` (`_turn_search`),
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

    # ---- walks ------------------------------------------------------------------------------
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

    def _expand_walks(
        self, namespace: str, seed_ids: Sequence[str], walks: Sequence[Walk]
    ) -> list[list[Neighbor]]:
        """Several `_expand` walks from the same seeds in one call (one read transaction on a
        server), each walk on its own: the neighbours of each walk, in order."""
        return [
            self._expand(namespace, seed_ids, hops=w.hops, kinds=w.kinds, statuses=w.statuses, limit=w.limit)
            for w in walks
        ]

    def _session_chains(
        self, namespace: str, event_ids: Sequence[str], *, forward: bool, steps: int = 8
    ) -> dict[str, list[Event]]:
        """Per event: up to `steps` events that follow it (or precede it) along NEXT links scoped to
        its session ("session:..." scope), nearest first, any status."""
        return defaults.session_chains(self, namespace, event_ids, forward=forward, steps=steps)

    def _events_and_links(
        self, namespace: str, ids: Sequence[str], kinds: Sequence[LinkKind]
    ) -> tuple[list[Event], list[Link]]:
        """The events of `ids` (as `_get_events`) and the links of `kinds` whose two ends are both
        among them (sorted by kind, source, target), in one call: a search reads its candidate
        pool as a small subgraph, e.g. which candidate SUPERSEDES which."""
        wanted = set(ids)
        links = self._links(namespace, kinds=kinds, node_ids=list(wanted)) if wanted else []
        return self._get_events(namespace, ids), [
            link for link in links if link.source in wanted and link.target in wanted
        ]

    # ---- bulk writes for import (every other write is `apply_delta`) ------------------------
    @abstractmethod
    def _upsert_events(self, events: Sequence[Event]) -> None:
        """Insert or replace events by (namespace, id), embeddings included."""

    @abstractmethod
    def _upsert_entities(self, entities: Sequence[Entity]) -> None:
        """Insert or replace entities by (namespace, id)."""

    @abstractmethod
    def _upsert_topics(self, topics: Sequence[Topic]) -> None:
        """Insert or replace topics by (namespace, id)."""

    @abstractmethod
    def _upsert_patterns(self, patterns: Sequence[Pattern]) -> None:
        """Insert or replace pattern memories by (namespace, id). `apply_delta` writes
        `delta.patterns` the same way, in its one transaction; EVIDENCED_BY links are links."""

    @abstractmethod
    def _add_links(self, links: Sequence[Link]) -> None:
        """Add links; idempotent on (namespace, kind, source, target), props replaced."""
