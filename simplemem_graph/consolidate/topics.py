"""Topic clusters: each event joins the nearest topic centroid above a threshold, else opens a topic.

Centroids are running means of member embeddings (re-normalised). A batch reads only its events'
nearest stored topics (`candidate_topics`, through the store's vector index), so attaching costs
the same at 100 topics as at 100k. The global pass re-clusters from scratch with community
detection (`global_pass.py`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from simplemem_graph.consolidate.calibration import calibration
from simplemem_graph.models import Event, Link, LinkKind, Topic, stable_id
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import TopicQuery
from simplemem_graph.text import tokenize
from simplemem_graph.vectors import unit

TOPIC_CANDIDATES = 3  # nearest stored topics per event read through the store's vector index
TOPIC_KEYWORDS = 5
LABEL_KEYWORDS = 3


@dataclass
class TopicAssignment:
    topics: dict[str, Topic] = field(default_factory=dict)  # new or changed topics, to upsert
    links: list[Link] = field(default_factory=list)
    opened: int = 0


def event_keywords(event: Event) -> list[str]:
    """Stage-1 keywords, or the event's longer content words when it gave none."""
    if event.keywords:
        return list(event.keywords)
    return [t for t in tokenize(event.text) if len(t) > 1 and not t.replace(".", "").isdigit()][
        :TOPIC_KEYWORDS
    ]


def label_from_keywords(keywords: Sequence[str]) -> str:
    return " / ".join(keywords[:LABEL_KEYWORDS]) or "misc"


def candidate_topics(store: GraphStore, namespace: str, events: Sequence[Event]) -> list[Topic]:
    """The stored topics a batch can join: each event's nearest centroids through the store's
    index (not every topic of the namespace). Events without an embedding match topics by label,
    which needs them all."""
    if any(e.embedding is None for e in events):
        return store.topics(namespace)
    return store.topics(namespace, TopicQuery(near=[e.embedding for e in events], k=TOPIC_CANDIDATES))


def assign_topics(events: Sequence[Event], topics: Sequence[Topic]) -> TopicAssignment:
    """Attach each event (with an embedding) to a topic, updating centroids and keywords as it goes.

    Args:
        events: new events; those without an embedding are grouped by their stage-1 `topic` label.
        topics: the namespace's current topics.

    Returns:
        The topics to upsert, the IN_TOPIC links, and how many topics were opened.
    """
    result = TopicAssignment()
    # Copies, so absorbing events never edits the caller's topics; only the lists _absorb changes
    # are copied (a deep copy of every candidate's centroid cost more than the assignment itself).
    current = {
        t.id: t.model_copy(update={"keywords": list(t.keywords), "centroid": _list_or_none(t.centroid)})
        for t in topics
    }
    centroids = _Centroids(current.values())
    for event in events:
        topic = (
            centroids.nearest(event, current) if event.embedding is not None else _by_label(event, current)
        )
        topic = topic or _open(event, current)
        if topic.id not in current:
            current[topic.id] = topic
            result.opened += 1
        _absorb(topic, event)
        centroids.put(topic)
        result.topics[topic.id] = topic
        result.links.append(
            Link(kind=LinkKind.IN_TOPIC, source=event.id, target=topic.id, namespace=event.namespace)
        )
    return result


def _list_or_none(values):
    return None if values is None else list(values)


class _Centroids:
    """The topics' centroids as one matrix, so an event is compared with all of them in one product
    (and each centroid is converted from its stored list once, not once per event)."""

    def __init__(self, topics):
        self.ids: list[str] = []
        self.row: dict[str, int] = {}
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        for topic in topics:
            self.put(topic)

    def put(self, topic: Topic) -> None:
        if topic.centroid is None:
            return
        vector = np.asarray(topic.centroid, dtype=np.float32)
        if topic.id not in self.row:
            if not self.ids:
                self.matrix = np.zeros((0, vector.shape[0]), dtype=np.float32)
            self.row[topic.id] = len(self.ids)
            self.ids.append(topic.id)
            self.matrix = np.vstack([self.matrix, vector[None, :]])  # a batch opens few topics
        else:
            self.matrix[self.row[topic.id]] = vector

    def nearest(self, event: Event, current: dict[str, Topic]) -> Topic | None:
        """The most similar topic at or above the topic threshold (the last one on a tie, as before)."""
        if not self.ids:
            return None
        scores = self.matrix @ np.asarray(event.embedding, dtype=np.float32)
        best = int(len(scores) - 1 - np.argmax(scores[::-1]))
        return current[self.ids[best]] if scores[best] >= calibration().topic_min_cosine else None


def _by_label(event: Event, current: dict[str, Topic]) -> Topic | None:
    wanted = (event.topic or "").strip().lower()
    return next((t for t in current.values() if wanted and t.label.lower() == wanted), None)


def _open(event: Event, current: dict[str, Topic]) -> Topic:
    keywords = event_keywords(event)[:TOPIC_KEYWORDS]
    label = (
        (event.topic or "").strip()
        if event.embedding is None and event.topic
        else label_from_keywords(keywords)
    )
    return Topic(
        id=stable_id("tp", event.namespace, event.id),
        namespace=event.namespace,
        label=label,
        keywords=keywords,
        centroid=None,
        size=0,
    )


def _absorb(topic: Topic, event: Event) -> None:
    """Add one member: running-mean centroid, keywords re-ranked with the newcomer's."""
    if event.embedding is not None:
        vector = np.asarray(event.embedding, dtype=np.float32)
        if topic.centroid is None:
            centroid = vector
        else:
            centroid = np.asarray(topic.centroid, dtype=np.float32) * topic.size + vector
        direction = unit(centroid)
        topic.centroid = (direction if direction is not None else centroid).tolist()
    counts = Counter({k: 2 for k in topic.keywords})  # incumbents weigh more than one newcomer
    counts.update(event_keywords(event))
    topic.keywords = [k for k, _ in counts.most_common(TOPIC_KEYWORDS)]
    if not topic.label or topic.label == "misc" or event.embedding is not None:
        topic.label = label_from_keywords(topic.keywords)
    topic.size += 1
