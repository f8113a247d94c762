"""Coordination: atomic deltas, the entity revision, leases, the job log, meta keys and feedback."""

from __future__ import annotations

from datetime import datetime

from neo4j import ManagedTransaction

from simplemem_graph.errors import InputError
from simplemem_graph.models import Feedback, GraphDelta, JobRun
from simplemem_graph.stores.base import lease_holder_alive
from simplemem_graph.stores.neo4j.connection import _BATCH
from simplemem_graph.stores.neo4j.maintenance import Maintenance
from simplemem_graph.stores.neo4j_records import uid_of


class Coordination(Maintenance):
    """What keeps writers and workers in step."""

    def entity_revision(self, namespace: str) -> int | None:
        return self._execute("entity_revision", read=True, namespace=namespace)[0]["value"]

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
        meta_rows = [{"key": key, "value": value} for key, value in delta.meta.items()]
        touched = [uid_of(namespace, i) for i in dict.fromkeys(delta.touched)]

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
            self._run_batches(tx, "set_meta_rows", meta_rows)
            for key in delta.deleted_meta:
                self._run(tx, "delete_meta", key=key)
            if delta.touched:
                self._run(tx, "touch_events", uids=touched, at=delta.touched_at)
            for feedback in delta.feedback:
                self._write_feedback(tx, feedback)
            entities_deleted = self._delete_in(tx, delta)
            if touches_entities or entities_deleted:
                revised = self._revise_entities(tx, [namespace])
                return revised if current == delta.entity_revision else None
            return current if current == delta.entity_revision else None

        if delta.is_empty():
            current = self.entity_revision(namespace)
            return current if current == delta.entity_revision else None
        return self._transaction(work)

    def _delete_in(self, tx: ManagedTransaction, delta: GraphDelta) -> bool:
        """The delta's deletes, last in its transaction; True when entities went (deleted, or
        orphaned by the deleted events), so the entity revision must move."""
        namespace = delta.namespace
        entities = [uid_of(namespace, i) for i in dict.fromkeys(delta.deleted_entities)]
        events = [uid_of(namespace, i) for i in dict.fromkeys(delta.deleted_events)]
        topics = [uid_of(namespace, i) for i in dict.fromkeys(delta.deleted_topics)]
        patterns = [uid_of(namespace, i) for i in dict.fromkeys(delta.deleted_patterns)]
        if entities:
            self._run(tx, "delete_entities", uids=entities)
        deleted = self._run(tx, "delete_events", uids=events)[0]["deleted"] if events else 0
        swept = False
        if deleted or entities:
            swept = bool(self._run(tx, "delete_orphans", namespace=namespace)[0]["deleted"])
        if topics:
            self._run(tx, "delete_topics", uids=topics)
        if patterns:
            self._run(tx, "delete_patterns", uids=patterns)
        return bool(entities) or swept

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

    def get_meta(self, key: str) -> str | None:
        rows = self._execute("get_meta", read=True, key=key)
        return rows[0]["value"] if rows else None

    def _write_feedback(self, tx: ManagedTransaction, feedback: Feedback) -> None:
        """Record a labelled search inside the caller's transaction, after checking that every
        event it names is an event of its namespace (else InputError: the transaction rolls back,
        so an event deleted meanwhile cannot slip in)."""
        ids = list(dict.fromkeys([*feedback.helpful, *(feedback.shown or [])]))
        prefix = len(uid_of(feedback.namespace, ""))
        uids = [uid_of(feedback.namespace, i) for i in ids]
        missing = [r["uid"][prefix:] for r in self._run(tx, "missing_events", uids=uids)]
        if missing:
            raise InputError(f"feedback: unknown event ids in namespace {feedback.namespace!r}: {missing}")
        self._run(
            tx,
            "record_feedback",
            uid=uid_of(feedback.namespace, feedback.id),
            namespace=feedback.namespace,
            at=feedback.at.timestamp(),
            data=feedback.model_dump_json(),
        )

    def _feedback(self, namespace: str) -> list[Feedback]:
        rows = self._execute("list_feedback", read=True, namespace=namespace)
        return [Feedback.model_validate_json(r["data"]) for r in rows]
