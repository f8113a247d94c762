"""The graph around events: entities, topics, links and patterns; every write that changes what
the entity index reads moves the namespace's entity revision on in the same transaction."""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from neo4j import ManagedTransaction

from simplemem_graph.models import Entity, Link, LinkKind, Pattern, Topic
from simplemem_graph.stores.base import ENTITY_INDEX_LINKS
from simplemem_graph.stores.neo4j.connection import _link_from_row
from simplemem_graph.stores.neo4j.events import Events
from simplemem_graph.stores.neo4j_records import LINK_QUERIES, entity_props, link_row, model_fields, uid_of


class Nodes(Events):
    """Entities, topics, links and patterns."""

    def _upsert_entities(self, entities: Sequence[Entity]) -> None:
        rows = self._entity_rows(entities)

        def work(tx: ManagedTransaction) -> None:
            self._run_batches(tx, "upsert_entities", rows)
            self._revise_entities(tx, {e.namespace for e in entities})

        if rows:
            self._transaction(work)

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

    def _list_entities(self, namespace: str) -> list[Entity]:
        rows = self._execute("list_entities", read=True, namespace=namespace)
        return [Entity.model_validate(model_fields(r["entity"])) for r in rows]

    def _find_entities(self, namespace: str, name: str) -> list[Entity]:
        rows = self._execute("find_entities", read=True, namespace=namespace, key=name.casefold())
        return [Entity.model_validate(model_fields(r["entity"])) for r in rows]

    def _find_entities_many(self, namespace: str, names: Sequence[str]) -> dict[str, list[Entity]]:
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

    def _entities_named_from(self, namespace: str, firsts: Sequence[str]) -> list[Entity]:
        wanted = sorted({c.casefold() for c in firsts if c})
        if not wanted:
            return []
        rows = self._execute("entities_named_from", read=True, namespace=namespace, firsts=wanted)
        return [Entity.model_validate(model_fields(r["entity"])) for r in rows]

    def _upsert_topics(self, topics: Sequence[Topic]) -> None:
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

    def _list_topics(self, namespace: str, *, centroids: bool = True) -> list[Topic]:
        rows = self._execute("list_topics", read=True, namespace=namespace, centroids=centroids)
        return [Topic.model_validate(model_fields(r["topic"])) for r in rows]

    def _add_links(self, links: Sequence[Link]) -> None:
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

    def _links(
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

    def _upsert_patterns(self, patterns: Sequence[Pattern]) -> None:
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

    def _patterns(self, namespace: str, *, statuses: Sequence[str] | None = None) -> list[Pattern]:
        wanted = None if statuses is None else [str(s) for s in statuses]
        rows = self._execute("list_patterns", read=True, namespace=namespace, statuses=wanted)
        return [Pattern.model_validate(model_fields(r["pattern"])) for r in rows]
