"""Test setup writes through the store contract's one writer, `GraphStore.apply_delta`.

Tests build graphs of events, entities, links... that carry their own namespace; `write` groups
them by namespace into one `GraphDelta` each, so a test reads like the writes it makes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simplemem_graph.models import GraphDelta
from simplemem_graph.stores.base import GraphStore

# The delta fields whose items carry their namespace.
_ITEM_FIELDS = ("events", "entities", "topics", "links", "removed_links", "patterns", "feedback")


def write(store: GraphStore, **fields: Sequence[Any]) -> int | None:
    """Apply the given items (`events=[...]`, `links=[...]`...) as one delta per namespace they
    belong to; returns the last `apply_delta` result (None when nothing was given)."""
    unknown = set(fields) - set(_ITEM_FIELDS)
    if unknown:
        raise TypeError(f"write: unknown fields {sorted(unknown)}; expected some of {_ITEM_FIELDS}")
    by_namespace: dict[str, dict[str, list[Any]]] = {}
    for name, items in fields.items():
        for item in items:
            by_namespace.setdefault(item.namespace, {}).setdefault(name, []).append(item)
    result = None
    for namespace, parts in by_namespace.items():
        result = store.apply_delta(GraphDelta(namespace=namespace, **parts))
    return result
