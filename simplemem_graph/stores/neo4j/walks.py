"""Walks: storylines (events that mention an entity or its aliases), association chains and
session chains, one query per hop or per chain."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from typing import Any

import numpy as np
from neo4j import ManagedTransaction

from simplemem_graph.models import DEFAULT_STATUSES, EVENT_LINKS, Event, LinkKind, Neighbor, Walk
from simplemem_graph.stores.neo4j.nodes import Nodes
from simplemem_graph.stores.neo4j_records import event_from_props, recall_filters, uid_of

_CHAIN_MAX = 16  # longest session chain one query walks (the bound is literal in the Cypher)


class Walks(Nodes):
    """Reads that follow links."""

    def _entity_events(
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

    def _recent_entity_events(
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
        walk = Walk(
            kinds=list(kinds), hops=hops, statuses=None if statuses is None else list(statuses), limit=limit
        )
        return self._expand_walks(namespace, seed_ids, [walk])[0]

    def _expand_walks(
        self, namespace: str, seed_ids: Sequence[str], walks: Sequence[Walk]
    ) -> list[list[Neighbor]]:
        seeds = list(dict.fromkeys(seed_ids))
        if not seeds or not any(w.hops > 0 for w in walks):
            return [[] for _ in walks]
        return self._transaction(lambda tx: [self._walk(tx, namespace, seeds, w) for w in walks], read=True)

    def _walk(self, tx: ManagedTransaction, namespace: str, seeds: list[str], walk: Walk) -> list[Neighbor]:
        """One walk of `_expand_walks` inside the caller's read transaction.

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

    def _session_chains(
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
