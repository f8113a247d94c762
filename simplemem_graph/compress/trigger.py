"""The seed's dual compression trigger (section 4.2, 压缩触发阈值): when does a turn become a memory?

"Either one turn carries more information than a threshold, or several consecutive turns on the
same topic update the information." The first path catches a burst of detail ("the contract is
25,000 CNY, signed with Acme on 2026-03-17"); the second a state that changes bit by bit over a few
short turns ("Did you book it?" / "Yes, for Friday." / "Two rooms."), which as separate events
would each be a fragment that says little on its own and bloats the store.

A turn's information is what it adds: its atoms (numbers, dates, names, negations...) plus the
content words the recent window of the session had not said. Chit-chat (no information at all) was
already dropped by the keep rule; this module only decides how the informative turns are grouped:
- information >= INFORMATION_THRESHOLD: the turn's events as they are (path "information");
- below: the turn is held in its session's window, with the turns before it on the same topic;
  the window is compressed into one event when its information reaches the threshold, when the
  topic changes, when an information-rich turn arrives, or at the end of the batch (path
  "accumulated"). A window of one turn keeps that turn's own events.

"Same topic" is lexical, as the keep rule's "new" is: the turn shares a content word with the
window, or adds no content word of its own (a bare "Yes, on Friday." answers what came before).
"Consecutive" is also in time: a turn more than WINDOW_GAP after the window's last turn starts a
new window, so the same short report made every week ("met Orsk for the weekly review") stays one
event per week, each with its own day, instead of one event that hides the repetition.

Windows do not span ingest batches (a batch is one logged chunk, 64 turns from a file): a window
open at the end of a batch is closed there, so the same chunk always gives the same events,
whichever process consolidates it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from simplemem_graph.lexicon import GENERIC_SPEAKERS
from simplemem_graph.models import Event, Participant, stable_id

# A clause needs MIN_CONTENT_WORDS (3) content words to say something new on its own
# (informative.py); one more unit of information (an atom or a new word) makes a turn a memory by
# itself. Chosen from that rule, not fitted to a data set.
INFORMATION_THRESHOLD = 4
# Turns of one exchange come minutes apart; a longer silence is a new exchange, even in the same
# session (a session in an agent's log can last for weeks).
WINDOW_GAP = timedelta(hours=1)
TRIGGER_INFORMATION = "information"
TRIGGER_ACCUMULATED = "accumulated"


def _utc(time: datetime) -> datetime:
    return time if time.tzinfo else time.replace(tzinfo=UTC)


def information(events: Sequence[Event], new_words: set[str]) -> int:
    """What a turn adds: its events' distinct atoms plus the content words the recent window lacked."""
    atoms = {(a.kind, a.value) for e in events for a in e.atoms}
    return len(atoms) + len(new_words)


@dataclass
class Window:
    """Consecutive low-information turns of one session on one topic, not yet compressed."""

    order: int  # the position of its first turn in the batch: keeps the output in turn order
    turns: list[list[Event]] = field(default_factory=list)  # each held turn's own events
    words: set[str] = field(default_factory=set)
    information: int = 0
    last_time: datetime | None = None

    def continues(self, time: datetime, said: set[str], new_words: set[str]) -> bool:
        """Whether a turn at `time` saying `said` belongs to this window: soon after, same topic."""
        if self.last_time is not None and abs(_utc(time) - _utc(self.last_time)) > WINDOW_GAP:
            return False
        return not new_words or bool(self.words & said)

    def hold(self, events: list[Event], said: set[str], info: int, time: datetime) -> None:
        self.turns.append(events)
        self.last_time = time
        self.words |= said
        self.information += info

    def close(self) -> list[Event]:
        """The window's events: one merged event, or the lone turn's own events."""
        if len(self.turns) == 1:
            return [e.model_copy(update={"trigger": TRIGGER_ACCUMULATED}) for e in self.turns[0]]
        return [merge_window([e for events in self.turns for e in events])]


def merge_window(parts: list[Event]) -> Event:
    """One event from the events of consecutive turns, in order: the texts joined (a part whose text
    does not name its speaker is prefixed "Speaker: " when the window has several speakers), every
    atom, date, quantity, participant and source turn kept, so restoration still holds."""
    first = parts[0]
    speakers = list(dict.fromkeys(p.speaker for p in parts))
    texts = []
    for part in parts:
        named = len(speakers) == 1 or part.speaker.casefold() in part.text.casefold()
        colon = "：" if part.lang == "zh" else ": "
        texts.append(part.text if named else f"{part.speaker}{colon}{part.text}")
    sep = "" if first.lang == "zh" else " "
    participants: dict[str, Participant] = {}
    for part in parts:
        for p in part.participants:
            participants.setdefault(p.name.casefold(), p)
    for speaker in speakers[1:]:
        if speaker.strip().casefold() not in GENERIC_SPEAKERS:  # "assistant" is a role, no one's name
            participants.setdefault(speaker.casefold(), Participant(name=speaker, role="agent"))
    sources = list(dict.fromkeys(s for p in parts for s in p.source_ids))
    conditions = [p.condition for p in parts if p.condition]

    def first_of(name: str):
        return next((getattr(p, name) for p in parts if getattr(p, name) is not None), None)

    return first.model_copy(
        update={
            "id": stable_id("ev", first.namespace, *sources, "window"),
            "text": sep.join(t.strip() for t in texts),
            "source_ids": sources,
            "clause": 0,
            "deadline": first_of("deadline"),
            "dates": list(dict.fromkeys(d for p in parts for d in p.dates)),
            "action": first_of("action"),
            "object": first_of("object"),
            "participants": list(participants.values()),
            "location": first_of("location"),
            "quantities": [q for p in parts for q in p.quantities],
            "negated": any(p.negated for p in parts),
            "condition": "; ".join(conditions) or None,
            "topic": first_of("topic"),
            "keywords": list(dict.fromkeys(k for p in parts for k in p.keywords)),
            "atoms": [a for p in parts for a in p.atoms],
            "verbatim": any(p.verbatim for p in parts),
            "is_task": any(p.is_task for p in parts),
            "trigger": TRIGGER_ACCUMULATED,
        }
    )
