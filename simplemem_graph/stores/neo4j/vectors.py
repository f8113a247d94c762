"""Vectors: the native vector indexes over events and topic centroids (over-fetch, then filter by
namespace), widened or made exact when the filter leaves too few."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import numpy as np

from simplemem_graph.models import DEFAULT_STATUSES, ScoredId, Topic
from simplemem_graph.stores.neo4j.connection import Neo4jConnection
from simplemem_graph.stores.neo4j_records import model_fields, recall_filters
from simplemem_graph.vectors import unit_rows

_VECTOR_FETCH_MIN = 100

_VECTOR_FETCH_MAX = 10_000

# Widening past this many rows costs more than an exact search of a namespace of tens of thousands
# of events (measured beside 1M others: an index query of 4,500 rows ~1 s, exact over 200 ~10 ms).
_VECTOR_WIDEN_MAX = 2_000


class Vectors(Neo4jConnection):
    """Vector search over events and nearest topics."""

    def _event_vectors(
        self, namespace: str, *, statuses: Sequence[str] | None = None
    ) -> tuple[list[str], np.ndarray]:
        filters = recall_filters(statuses, None, None)
        rows = self._execute("event_vectors", read=True, namespace=namespace, statuses=filters["statuses"])
        if not rows:
            return [], np.zeros((0, 0), dtype=np.float32)
        packed = np.frombuffer(b"".join(r["embedding"] for r in rows), dtype=np.float32)
        return [r["id"] for r in rows], unit_rows(packed.reshape(len(rows), -1)).astype(np.float32)

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

    def _nearest_topics(self, namespace: str, vectors: Sequence[Sequence[float]], k: int) -> list[Topic]:
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
