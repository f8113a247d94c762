"""The party a question describes without naming it.

People ask about a client as they remember it: "滨江那家最后是哪天上线的？", "when is the credit
union's gala now?". No entity is named, so no story can be read by name. The memories that best
answer the question are about that client, though: the organisation they MENTION most (stated or
implied) is the one described, when it stands out. Reads the hits' MENTIONS links and the entities
of the names they were said by: two store calls, bounded by the hits, not by the store.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from simplemem_graph.models import Entity, Hit, LinkKind
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EntitiesNamed

# An organisation stands out when the hits mention it at least this often, and at least twice as
# often as any other organisation (one mention per event: MENTIONS links are unique per pair).
MIN_MENTIONS = 2
LEAD = 2.0


def described_party(
    store: GraphStore, namespace: str, hits: Sequence[Hit], terms: Sequence[str]
) -> Entity | None:
    """The organisation the `hits` (a search's best memories for a question) are about, or None
    when none stands out. A hit votes only when it says one of the question's content `terms`
    (a search always returns something: "the weather in Lisbon" is about no client). Only
    organisations said by name in one of the hits can be it (an implied mention counts as a vote,
    but the entity is read by a name it was said by)."""
    folded = [t.casefold() for t in terms if t.strip()]
    ids = [h.event.id for h in hits if any(t in h.event.text.casefold() for t in folded)]
    wanted = set(ids)
    mentions = [
        link
        for link in (store.links(namespace, kinds=[LinkKind.MENTIONS], node_ids=ids) if ids else [])
        if link.source in wanted
    ]
    votes = Counter(link.target for link in mentions)
    said_as: dict[str, set[str]] = {}
    for link in mentions:
        if link.props.get("surface"):
            said_as.setdefault(link.target, set()).add(link.props["surface"])
    forms = sorted({form for found in said_as.values() for form in found})
    named = store.entities(namespace, EntitiesNamed(forms)) if forms else {}
    orgs = {
        entity.id: entity
        for target, found in said_as.items()
        for form in found
        for entity in named.get(form, [])
        if entity.id == target and entity.type == "org"
    }
    ranked = [(count, target) for target, count in votes.most_common() if target in orgs]
    if not ranked:
        return None
    top, target = ranked[0]
    runner_up = ranked[1][0] if len(ranked) > 1 else 0
    if top < MIN_MENTIONS or top < LEAD * runner_up:
        return None
    return orgs[target]
