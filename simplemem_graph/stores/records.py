"""Export and import: a namespace as JSON-ready records tagged by `type`, and back. Written once
over the `GraphStore` contract; a store may override its methods for speed."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from simplemem_graph.models import Entity, Event, Link, Pattern, Topic, Turn

if TYPE_CHECKING:
    from simplemem_graph.stores.base import GraphStore


def export_namespace(store: GraphStore, namespace: str) -> Iterator[dict[str, Any]]:
    """Every record of a namespace as JSON-ready dicts tagged by `type`; `import_records`
    of this output into an empty namespace rebuilds the same graph."""
    for turn in store._get_turns(namespace):
        yield {"type": "turn", **turn.model_dump(mode="json")}
    for event in store._list_events(namespace):
        yield {"type": "event", **event.model_dump(mode="json")}
    for entity in store._list_entities(namespace):
        # An entity has a `type` of its own (person, org...): it travels as `entity_type`.
        fields = entity.model_dump(mode="json")
        fields["entity_type"] = fields.pop("type")
        yield {"type": "entity", **fields}
    for topic in store._list_topics(namespace):
        yield {"type": "topic", **topic.model_dump(mode="json")}
    for pattern in store._patterns(namespace):
        yield {"type": "pattern", **pattern.model_dump(mode="json")}
    for link in store._links(namespace):
        yield {"type": "link", **link.model_dump(mode="json")}


def import_into(
    store: GraphStore, records: Iterable[dict[str, Any]], namespace: str | None = None
) -> dict[str, int]:
    """Write exported records (into `namespace` when given, else their own); return counts."""
    buckets: dict[str, list[Any]] = {
        "turn": [],
        "event": [],
        "entity": [],
        "topic": [],
        "pattern": [],
        "link": [],
    }
    models: dict[str, type[BaseModel]] = {
        "turn": Turn,
        "event": Event,
        "entity": Entity,
        "topic": Topic,
        "pattern": Pattern,
        "link": Link,
    }
    for record in records:
        record = dict(record)
        kind = record.pop("type", None)
        if kind not in models:
            raise ValueError(f"import: unknown record type {kind!r}; expected one of {sorted(models)}")
        if namespace is not None:
            record["namespace"] = namespace
        if kind == "entity" and "entity_type" in record:
            record["type"] = record.pop("entity_type")
        buckets[kind].append(models[kind].model_validate(record))
    store.add_turns(buckets["turn"], pending=False)
    store._upsert_events(buckets["event"])
    store._upsert_entities(buckets["entity"])
    store._upsert_topics(buckets["topic"])
    store._upsert_patterns(buckets["pattern"])
    store._add_links(buckets["link"])
    return {kind: len(items) for kind, items in buckets.items()}
