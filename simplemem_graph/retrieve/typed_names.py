"""What a name a person types means when no entity has it exactly.

A user asks for the story of the client as they know it ("Lamplight Regional Library Corporation",
苏州好好练体育科技有限公司, "Moccia"), and stage 1 may have filed it under another form, or under none
at all (a shape of name the extractor does not read yet). Two readings, both through the store
contract with a bounded number of indexed calls:

- `entities_for_typed_name`: the entity called by a part of the name (its trade name, its first
  words, the name without its legal form), or the one whose name the typed one opens ("Moccia" of
  "Moccia Brothers Plumbing"), by the same short-form rules consolidation uses for aliases;
- `events_saying`: the events made from turns that say the name as typed (the raw log is the
  source of truth: a name is there whether or not it became an entity).
"""

from __future__ import annotations

from simplemem_graph.consolidate.aliases import (
    GENERIC_ORG_WORDS,
    is_abbreviation,
    short_forms,
    without_legal_form,
)
from simplemem_graph.consolidate.name_matching import name_occurs
from simplemem_graph.models import Entity, Event
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EntitiesNamed, EntityQuery, RecallFilter, TurnQuery, TurnRecall
from simplemem_graph.text import is_latin

# Turns read for a typed name: the lexical index ranks the turns that say every word of it first,
# and a client's story is some dozens of turns, not hundreds.
SAID_TURNS_MAX = 200
_ARTICLES = ("the ", "The ")
# A type whose entities are never what a person means by a client's name.
_NOT_A_PARTY = ("place", "date", "time")
_TYPE_ORDER = {"org": 0, "person": 1}


def entities_for_typed_name(store: GraphStore, namespace: str, name: str) -> tuple[list[Entity], str]:
    """The entities a typed name that no entity has exactly stands for, best first, and the form
    that matched them ([] and "" when none does).

    Part of the name, longest first: "Lamplight Regional Library Corporation" -> "Lamplight
    Regional Library" ... "Lamplight"; 苏州好好练体育科技有限公司 -> 好好练. Else a name the typed one
    opens: "Moccia" -> "Moccia Brothers Plumbing & Heating" (its first words, as aliases are
    judged), never "Lamplighter" for "Lamplight" (whole words only)."""
    forms = _parts_of(name)
    if forms:
        found = store.entities(namespace, EntitiesNamed(names=forms))
        for form in forms:
            parties = _ranked(found.get(form, []))
            if parties:
                return parties, form
    typed = name.strip()
    opened = [
        e
        for e in store.entities(namespace, EntityQuery(starting=[typed[:1]]))
        if any(is_abbreviation(typed, n) for n in (e.name, *e.aliases) if len(n) > len(typed))
    ]
    parties = sorted(_ranked(opened), key=lambda e: (_TYPE_ORDER.get(e.type, 2), len(e.name)))
    return (parties, parties[0].name) if parties else ([], "")


def _parts_of(name: str) -> list[str]:
    """The forms inside a typed name that could be an entity's whole name, longest first."""
    name = name.strip()
    for article in _ARTICLES:
        name = name.removeprefix(article)
    forms = [*short_forms(name, "org"), *filter(None, [without_legal_form(name)])]
    words = name.split()
    if is_latin(name) and len(words) >= 2:
        # its first words: a client's name opens with what it is called by ("Blue Door" of "Blue
        # Door Hotels"); one word alone only when it is written as a name and is no short word
        forms += [" ".join(words[:n]) for n in range(len(words) - 1, 1, -1)]
        if words[0][:1].isupper() and len(words[0]) >= 4:
            forms.append(words[0])
    unique = [f for f in dict.fromkeys(forms) if f and f != name and f not in GENERIC_ORG_WORDS]
    return sorted(unique, key=len, reverse=True)


def _ranked(entities: list[Entity]) -> list[Entity]:
    """Parties only (an organisation before a person), in a stable order."""
    kept = [e for e in entities if e.type not in _NOT_A_PARTY]
    return sorted(kept, key=lambda e: (_TYPE_ORDER.get(e.type, 2), e.id))


def events_saying(store: GraphStore, namespace: str, name: str, window: RecallFilter) -> dict[str, Event]:
    """The events in `window` whose text, or one of whose source turns, says `name` as a whole
    name (`name_occurs`): what the raw log holds under a name no entity has. Id -> event."""
    name = name.strip()
    if not name:
        return {}
    candidates = store.text_search(namespace, TurnRecall(name, SAID_TURNS_MAX, filter=window))
    turn_ids = sorted({s for e in candidates for s in e.source_ids})
    saying = {t.id for t in store.turns(namespace, TurnQuery(ids=turn_ids)) if name_occurs(name, t.text)}
    return {
        e.id: e for e in candidates if name_occurs(name, e.text) or any(s in saying for s in e.source_ids)
    }
