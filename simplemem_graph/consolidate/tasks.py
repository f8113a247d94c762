"""Task lifecycle: active -> done when a later event says it is done, -> archived when cancelled,
and back to active when a later event revives it.

The later event must be about the task: it shares an entity, a named date or the session with it,
and says the same thing in other words. Archived tasks are kept; default retrieval filters them out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from simplemem_graph.consolidate.calibration import calibration
from simplemem_graph.consolidate.similarity import same_subject
from simplemem_graph.models import Event, EventStatus

DONE = re.compile(
    r"\b(?:done|finished|completed|sent|submitted|delivered|paid)\b|已完成|完成了|搞定|发了|做完|办完|已发出|已经发出|已付|付过了",
    re.IGNORECASE,
)
CANCELLED = re.compile(
    r"\bcancel(?:l?ed|s)?\b|\bdrop it\b|\bcalled off\b|\bnever mind\b|取消|不用了|不去了|不做了|作罢",
    re.IGNORECASE,
)
REVIVED = re.compile(
    r"\bback on\b|\brevived?\b|\breschedul(?:e|ed)\b|\bafter all\b|重新安排|重新列入|恢复|又要|还是要|重启",
    re.IGNORECASE,
)
TASK_MIN_OVERLAP = 0.12  # a status word plus a shared entity/date/session: a low bar on wording


@dataclass
class TaskChanges:
    status: dict[str, str] = field(default_factory=dict)  # task event id -> new status
    counts: dict[str, int] = field(
        default_factory=lambda: {"tasks_done": 0, "tasks_archived": 0, "tasks_revived": 0}
    )


def track_tasks(events: Sequence[Event], earlier_tasks: dict[str, list[Event]]) -> TaskChanges:
    """Status moves of earlier tasks caused by the new events.

    Args:
        events: new events, oldest first.
        earlier_tasks: per new event id, earlier task events (is_task) sharing an entity, a date or
            the session with it, any status.

    Returns:
        The new status per task event id (the last word wins when several events speak), and counts.
    """
    changes = TaskChanges()
    for event in events:
        move = _move(event.text)
        if move is None:
            continue
        wanted_from, to_status, counter = move
        eligible = [
            task
            for task in earlier_tasks.get(event.id, [])
            if task.id != event.id
            and task.time <= event.time
            and changes.status.get(task.id, task.status) in wanted_from
        ]
        best, best_score = None, 0.0
        for task in eligible:
            score = same_subject(
                event, task, min_overlap=TASK_MIN_OVERLAP, min_cosine=calibration().task_min_cosine
            )
            score += 0.5 * bool(_dates(event) & _dates(task))  # the same named day is strong evidence
            if score > best_score:
                best, best_score = task, score
        if best is None and len(eligible) == 1 and to_status == EventStatus.ACTIVE:
            # A revival often names the cancellation, not the task ("之前取消的看厂要重新安排"); with one
            # archived task about the same entity or session there is nothing else it can mean.
            best = eligible[0]
        if best is not None:
            changes.status[best.id] = to_status
            changes.counts[counter] += 1
    return changes


# "needs to be sent", "will be paid": still to do, not done.
_NOT_YET = re.compile(
    r"\b(?:to|will|must|should|shall|can|could|would) be "
    r"(?:sent|submitted|delivered|paid|done|finished|completed)\b",
    re.IGNORECASE,
)


def _move(text: str) -> tuple[set[str], str, str] | None:
    text = _NOT_YET.sub(" ", text)
    # Cancelling wins over "done" ("the trip is cancelled, done deal"); reviving wins over both
    # because it usually quotes the cancellation ("之前取消的看厂要重新安排").
    if REVIVED.search(text):
        return {EventStatus.ARCHIVED}, EventStatus.ACTIVE, "tasks_revived"
    if CANCELLED.search(text):
        return {EventStatus.ACTIVE, EventStatus.DONE}, EventStatus.ARCHIVED, "tasks_archived"
    if DONE.search(text):
        return {EventStatus.ACTIVE}, EventStatus.DONE, "tasks_done"
    return None


def _dates(event: Event) -> set:
    return set(event.dates) | ({event.deadline} if event.deadline else set())
