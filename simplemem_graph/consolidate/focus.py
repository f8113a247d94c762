"""Implied subjects: which organisation (or person) an event is about when its text does not say.

Stage 1 cuts turns into clause events, and people drop the subject once it is clear: "锐丰又发通知了，
从3月1日起外壳涨到1.32元" (the second clause is still 锐丰's), "他说最快下周二" (he = the person just
named), "Contract signed today" in a conversation about one supplier. Such an event gets an extra
MENTIONS link with `role: "implied"` and `via` saying where the subject came from, in this order:

1. `employer`: a person the event names works at an organisation (WORKS_AT) -> that organisation;
2. `turn`: the raw turn names exactly one known organisation (a clause stage 1 dropped may carry it),
   or the previous clause event of the same turn has one among those the turn names;
3. `session`: the organisation the session was last talking about (the focus), while it is fresh:
   at most MAX_INHERITED_IN_A_ROW events and FOCUS_MAX_AGE since it was last named;
4. `pronoun`: he/she/他/她 with exactly one person named by the previous event of the session.

An event that names an organisation itself never inherits one; it sets the session's focus.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from simplemem_graph.consolidate.aliases import normalise_name
from simplemem_graph.consolidate.entities import GENERIC_SPEAKERS, EntityIndex
from simplemem_graph.models import Event

MAX_INHERITED_IN_A_ROW = 8  # events in a row that may borrow the focus before it fades
FOCUS_MAX_AGE = timedelta(hours=4)  # a focus last named longer ago than this has faded
_PERSON_PRONOUN = re.compile(r"[他她](?![们們])|\b(?:he|she|him|her)\b", re.IGNORECASE)

Mentions = dict[str, dict[str, dict[str, str]]]  # event id -> canonical entity id -> MENTIONS props


@dataclass
class SessionFocus:
    """What a session is currently about: organisations, when they were last named, people just named."""

    orgs: list[str] = field(default_factory=list)
    named_at: datetime | None = None
    inherited_in_row: int = 0
    last_people: list[str] = field(default_factory=list)


def infer_subjects(
    events: Sequence[Event],
    mentions: Mentions,
    index: EntityIndex,
    *,
    turn_texts: dict[str, str],
    stored_focus: Callable[[str], SessionFocus],
) -> Counter:
    """Add implied MENTIONS (role "implied", via employer/turn/session/pronoun) to `mentions` in place.

    Args:
        events: the batch, in stage-1 order (clauses of one turn are consecutive).
        mentions: explicit mentions from entity resolution; updated in place.
        index: the namespace's entities with WORKS_AT links.
        turn_texts: raw text of the events' source turns.
        stored_focus: the focus a session had at the end of the stored events before this batch.

    Returns:
        Counts by `via` (implied_employer, implied_turn, implied_session, implied_pronoun).

    Example:
        >>> infer_subjects(events, resolution.mentions, index, turn_texts=texts, stored_focus=ctx.focus)
        Counter({'implied_session': 12, 'implied_turn': 3})
    """
    counts: Counter = Counter()
    focus: dict[str, SessionFocus] = {}
    previous_in_turn: dict[str, list[str]] = {}
    @functools.cache  # the clauses of one turn share its text
    def orgs_in_turn(turn_id: str) -> list[str]:
        # Known names, and trade names a dropped clause may use before any event did (恒通 of
        # 苏州市恒通…有限公司), through the index's automata: not a list of every org per batch.
        return sorted({i for _, i in index.org_names_in(turn_texts.get(turn_id, ""))})

    for _, event in sorted(enumerate(events), key=lambda pair: (pair[1].time, pair[0])):
        state = focus.setdefault(event.session, stored_focus(event.session))
        mentioned = mentions.setdefault(event.id, {})
        people = [i for i, p in mentioned.items() if _kind(index, i) == "person" and p["role"] != "speaker"]
        orgs = [i for i in mentioned if _kind(index, i) == "org"]
        turn_id = event.source_ids[0] if event.source_ids else ""
        if orgs:
            state.orgs, state.named_at, state.inherited_in_row = orgs, event.time, 0
        else:
            via, implied = _implied_orgs(event, people, index, state, orgs_in_turn, previous_in_turn)
            for org in implied:
                mentioned[org] = {"role": "implied", "via": via, "surface": ""}
            if implied:
                counts[f"implied_{via}"] += len(implied)
                orgs = implied
                if via == "session":
                    state.inherited_in_row += 1
                else:
                    state.orgs, state.named_at, state.inherited_in_row = implied, event.time, 0
        if not people and len(state.last_people) == 1 and _PERSON_PRONOUN.search(event.text):
            person = state.last_people[0]
            mentioned.setdefault(person, {"role": "implied", "via": "pronoun", "surface": ""})
            counts["implied_pronoun"] += 1
            people = [person]
        state.last_people = people
        previous_in_turn[turn_id] = orgs
    return counts


def _implied_orgs(
    event: Event,
    people: list[str],
    index: EntityIndex,
    state: SessionFocus,
    orgs_in_turn: Callable[[str], list[str]],
    previous_in_turn: dict[str, list[str]],
) -> tuple[str, list[str]]:
    """(via, organisation ids) the event is implicitly about; (via, []) when nothing is clear."""
    employers = sorted({org for person in people for org in index.works_at.get(person, set())})
    if employers:
        return "employer", [index.canonical(o) for o in employers]
    turn_id = event.source_ids[0] if event.source_ids else ""
    in_turn = orgs_in_turn(turn_id)
    if len(in_turn) == 1:
        return "turn", in_turn
    if in_turn:
        earlier = [o for o in previous_in_turn.get(turn_id, []) if o in in_turn]
        if earlier:
            return "turn", earlier
        return "turn", [o for o in state.orgs if o in in_turn]
    fresh = (
        state.orgs
        and state.named_at is not None
        and event.time - state.named_at <= FOCUS_MAX_AGE
        and state.inherited_in_row < MAX_INHERITED_IN_A_ROW
    )
    return "session", list(state.orgs) if fresh else []


def focus_from_stored(events: Sequence[Event], mentions: Mentions, index: EntityIndex) -> SessionFocus:
    """The focus at the end of a session's stored events (oldest first), read from their MENTIONS."""
    state = SessionFocus()
    for event in events:
        mentioned = mentions.get(event.id, {})
        orgs = [i for i in mentioned if _kind(index, i) == "org"]
        if not orgs:
            continue
        if all(mentioned[o].get("via") == "session" for o in orgs):
            state.inherited_in_row += 1
        else:
            state.orgs, state.named_at, state.inherited_in_row = orgs, event.time, 0
    return state


def _kind(index: EntityIndex, entity_id: str) -> str:
    entity = index.entities.get(entity_id)
    if entity is None or normalise_name(entity.name) in GENERIC_SPEAKERS:
        return "speaker"
    return entity.type
