"""Hand-built test data for the contract suite: seeded vectors with known cosines, and small
builders for turns, events, entities and links."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import numpy as np

from simplemem_graph.models import Entity, Event, Link, LinkKind, Turn

DIM = 384  # the default model's size: the Neo4j vector index is created for it
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def unit_vector(seed: int) -> np.ndarray:
    """A seeded random unit vector in float64."""
    v = np.random.default_rng(seed).standard_normal(DIM)
    return v / np.linalg.norm(v)


def vector_at_cosine(query: np.ndarray, cosine: float, seed: int) -> list[float]:
    """A unit vector whose cosine to the unit vector `query` is `cosine` (to float32 precision)."""
    noise = unit_vector(seed)
    orthogonal = noise - noise.dot(query) * query
    orthogonal /= np.linalg.norm(orthogonal)
    v = cosine * query + np.sqrt(1.0 - cosine**2) * orthogonal
    # float32-exact values: the embedded store keeps float32, so round trips compare equal.
    return np.asarray(v, dtype=np.float32).tolist()


def as_list(vector: np.ndarray) -> list[float]:
    return np.asarray(vector, dtype=np.float32).tolist()


def make_event(namespace: str, event_id: str, text: str, *, minutes: int = 0, **fields) -> Event:
    """An event at T0 + minutes; any Event field may be overridden."""
    values = {"source_ids": [f"s1:{event_id}"], "session": "s1", "time": T0 + timedelta(minutes=minutes)}
    values.update(fields)
    return Event(id=event_id, namespace=namespace, text=text, **values)


def make_turn(namespace: str, turn_id: str, text: str, *, minutes: int = 0, **fields) -> Turn:
    values = {"session": "s1", "time": T0 + timedelta(minutes=minutes)}
    values.update(fields)
    return Turn(id=turn_id, namespace=namespace, text=text, **values)


def make_entity(namespace: str, entity_id: str, name: str, *aliases: str, type: str = "org") -> Entity:
    return Entity(id=entity_id, namespace=namespace, name=name, aliases=list(aliases), type=type)


def link(namespace: str, kind: LinkKind, source: str, target: str, **props) -> Link:
    return Link(kind=kind, source=source, target=target, namespace=namespace, props=props)


def day(offset: int) -> date:
    """T0's date plus `offset` days."""
    return T0.date() + timedelta(days=offset)
