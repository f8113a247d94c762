"""Re-derive, in the global pass, what an incremental step infers from arrival order: implied
subjects and NEXT chains. After the pass the graph is a function of the turns, not of the order
several writers happened to deliver them in.

Implied subjects:
During ingest, an event's implied MENTIONS (see focus.py: employer, turn, session focus,
pronoun) are inferred from what the store knew when its batch arrived. With several writers,
or an old log imported late, a session can be consolidated before the session where a person's
employer is stated, and the inference differs from a run in time order. The global pass re-infers
them from the final state: each session's events in time order, their explicit mentions, every
WORKS_AT link, and the raw turns; then it removes the implied links that no longer hold and adds
the missing ones, in one delta. Explicit mentions (a name in the text) are never touched.

NEXT chains: every session's events and every storyline entity's events (its MENTIONS, implied
ones included, generic speakers excluded) in event-time order; NEXT links that are in no chain go,
missing ones are added. The incremental step already inserts late events by time
(`time_links.link_next`); this catches chains whose membership changed afterwards.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from simplemem_graph.consolidate.entities import GENERIC_SPEAKERS, EntityIndex
from simplemem_graph.consolidate.focus import SessionFocus, infer_subjects
from simplemem_graph.consolidate.time_links import chain_order, next_link
from simplemem_graph.models import GraphDelta, Link, LinkKind
from simplemem_graph.stores.base import GraphStore


def rederive_implied_mentions(store: GraphStore, namespace: str) -> dict[str, int]:
    """Recompute every implied MENTIONS link of a namespace; return implied_added / implied_removed."""
    events = sorted(
        store.list_events(namespace, embeddings=False), key=lambda e: (e.time, e.source_ids[:1], e.id)
    )
    if not events:
        return {"implied_added": 0, "implied_removed": 0}
    index = EntityIndex.load(store, namespace)
    explicit: dict[str, dict[str, dict]] = defaultdict(dict)
    implied_now: dict[tuple[str, str], Link] = {}
    for link in store.list_links(namespace, kinds=[LinkKind.MENTIONS]):
        if link.props.get("role") == "implied":
            implied_now[(link.source, link.target)] = link
        else:
            explicit[link.source][link.target] = dict(link.props)
    turn_ids = sorted({s for e in events for s in e.source_ids})
    turn_texts = {t.id: t.text for t in store.get_turns(namespace, turn_ids)}
    # One call for every session: infer_subjects keeps each session's focus apart, and builds its
    # organisation-name automaton once (once per session made the step O(sessions x entities)).
    mentions = {e.id: dict(explicit.get(e.id, {})) for e in events}
    ties: list[Link] = []
    infer_subjects(
        events, mentions, index, turn_texts=turn_texts, stored_focus=lambda _s: SessionFocus(), ties=ties
    )
    wanted: dict[tuple[str, str], Link] = {
        (event_id, entity): Link(
            kind=LinkKind.MENTIONS, source=event_id, target=entity, namespace=namespace, props=props
        )
        for event_id, mentioned in mentions.items()
        for entity, props in mentioned.items()
        if props.get("role") == "implied"
    }
    removed = [link for key, link in implied_now.items() if key not in wanted]
    added = [
        link for key, link in wanted.items() if key not in implied_now or implied_now[key].props != link.props
    ]
    # An explicit mention of the same pair wins: never replace it by an implied one.
    added = [link for link in added if link.target not in explicit.get(link.source, {})]
    # People and suppliers the focus ties (WORKS_AT) are kept: the index had every earlier tie, so
    # these are the new ones.
    store.apply_delta(GraphDelta(namespace=namespace, links=added + ties, removed_links=removed))
    return {"implied_added": len(added), "implied_removed": len(removed), "works_at_added": len(ties)}


def rederive_next_chains(store: GraphStore, namespace: str) -> dict[str, int]:
    """Rebuild NEXT from the session chains and the entity storylines; return next_added / next_removed."""
    events = {e.id: e for e in store.list_events(namespace, embeddings=False)}
    if not events:
        return {"next_added": 0, "next_removed": 0}
    names = {e.id: e.name for e in store.list_entities(namespace)}
    chains: dict[str, list] = defaultdict(list)
    for event in events.values():
        chains[f"session:{event.session}"].append(event)
    for link in store.list_links(namespace, kinds=[LinkKind.MENTIONS]):
        name = names.get(link.target)
        if link.source in events and name is not None and name.strip().lower() not in GENERIC_SPEAKERS:
            chains[f"entity:{link.target}"].append(events[link.source])
    wanted: dict[tuple[str, str], Link] = {}
    # Session chains first: a pair linked by both scopes keeps the session scope, as in link_next.
    for scope in sorted(chains, key=lambda s: (not s.startswith("session:"), s)):
        members = sorted({e.id: e for e in chains[scope]}.values(), key=chain_order)
        for earlier, later in itertools.pairwise(members):
            wanted.setdefault((earlier.id, later.id), next_link(earlier, later, scope))
    present = {(lk.source, lk.target): lk for lk in store.list_links(namespace, kinds=[LinkKind.NEXT])}
    removed = [link for key, link in present.items() if key not in wanted]
    added = [link for key, link in wanted.items() if key not in present or present[key].props != link.props]
    store.apply_delta(GraphDelta(namespace=namespace, links=added, removed_links=removed))
    return {"next_added": len(added), "next_removed": len(removed)}
