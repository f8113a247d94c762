"""How models become Neo4j rows and properties, and back: the Neo4j store's data mapping.

Neo4j properties hold only primitives and lists of them, so lists of objects travel as JSON,
dates and datetimes as Neo4j's native temporal types (so Cypher can compare and order them), and
embeddings twice: a float list for the vector index and packed float32 bytes for fast reads.
Every node is keyed by `uid = namespace + '|' + id` (Community edition has no node keys).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any

import numpy as np

from simplemem_graph.dates import event_days
from simplemem_graph.errors import InputError
from simplemem_graph.models import Entity, Event, Link, LinkKind
from simplemem_graph.text import query_terms, search_terms, tokenize

# The query file that adds each kind of link: the endpoint labels are literal in each file (so the
# uid lookups use their constraint indexes); the relationship type is the checked LinkKind value.
LINK_QUERIES: dict[LinkKind, str] = {
    LinkKind.NEXT: "add_event_links",
    LinkKind.CAUSES: "add_event_links",
    LinkKind.SUPERSEDES: "add_event_links",
    LinkKind.CONTRADICTS: "add_event_links",
    LinkKind.FROM: "add_from_links",
    LinkKind.MENTIONS: "add_mention_links",
    LinkKind.IN_TOPIC: "add_topic_links",
    LinkKind.ON: "add_day_links",
    LinkKind.DUE: "add_day_links",
    LinkKind.ALIAS_OF: "add_entity_links",
    LinkKind.CANDIDATE_ALIAS: "add_entity_links",
    LinkKind.WORKS_AT: "add_entity_links",
    LinkKind.EVIDENCED_BY: "add_pattern_links",
}

# Event fields that are lists of objects: Neo4j properties hold only primitives, so they go as JSON.
_JSON_FIELDS = ("participants", "quantities", "atoms")
_TEMPORAL_FIELDS = ("time", "deadline", "dates", "last_accessed", "valid_from", "valid_to", "created_at")
# Properties the store adds for its own queries; never part of a model.
_INTERNAL = frozenset(
    {
        "uid",
        "stub",
        "state",
        "chunk",
        "failure",
        "search_text",
        "search_ns",
        "days",
        "name_keys",
        "search_names",
        "embedding_f32",
    }
)

_LUCENE_MAX_TERMS = 1000  # Lucene refuses queries of more than 1024 clauses


def uid_of(namespace: str, node_id: str) -> str:
    """The node key. A pipe in the namespace could make two (namespace, id) pairs collide."""
    if "|" in namespace:
        raise InputError(f"neo4j store: namespace {namespace!r} contains '|', which node keys reserve")
    return f"{namespace}|{node_id}"


def namespace_token(namespace: str) -> str:
    """The namespace as one whitespace-free token (its UTF-8 bytes in hex) for the fulltext
    indexes' `search_ns` field: the whitespace analyzer keeps it whole, whatever the namespace."""
    return "ns" + namespace.encode().hex()


def _native(value: Any) -> Any:
    """Neo4j temporal values (and lists of them) as Python datetime/date."""
    if isinstance(value, list):
        return [_native(v) for v in value]
    to_native = getattr(value, "to_native", None)
    return to_native() if to_native else value


def model_fields(props: dict[str, Any]) -> dict[str, Any]:
    return {key: _native(value) for key, value in props.items() if key not in _INTERNAL}


def event_props(event: Event) -> dict[str, Any]:
    props = event.model_dump(mode="json")
    # Native values for Neo4j's DATE/DATETIME types, so range filters and ordering work in Cypher.
    props.update({name: getattr(event, name) for name in _TEMPORAL_FIELDS})
    props.update({name: json.dumps(props[name], ensure_ascii=False) for name in _JSON_FIELDS})
    props.update(
        uid=uid_of(event.namespace, event.id),
        search_text=" ".join(search_terms(event.text)),
        search_ns=namespace_token(event.namespace),
    )
    props["days"] = event_days(event)
    if event.embedding is not None:
        # float32, as the embedded store keeps it. The float list feeds the vector index (written
        # by upsert_events as a float32 array, half the size of a list of doubles); reads fetch the
        # packed bytes instead, which the driver moves ~10x faster than 384 floats.
        vector = np.asarray(event.embedding, dtype=np.float32)
        props["embedding"] = vector.tolist()
        props["embedding_f32"] = vector.tobytes()
    return props


def event_row(event: Event) -> dict[str, Any]:
    """An `upsert_events` row: the properties, and the vector apart (set by a procedure)."""
    props = event_props(event)
    return {"uid": props["uid"], "vector": props.pop("embedding", None), "props": props}


def event_from_props(props: dict[str, Any]) -> Event:
    fields = model_fields(props)
    packed = props.get("embedding_f32")
    fields["embedding"] = np.frombuffer(packed, dtype=np.float32).tolist() if packed is not None else None
    for name in _JSON_FIELDS:
        if isinstance(fields.get(name), str):
            fields[name] = json.loads(fields[name])
    return Event.model_validate(fields)


def entity_props(entity: Entity) -> dict[str, Any]:
    names = [entity.name, *entity.aliases]
    return {
        **entity.model_dump(mode="json"),
        "uid": uid_of(entity.namespace, entity.id),
        "name_keys": sorted({n.casefold() for n in names}),
        "search_names": " ".join(tokenize(" ".join(names), keep_stopwords=True)),
    }


def lucene_query(text: str, namespace: str) -> str | None:
    """User text as a Lucene query that can only mean "any of these words, in this namespace":
    every token is quoted and its quote and backslash characters escaped, so `foo AND (bar` or
    `a:b*` stay plain words. The namespace token is a required clause of weight 0: Lucene skips
    other tenants' documents, and the scores are those of the words alone."""
    terms = list(dict.fromkeys(query_terms(text)))[:_LUCENE_MAX_TERMS]
    if not terms:
        return None
    words = " OR ".join('search_text:"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"' for t in terms)
    return f'+search_ns:"{namespace_token(namespace)}"^0 +({words})'


def recall_filters(
    statuses: Sequence[str] | None, time_from: date | None, time_to: date | None
) -> dict[str, Any]:
    return {
        "statuses": None if statuses is None else [str(s) for s in statuses],
        "time_from": time_from,
        "time_to": time_to,
    }


def link_row(link: Link) -> dict[str, Any]:
    # Primitive props are copied onto the relationship for people browsing the graph; the JSON
    # copy is what the store reads back, so nested props survive too.
    flat = {k: v for k, v in link.props.items() if isinstance(v, str | int | float | bool)}
    row: dict[str, Any] = {
        "kind": link.kind.value,
        "namespace": link.namespace,
        "source": link.source,
        "target": link.target,
        "source_uid": uid_of(link.namespace, link.source),
        "target_uid": uid_of(link.namespace, link.target),
        "props": {
            **flat,
            "namespace": link.namespace,
            "props_json": json.dumps(link.props, ensure_ascii=False),
        },
    }
    if link.kind in (LinkKind.ON, LinkKind.DUE):
        try:
            row["day"] = date.fromisoformat(link.target)
        except ValueError as e:
            raise InputError(
                f"neo4j store: {link.kind.value} link from {link.source} needs an ISO date target, "
                f"got {link.target!r}"
            ) from e
    return row
