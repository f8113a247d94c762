"""`Neo4jStore`: the `GraphStore` contract on Neo4j 5.26+ (one server, a cluster or Aura).

- Every query is a file in `cypher/`, loaded by name (`stores.cypher.load_query`) and always
  parameterised; writes are batched as `UNWIND $rows` inside managed transactions, so the driver
  retries transient failures and a batch lands whole or not at all.
- Community edition has no node keys: each node carries `uid = namespace + '|' + id` under a
  uniqueness constraint. Relationships carry `namespace` and their props as JSON (`props_json`).
- Links may arrive before their nodes (as in the embedded store): the missing end is created as a
  stub (`stub = true`) that the node's upsert fills in; reads skip stubs.
- Recall uses the native vector index (over-fetch, then filter by namespace) and a whitespace
  fulltext index over text pre-tokenised by `text.search_terms`, the same terms FTS5 sees.
"""

from __future__ import annotations

import json
import secrets
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any, TypeVar

import numpy as np
from neo4j import (
    Driver,
    GraphDatabase,
    ManagedTransaction,
    NotificationDisabledClassification,
    RoutingControl,
)
from neo4j.exceptions import AuthError, ClientError, ServiceUnavailable, SessionExpired
from pydantic import ValidationError

from simplemem_graph.errors import ConfigError, InputError, StoreUnavailableError
from simplemem_graph.models import (
    DEFAULT_STATUSES,
    EVENT_LINKS,
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
    TurnState,
    Walk,
)
from simplemem_graph.stores.base import (
    ENTITY_INDEX_LINKS,
    GraphStore,
    chunk_key,
    compression_counts,
    lease_holder_alive,
)
from simplemem_graph.stores.cypher import load_query, query_names
from simplemem_graph.stores.neo4j_records import (
    LINK_QUERIES,
    entity_props,
    event_from_props,
    event_row,
    link_row,
    lucene_query,
    model_fields,
    namespace_token,
    recall_filters,
    uid_of,
)
from simplemem_graph.text import SEARCH_TERMS_VERSION, search_terms
from simplemem_graph.vectors import unit_rows

T = TypeVar("T")

_BATCH = 500  # rows per UNWIND: big enough to amortise round trips, small enough for the heap
_VECTOR_FETCH_MIN = 100
_VECTOR_FETCH_MAX = 10_000
# Widening past this many rows costs more than an exact search of a namespace of tens of thousands
# of events (measured beside 1M others: an index query of 4,500 rows ~1 s, exact over 200 ~10 ms).
_VECTOR_WIDEN_MAX = 2_000
_TEXT_FETCH_MIN = 50  # fulltext rows Lucene returns at first: a margin over k for the status/date filters
# Bumped when the fulltext fields the store derives change (with text.SEARCH_TERMS_VERSION, which
# versions the terms themselves): "namespace-token" added `search_ns`, the namespace's token.
_SEARCH_FIELDS_VERSION = "namespace-token"
_DELETE_BATCH = 5_000
_CHAIN_MAX = 16  # longest session chain one query walks (the bound is literal in the Cypher)
_DRIVER_ERRORS = (ServiceUnavailable, SessionExpired, AuthError)
# Bolt only: the driver would take http:// for its preview HTTP API, which this store does not use.
_SCHEMES = ("neo4j", "neo4j+s", "neo4j+ssc", "bolt", "bolt+s", "bolt+ssc")


class Neo4jStore(GraphStore):
    """The Neo4j store. Open it with `Neo4jStore.connect(uri)`; `__init__` does no I/O."""

    kind = "neo4j"

    def __init__(self, driver: Driver, *, database: str | None = None, dimension: int = 384, uri: str = ""):
        self._driver = driver
        self.database = database
        self.dimension = dimension
        self.uri = uri

    @classmethod
    def connect(
        cls,
        uri: str,
        *,
        database: str | None = None,
        auth: tuple[str, str] | None = None,
        dimension: int = 384,
        retry_s: float = 120.0,
    ) -> Neo4jStore:
        """Connect, check the server answers, and create the schema if it is missing.

        Args:
            uri: `neo4j://host:7687` (routing: one server, a cluster or Aura), `neo4j+s://...`,
                or `bolt://...` for a direct connection.
            database: the database name; None for the server's default.
            auth: (user, password), or None for a server with auth disabled.
            dimension: the embedding model's dimension, for the vector index.
            retry_s: how long a transaction is retried on transient errors (server restarting,
                connection lost) before StoreUnavailableError; every write is idempotent, so a
                retried batch is applied once.

        Returns:
            A ready store.

        Raises:
            StoreUnavailableError: the server cannot be reached or refuses the credentials.
            ConfigError: the vector index exists with another dimension (another model).

        Example:
            >>> store = Neo4jStore.connect("neo4j://localhost:7687")  # doctest: +SKIP
        """
        if uri.split("://", 1)[0] not in _SCHEMES:
            raise ConfigError(
                f"neo4j store: {uri!r} is not a Bolt URI; use one of {[s + '://' for s in _SCHEMES]}"
            )
        try:
            driver = GraphDatabase.driver(
                uri,
                auth=auth,
                max_transaction_retry_time=retry_s,
                # A fresh database has no labels yet; "label does not exist" is expected noise.
                notifications_disabled_classifications=[NotificationDisabledClassification.UNRECOGNIZED],
            )
        except ValueError as e:
            raise ConfigError(f"neo4j store: bad URI {uri!r}: {e}") from e
        try:
            driver.verify_connectivity()
        except _DRIVER_ERRORS as e:
            driver.close()
            raise StoreUnavailableError(f"neo4j store: cannot connect to {uri}: {e}") from e
        store = cls(driver, database=database, dimension=dimension, uri=uri)
        try:
            store.ensure_schema()
        except BaseException:
            driver.close()
            raise
        return store

    def ensure_schema(self) -> None:
        """Run every `schema_*.cypher` in name order (all idempotent), check the vector index's
        dimension, and wait for the indexes to come online."""
        for name in (n for n in query_names() if n.startswith("schema_")):
            try:
                self._execute(name, dimension=self.dimension)
            except ClientError as e:
                # Two processes creating the same index at once: the loser is told it exists.
                if "EquivalentSchemaRuleAlreadyExists" not in (e.code or ""):
                    raise
        rows = self._execute("show_vector_index")
        if rows and rows[0]["dimensions"] != self.dimension:
            raise ConfigError(
                f"neo4j store: the event vector index holds {rows[0]['dimensions']}-d embeddings but "
                f"this store was opened for {self.dimension}-d ones: one database needs one embedding model"
            )
        self._execute("await_indexes", timeout=300)
        self._reindex_search_terms()

    def _reindex_search_terms(self) -> None:
        """Give every event and turn the fulltext fields of this version (the terms of
        `text.search_terms` and the namespace token) when the database was written with others, in
        batches by uid; the versions are recorded only at the end, so an interrupted run starts
        again on the next open (each batch sets, never appends)."""
        if (self.get_meta("search_terms"), self.get_meta("search_fields")) == (
            SEARCH_TERMS_VERSION,
            _SEARCH_FIELDS_VERSION,
        ):
            return

        def reindex(fetch: Callable[[str], list[dict[str, Any]]], store: Callable[[list], Any]) -> None:
            after = ""
            while rows := fetch(after):
                store(
                    [
                        {
                            "uid": r["uid"],
                            "search_text": " ".join(search_terms(r["text"])),
                            "search_ns": namespace_token(r["namespace"]),
                        }
                        for r in rows
                    ]
                )
                after = rows[-1]["uid"]

        reindex(
            lambda after: self._execute("search_text_batch_events", read=True, after=after, limit=_BATCH),
            lambda rows: self._execute("set_search_text_events", rows=rows),
        )
        reindex(
            lambda after: self._execute("search_text_batch_turns", read=True, after=after, limit=_BATCH),
            lambda rows: self._execute("set_search_text_turns", rows=rows),
        )
        self.set_meta("search_terms", SEARCH_TERMS_VERSION)
        self.set_meta("search_fields", _SEARCH_FIELDS_VERSION)

    # ---- plumbing -------------------------------------------------------------------------------
    def _execute(self, name: str, *, read: bool = False, **params: Any) -> list[dict[str, Any]]:
        """One query in its own managed transaction (retried on transient errors)."""
        routing = RoutingControl.READ if read else RoutingControl.WRITE
        try:
            result = self._driver.execute_query(
                load_query(name), params, database_=self.database, routing_=routing
            )
        except _DRIVER_ERRORS as e:
            raise StoreUnavailableError(
                f"neo4j store: {name} failed, server {self.uri or '?'} unavailable: {e}"
            ) from e
        # dict(record), not record.data(): data() walks every value, byte by byte through bytes.
        return [dict(record) for record in result.records]

    def _transaction(self, work: Callable[[ManagedTransaction], T], *, read: bool = False) -> T:
        """Several queries in one managed transaction; `work` may be re-run on transient errors."""
        try:
            with self._driver.session(database=self.database) as session:
                return session.execute_read(work) if read else session.execute_write(work)
        except _DRIVER_ERRORS as e:
            raise StoreUnavailableError(
                f"neo4j store: transaction failed, server {self.uri or '?'} unavailable: {e}"
            ) from e

    @staticmethod
    def _run(tx: ManagedTransaction, name: str, **params: Any) -> list[dict[str, Any]]:
        return [dict(record) for record in tx.run(load_query(name), params)]

    @classmethod
    def _run_batches(cls, tx: ManagedTransaction, name: str, rows: Sequence[dict[str, Any]]) -> None:
        for start in range(0, len(rows), _BATCH):
            tx.run(load_query(name), rows=list(rows[start : start + _BATCH])).consume()

    def _write_rows(self, name: str, rows: Sequence[dict[str, Any]]) -> None:
        if rows:
            self._transaction(lambda tx: self._run_batches(tx, name, rows))

    def _check_vector(self, vector: Sequence[float], what: str) -> list[float]:
        values = [float(v) for v in vector]
        if len(values) != self.dimension:
            raise InputError(
                f"neo4j store: {what} has {len(values)} dimensions; "
                f"the store holds {self.dimension}-d embeddings"
            )
        return values

    # ---- raw log --------------------------------------------------------------------------------
    def add_turns(self, turns: Sequence[Turn], *, pending: bool = True) -> list[Turn]:
        state = (TurnState.PENDING if pending else TurnState.DONE).value
        chunk = chunk_key(turns)
        rows = [
            {
                "index": i,
                "uid": uid_of(t.namespace, t.id),
                "props": {
                    **t.model_dump(),
                    "uid": uid_of(t.namespace, t.id),
                    "state": state,
                    "chunk": chunk,
                    "search_ns": namespace_token(t.namespace),
                },
                # The turn fulltext index reads pre-tokenised text, the words FTS5 sees.
                "search_text": " ".join(search_terms(t.text)),
            }
            for i, t in enumerate(turns)
        ]

        def work(tx: ManagedTransaction) -> list[int]:
            added: list[int] = []
            for start in range(0, len(rows), _BATCH):
                batch = rows[start : start + _BATCH]
                added += [r["index"] for r in self._run(tx, "add_turns", rows=batch) if r["added"]]
            return added

        added = self._transaction(work) if rows else []
        return [turns[i] for i in sorted(added)]

    def get_turns(self, namespace: str, ids: Sequence[str] | None = None) -> list[Turn]:
        if ids is None:
            rows = self._execute("list_turns", read=True, namespace=namespace)
        else:
            rows = self._execute("get_turns", read=True, uids=[uid_of(namespace, i) for i in ids])
        return [Turn.model_validate(model_fields(r["turn"])) for r in rows]

    def pending_turns(
        self, namespace: str, limit: int | None = None, *, ids: Sequence[str] | None = None
    ) -> list[Turn]:
        if ids is not None and not ids:
            return []
        rows = self._execute(
            "pending_turns",
            read=True,
            namespace=namespace,
            limit=limit if limit is not None else 2**62,
            uids=None if ids is None else [uid_of(namespace, i) for i in ids],
        )
        return [Turn.model_validate(model_fields(r["turn"])) for r in rows]

    def count_pending(self, namespace: str | None) -> int:
        return self._execute("count_pending", read=True, namespace=namespace)[0]["pending"]

    def pending_chunk(self, namespace: str) -> list[Turn]:
        rows = self._execute("pending_chunk", read=True, namespace=namespace)
        return [Turn.model_validate(model_fields(r["turn"])) for r in rows]

    def set_aside_turns(self, namespace: str, failures: dict[str, str]) -> None:
        rows = [{"uid": uid_of(namespace, turn_id), "error": error} for turn_id, error in failures.items()]
        self._write_rows("set_aside_turns", rows)

    def failed_turns(self, namespace: str | None) -> list[tuple[str, str, str]]:
        rows = self._execute("failed_turns", read=True, namespace=namespace)
        return [(r["namespace"], r["id"], r["error"]) for r in rows]

    def retry_turns(self, namespace: str) -> int:
        return self._execute("retry_turns", namespace=namespace)[0]["retried"]

    def forget_turns(self, namespace: str, ids: Sequence[str]) -> int:
        uids = [uid_of(namespace, i) for i in dict.fromkeys(ids)]
        return self._execute("forget_turns", uids=uids)[0]["forgotten"] if uids else 0

    def delete_patterns(self, namespace: str, ids: Sequence[str]) -> None:
        uids = [uid_of(namespace, i) for i in dict.fromkeys(ids)]
        if uids:
            self._execute("delete_patterns", uids=uids)

    def scrub(self) -> None:
        """Nothing a client can do: the server drops deleted nodes' store records and merges
        the index segments that held their terms on its own schedule."""

    def session_speakers(self, namespace: str, sessions: Sequence[str]) -> dict[str, list[str]]:
        if not sessions:
            return {}
        rows = self._execute("session_speakers", read=True, namespace=namespace, sessions=list(sessions))
        speakers: dict[str, list[str]] = {}
        for row in rows:
            speakers.setdefault(row["session"], []).append(row["speaker"])
        return speakers

    # ---- events ---------------------------------------------------------------------------------
    def _event_rows(self, events: Sequence[Event]) -> list[dict[str, Any]]:
        for event in events:
            if event.embedding is not None:
                self._check_vector(event.embedding, f"event {event.id}'s embedding")
        return [event_row(e) for e in events]

    def upsert_events(self, events: Sequence[Event]) -> None:
        self._write_rows("upsert_events", self._event_rows(events))

    def events_and_links(
        self, namespace: str, ids: Sequence[str], kinds: Sequence[LinkKind]
    ) -> tuple[list[Event], list[Link]]:
        if not ids:
            return [], []
        rows = self._execute(
            "events_and_links",
            read=True,
            uids=[uid_of(namespace, i) for i in ids],
            kinds=[LinkKind(k).value for k in kinds],
        )
        found = {r["event"]["id"]: event_from_props(r["event"]) for r in rows}
        links = [_link_from_row(namespace, r["event"]["id"], link) for r in rows for link in r["links"]]
        events = [found[i] for i in dict.fromkeys(ids) if i in found]
        return events, sorted(links, key=lambda link: (link.kind.value, link.source, link.target))

    def get_events(self, namespace: str, ids: Sequence[str]) -> list[Event]:
        if not ids:
            return []
        rows = self._execute("get_events", read=True, uids=[uid_of(namespace, i) for i in ids])
        found = {r["event"]["id"]: event_from_props(r["event"]) for r in rows}
        return [found[i] for i in dict.fromkeys(ids) if i in found]

    def list_events(
        self,
        namespace: str,
        *,
        statuses: Sequence[str] | None = None,
        time_from: date | None = None,
        time_to: date | None = None,
        embeddings: bool = True,
    ) -> list[Event]:
        rows = self._execute(
            "list_events", read=True, namespace=namespace, **recall_filters(statuses, time_from, time_to)
        )
        if not embeddings:
            return [event_from_props({**r["event"], "embedding_f32": None}) for r in rows]
        return [event_from_props(r["event"]) for r in rows]

    def event_vectors(
        self, namespace: str, *, statuses: Sequence[str] | None = None
    ) -> tuple[list[str], np.ndarray]:
        filters = recall_filters(statuses, None, None)
        rows = self._execute("event_vectors", read=True, namespace=namespace, statuses=filters["statuses"])
        if not rows:
            return [], np.zeros((0, 0), dtype=np.float32)
        packed = np.frombuffer(b"".join(r["embedding"] for r in rows), dtype=np.float32)
        return [r["id"] for r in rows], unit_rows(packed.reshape(len(rows), -1)).astype(np.float32)

    def update_events(self, namespace: str, ids: Sequence[str], fields: dict[str, Any]) -> None:
        if ids:
            self._transaction(lambda tx: self._patch_events(tx, namespace, ids, fields))

    def _patch_events(
        self, tx: ManagedTransaction, namespace: str, ids: Sequence[str], fields: dict[str, Any]
    ) -> None:
        """Read, change and rewrite events inside the caller's transaction."""
        uids = [uid_of(namespace, i) for i in ids]
        events = [event_from_props(r["event"]) for r in self._run(tx, "get_events", uids=uids)]
        try:
            updated = [Event.model_validate({**e.model_dump(), **fields}) for e in events]
        except ValidationError as e:
            raise InputError(f"neo4j store: update_events cannot set {sorted(fields)}: {e}") from e
        self._run_batches(tx, "upsert_events", self._event_rows(updated))

    def touch_events(self, namespace: str, ids: Sequence[str], at: datetime) -> None:
        if ids:
            self._execute("touch_events", uids=[uid_of(namespace, i) for i in ids], at=at)

    # ---- entities and topics --------------------------------------------------------------------
    def upsert_entities(self, entities: Sequence[Entity]) -> None:
        rows = self._entity_rows(entities)

        def work(tx: ManagedTransaction) -> None:
            self._run_batches(tx, "upsert_entities", rows)
            self._revise_entities(tx, {e.namespace for e in entities})

        if rows:
            self._transaction(work)

    # ---- the entity revision: what lets consolidation keep its entity index between batches ------
    def entity_revision(self, namespace: str) -> int | None:
        return self._execute("entity_revision", read=True, namespace=namespace)[0]["value"]

    def _revise_entities(self, tx: ManagedTransaction, namespaces: Iterable[str]) -> int | None:
        """Move the revision of each namespace on, inside the writing transaction (as the embedded
        store's triggers do); returns the last new value."""
        value = None
        for namespace in sorted(set(namespaces)):
            value = secrets.randbits(62) + 1
            self._run(tx, "bump_entity_revision", namespace=namespace, value=value)
        return value

    @staticmethod
    def _index_link_namespaces(links: Sequence[Link]) -> set[str]:
        """Namespaces whose entity index reads one of these links."""
        return {link.namespace for link in links if LinkKind(link.kind) in ENTITY_INDEX_LINKS}

    @staticmethod
    def _entity_rows(entities: Sequence[Entity]) -> list[dict[str, Any]]:
        return [{"uid": uid_of(e.namespace, e.id), "props": entity_props(e)} for e in entities]

    def list_entities(self, namespace: str) -> list[Entity]:
        rows = self._execute("list_entities", read=True, namespace=namespace)
        return [Entity.model_validate(model_fields(r["entity"])) for r in rows]

    def entities_named_from(self, namespace: str, firsts: Sequence[str]) -> list[Entity]:
        wanted = sorted({c.casefold() for c in firsts if c})
        if not wanted:
            return []
        rows = self._execute("entities_named_from", read=True, namespace=namespace, firsts=wanted)
        return [Entity.model_validate(model_fields(r["entity"])) for r in rows]

    def find_entities(self, namespace: str, name: str) -> list[Entity]:
        rows = self._execute("find_entities", read=True, namespace=namespace, key=name.casefold())
        return [Entity.model_validate(model_fields(r["entity"])) for r in rows]

    def upsert_topics(self, topics: Sequence[Topic]) -> None:
        self._write_rows("upsert_topics", self._topic_rows(topics))

    @staticmethod
    def _topic_rows(topics: Sequence[Topic]) -> list[dict[str, Any]]:
        return [
            {
                "uid": uid_of(t.namespace, t.id),
                "props": {**t.model_dump(mode="json"), "uid": uid_of(t.namespace, t.id)},
            }
            for t in topics
        ]

    def list_topics(self, namespace: str, *, centroids: bool = True) -> list[Topic]:
        rows = self._execute("list_topics", read=True, namespace=namespace, centroids=centroids)
        return [Topic.model_validate(model_fields(r["topic"])) for r in rows]

    # ---- links ----------------------------------------------------------------------------------
    def add_links(self, links: Sequence[Link]) -> None:
        def work(tx: ManagedTransaction) -> None:
            self._add_links_in(tx, links)
            self._revise_entities(tx, self._index_link_namespaces(links))

        if links:
            self._transaction(work)

    @classmethod
    def _add_links_in(cls, tx: ManagedTransaction, links: Sequence[Link]) -> None:
        by_query: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for link in links:
            by_query[LINK_QUERIES[link.kind]].append(link_row(link))
        for name, rows in sorted(by_query.items()):
            cls._run_batches(tx, name, rows)

    def remove_links(self, links: Sequence[Link]) -> None:
        rows = self._removal_rows(links)

        def work(tx: ManagedTransaction) -> None:
            self._run_batches(tx, "remove_links", rows)
            self._revise_entities(tx, self._index_link_namespaces(links))

        if rows:
            self._transaction(work)

    @staticmethod
    def _removal_rows(links: Sequence[Link]) -> list[dict[str, Any]]:
        return [
            {
                "kind": lk.kind.value,
                "source_uid": uid_of(lk.namespace, lk.source),
                "target_uid": uid_of(lk.namespace, lk.target),
            }
            for lk in links
        ]

    # ---- memory above the event (issue 14) ------------------------------------------------------
    def open_question_events(self, namespace: str, *, limit: int | None = None) -> list[Event]:
        rows = self._execute(
            "open_question_events", read=True, namespace=namespace, limit=2**31 if limit is None else limit
        )
        return [event_from_props(r["event"]) for r in rows]

    def upsert_patterns(self, patterns: Sequence[Pattern]) -> None:
        self._write_rows("upsert_patterns", self._pattern_rows(patterns))

    @staticmethod
    def _pattern_rows(patterns: Sequence[Pattern]) -> list[dict[str, Any]]:
        # JSON mode: datetimes travel as ISO strings and come back through the model.
        return [
            {
                "uid": uid_of(p.namespace, p.id),
                "props": {**p.model_dump(mode="json"), "uid": uid_of(p.namespace, p.id)},
            }
            for p in patterns
        ]

    def list_patterns(self, namespace: str, *, statuses: Sequence[str] | None = None) -> list[Pattern]:
        wanted = None if statuses is None else [str(s) for s in statuses]
        rows = self._execute("list_patterns", read=True, namespace=namespace, statuses=wanted)
        return [Pattern.model_validate(model_fields(r["pattern"])) for r in rows]

    # ---- atomic writes, leases, job log -----------------------------------------------------------
    def apply_delta(self, delta: GraphDelta) -> int | None:
        namespace = delta.namespace
        touches_entities = bool(
            delta.entities
            or self._index_link_namespaces(delta.links)
            or self._index_link_namespaces(delta.removed_links)
        )
        event_rows = self._event_rows(delta.events)
        removals = self._removal_rows(delta.removed_links)
        entity_rows = self._entity_rows(delta.entities)
        topic_rows = self._topic_rows(delta.topics)
        pattern_rows = self._pattern_rows(delta.patterns)
        done = [uid_of(namespace, i) for i in delta.turns_done]

        def work(tx: ManagedTransaction) -> int | None:
            # One managed transaction: the driver re-runs all of it on a transient error, and the
            # server commits all of it or none. Every statement is idempotent, so a re-run is safe.
            # First, under the revision's write lock: did anyone change the entities since the
            # delta was computed?
            current = self._run(tx, "lock_entity_revision", namespace=namespace)[0]["value"]
            self._run_batches(tx, "remove_links", removals)
            self._run_batches(tx, "upsert_events", event_rows)
            self._run_batches(tx, "upsert_entities", entity_rows)
            self._run_batches(tx, "upsert_topics", topic_rows)
            self._add_links_in(tx, delta.links)
            for patch in delta.event_patches:
                self._patch_events(tx, namespace, patch.ids, patch.fields)
            self._run_batches(tx, "upsert_patterns", pattern_rows)
            for start in range(0, len(done), _BATCH):
                self._run(tx, "mark_turns_done", uids=done[start : start + _BATCH])
            if touches_entities:
                revised = self._revise_entities(tx, [namespace])
                return revised if current == delta.entity_revision else None
            return current if current == delta.entity_revision else None

        if delta.is_empty():
            current = self.entity_revision(namespace)
            return current if current == delta.entity_revision else None
        return self._transaction(work)

    def acquire_lease(self, namespace: str, name: str, holder: str, ttl_s: float) -> bool:
        uid = uid_of(namespace, name)

        def work(tx: ManagedTransaction) -> bool:
            row = self._run(tx, "lease_lock", uid=uid, namespace=namespace, lease=name)[0]
            now = datetime.now().timestamp()
            current, expires = row["holder"], row["expires"]
            if current and current != holder and (expires or 0) > now and lease_holder_alive(current):
                return False
            self._run(tx, "lease_set", uid=uid, holder=holder, expires=now + ttl_s)
            return True

        return self._transaction(work)

    def release_lease(self, namespace: str, name: str, holder: str) -> None:
        self._execute("lease_release", uid=uid_of(namespace, name), holder=holder)

    def record_job(self, run: JobRun) -> None:
        self._execute(
            "record_job",
            uid=uid_of(run.namespace, run.id),
            namespace=run.namespace,
            kind=run.kind,
            started=run.started.timestamp(),
            data=run.model_dump_json(),
        )

    def list_jobs(
        self, namespace: str | None = None, *, kind: str | None = None, limit: int = 50
    ) -> list[JobRun]:
        rows = self._execute("list_jobs", read=True, namespace=namespace, kind=kind, limit=limit)
        return [JobRun.model_validate_json(r["data"]) for r in rows]

    def list_links(
        self,
        namespace: str,
        *,
        kinds: Sequence[LinkKind] | None = None,
        node_ids: Sequence[str] | None = None,
    ) -> list[Link]:
        kind_names = None if kinds is None else [LinkKind(k).value for k in kinds]
        if node_ids is None:
            rows = self._execute("list_links", read=True, namespace=namespace, kinds=kind_names)
        elif not node_ids:
            return []
        else:
            uids = [uid_of(namespace, i) for i in node_ids]
            rows = self._execute(
                "list_links_of_nodes", read=True, namespace=namespace, kinds=kind_names, uids=uids
            )
        return [_link_from_row(namespace, r["source"], r) for r in rows]

    # ---- recall channels --------------------------------------------------------------------------
    def vector_search(
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
        query = self._check_vector(vector, "the query vector")
        if k <= 0:
            return []
        filters = {
            "namespace": namespace,
            "vector": query,
            "k": k,
            **recall_filters(statuses, time_from, time_to),
        }
        if tier is not None:  # one tier: the same search filtered on it too (the hot tier first)
            filters["tier"] = tier
        fetch = min(max(k * 10, _VECTOR_FETCH_MIN), _VECTOR_FETCH_MAX)
        while True:
            if tier is None:
                row = self._execute("vector_search", read=True, fetch=fetch, **filters)[0]
            else:
                row = self._execute("vector_search_tier", read=True, fetch=fetch, **filters)[0]
            hits = row["hits"]
            if len(hits) >= k or row["fetched"] < fetch:
                break  # enough, or the index has nothing more to give
            # What the share of survivors so far says the index must give. None of the nearest
            # `fetch` is this namespace's (no date range to blame): a small tenant beside a large
            # one, searched exactly at once rather than by widening a fixed factor five times.
            # Under a date range, half a survivor is assumed and the index asked once more.
            dated = time_from is not None or time_to is not None
            needed = 2 * k * fetch / len(hits) if hits else (4 * k * fetch if dated else float("inf"))
            if fetch >= _VECTOR_FETCH_MAX or needed > _VECTOR_WIDEN_MAX:
                # This namespace (or tier) is a thin slice of a big index: search it exactly instead.
                if tier is None:
                    hits = self._execute("vector_search_exact", read=True, **filters)
                else:
                    hits = self._execute("vector_search_tier_exact", read=True, **filters)
                break
            fetch = int(max(fetch * 4, needed))
        # Neo4j reports cosine as (1 + cos) / 2; callers compare it with other stores' plain cosine.
        return [ScoredId(id=h["id"], score=2.0 * h["score"] - 1.0) for h in hits]

    def fulltext_search(
        self,
        namespace: str,
        query: str,
        k: int,
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[ScoredId]:
        lucene = lucene_query(query, namespace)
        if lucene is None or k <= 0:
            return []
        filters = {
            "query": lucene,
            "k": k,
            "namespace": namespace,
            **recall_filters(statuses, time_from, time_to),
        }
        fetch = max(4 * k, _TEXT_FETCH_MIN)
        while True:
            row = self._execute("fulltext_search", read=True, fetch=fetch, **filters)[0]
            if len(row["hits"]) >= k or row["fetched"] < fetch:
                break  # enough, or Lucene has nothing more to give
            fetch *= 8  # the status or date filters dropped too many: read further down the ranking
        return [ScoredId(id=h["id"], score=h["score"]) for h in row["hits"]]

    def turn_search(self, namespace: str, query: str, k: int) -> list[ScoredId]:
        lucene = lucene_query(query, namespace)
        if lucene is None or k <= 0:
            return []
        fetch = max(4 * k, _TEXT_FETCH_MIN)
        rows = self._execute("turn_search", read=True, query=lucene, fetch=fetch, k=k, namespace=namespace)
        return [ScoredId(id=r["id"], score=r["score"]) for r in rows]

    def turn_recall(
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
        if bare_turns:
            # verbatim memories of hit turns without events: the generic three calls (one query
            # returning them too is not written yet)
            return super().turn_recall(
                namespace, query, k, statuses=statuses, time_from=time_from, time_to=time_to, bare_turns=True
            )
        lucene = lucene_query(query, namespace)
        if lucene is None or k <= 0:
            return []
        rows = self._execute(
            "turn_recall",
            read=True,
            query=lucene,
            fetch=max(4 * k, _TEXT_FETCH_MIN),
            k=k,
            namespace=namespace,
            **recall_filters(statuses, time_from, time_to),
        )
        return [event_from_props(r["event"]) for r in rows]

    def entity_events(
        self,
        namespace: str,
        entity_ids: Sequence[str],
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[Event]:
        if not entity_ids:
            return []
        rows = self._execute(
            "entity_events",
            read=True,
            uids=[uid_of(namespace, i) for i in entity_ids],
            **recall_filters(statuses, time_from, time_to),
        )
        return [event_from_props(r["event"]) for r in rows]

    def entity_recall(
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
        if not groups or limit <= 0:
            return []
        rows = self._execute(
            "entity_recall",
            read=True,
            groups=[[uid_of(namespace, i) for i in ids] for ids in groups],
            vector=[float(x) for x in np.asarray(vector, dtype=np.float32)],
            limit=limit,
            **recall_filters(statuses, time_from, time_to),
        )
        return [(event_from_props(r["event"]), sorted(r["named_by"])) for r in rows]

    def expand(
        self,
        namespace: str,
        seed_ids: Sequence[str],
        *,
        hops: int = 2,
        kinds: Sequence[LinkKind] = (*EVENT_LINKS, LinkKind.MENTIONS),
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        limit: int = 50,
    ) -> list[Neighbor]:
        walk = Walk(
            kinds=list(kinds), hops=hops, statuses=None if statuses is None else list(statuses), limit=limit
        )
        return self.expand_walks(namespace, seed_ids, [walk])[0]

    def expand_walks(
        self, namespace: str, seed_ids: Sequence[str], walks: Sequence[Walk]
    ) -> list[list[Neighbor]]:
        seeds = list(dict.fromkeys(seed_ids))
        if not seeds or not any(w.hops > 0 for w in walks):
            return [[] for _ in walks]
        return self._transaction(lambda tx: [self._walk(tx, namespace, seeds, w) for w in walks], read=True)

    def _walk(self, tx: ManagedTransaction, namespace: str, seeds: list[str], walk: Walk) -> list[Neighbor]:
        """One walk of `expand_walks` inside the caller's read transaction.

        Breadth first, one query per hop: each event is kept at the first (shortest) distance it
        is reached, from the earliest frontier event, as in the embedded store."""
        wanted = {LinkKind(k) for k in walk.kinds}
        params = {
            "event_kinds": [k.value for k in EVENT_LINKS if k in wanted],
            "via_entities": LinkKind.MENTIONS in wanted,
        }
        allowed = None if walk.statuses is None else {str(s) for s in walk.statuses}
        limit = walk.limit
        reached: list[tuple[Neighbor, str | None]] = []
        visited = set(seeds)
        frontier = [(s, s, list[str]()) for s in seeds]
        for distance in range(1, walk.hops + 1):
            kept = sum(1 for _, status in reached if allowed is None or status in allowed)
            if not frontier or kept >= limit:
                break  # every further hop is farther than the `limit` kept already
            rows = self._run(
                tx,
                "expand_neighbors",
                uids=[uid_of(namespace, f[0]) for f in frontier],
                cap=2 * limit + len(visited),
                **params,
            )
            steps: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for row in rows:
                steps[row["source"]].append(row)
            next_frontier = []
            for node, seed, path in frontier:
                for row in steps[node]:
                    if row["target"] in visited:
                        continue
                    visited.add(row["target"])
                    hop = Neighbor(id=row["target"], seed=seed, distance=distance, path=[*path, row["step"]])
                    reached.append((hop, row["status"]))
                    next_frontier.append((hop.id, seed, hop.path))
            frontier = next_frontier
        return [hop for hop, status in reached if allowed is None or status in allowed][:limit]

    # ---- batched reads: one round trip each -------------------------------------------------------
    def find_entities_many(self, namespace: str, names: Sequence[str]) -> dict[str, list[Entity]]:
        keys: dict[str, list[str]] = defaultdict(list)
        for name in dict.fromkeys(names):
            keys[name.casefold()].append(name)
        if not keys:
            return {}
        rows = self._execute("find_entities_many", read=True, namespace=namespace, keys=sorted(keys))
        found: dict[str, list[Entity]] = defaultdict(list)
        for row in rows:
            entity = Entity.model_validate(model_fields(row["entity"]))
            for key in row["keys"]:
                for name in keys[key]:
                    found[name].append(entity)
        return dict(found)

    def session_events(
        self, namespace: str, sessions: Sequence[str], *, since: date | None = None, limit: int = 200
    ) -> list[Event]:
        if not sessions or limit <= 0:
            return []
        # A day of slack for time zones, then the exact test on the event's own date.
        floor = (
            datetime(since.year, since.month, since.day, tzinfo=UTC) - timedelta(days=1) if since else None
        )
        rows = self._execute(
            "session_events",
            read=True,
            namespace=namespace,
            sessions=list(dict.fromkeys(sessions)),
            since=floor,
            limit=limit,
        )
        events = [event_from_props(r["event"]) for r in rows]
        events = [e for e in events if since is None or e.time.date() >= since]
        return sorted(events, key=lambda e: (e.time, e.id))

    def recent_entity_events(
        self, namespace: str, entity_ids: Sequence[str], *, limit: int = 200
    ) -> dict[str, list[Event]]:
        wanted = list(dict.fromkeys(entity_ids))
        if not wanted:
            return {}
        found: dict[str, list[Event]] = {i: [] for i in wanted}
        if limit > 0:
            rows = self._execute(
                "recent_entity_events", read=True, uids=[uid_of(namespace, i) for i in wanted], limit=limit
            )
            for row in rows:
                found[row["entity"]] = [event_from_props(e) for e in reversed(row["events"])]
        return found

    def session_chains(
        self, namespace: str, event_ids: Sequence[str], *, forward: bool, steps: int = 8
    ) -> dict[str, list[Event]]:
        wanted = list(dict.fromkeys(event_ids))
        if not wanted:
            return {}
        found: dict[str, list[Event]] = {i: [] for i in wanted}
        if steps > 0:
            params = {"uids": [uid_of(namespace, i) for i in wanted], "steps": min(steps, _CHAIN_MAX)}
            if forward:
                rows = self._execute("session_chains_forward", read=True, **params)
            else:
                rows = self._execute("session_chains_backward", read=True, **params)
            for row in rows:
                found[row["start"]] = [event_from_props(e) for e in row["chain"]]
        return found

    def nearest_topics(self, namespace: str, vectors: Sequence[Sequence[float]], k: int) -> list[Topic]:
        if not len(vectors) or k <= 0:
            return []
        queries = [self._check_vector(v, "a topic query vector") for v in vectors]
        rows = self._execute(
            "nearest_topics",
            read=True,
            vectors=queries,
            k=k,
            fetch=min(max(10 * k, _VECTOR_FETCH_MIN), _VECTOR_FETCH_MAX),
            namespace=namespace,
        )
        return [Topic.model_validate(model_fields(r["topic"])) for r in rows]

    # ---- maintenance ------------------------------------------------------------------------------
    def _delete_events_in(self, tx: ManagedTransaction, namespace: str, uids: list[str]) -> int:
        deleted = self._run(tx, "delete_events", uids=uids)[0]["deleted"] if uids else 0
        if self._run(tx, "delete_orphans", namespace=namespace)[0]["deleted"]:
            self._revise_entities(tx, [namespace])  # orphaned entities may be among them
        return deleted

    def delete_events(self, namespace: str, ids: Sequence[str]) -> int:
        uids = [uid_of(namespace, i) for i in dict.fromkeys(ids)]
        if not uids:
            return 0
        return self._transaction(lambda tx: self._delete_events_in(tx, namespace, uids))

    def delete_topics(self, namespace: str, ids: Sequence[str]) -> None:
        uids = [uid_of(namespace, i) for i in dict.fromkeys(ids)]
        if uids:
            self._transaction(lambda tx: self._run(tx, "delete_topics", uids=uids))

    def delete_entity(self, namespace: str, entity_id: str) -> int:
        uid = uid_of(namespace, entity_id)

        def work(tx: ManagedTransaction) -> int:
            only_this = [r["uid"] for r in self._run(tx, "entity_only_events", uid=uid)]
            self._run(tx, "delete_entity", uid=uid)
            self._revise_entities(tx, [namespace])
            return self._delete_events_in(tx, namespace, only_this)

        return self._transaction(work)

    def delete_namespace(self, namespace: str) -> None:
        # Batches in their own transactions: a namespace of millions of nodes would not fit in one.
        while self._execute("delete_namespace_batch", namespace=namespace, batch=_DELETE_BATCH)[0]["deleted"]:
            pass
        self._transaction(lambda tx: self._revise_entities(tx, [namespace]))

    def namespaces(self) -> list[str]:
        return [r["namespace"] for r in self._execute("namespaces", read=True)]

    def get_meta(self, key: str) -> str | None:
        rows = self._execute("get_meta", read=True, key=key)
        return rows[0]["value"] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._execute("set_meta", key=key, value=value)

    def stats(self, namespace: str | None = None) -> dict[str, Any]:
        counts = self._execute("count_nodes", read=True, namespace=namespace)[0]
        relations = {
            r["kind"]: r["count"] for r in self._execute("count_relations", read=True, namespace=namespace)
        }
        statuses = {
            r["status"]: r["count"]
            for r in self._execute("count_event_statuses", read=True, namespace=namespace)
        }
        tiers = {
            r["tier"]: r["count"] for r in self._execute("count_event_tiers", read=True, namespace=namespace)
        }
        compression = compression_counts(
            [
                (r["trigger"], r["events"], r["turns"], r["windows"])
                for r in self._execute("count_compression", read=True, namespace=namespace)
            ]
        )
        memories = self._execute("count_memories", read=True, namespace=namespace)[0]
        return {
            "store": self.kind,
            "uri": self.uri,
            "database": self.database,
            "namespace": namespace,
            "namespaces": len(self.namespaces()) if namespace is None else 1,
            **counts,
            "pending": self.count_pending(namespace),
            "relations": relations,
            "events_by_status": statuses,
            "events_by_tier": tiers,
            "compression": compression,
            "patterns": {status: n for status, n in memories["patterns"]},
            "open_questions": memories["open_questions"],
        }

    def close(self) -> None:
        self._driver.close()

    # ---- labelled searches and per-namespace reranker weights (issue 10) ----------------------------
    def add_feedback(self, feedback: Feedback) -> None:
        ids = list(dict.fromkeys([*feedback.helpful, *(feedback.shown or [])]))
        uids = [uid_of(feedback.namespace, i) for i in ids]
        prefix = len(uid_of(feedback.namespace, ""))

        def work(tx: ManagedTransaction) -> list[str]:
            # Check and write in one transaction; a missing id returns before anything is written.
            missing = [r["uid"][prefix:] for r in self._run(tx, "missing_events", uids=uids)]
            if not missing:
                self._run(
                    tx,
                    "record_feedback",
                    uid=uid_of(feedback.namespace, feedback.id),
                    namespace=feedback.namespace,
                    at=feedback.at.timestamp(),
                    data=feedback.model_dump_json(),
                )
            return missing

        missing = self._transaction(work)
        if missing:
            raise InputError(f"feedback: unknown event ids in namespace {feedback.namespace!r}: {missing}")

    def list_feedback(self, namespace: str) -> list[Feedback]:
        rows = self._execute("list_feedback", read=True, namespace=namespace)
        return [Feedback.model_validate_json(r["data"]) for r in rows]

    def delete_meta(self, key: str) -> None:
        self._execute("delete_meta", key=key)


def _link_from_row(namespace: str, source: str, row: dict[str, Any]) -> Link:
    """A link read back from a query row: kind, target, props (JSON text or null)."""
    return Link(
        kind=LinkKind(row["kind"]),
        source=source,
        target=row["target"],
        namespace=namespace,
        props=json.loads(row["props"]) if row["props"] else {},
    )
