"""Active memory (seed 6.2, 主动式记忆构建): a task, meeting or commitment without a key slot
becomes an open question, and a later event that fills the slot closes it.

Which slots a kind needs:
    task        deadline, owner     ("下周二之前把报告发给李经理" has a deadline and an owner: the speaker)
    meeting     time, place         ("we need to meet Acme": when? where?)
    commitment  amount, deadline    (money: "I'll pay Anna back": how much? by when?)

Everything is decided from the stage-1 fields (deadline, dates, time atoms, quantities, location,
participants and their roles) plus a few marker words per language; nothing is fitted to data.
The open slots live on the event itself (`Event.open_slots`), so they are written and closed in the
same `GraphDelta` transaction as the batch that opened or filled them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from simplemem_graph.consolidate.calibration import calibration
from simplemem_graph.consolidate.similarity import same_subject
from simplemem_graph.models import Event, EventStatus, Question, stable_id

KIND_SLOTS: dict[str, tuple[str, ...]] = {
    "task": ("deadline", "owner"),
    "meeting": ("time", "place"),
    "commitment": ("amount", "deadline"),
}
# Most important first: a missing date blocks planning more than a missing place.
SLOT_WEIGHT = {"deadline": 1.0, "time": 0.95, "amount": 0.85, "owner": 0.75, "place": 0.6}

QUESTION_TEXT: dict[tuple[str, str], tuple[str, str]] = {  # (kind, slot) -> (zh, en)
    ("task", "deadline"): ("您希望什么时候完成？", "When should this be done?"),
    ("task", "owner"): ("这件事由谁负责？", "Who will take care of this?"),
    ("meeting", "time"): ("会议定在什么时间？", "When is the meeting?"),
    ("meeting", "place"): ("在哪里见面？", "Where will you meet?"),
    ("commitment", "amount"): ("金额是多少？", "How much is it?"),
    ("commitment", "deadline"): ("需要在什么时候之前完成？", "By when is it due?"),
}

MEETING = re.compile(
    r"\b(?:meet|meets|meeting|meetings|met|appointment|interview|kick-?off|catch up|sync up|get together)\b"
    r"|开(?:个|一个|一次|一下)?会|会议|见面|见个面|面谈|拜访|约见|碰头|会面|面试|聚一聚|聚一下|碰个面",
    re.IGNORECASE,
)
COMMITMENT = re.compile(
    r"\b(?:pay|pays|paying|repay|owe|owes|lend|lends|reimburse|refund|transfer|wire|deposit|invoice"
    r"|budget|buy|purchase|order)\b|付款|支付|付给|付钱|还钱|借给|借钱|报销|退款|转账|汇款|预算|购买|采购|订购|下单|交钱",
    re.IGNORECASE,
)
# Something still to do: a modal or a plan word ("will send", "需要发给", "把报告发给" without 了).
TASK_MARK = re.compile(
    r"\b(?:will|'ll|going to|need(?:s)? to|have to|has to|must|should|shall|plan(?:s)? to|remember to)\b"
    r"|要|会|需要|得|必须|打算|准备|记得|计划",
    re.IGNORECASE,
)
# A meeting that already took place asks nothing ("Tom met Bob", "开了例会").
PAST = re.compile(
    r"\b(?:met|had (?:a|the|our) meeting|attended|visited|was held|took place)\b"
    r"|开了|见了|见过|开过|已经|刚才|昨天",
    re.IGNORECASE,
)
_BA = re.compile(r"把[^了]*$")
# A place said in the text: "at the Kelbury office", "in Berlin", "在临川和..."; stage 1 misses
# many made-up place names, so its `location` is checked against the words around it.
PLACE_EN = re.compile(r"\b(?:at|in) (?:the )?[A-Z][\w-]+")
PLACE_ZH = re.compile(r"在[^\s，。,、和跟与同]{2,8}?(?=和|跟|与|同|开|见|碰|面|举行|召开|$)|地点(?:在|是)")
# Online meetings need no place; a call is not a meeting in a room.
REMOTE = re.compile(
    r"\b(?:online|zoom|teams|video|phone|call|remote(?:ly)?)\b|线上|视频|电话|远程|腾讯会议|钉钉", re.I
)
# First or second person left in the text (the restatement usually names the speaker instead).
PERSONAL = re.compile(r"\b(?:I|I'll|we|we'll|you|you'll|me|us)\b|我|咱|你|您")
# Imperatives are addressed to the listener, who is then the owner.
IMPERATIVE = re.compile(r"^\s*(?:please|pls|kindly|let's|let us)\b|^\s*(?:请|麻烦|帮我|帮忙)", re.I)
# An owner named in the text: "X will", "X负责", "由X", "交给X", "assign it to X", "让X".
OWNER_AFTER = re.compile(
    r"^\s*(?:will|'ll|is going to|has to|needs to|should|must|can|is in charge|handles|takes care|owns)\b"
    r"|^\s*(?:负责|来做|来办|来处理|来|会|要|去|得|需要|处理|跟进|接手)",
    re.IGNORECASE,
)
OWNER_BEFORE = re.compile(
    r"(?:\b(?:assign(?:ed)? (?:it |this )?to|owner is|owned by|handled by|by)\s*|由|交给|让|请|叫|安排)\s*$",
    re.IGNORECASE,
)
# A reply that points back at something said before ("张伟负责这件事", "Tom will handle it").
ANAPHORA = re.compile(
    r"\b(?:it|this|that|the meeting|the task|the payment)\b"
    r"|这件事|这事|这个|那个|此事|该|定在|改在|地点在|地点是|金额是|金额为|时间是|截止",
    re.IGNORECASE,
)
ANSWER_WINDOW = timedelta(days=3)
QUESTION_MIN_OVERLAP = 0.2


def question_kind(event: Event) -> str | None:
    """task | meeting | commitment, or None for an event that asks for no follow-up."""
    if event.negated or event.status != EventStatus.ACTIVE:
        return None
    text = event.text
    if MEETING.search(text) and not PAST.search(text):
        return "meeting"
    planned = event.is_task or TASK_MARK.search(text) or _BA.search(text)
    if COMMITMENT.search(text) and (planned or any(q.kind == "money" for q in event.quantities)):
        return "commitment"
    if (event.action or _ba_verb(text)) and planned:
        return "task"
    return None


# A 把 construction puts its verb last, after the object, with at most a result or a "for a bit"
# (整理一下, 整理好, 发掉): "帮我把给德瑞物流的季度对账单整理一下。"
_BA_PREDICATE = re.compile(
    r"把.+?(?P<v>[\u4e00-\u9fff]{2})(?:一下|好|完|掉|清楚|出来|完成)?[。！!？?~～\s]*$"
)


def _ba_verb(text: str) -> str | None:
    """The verb that closes a Chinese 把 request (整理 of "…对账单整理一下"): stage 1 may find no
    action in it (jieba reads 整理 before 一下 as a noun); the request is still a task. The word in
    the verb's place must not be an adjective or another non-verb (把这个问题想清楚很重要)."""
    m = _BA_PREDICATE.search(text)
    if m is None:
        return None
    from simplemem_graph.compress.names_zh import _dictionary_tag

    verb = m.group("v")
    return None if _dictionary_tag(verb).startswith(("a", "d", "m", "q", "r", "u", "t", "f")) else verb


def filled_slots(event: Event) -> set[str]:
    """The slots this event states, whatever its kind."""
    filled: set[str] = set()
    kinds = {a.kind for a in event.atoms}
    if event.deadline or event.dates or "date" in kinds:
        filled |= {"deadline", "time"}
    if "time" in kinds:
        filled.add("time")
    if any(q.kind == "money" for q in event.quantities) or "money" in kinds:
        filled.add("amount")
    if PLACE_EN.search(event.text) or PLACE_ZH.search(event.text) or REMOTE.search(event.text):
        filled.add("place")
    if _has_owner(event):
        filled.add("owner")
    return filled


def _has_owner(event: Event) -> bool:
    text = event.text
    if PERSONAL.search(text) or IMPERATIVE.search(text):
        return True
    speaker = event.speaker.strip()
    if speaker and text.lstrip().startswith(speaker):  # the restatement put the speaker first: "I ..."
        return True
    for p in event.participants:
        if p.type not in ("person", "org"):
            continue
        if p.role == "agent":
            return True
        at = text.find(p.name)
        if at < 0:
            continue
        if at == 0 or OWNER_AFTER.search(text[at + len(p.name) :]) or OWNER_BEFORE.search(text[:at]):
            return True
    return False


def missing_slots(event: Event) -> tuple[str | None, list[str]]:
    """The kind of an event and the key slots it lacks (in slot order)."""
    kind = question_kind(event)
    if kind is None:
        return None, []
    filled = filled_slots(event)
    return kind, [slot for slot in KIND_SLOTS[kind] if slot not in filled]


@dataclass
class QuestionChanges:
    batch: dict[str, list[str]] = field(default_factory=dict)  # new event id -> its open slots
    stored: dict[str, list[str]] = field(default_factory=dict)  # earlier event id -> slots still open
    counts: dict[str, int] = field(default_factory=lambda: {"questions_opened": 0, "questions_closed": 0})


def track_questions(events: Sequence[Event], earlier: dict[str, list[Event]]) -> QuestionChanges:
    """Open questions for the new events' missing slots; close those of earlier events they fill.

    Args:
        events: new events of one batch.
        earlier: per new event id, earlier events (stored or in this batch) sharing an entity or
            the session with it, oldest first (consolidate's `_earlier_related`).

    Returns:
        The open slots of every new event, the remaining open slots of every earlier event a new
        event answered, and counts (questions_opened, questions_closed).
    """
    changes = QuestionChanges()
    open_now: dict[str, list[str]] = {}
    for event in events:
        _kind, slots = missing_slots(event)
        changes.batch[event.id] = slots
        open_now[event.id] = list(slots)
        changes.counts["questions_opened"] += len(slots)
    for event in sorted(events, key=lambda e: (e.time, e.clause)):
        filled = filled_slots(event)
        if not filled:
            continue
        candidates = [e for e in earlier.get(event.id, []) if e.id != event.id and e.time <= event.time]
        answered = False
        for slot in sorted(filled):
            target = _answered(event, slot, candidates, open_now)
            if target is None:
                continue
            answered = True
            open_now[target.id].remove(slot)
            changes.counts["questions_closed"] += 1
            if target.id in changes.batch:
                changes.batch[target.id] = open_now[target.id]
            else:
                changes.stored[target.id] = open_now[target.id]
        if answered and _is_reply(event) and open_now[event.id]:
            # "张伟负责这件事" answers the earlier task; it is not a new task with gaps of its own.
            changes.counts["questions_opened"] -= len(open_now[event.id])
            open_now[event.id] = []
            changes.batch[event.id] = []
    return changes


def _answered(
    event: Event, slot: str, candidates: list[Event], open_now: dict[str, list[str]]
) -> Event | None:
    """The earlier event whose open `slot` this event fills: the most alike one about the same
    subject, else (for a reply that points back, or states nothing else) the latest one of the session."""
    waiting = []
    for candidate in candidates:
        slots = open_now.setdefault(candidate.id, list(candidate.open_slots))
        if slot in slots and candidate.status == EventStatus.ACTIVE:
            waiting.append(candidate)
    if not waiting:
        return None
    reply = _is_reply(event)
    # A new task of its own ("Dana will pay Brin $900") answers an earlier one only about the same
    # people ("Dana will pay Stenric back" is another debt): same counterpart, then the same words.
    scored = [
        (
            same_subject(
                event, c, min_overlap=QUESTION_MIN_OVERLAP, min_cosine=calibration().question_min_cosine
            ),
            c,
        )
        for c in waiting
        if reply or _counterparts(event) & _counterparts(c)
    ]
    if not scored:
        scored = [(0.0, waiting[-1])]
    best_score, best = max(scored, key=lambda pair: (pair[0], pair[1].time))
    if best_score > 0:
        return best
    if reply:
        recent = [c for c in waiting if c.session == event.session and event.time - c.time <= ANSWER_WINDOW]
        if recent:
            return max(recent, key=lambda c: (c.time, c.clause))
    return None


def _counterparts(event: Event) -> set[str]:
    """The people and organisations an event is about, besides its speaker."""
    return {p.name.casefold() for p in event.participants if p.type in ("person", "org")} - {
        event.speaker.casefold()
    }


def _is_reply(event: Event) -> bool:
    """A reply fills a slot of something said before: it points back, or says nothing but the slot."""
    if ANAPHORA.search(event.text):
        return True
    return question_kind(event) is None


def build_questions(events: Sequence[Event], *, at: datetime) -> list[Question]:
    """One question per open slot of the events, most important first: the slot's weight, then
    recency (an event of today weighs up to 0.3 more than one of weeks ago)."""
    questions = []
    for event in events:
        kind = question_kind(event) or "task"
        for slot in event.open_slots:
            zh, en = QUESTION_TEXT.get((kind, slot), QUESTION_TEXT[("task", "deadline")])
            age_days = max((at - event.time).total_seconds() / 86400.0, 0.0)
            importance = SLOT_WEIGHT.get(slot, 0.5) + 0.3 / (1.0 + age_days / 7.0)
            questions.append(
                Question(
                    id=stable_id("q", event.namespace, event.id, slot),
                    question=zh if event.lang == "zh" else en,
                    slot=slot,
                    kind=kind,
                    importance=importance,
                    event=event,
                )
            )
    return sorted(questions, key=lambda q: (-q.importance, q.event.id, q.slot))
