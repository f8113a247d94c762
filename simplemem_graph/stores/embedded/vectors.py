"""Vectors: an append-only, memory-mapped float32 file per namespace (`vector_index.py`), its
slots allocated in SQLite; exact cosine search, filtered in SQL. Topic centroids have a space
of their own."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import date
from typing import Any

import numpy as np

from simplemem_graph.models import DEFAULT_STATUSES, ScoredId, Topic
from simplemem_graph.stores.embedded.connection import SQLiteConnection
from simplemem_graph.stores.vector_index import VectorFile, normalise, top_k


def _topic_space(namespace: str) -> str:
    """The vector space (a `vector_spaces` key) of a namespace's topic centroids."""
    return "\x00topics\x00" + namespace


_VECTOR_FETCH = 64  # first over-fetch of the vector channel before the SQL filter; x8 per retry

# A tier of at most this many rows is scored alone (a gather, then a small product); a bigger one
# (a namespace not tiered yet: everything is hot) as the whole matrix, filtered in SQL.
_TIER_ROWS_SCORED_ALONE = 20_000


class Vectors(SQLiteConnection):
    """Vector files, vector search over events and nearest topics."""

    def _vector_file(self, namespace: str, dim: int) -> VectorFile:
        vectors = self._vector_files.get(namespace)
        if vectors is None or vectors.dim != dim:
            path = None if self.path == ":memory:" else VectorFile.file_for(self.path, namespace, dim)
            vectors = VectorFile(path, dim)
            self._vector_files[namespace] = vectors
        return vectors

    def _put_vector(self, conn: sqlite3.Connection, namespace: str, vector) -> int:
        """Append one normalised vector; its slot is allocated in the caller's transaction."""
        values = normalise(vector)
        space = conn.execute(
            "SELECT dim, slots FROM vector_spaces WHERE namespace = ?", (namespace,)
        ).fetchone()
        if space is None:
            space = (values.shape[0], 0)
            conn.execute("INSERT INTO vector_spaces VALUES (?, ?, 0)", (namespace, values.shape[0]))
        dim, slot = space
        if dim != values.shape[0]:
            # Only reachable when the one event that held the old size is re-embedded with another
            # model (_check_dimensions refuses mixing): the namespace starts a new vector file.
            dim, slot = values.shape[0], 0
            conn.execute("UPDATE vector_spaces SET dim = ?, slots = 0 WHERE namespace = ?", (dim, namespace))
        conn.execute("UPDATE vector_spaces SET slots = slots + 1 WHERE namespace = ?", (namespace,))
        self._vector_file(namespace, dim).write(slot, values)
        return slot

    def _drop_vector_files(self, namespace: str) -> None:
        vectors = self._vector_files.pop(namespace, None)
        if vectors is not None:
            vectors.remove()
        if self.path != ":memory:":
            VectorFile.remove_files(self.path, namespace)

    def _rebuild_vectors(self, namespace: str) -> int:
        rows = self._conn.execute(
            "SELECT rid, embedding FROM events WHERE namespace = ? AND embedding IS NOT NULL ORDER BY rid",
            (namespace,),
        ).fetchall()
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute("UPDATE events SET vslot = NULL WHERE namespace = ?", (namespace,))
            self._conn.execute("DELETE FROM vector_spaces WHERE namespace = ?", (namespace,))
            self._drop_vector_files(namespace)
            for rid, blob in rows:
                slot = self._put_vector(self._conn, namespace, np.frombuffer(blob, dtype=np.float32))
                self._conn.execute("UPDATE events SET vslot = ? WHERE rid = ?", (slot, rid))
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")
        return len(rows)

    def _event_vectors(
        self, namespace: str, *, statuses: Sequence[str] | None = None
    ) -> tuple[list[str], np.ndarray]:
        # The rows of the vector file (already unit length), gathered by slot: no blob is parsed.
        where, params = self._event_filter(namespace, statuses, None, None)
        with self._lock:
            space = self._conn.execute(
                "SELECT dim, slots FROM vector_spaces WHERE namespace = ?", (namespace,)
            ).fetchone()
            rows = self._conn.execute(
                f"SELECT e.id, e.vslot FROM events e WHERE {where} AND e.vslot IS NOT NULL ORDER BY ts, id",
                params,
            ).fetchall()
            if space is None or not rows:
                return [], np.zeros((0, 0), dtype=np.float32)
            slots = np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows))
            matrix = np.array(self._vector_file(namespace, space[0]).matrix(space[1])[slots])
        return [r[0] for r in rows], matrix

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
        with self._lock:
            space = self._conn.execute(
                "SELECT dim, slots FROM vector_spaces WHERE namespace = ?", (namespace,)
            ).fetchone()
            if space is None or k <= 0:
                return []
            dim, slots = space
            query = np.asarray(vector, dtype=np.float32)
            if query.shape[0] != dim:
                raise ValueError(
                    f"vector_search: query has {query.shape[0]} dimensions, "
                    f"namespace {namespace!r} holds {dim}"
                )
            query = normalise(query)
            matrix = self._vector_file(namespace, dim).matrix(slots)
            where, params = self._event_filter(namespace, statuses, time_from, time_to)
            dated = time_from is not None or time_to is not None
            if tier is not None:
                where += " AND json_extract(e.data, '$.tier') = ?"  # the events_by_tier index
                params.append(tier)
            if dated or (tier is not None and self._tier_is_small(namespace, tier)):
                # A date range is usually narrow, the hot tier a few thousand rows: score only the
                # rows SQL finds in them.
                rows = self._conn.execute(
                    f"SELECT e.vslot, e.id FROM events e WHERE {where} AND e.vslot IS NOT NULL", params
                ).fetchall()
                if not rows:
                    return []
                slots_in = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
                scores = matrix[slots_in] @ query
                best = top_k(scores, min(k, len(rows)))
                return [ScoredId(id=rows[i][1], score=float(scores[i])) for i in best]
            scores = matrix @ query
            return self._best_admitted(scores, k, where, params)

    def _tier_is_small(self, namespace: str, tier: str) -> bool:
        """Whether a tier is small enough to score its rows alone (counted in the index, up to the
        bound): a namespace no global pass has tiered yet is hot from end to end, and is better
        scored as one matrix product, filtered in SQL."""
        counted = self._conn.execute(
            "SELECT COUNT(*) FROM (SELECT 1 FROM events WHERE namespace = ? "
            "AND json_extract(data, '$.tier') = ? LIMIT ?)",
            (namespace, tier, _TIER_ROWS_SCORED_ALONE + 1),
        ).fetchone()[0]
        return counted <= _TIER_ROWS_SCORED_ALONE

    def _best_admitted(self, scores: np.ndarray, k: int, where: str, params: list[Any]) -> list[ScoredId]:
        """The k best slots whose event passes the SQL filter: over-fetch the best scores, keep
        those SQL admits (holes and filtered statuses drop out), widen until k or nothing is left."""
        hits: dict[int, str] = {}
        fetch, checked = max(_VECTOR_FETCH, 4 * k), 0
        order = top_k(scores, min(fetch, scores.shape[0]))
        while True:
            batch = [int(i) for i in order[checked:]]
            for start in range(0, len(batch), 900):
                chunk = batch[start : start + 900]
                rows = self._conn.execute(
                    f"SELECT e.vslot, e.id FROM events e WHERE {where} "
                    f"AND e.vslot IN ({self._placeholders(len(chunk))})",
                    [*params, *chunk],
                ).fetchall()
                hits.update(rows)
            checked = len(order)
            if len(hits) >= k or checked >= scores.shape[0]:
                break
            fetch *= 8
            order = top_k(scores, min(fetch, scores.shape[0]))
        best = sorted(hits, key=lambda slot: (-scores[slot], slot))[:k]
        return [ScoredId(id=hits[slot], score=float(scores[slot])) for slot in best]

    def _nearest_topics(self, namespace: str, vectors: Sequence[Sequence[float]], k: int) -> list[Topic]:
        space_key = _topic_space(namespace)
        with self._lock:
            space = self._conn.execute(
                "SELECT dim, slots FROM vector_spaces WHERE namespace = ?", (space_key,)
            ).fetchone()
            if space is None or not len(vectors) or k <= 0:
                return []
            queries = np.stack([normalise(v) for v in vectors])
            if queries.shape[1] != space[0]:
                return []
            scores = queries @ self._vector_file(space_key, space[0]).matrix(space[1]).T
        # Over-fetch: slots of deleted topics are holes that the SQL below drops.
        fetch = min(2 * k + 4, scores.shape[1])
        ranked = [[int(j) for j in top_k(row, fetch)] for row in scores]
        slots = sorted({j for row in ranked for j in row})
        marks = self._placeholders(len(slots))
        rows = self._read(
            f"SELECT vslot, data FROM topics WHERE namespace = ? AND vslot IN ({marks})", [namespace, *slots]
        )
        live = {slot: Topic.model_validate_json(data) for slot, data in rows}
        keep = {j for row in ranked for j in [j for j in row if j in live][:k]}
        return [live[j] for j in sorted(keep)]


def rebuild_vectors(store: Vectors, namespace: str) -> int:
    """Re-create a namespace's vector file from the embeddings SQLite keeps (the source of truth):
    after the file was lost or to drop the holes left by deletes. Returns the rows. A repair of the
    embedded store's own files, so a function beside it rather than a method of the contract."""
    with store._lock:
        return store._rebuild_vectors(namespace)
