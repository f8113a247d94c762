"""Topics re-clustered by the global pass: Louvain communities of the events' nearest-neighbour
similarity graph, each named after its oldest member, planned as one delta."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import networkx as nx
import numpy as np

from simplemem_graph.consolidate.calibration import calibration
from simplemem_graph.consolidate.neighbours import nearest_neighbours
from simplemem_graph.consolidate.topics import TOPIC_KEYWORDS, event_keywords, label_from_keywords
from simplemem_graph.models import Event, GraphDelta, Link, LinkKind, Topic, stable_id
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EventQuery, EventVectors, TopicQuery
from simplemem_graph.vectors import unit_rows

NEIGHBOURS_PER_EVENT = 10  # edges kept per event in the re-clustering graph


def plan_topics(store: GraphStore, namespace: str) -> GraphDelta:
    """The topics as Louvain communities of the events' nearest-neighbour similarity graph, each
    named after its oldest member (`topic_ids`), as a delta (reads only): the topics and their
    IN_TOPIC links, the old links no community keeps, and the topics left empty."""
    vector_ids, matrix = store.events(namespace, EventVectors())
    listed = {e.id: e for e in store.events(namespace, EventQuery(embeddings=False))}
    present = [row for row, event_id in enumerate(vector_ids) if event_id in listed]
    if len(present) < len(vector_ids):  # deleted between the two reads
        vector_ids, matrix = [vector_ids[row] for row in present], matrix[present]
    if not vector_ids:
        topics = len(store.topics(namespace, TopicQuery(centroids=False)))
        return GraphDelta(namespace=namespace, counts={"topics": topics})
    events = [listed[event_id] for event_id in vector_ids]  # row i of the matrix is events[i]
    communities = _communities(matrix)
    old_links = store.links(namespace, kinds=[LinkKind.IN_TOPIC])
    # Rows are in (time, id) order: a group's first row is its oldest member, the first group the
    # one with the oldest member.
    groups = sorted(sorted(members) for members in communities)
    ids = topic_ids([[events[i] for i in members] for members in groups], namespace)
    links = [
        Link(kind=LinkKind.IN_TOPIC, source=events[i].id, target=topic_id, namespace=namespace)
        for members, topic_id in zip(groups, ids, strict=True)
        for i in members
    ]
    used = set(ids)
    emptied = [t.id for t in store.topics(namespace, TopicQuery(centroids=False)) if t.id not in used]
    kept_pairs = {(x.source, x.target) for x in links}  # once, not once per old link
    return GraphDelta(
        namespace=namespace,
        topics=[
            _topic(namespace, topic_id, [events[i] for i in members], matrix[members])
            for members, topic_id in zip(groups, ids, strict=True)
        ],
        links=links,
        removed_links=[link for link in old_links if (link.source, link.target) not in kept_pairs],
        # Topics no community kept: nothing is IN them any more.
        deleted_topics=emptied,
        counts={"topics": len(groups), "topics_deleted": len(emptied)},
    )


def _communities(matrix: np.ndarray) -> list[set[int]]:
    """Louvain communities (networkx, seeded) of the graph joining each row to its nearest
    neighbours at cosine >= the topic threshold, weighted by the cosine."""
    neighbours, similarity = nearest_neighbours(matrix, NEIGHBOURS_PER_EVENT + 1)
    rows = np.arange(neighbours.shape[0])[:, None]
    keep = (neighbours >= 0) & (neighbours != rows) & (similarity >= calibration().topic_min_cosine)
    sources, _ = np.nonzero(keep)  # row by row, best neighbour first: the edges in the old loop's order
    graph = nx.Graph()
    graph.add_nodes_from(range(neighbours.shape[0]))
    graph.add_weighted_edges_from(
        zip(sources.tolist(), neighbours[keep].tolist(), similarity[keep].tolist(), strict=True)
    )
    return nx.community.louvain_communities(graph, weight="weight", seed=0)


def _topic(namespace: str, topic_id: str, members: Sequence[Event], vectors: np.ndarray) -> Topic:
    """A community as a topic: its most common keywords and the mean of its members' vectors."""
    keywords = [
        k for k, _ in Counter(k for e in members for k in event_keywords(e)).most_common(TOPIC_KEYWORDS)
    ]
    return Topic(
        id=topic_id,
        namespace=namespace,
        label=label_from_keywords(keywords),
        keywords=keywords,
        centroid=unit_rows(vectors.mean(axis=0)[None, :])[0].tolist(),
        size=len(members),
    )


def topic_ids(groups: Sequence[Sequence[Event]], namespace: str) -> list[str]:
    """One distinct topic id per group of events (oldest group first, members oldest first): the
    stable id of its first member whose id is still free.

    The id depends on the group alone, not on the topics ingest opened: with several writers those
    depend on which batch arrived first, and the graph after the pass must not. Ingest names a
    topic after the event that opened it, which in time order is its oldest member, so a stable
    cluster keeps its id. Two groups never share one (they would merge into one topic).

    Example:
        >>> a, b, c = (Event.model_construct(id=i) for i in "abc")
        >>> topic_ids([[a, b], [c]], "ns") == [stable_id("tp", "ns", "a"), stable_id("tp", "ns", "c")]
        True
    """
    used: set[str] = set()
    ids = []
    for member_events in groups:
        first = member_events[0].id
        own = (stable_id("tp", namespace, e.id) for e in member_events)
        numbered = (stable_id("tp", namespace, first, str(n)) for n in itertools.count())
        topic_id = next(t for t in itertools.chain(own, numbered) if t not in used)
        used.add(topic_id)
        ids.append(topic_id)
    return ids
