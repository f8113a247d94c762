"""Walks: storylines (events that mention an entity or its aliases), association chains and
session chains, each hop one indexed SQL query (no in-memory graph to rebuild)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import numpy as np

from simplemem_graph.models import DEFAULT_STATUSES, EVENT_LINKS, Event, LinkKind, Neighbor
from simplemem_graph.stores.base import storyline_rank
from simplemem_graph.stores.embedded.nodes import Nodes
from simplemem_graph.vectors import unit, unit_rows

_EXPAND_SLICE = 16  # frontier events per SQL round of a walk


class Walks(Nodes):
    """Reads that follow links."""

    def _alias_closure(self, namespace: str, entity_ids: Sequence[str]) -> set[str]:
        seen = set(entity_ids)
        frontier = list(entity_ids)
        while frontier:
            links = self._links(namespace, kinds=[LinkKind.ALIAS_OF], node_ids=frontier)
            frontier = [n for lk in links for n in (lk.source, lk.target) if n not in seen]
            seen.update(frontier)
        return seen

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
        where = self._event_filter(namespace, statuses, time_from, time_to)
        rows = self._storyline_rows(namespace, entity_ids, "e.data, e.embedding, e.ts, e.id", where)
        return [self._event_from_row(r[0], r[1]) for r in sorted(rows, key=lambda r: (r[2], r[3]))]

    def _storyline_rows(
        self, namespace: str, entity_ids: Sequence[str], columns: str, where: tuple[str, list[Any]]
    ) -> list[tuple]:
        """`columns` of the events that MENTION the entities or their aliases and pass `where`
        (an `_event_filter`), each once."""
        entities = sorted(self._alias_closure(namespace, entity_ids))
        # CROSS JOIN keeps SQLite's join order: from the entity's MENTIONS links to its events,
        # never a scan of the namespace's events testing each against the links.
        return self._read(
            f"SELECT DISTINCT {columns} FROM links l CROSS JOIN events e "
            "ON e.namespace = l.namespace AND e.id = l.source "
            f"WHERE l.namespace = ? AND l.kind = ? AND l.target IN ({self._placeholders(len(entities))}) "
            f"AND {where[0]}",
            [namespace, LinkKind.MENTIONS.value, *entities, *where[1]],
        )

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
        # Ranks on ids, times and raw vectors; only the kept `limit` events are parsed.
        where = self._event_filter(namespace, statuses, time_from, time_to)
        named_by: dict[str, list[int]] = {}
        found: dict[str, tuple[float, bytes | None]] = {}
        for group, entity_ids in enumerate(groups):
            if not entity_ids:
                continue
            for event_id, ts, blob in self._storyline_rows(
                namespace, entity_ids, "e.id, e.ts, e.embedding", where
            ):
                found[event_id] = (ts, blob)
                named_by.setdefault(event_id, []).append(group)
        ids = list(found)
        similarity = np.zeros(len(ids), dtype=np.float32)
        query = unit(vector)
        blobs = {i: blob for i, event_id in enumerate(ids) if (blob := found[event_id][1]) is not None}
        with_vector = list(blobs)
        if query is not None and with_vector:
            rows = np.frombuffer(b"".join(blobs.values()), dtype=np.float32)
            similarity[with_vector] = unit_rows(rows.reshape(len(with_vector), -1)) @ query
        ranked = storyline_rank(
            (event_id, found[event_id][0], len(named_by[event_id]), float(similarity[i]))
            for i, event_id in enumerate(ids)
        )[:limit]
        events = {e.id: e for e in self._get_events(namespace, ranked)}
        return [(events[event_id], named_by[event_id]) for event_id in ranked if event_id in events]

    def _recent_entity_events(
        self, namespace: str, entity_ids: Sequence[str], *, limit: int = 200
    ) -> dict[str, list[Event]]:
        found: dict[str, list[Event]] = {}
        for entity in dict.fromkeys(entity_ids):
            targets = sorted(self._alias_closure(namespace, [entity]))
            marks = self._placeholders(len(targets))
            # The newest first through a covering index (no event row is read before the cut), so
            # the tail of a speaker mentioned by every event costs its index entries, not its rows.
            rows = self._read(
                "SELECT DISTINCT e.rid, e.ts, e.id FROM links l "
                "CROSS JOIN events e INDEXED BY events_by_id_ts "
                "ON e.namespace = l.namespace AND e.id = l.source "
                f"WHERE l.namespace = ? AND l.kind = ? AND l.target IN ({marks}) "
                "ORDER BY e.ts DESC, e.id DESC LIMIT ?",
                [namespace, LinkKind.MENTIONS.value, *targets, limit],
            )
            rids = [r[0] for r in reversed(rows)]
            data: dict[int, tuple[str, bytes | None]] = {}
            if rids:
                sql = (
                    f"SELECT rid, data, embedding FROM events WHERE rid IN ({self._placeholders(len(rids))})"
                )
                data = {r[0]: (r[1], r[2]) for r in self._read(sql, rids)}
            found[entity] = [self._event_from_row(*data[rid]) for rid in rids]
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
        wanted = [k.value for k in EVENT_LINKS if k.value in {LinkKind(x).value for x in kinds}]
        via_entities = LinkKind.MENTIONS in {LinkKind(x) for x in kinds}
        allowed = None if statuses is None else {str(s) for s in statuses}
        seeds = list(dict.fromkeys(seed_ids))
        reached: list[Neighbor] = []
        visited = set(seeds)
        # Breadth first, one round of indexed SQL per hop, seeds in the caller's rank order: the
        # walk meets the nearest events first and stops at `limit` (a speaker mentioned everywhere
        # would reach the whole log).
        frontier = [(s, s, list[str]()) for s in seeds]
        for distance in range(1, hops + 1):
            next_frontier = []
            # The frontier is read in slices, in walk order, so the walk stops reading once it has
            # `limit` events: a hop through a speaker's 50k mentions reads a few dozen of them.
            for start in range(0, len(frontier), _EXPAND_SLICE):
                part = frontier[start : start + _EXPAND_SLICE]
                cap = 2 * (limit - len(reached)) + len(visited)
                steps = self._steps(namespace, [f[0] for f in part], wanted, via_entities, cap)
                statuses_of = self._statuses_of(namespace, {t for ss in steps.values() for _, _, t in ss})
                for node, seed, path in part:
                    for _key, step, target in steps.get(node, ()):
                        if target in visited:
                            continue
                        visited.add(target)
                        hop = Neighbor(id=target, seed=seed, distance=distance, path=[*path, step])
                        next_frontier.append((target, seed, hop.path))
                        status = statuses_of.get(target)
                        # archived events are walked through, never returned; nor are links to nothing
                        if status is not None and (allowed is None or status in allowed):
                            reached.append(hop)
                            if len(reached) == limit:
                                return reached
            frontier = next_frontier
        return reached

    def _steps(
        self, namespace: str, nodes: list[str], kinds: Sequence[str], via_entities: bool, cap: int
    ) -> dict[str, list[tuple[str, str, str]]]:
        """One hop from each node: (neighbour key, step label, event reached), in walk order.

        Event links count in either direction; through an entity, only the `cap` first
        co-mentioning events (by id) per entity are read, so a hub costs no more than the walk
        can use.
        """
        steps: dict[str, list[tuple[str, str, str]]] = {}
        for start in range(0, len(nodes), 400):
            chunk = nodes[start : start + 400]
            marks = self._placeholders(len(chunk))
            if kinds:
                kind_marks = self._placeholders(len(kinds))
                rows = self._read(
                    f"SELECT source, target, kind FROM links WHERE namespace = ? AND kind IN ({kind_marks}) "
                    f"AND source IN ({marks}) UNION ALL "
                    f"SELECT target, source, kind FROM links WHERE namespace = ? AND kind IN ({kind_marks}) "
                    f"AND target IN ({marks})",
                    [namespace, *kinds, *chunk, namespace, *kinds, *chunk],
                )
                for node, other, kind in rows:
                    steps.setdefault(node, []).append((other, kind, other))
            if via_entities:
                mentions = self._read(
                    "SELECT source, target FROM links WHERE namespace = ? AND kind = ? "
                    f"AND source IN ({marks})",
                    [namespace, LinkKind.MENTIONS.value, *chunk],
                )
                entities = sorted({target for _, target in mentions})
                names = {e.id: e.name for e in self._entities_by_id(namespace, entities)}
                # Per entity, its first co-mentioning events by id: an index range scan of
                # links_by_kind_target that stops after `cap + slice` rows, however big the hub.
                others = {
                    entity: [
                        r[0]
                        for r in self._read(
                            "SELECT source FROM links WHERE namespace = ? AND kind = ? AND target = ? "
                            "ORDER BY source LIMIT ?",
                            [namespace, LinkKind.MENTIONS.value, entity, cap + len(chunk)],
                        )
                    ]
                    for entity in entities
                }
                for node, entity in mentions:
                    label = f"MENTIONS {names.get(entity, entity)}"
                    steps.setdefault(node, []).extend(
                        (entity, label, other) for other in others[entity] if other != node
                    )
        for node_steps in steps.values():
            node_steps.sort(key=lambda s: (s[0], s[2]))
        return steps

    def _statuses_of(self, namespace: str, ids: set[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        ordered = sorted(ids)
        for start in range(0, len(ordered), 900):
            chunk = ordered[start : start + 900]
            marks = self._placeholders(len(chunk))
            sql = f"SELECT id, status FROM events WHERE namespace = ? AND id IN ({marks})"
            found.update(self._read(sql, [namespace, *chunk]))
        return found

    def _session_chains(
        self, namespace: str, event_ids: Sequence[str], *, forward: bool, steps: int = 8
    ) -> dict[str, list[Event]]:
        near, far = ("source", "target") if forward else ("target", "source")
        chains: dict[str, list[str]] = {}
        for start in dict.fromkeys(event_ids):
            rows = self._read(
                f"WITH RECURSIVE chain(id, depth) AS (SELECT ?, 0 UNION ALL SELECT l.{far}, c.depth + 1 "
                f"FROM chain c JOIN links l ON l.namespace = ? AND l.kind = ? AND l.{near} = c.id "
                "AND json_extract(l.props, '$.scope') LIKE 'session:%' WHERE c.depth < ?) "
                "SELECT id FROM chain WHERE depth > 0 ORDER BY depth LIMIT ?",
                [start, namespace, LinkKind.NEXT.value, steps, steps],
            )
            chains[start] = [r[0] for r in rows]
        events = {
            e.id: e for e in self._get_events(namespace, sorted({i for c in chains.values() for i in c}))
        }
        result: dict[str, list[Event]] = {}
        for start, ids in chains.items():
            chain = []
            for event_id in ids:  # a missing event ends the chain, as walking link by link would
                if event_id not in events:
                    break
                chain.append(events[event_id])
            result[start] = chain
        return result
