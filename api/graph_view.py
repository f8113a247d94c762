"""The inspector's view of the graph: a few events and their neighbourhood as nodes and edges.

This is the one read the `Memory` facade has no method for: it walks the store's links directly
(read-only), so the inspector can draw exactly what consolidation wrote.
"""

from __future__ import annotations

from collections.abc import Sequence

from api.schemas import GraphEdge, GraphNode, GraphOut
from simplemem_graph.errors import NotFoundError
from simplemem_graph.models import Event, LinkKind
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EntityQuery, EventQuery, TurnQuery

# Which end of each drawn link is what kind of node. FROM (event -> raw turn) is not drawn: the
# source turns are shown in the event's detail panel instead.
_ENDPOINT_KINDS: dict[LinkKind, tuple[str, str]] = {
    LinkKind.MENTIONS: ("event", "entity"),
    LinkKind.IN_TOPIC: ("event", "topic"),
    LinkKind.ON: ("event", "day"),
    LinkKind.DUE: ("event", "day"),
    LinkKind.NEXT: ("event", "event"),
    LinkKind.CAUSES: ("event", "event"),
    LinkKind.SUPERSEDES: ("event", "event"),
    LinkKind.CONTRADICTS: ("event", "event"),
    LinkKind.ALIAS_OF: ("entity", "entity"),
    LinkKind.CANDIDATE_ALIAS: ("entity", "entity"),
    LinkKind.WORKS_AT: ("entity", "entity"),
}
DRAWN_LINKS: tuple[LinkKind, ...] = tuple(_ENDPOINT_KINDS)

# Topics and days can touch hundreds of events; walking through them would drown the view, so
# they are shown as leaves and the walk continues only through events and entities.
_WALKED_KINDS = frozenset({"event", "entity"})


def build_neighbourhood(
    store: GraphStore, namespace: str, event_ids: Sequence[str], *, hops: int = 1, max_nodes: int = 150
) -> GraphOut:
    """The events asked for plus every node within `hops` links of them, with the links among them.

    Args:
        store: the store to read.
        namespace: the tenant.
        event_ids: the seed events (usually the hits of a search).
        hops: how many links to follow outwards (0 shows the seeds only).
        max_nodes: stop adding nodes beyond this many; `truncated` says it happened.

    Returns:
        Nodes (events, entities, topics, days) with their properties, and the drawn links among
        them. Event nodes carry their source turns in `props["source_turns"]`.

    Raises:
        NotFoundError: none of `event_ids` exists in the namespace.

    Example:
        >>> view = build_neighbourhood(mem.store, "default", [hit.event.id for hit in result.hits])
    """
    seeds = store.events(namespace, EventQuery(ids=list(dict.fromkeys(event_ids))))
    if not seeds:
        raise NotFoundError(f"graph: none of the events {list(event_ids)[:5]} is in namespace {namespace!r}")
    kinds: dict[str, str] = {event.id: "event" for event in seeds}
    frontier = set(kinds)
    truncated = False
    for _ in range(hops):
        if not frontier:
            break
        reached: set[str] = set()
        for link in store.links(namespace, kinds=DRAWN_LINKS, node_ids=sorted(frontier)):
            source_kind, target_kind = _ENDPOINT_KINDS[link.kind]
            for node_id, kind in ((link.source, source_kind), (link.target, target_kind)):
                if node_id in kinds:
                    continue
                if len(kinds) >= max_nodes:
                    truncated = True
                    continue
                kinds[node_id] = kind
                reached.add(node_id)
        frontier = {node_id for node_id in reached if kinds[node_id] in _WALKED_KINDS}

    nodes = _describe_nodes(store, namespace, kinds, seeds)
    drawn = {node.id for node in nodes}
    edges = [
        GraphEdge(source=link.source, target=link.target, kind=link.kind.value, props=link.props)
        for link in store.links(namespace, kinds=DRAWN_LINKS, node_ids=sorted(drawn))
        if link.source in drawn and link.target in drawn
    ]
    return GraphOut(nodes=nodes, edges=edges, truncated=truncated)


def _describe_nodes(
    store: GraphStore, namespace: str, kinds: dict[str, str], seeds: list[Event]
) -> list[GraphNode]:
    """Label every node and attach the properties the detail panel shows."""
    known = {event.id: event for event in seeds}
    seed_ids = set(known)
    other_event_ids = [node_id for node_id, kind in kinds.items() if kind == "event" and node_id not in known]
    known.update({event.id: event for event in store.events(namespace, EventQuery(ids=other_event_ids))})
    source_ids = sorted({sid for event in known.values() for sid in event.source_ids})
    turns = (
        {turn.id: turn for turn in store.turns(namespace, TurnQuery(ids=source_ids))} if source_ids else {}
    )
    entities = {}
    if "entity" in kinds.values():
        entities = {
            entity.id: entity for entity in store.entities(namespace, EntityQuery()) if entity.id in kinds
        }
    topics = {}
    if "topic" in kinds.values():
        topics = {topic.id: topic for topic in store.topics(namespace) if topic.id in kinds}

    nodes = []
    for node_id, kind in kinds.items():
        if kind == "event" and node_id in known:
            event = known[node_id]
            props = event.public_dict()
            props["source_turns"] = [
                turns[sid].model_dump(mode="json") for sid in event.source_ids if sid in turns
            ]
            nodes.append(
                GraphNode(id=node_id, kind="event", label=event.text, seed=node_id in seed_ids, props=props)
            )
        elif kind == "entity" and node_id in entities:
            entity = entities[node_id]
            props = entity.model_dump(mode="json", exclude={"embedding"})
            nodes.append(GraphNode(id=node_id, kind="entity", label=entity.name, props=props))
        elif kind == "topic" and node_id in topics:
            topic = topics[node_id]
            props = topic.model_dump(mode="json", exclude={"centroid"})
            nodes.append(GraphNode(id=node_id, kind="topic", label=topic.label, props=props))
        elif kind == "day":
            nodes.append(GraphNode(id=node_id, kind="day", label=node_id, props={"date": node_id}))
        # A link to a node the store no longer has (deleted concurrently) is simply not drawn.
    return nodes
