"""CAUSES links from discourse markers, cause -> effect.

Stage 1 splits a turn into clause events, so a marker that opens an event's text ties it to the
event before it: the previous clause of the same turn, or the last event of the previous turn of the
session ("The kickoff moved." / "That's why we cancelled the flights."). An effect marker (so, 所以,
导致...) makes the previous event the cause; a cause marker (because, 因为, 由于...) makes this event the
cause of the previous one. "因为A，所以B" yields one link A -> B, not two.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from simplemem_graph.models import Event, Link, LinkKind

EFFECT_MARKERS = (
    "as a result",
    "that's why",
    "that is why",
    "which is why",
    "therefore",
    "consequently",
    "hence",
    "thus",
    "so",
    "所以",
    "因此",
    "因而",
    "于是",
    "结果",
    "导致",
    "以致",
    "从而",
)
CAUSE_MARKERS = ("because of", "because", "due to", "owing to", "因为", "由于", "原因是", "是因为")
# Words that may come before a marker without changing its role ("and so", "但是因为", "那所以").
_LEAD = r"(?:[\s,，:：\-—]|and\b|but\b|then\b|那么|那|就|也|而且|但是|但|可是)*"


def _marker_regex(markers: Sequence[str]) -> re.Pattern[str]:
    alternatives = "|".join(
        re.escape(m) + (r"\b" if m.isascii() else "") for m in sorted(markers, key=len, reverse=True)
    )
    return re.compile(rf"^{_LEAD}({alternatives})", re.IGNORECASE)


_EFFECT = _marker_regex(EFFECT_MARKERS)
_CAUSE = _marker_regex(CAUSE_MARKERS)


def opening_marker(event: Event) -> tuple[str, str] | None:
    """("effect"|"cause", marker) when the event's text opens with a discourse marker."""
    text = _strip_speaker(event.text, event.speaker)
    for role, pattern in (("effect", _EFFECT), ("cause", _CAUSE)):
        match = pattern.match(text)
        if match:
            return role, match.group(1).lower()
    return None


def link_causal(events: Sequence[Event], previous_in_session: dict[str, Event | None]) -> list[Link]:
    """CAUSES links for a batch of new events.

    Args:
        events: new events in stage-1 order (clauses of a turn are consecutive).
        previous_in_session: per session, the latest stored event before this batch (or None).

    Returns:
        Links cause -> effect with props.marker and props.scope ("turn" or "adjacent").
    """
    links = []
    ordered = sorted(enumerate(events), key=lambda pair: (pair[1].time, pair[0]))
    previous = dict(previous_in_session)
    sequence = [event for _, event in ordered]
    for position, event in enumerate(sequence):
        before = previous.get(event.session)
        previous[event.session] = event
        found = opening_marker(event)
        if found is None or before is None:
            continue
        role, marker = found
        scope = "turn" if set(before.source_ids) & set(event.source_ids) else "adjacent"
        if role == "effect":
            links.append(_causes(before, event, marker, scope))
        elif not _opens_effect_next(sequence, position):
            links.append(_causes(event, before, marker, scope))
    return links


def _opens_effect_next(sequence: list[Event], position: int) -> bool:
    """True for "因为A，所以B": the next clause of the same turn carries the effect marker itself."""
    if position + 1 >= len(sequence):
        return False
    following, event = sequence[position + 1], sequence[position]
    same_turn = bool(set(following.source_ids) & set(event.source_ids))
    found = opening_marker(following)
    return same_turn and found is not None and found[0] == "effect"


def _strip_speaker(text: str, speaker: str) -> str:
    """Event texts may open with the speaker's name ("Ana: so we..."); the marker comes after it."""
    stripped = text.strip()
    for prefix in (f"{speaker}:", f"{speaker}：", f"{speaker},", f"{speaker}，"):
        if stripped.lower().startswith(prefix.lower()):
            return stripped[len(prefix) :]
    return stripped


def _causes(cause: Event, effect: Event, marker: str, scope: str) -> Link:
    return Link(
        kind=LinkKind.CAUSES,
        source=cause.id,
        target=effect.id,
        namespace=effect.namespace,
        props={"marker": marker, "scope": scope},
    )
