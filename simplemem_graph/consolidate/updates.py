"""Updates and conflicts: SUPERSEDES when a later event explicitly changes a value, CONTRADICTS when
it states a different value without saying it is a change.

Same subject: the two events mention a shared entity (generic speakers do not count) or sit in the
same session, and say the same thing in other words (`similarity.same_subject`). Same attribute:
both carry a value of one kind (money, a date, a quantity) or one negates what the other affirms
(a decision). Changed: the newer one states a value of that kind the older one lacks.

Explicit ("改成", "推迟到", "moved to", "actually", "correction"...): the newer one SUPERSEDES the older,
which gets status "superseded" and `valid_to` = the newer one's time. Without a change word, a new
amount or count SUPERSEDES the older one too when the same words label both values, counted on the
same basis ("retainer £1,200 a month" / "retainer £1,350 a month from April"), in one thread (a
shared entity, or the same session continued by a turn that names nobody): `shared_labels`; so does
a recomputed total and a value given with a cue of time ("28 March now"): value_shifts.py.
Otherwise, and only when the values really disagree both ways, CONTRADICTS: listed by
`list_conflicts`, never merged. The values an event states and their labels: values.py.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from simplemem_graph.consolidate.calibration import calibration
from simplemem_graph.consolidate.name_matching import is_agent_reply
from simplemem_graph.consolidate.similarity import content_terms, same_subject
from simplemem_graph.consolidate.value_shifts import (
    SHIFT_ATTRIBUTES,
    cued_shift,
    moved_without_subject,
    recomputed_total,
)
from simplemem_graph.consolidate.values import (
    HANDOVER,
    LABELLED_ATTRIBUTES,
    LEAVES_POST,
    QUESTION,
    attribute_values,
    figure,
    figures,
    people_in_charge,
    value_labels,
    values_after,
)
from simplemem_graph.models import Event, Link, LinkKind
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EventQuery
from simplemem_graph.text import is_latin, tokenize, zh_dictionary_tag

# What may stand between a change arrow and the new value: its weekday, a label of its own.
_BEFORE_NEW_VALUE = r"(?:[A-Za-z]{2,9},?\s|周[一二三四五六日天]\s?|[\u4e00-\u9fff]{1,4})?\S{0,2}\d"
EXPLICIT_CHANGE = re.compile(
    r"改成|改为|改到|改在|改了|换成|推迟到|推到|延期到|延到|提前到|调整为|调整到|调到|涨到|涨为|降到|降为|更正|更改为|"
    r"顺延|延至|推迟至|推至|改至|提前至|调至|提前了|推迟了|延期了|延后了|"
    # "交稿日期 3月20日 → 3月27日": an arrow between two values is how a note writes a change
    # ("handover Fri 20 Nov → Fri 27 Nov": a date may end with its month and open with its weekday;
    # "报价¥168,000 → 合同价¥196,000": the new value may come with a label of its own)
    r"\d\S{0,6}(?:\s[A-Za-z]{3,9}\.?)?\s?[→⟶⇒]\s?" + _BEFORE_NEW_VALUE + "|"
    r"正确的|说错了|报错了|作废|"
    # "went up to", or "went to" before a figure ("goes to 2780"): "went to an LGBTQ conference"
    # is a visit, and had superseded the counseling workshop she went to the week before.
    r"\b(?:goes|went|gone|going) (?:up |down )to\b|"
    r"\b(?:goes|went|gone|going) to(?=\s+(?:about |around |roughly |over |under )?[£$€¥₹]?\d)|"
    r"\breplac(?:es|ed|ing)\b|代替|取代|"
    r"\b(?:moved|changed|pushed|postponed|delayed|brought forward|switched|raised|lowered|updated)\b"
    r"(?:\s+\S+){0,4}?\s+(?:to|until)\b|\brescheduled\b|"
    r"\bactually\b|\binstead\b|\bcorrection\b|\bcorrected\b|"
    rf"{HANDOVER}|"
    r"\bnow (?:costs?|is)\b|\bno longer\b",
    re.IGNORECASE,
)
_ARROW = re.compile(rf"(?<=\S)\s?[→⟶⇒]\s?(?={_BEFORE_NEW_VALUE})")  # between two values, as in the marker
_CLAUSE_END = re.compile(r"[；;，,。\n]")
# An agent's advice (LongMemEval's assistant) lists options, prices and recipes: a second list of
# prices or a recomputed total in it replaces no fact of the user's, and "instead" or "actually"
# in it changes nothing either. All 47 SUPERSEDES links of six LongMemEval dev haystacks that had
# an agent's reply on either side were wrong, hiding what the user said ("a silver necklace ...
# around $50 plus $5 for wrapping" superseded by the assistant's list "+ Gift wrapping: $5 /
# Total: $55"); 46 of them were advice formatted as a list (several lines, bullets, numbered
# items, bold), which now takes part in no update unless it reports a change with a change verb
# ("moved your appointment to Friday") or an arrow between two values. An agent's one-line note
# ("Noted: retainer £950 from May", the 669 assistant turns of the client stories) is a fact like
# any other: barring every agent reply lost three of dev2's four expected updates.
_ADVICE_FORMAT = re.compile(r"\n|^\s*(?:[*+•-]\s|\d+[.)]\s|\*\*)", re.MULTILINE)
_REPORTED_CHANGE = re.compile(
    r"[→⟶⇒]|(?:moved|changed|pushed|postponed|delayed|brought forward|switched|updated)"
    r"(?:\s+\S+){0,4}?\s+(?:to|until)"
    r"|rescheduled|改成|改为|改到|改在|推迟到|推到|延期到|延到|提前到|调整为|调整到|调到",
    re.IGNORECASE,
)
SUBJECT_MIN_OVERLAP = 0.2  # shared-word Jaccard for "same subject"
# An implicit change is only a conflict when the two events are very alike: a different amount in
# a loosely related sentence is usually another fact, not a contradiction.
CONFLICT_MIN_OVERLAP = 0.35
MAX_OLDER = 50  # compare with at most this many earlier events per new event
_DISPUTE_SCOPE_CHARS = 12  # what a negation bears on: the words right after it, within its clause
_VALUE_WITH_UNIT = re.compile(r"\d+(?:\.\d+)?\s?[\u4e00-\u9fff%]")
# An explicit change names what changes ("见房东改到5月21号", "the kickoff was moved to ..."): the
# older event must mention that subject. Shared words of the change itself (改到, 号, "moved") or
# of the value are no evidence: "看牙医改到5月27号" and "见房东改到5月21号" share them and little else.
SUBJECT_MIN_CONTAINMENT = 0.5
# An implicit conflict is one thing stated with two values: each event's subject (its terms without
# values and actors) is, nearly all of it, in the other. Two purchases or two plans in one template
# ("约了5月28号去修电脑" / "约了6月7号去体检") are alike texts about different things.
CONFLICT_MIN_SUBJECT = 0.9
_VALUE_KINDS = ("date", "time", "money", "quantity", "number", "duration")


@dataclass
class UpdateResult:
    links: list[Link] = field(default_factory=list)
    superseded: dict[str, Any] = field(default_factory=dict)  # older event id -> valid_to
    counts: dict[str, int] = field(default_factory=lambda: {"SUPERSEDES": 0, "CONTRADICTS": 0})


def detect_updates(
    events: Sequence[Event],
    older_candidates: dict[str, list[Event]],
    shared_entity: set[tuple[str, str]] | None = None,
) -> UpdateResult:
    """SUPERSEDES / CONTRADICTS links from each new event to the earlier events it revises.

    Among the candidates, the older event an update points at is the best supported one: the newer
    text restating its old value ("从3.85降到3.65", "3.6元报错了") counts most, then a shared entity,
    then how alike the two texts are. A pair needs one of: alike texts, a restated old value with an
    explicit change marker, or a dispute (the newer negates a figure the older states: "他不认11天").
    Without a change marker, CONTRADICTS also needs a shared entity and no value in common.

    Args:
        events: new events, oldest first.
        older_candidates: per new event id, earlier events about the same entity or session
            (stored ones and earlier ones of this batch), oldest first.
        shared_entity: (new id, older id) pairs that mention a common entity (not a generic speaker).

    Returns:
        The links (props.attribute, props.old, props.new, props.marker), the superseded event ids
        with their valid_to, and counts.
    """
    result = UpdateResult()
    shared_entity = shared_entity or set()
    known: dict[str, dict[str, set[str]]] = {}  # an older event is compared with many new ones

    def values_of(older: Event) -> dict[str, set[str]]:
        if older.id not in known:
            known[older.id] = attribute_values(older)
        return known[older.id]

    same_turn: dict[tuple[str, ...], list[Event]] = defaultdict(list)  # the clauses of each turn
    for event in events:
        same_turn[tuple(event.source_ids)].append(event)
    for event in events:
        marker = EXPLICIT_CHANGE.search(event.text)
        reported = bool(marker and _REPORTED_CHANGE.search(marker.group(0)))
        if _formatted_advice(event) and not reported:
            continue
        new_values = attribute_values(event)
        subject = change_subject(event) if marker else set()
        # score, older, disputed, and why a value with no change word replaces the older ({}: it does not)
        best: dict[str, tuple[float, Event, bool, dict[str, Any]]] = {}
        for older in older_candidates.get(event.id, [])[-MAX_OLDER:]:
            if older.id == event.id or older.time > event.time or (_formatted_advice(older) and not reported):
                continue
            old_values = values_of(older)
            changed = [
                (attribute, values, old_values[attribute])
                for attribute, values in new_values.items()
                if old_values.get(attribute)
                and (
                    figures(attribute, values) - figures(attribute, old_values[attribute])
                    # "branches 7 → 8" after "branches 8 → 7": both figures were written before,
                    # but the older one's current value is 7
                    or (marker and _moved_back(event, older, attribute, marker))
                )
            ]
            if not changed:
                continue  # most pairs: no value of one kind that differs, so no text comparison either
            if marker and subject:
                covered = len(subject & content_terms(older.text)) / len(subject)
                alike = covered if covered >= SUBJECT_MIN_CONTAINMENT else 0.0
            else:
                alike = same_subject(
                    event, older, min_overlap=SUBJECT_MIN_OVERLAP, min_cosine=calibration().subject_min_cosine
                )
            disputed = disputes(event, older)
            # Without a change word, a new value is a change when the same words label it and the
            # value it replaces ("retainer £800" / "so retainer £950 from May") in one thread.
            thread = (event.id, older.id) in shared_entity or (
                event.session == older.session and not _names_anyone(event)
            )
            for attribute, values, old in changed:
                given = new_values_of(event, attribute, marker) if marker else set()
                if marker and figures(attribute, old) <= figures(attribute, given):
                    continue  # the older one states the new value: a restatement, not what changed
                if marker and (older_marker := EXPLICIT_CHANGE.search(older.text)):
                    moved_to = figures(attribute, new_values_of(older, attribute, older_marker))
                    if moved_to and moved_to <= figures(attribute, given):
                        continue  # the older note already moved to this value (6 → 8, then 7 → 8)
                if marker and not given and values_after(event, attribute, 0) and not disputes(event, older):
                    # the change word gives no value of this kind where the text places them all:
                    # "从3月1日起外壳涨到1.32元" changes a price, its date says from when
                    continue
                restated = (
                    attribute != "decision"
                    and bool(marker)
                    and bool(figures(attribute, values) & figures(attribute, old))
                )
                labelled = (
                    _implicit_reason(event, older, attribute)
                    if attribute in LABELLED_ATTRIBUTES
                    and not marker
                    and thread
                    and not disputed
                    and older.time < event.time
                    else {}
                )
                if not (alike or restated or disputed or labelled):
                    continue
                if attribute == "decision" and not disputed:
                    continue
                if attribute == "contact":
                    continue  # a handover is matched on who leaves the post (`_handover`)
                with_entity = 0.5 if (event.id, older.id) in shared_entity else 0.0
                score = alike + (2.0 if restated or labelled else 0.0) + with_entity
                if score >= best.get(attribute, (-1.0, None, False, {}))[0]:
                    best[attribute] = (score, older, disputed, labelled)
        if not marker:
            for attribute in SHIFT_ATTRIBUTES:
                # an entry without a label would at most be a conflict: a cue says it is a change
                if attribute in new_values and not best.get(attribute, (0, None, False, {}))[3]:
                    shift = cued_shift(event, attribute, older_candidates.get(event.id, []), shared_entity)
                    if shift is not None:
                        best[attribute] = (1.0, shift[0], False, shift[1])
        elif "date" in new_values and "date" not in best:
            # "又提前了 温总监说18号必须交": a change word, a person and a date, no thing of its own
            moved = moved_without_subject(event, "date", older_candidates.get(event.id, []), shared_entity)
            if moved is not None:
                best["date"] = (1.0, moved, False, {})
        clauses = same_turn.get(tuple(event.source_ids), [])
        # a change word, else someone leaving a post in the same turn ("Cheryl…放產假，…轉咗俾Raymond跟")
        cue = marker or next(filter(None, (LEAVES_POST.search(c.text) for c in (event, *clauses))), None)
        handover = _handover(event, cue, older_candidates.get(event.id, []), clauses) if cue else None
        if handover is not None and all(older is not handover[0] for _, older, _, _ in best.values()):
            best["contact"] = (0.0, handover[0], False, {})  # one link per pair, as below
        if "decision" in best and any(
            older is best["decision"][1] for a, (_, older, _, _) in best.items() if a != "decision"
        ):
            del best["decision"]  # one link per pair (the store keys links on kind/source/target)
        # A pair one value of which changed is an update, not also a conflict over another value
        # ("6万件×3.55元=213000元" / "5万件×3.55元=177500元": the count and the total change together).
        superseding = {
            older.id for a, (_, older, _, labelled) in best.items() if marker or labelled or a == "contact"
        }
        for attribute, (_score, older, disputed, labelled) in best.items():
            if attribute == "contact" and handover is not None and cue is not None:
                new = _incoming(event, cue)
                old = handover[1]
            else:
                old, new = attribute_values(older)[attribute], new_values[attribute]
            props = {"attribute": attribute, "old": sorted(old - new), "new": sorted(new - old)}
            handed_over = attribute == "contact" and handover is not None and cue is not None
            if marker or labelled or handed_over:
                if cue is not None and (marker or handed_over):  # cue is the marker when there is one
                    props["marker"] = cue.group(0)
                else:
                    props.update(labelled)
                result.links.append(_link(LinkKind.SUPERSEDES, event, older, props))
                result.superseded[older.id] = event.time
                result.counts["SUPERSEDES"] += 1
            elif (
                not old & new
                and older.id not in superseding
                and (event.id, older.id) in shared_entity
                and (disputed or (attribute != "decision" and _one_thing(event, older)))
            ):
                # Implicit: a conflict only when no value is shared (a restatement plus a new figure
                # is a follow-up, not a contradiction) and the texts are very alike or disputed.
                result.links.append(_link(LinkKind.CONTRADICTS, event, older, props))
                result.counts["CONTRADICTS"] += 1
    return result


def _formatted_advice(event: Event) -> bool:
    """An agent's reply formatted as a list: advice, not a fact of the user's (`_ADVICE_FORMAT`)."""
    return is_agent_reply(event) and bool(_ADVICE_FORMAT.search(event.text))


def _implicit_reason(newer: Event, older: Event, attribute: str) -> dict[str, list[str]]:
    """Why a new amount replaces an older one in its thread without a change word: the same words
    label both (`shared_labels`), or both compute it from a common part (`recomputed_total`).
    Empty when neither holds."""
    labels = shared_labels(newer, older, attribute)
    if labels:
        return {"label": sorted(labels)}
    parts = recomputed_total(newer, older, attribute)
    return {"parts": sorted(parts)} if parts else {}


def shared_labels(newer: Event, older: Event, attribute: str) -> frozenset[str]:
    """The label words a value the newer event gives (one the older does not) shares with a value
    of the older event counted on the same basis: what says both are values of one thing; empty
    when nothing does. A question states no value, a figure the older event already writes (with
    another unit word, or none: "goes to 2780" / "£2,780") is no new value, and of an older change
    only the value it changed to is compared (the one it replaced no longer holds)."""
    if QUESTION.search(newer.text) or QUESTION.search(older.text):
        return frozenset()
    old_values = attribute_values(older).get(attribute, set())
    old_figures = {figure(q.value) for q in older.quantities}
    old_labels = value_labels(older, attribute)
    marker = EXPLICIT_CHANGE.search(older.text)
    if marker:  # "单价从3.85降到3.65": only the value it changed to still holds
        current = new_values_of(older, attribute, marker)
        old_labels = {key: words for key, words in old_labels.items() if key[0] in current}
    shared: frozenset[str] = frozenset()
    for (value, basis), words in value_labels(newer, attribute).items():
        if value in old_values or value.split()[0] in old_figures:
            continue
        for (old_value, old_basis), old_words in old_labels.items():
            if old_value != value and old_basis == basis:
                shared |= words & old_words
    return shared


def _names_anyone(event: Event) -> bool:
    """Whether the event names a person or a firm besides its speaker: one that names nobody
    continues its session's thread ("so retainer S$950 from May")."""
    speaker = event.speaker.casefold()
    return any(p.name.casefold() != speaker for p in event.participants)


# Markers after which the text names the value being replaced ("£2,560, replacing the £2,780
# rate", "instead of the GRI price"); after the others it names the new one ("推迟到4月25日").
_OLD_AFTER = re.compile(r"replac(?!ement)|instead|代替|取代", re.IGNORECASE)


def _moved_back(event: Event, older: Event, attribute: str, marker: re.Match) -> bool:
    """Both notes write the change with a marker and the new value differs from the value the
    older note moved to (8 → 7, then 7 → 8)."""
    older_marker = EXPLICIT_CHANGE.search(older.text)
    if older_marker is None:
        return False
    given = figures(attribute, new_values_of(event, attribute, marker))
    current = figures(attribute, new_values_of(older, attribute, older_marker))
    return bool(given and current and given != current)


def new_values_of(event: Event, attribute: str, marker: re.Match) -> set[str]:
    """The values of `attribute` an explicit change gives as new: after the marker ("由4月18日推迟到
    4月25日": 4月25日), or before it for a replacing marker ("£2,560, replacing the £2,780 rate").
    A value inside an English marker is the one it moves from ("moved from 28 March to 21 March")."""
    if _OLD_AFTER.match(marker.group(0)):
        return attribute_values(event).get(attribute, set()) - values_after(event, attribute, marker.start())
    if _ARROW.search(marker.group(0)):
        # "展板40张 → 50张；报价1.6万 → 2万": each arrow gives the value right after it, up to the
        # end of its clause; the old value of the next pair is no new value
        new: set[str] = set()
        for arrow in _ARROW.finditer(event.text):
            end = _CLAUSE_END.search(event.text, arrow.end())
            stop = end.start() if end else len(event.text)
            new |= values_after(event, attribute, arrow.end()) - values_after(event, attribute, stop)
        return new
    return values_after(event, attribute, marker.end())


def change_subject_text(event: Event) -> str:
    """What an explicitly changed event says is changing: its text without the change words and
    without the values (dates, amounts, numbers) it states. Blank for a bare "改到周五了" /
    "moved to Friday", whose subject is the conversation's."""
    text = event.text
    for atom in event.atoms:
        if atom.kind in _VALUE_KINDS and atom.surface:
            text = text.replace(atom.surface, " ")
    for q in event.quantities:
        if q.surface:
            text = text.replace(q.surface, " ")
    for match in EXPLICIT_CHANGE.finditer(text):
        words = match.group(0)
        # Chinese markers are the change verb alone; an English one spans its object ("moved the
        # kickoff to"): only its verb and particle go.
        pieces = [words] if not is_latin(words) else {words.split()[0], words.split()[-1]}
        for piece in pieces:
            pattern = rf"(?<!\w){re.escape(piece)}(?!\w)" if is_latin(piece) else re.escape(piece)
            text = re.sub(pattern, " ", text)
    return text if content_terms(text) else ""


def change_subject(event: Event) -> frozenset[str]:
    """The content terms of `change_subject_text` without who makes the change (the speaker, the
    people acting, among them who "we" stands for: "Caroline and Jon", "Caroline and others"): empty
    when the change names no subject (the caller then falls back to text similarity)."""
    actors = [event.speaker, *(p.name for p in event.participants if p.role == "agent")]
    chinese = bool(_CJK.search(event.text))
    terms = _zh_subject_words(event) if chinese else content_terms(change_subject_text(event))
    return terms - {"others"} - content_terms(" ".join(actors))


_CJK = re.compile(r"[\u4e00-\u9fff]")
_ZH_CLAUSE_END = re.compile(r"[，,。；;！!？?\n]")


def _zh_subject_words(event: Event) -> frozenset[str]:
    """The words of a Chinese change's subject: the nouns and the names jieba does not know (锐丰,
    邱敏) up to the end of the clause the change word stands in ("锐丰的邱敏说外壳可以提前到2月4日交"),
    not character pairs across words ("比原计划早一天" after it comments on the change) nor verbs.
    Latin words in it count as words. When jieba cuts the subject into single characters (an
    unknown "岚茗" as 岚 / 茗), the clause's character pairs stand in for words."""
    marker = EXPLICIT_CHANGE.search(event.text)
    end = len(event.text)
    if marker is not None:
        after = _ZH_CLAUSE_END.search(event.text, marker.end())
        end = after.start() if after else end
    text = change_subject_text(event.model_copy(update={"text": event.text[:end]}))
    words: set[str] = set()
    for word in tokenize(text):
        if word.isascii():
            words |= content_terms(word)
        elif len(word) >= 2 and _CJK.fullmatch(word[0]):
            tag = zh_dictionary_tag(word)
            if not tag and len(word) > 2:
                # an unknown run is cut differently in another sentence (去取琪蔚 / 取琪蔚改到):
                # its character pairs are what two texts share
                words |= {t for t in content_terms(word) if len(t) == 2}
            elif not tag or tag.startswith(("n", "vn")):
                words.add(word)
    return frozenset(words) or content_terms(text)


def disputes(newer: Event, older: Event) -> bool:
    """True when `newer` negates something `older` states: "他不认11天" against "延期11天"."""
    for atom in newer.atoms:
        if atom.kind != "negation":
            continue
        at = newer.text.find(atom.surface)
        if at < 0:
            continue
        scope = newer.text[at + len(atom.surface) : at + len(atom.surface) + _DISPUTE_SCOPE_CHARS]
        scope = re.split(r"[，,。；;！!？?]", scope)[0]
        # Only a figure counts: "不认11天" disputes "延期11天"; a shared word is too weak a sign.
        if any(value in older.text for value in _VALUE_WITH_UNIT.findall(scope)):
            return True
    return False


@dataclass
class Conflict:
    """An unresolved CONTRADICTS pair: the newer event states `attribute` differently from the older."""

    newer: Event
    older: Event
    attribute: str
    kind: str = "CONTRADICTS"

    def as_dict(self) -> dict[str, Any]:
        def brief(e: Event) -> dict[str, Any]:
            return {"id": e.id, "text": e.text, "time": e.time.isoformat(), "source_ids": e.source_ids}

        return {
            "kind": self.kind,
            "attribute": self.attribute,
            "newer": brief(self.newer),
            "older": brief(self.older),
        }


def list_conflicts(store: GraphStore, namespace: str) -> list[Conflict]:
    """Every CONTRADICTS pair of a namespace whose events still exist, newest first.

    Example:
        >>> [c.as_dict()["attribute"] for c in list_conflicts(store, "demo")]
        ['money']
    """
    links = store.links(namespace, kinds=[LinkKind.CONTRADICTS])
    ids = sorted({i for link in links for i in (link.source, link.target)})
    events = {e.id: e for e in store.events(namespace, EventQuery(ids=ids))}
    conflicts = [
        Conflict(events[link.source], events[link.target], str(link.props.get("attribute", "value")))
        for link in links
        if link.source in events and link.target in events
    ]
    return sorted(conflicts, key=lambda c: (c.newer.time, c.newer.id), reverse=True)


def _handover(
    event: Event, marker: re.Match, candidates: list[Event], clauses: Sequence[Event] = ()
) -> tuple[Event, set[str]] | None:
    """The event a change of the person in charge replaces, and who leaves the post: "小陶…休产假，
    接手的是…阿珂", "Fi's leaving them … replacement is Ollie Strand". Who takes the post is named
    after the marker ("接手的是阿珂"), else before it ("Ollie takes over"); who leaves is someone an
    earlier event named whose name the handover repeats. The replaced fact is the first such event
    (where that person was introduced, often in a clause of its own: "everyone calls her Fi.")."""
    incoming = _incoming(event, marker)
    if not incoming:
        return None
    # "Raj is leaving HDG end of April. Sinead takes over ...": who leaves may be named in another
    # clause of the same turn, which is the handover too and no replaced fact; the replaced fact
    # then has to hold that person in a post ("Day to day it's Raj, their practice manager"), not
    # merely name them ("cc Fiona")
    siblings = [c for c in (*clauses, *candidates) if c.id != event.id and c.source_ids == event.source_ids]
    text = event.text.casefold()
    turn_text = " ".join([event.text, *(c.text for c in siblings)]).casefold()
    earlier = [
        older
        for older in candidates  # oldest first
        if older.id != event.id
        and older.time <= event.time
        and not any(older.id == c.id for c in siblings)
        and not {p.name.casefold() for p in older.participants if p.type == "person"} & incoming
    ]
    # First an event that holds the leaver in a post ("Their events coordinator Lindiwe is running
    # it day to day"), then any that names them ("Lindiwe says they're 240 now" is no post of hers).
    for older in earlier:
        leaving = {name for name in people_in_charge(older) if _called_in(name, turn_text)}
        if leaving:
            return older, leaving
    for older in earlier:
        named = {p.name.casefold() for p in older.participants if p.type == "person"}
        leaving = {name for name in named if _called_in(name, text)}
        if leaving:
            return older, leaving
    return None


def _incoming(event: Event, cue: re.Match) -> set[str]:
    """Who takes the post: the people in charge the event names after its cue, else any it names
    (a cue found in another clause of the turn says nothing of where in this one they stand)."""
    mine = cue.string == event.text
    return (values_after(event, "contact", cue.start()) if mine else set()) or people_in_charge(event)


def _called_in(name: str, text: str) -> bool:
    """`name` occurs in `text`, or its first word does when it is a Latin full name: colleagues call
    the leaver by the given name ("also Fiona's off on long service leave" of Fiona Kettering)."""
    words = name.split() if is_latin(name) else []
    return _names_in(name, text) or (len(words) >= 2 and len(words[0]) >= 3 and _names_in(words[0], text))


def _names_in(name: str, text: str) -> bool:
    """`name` occurs in `text` as a whole word (both case-folded; Chinese names need no boundary)."""
    if not is_latin(name):
        return name in text
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None


def _one_thing(a: Event, b: Event) -> bool:
    """Whether two alike events are about one thing, whatever values they give it."""
    if not _alike_enough(a, b):
        return False
    for one, other in ((a, b), (b, a)):
        subject = change_subject(one)
        if subject and len(subject & content_terms(other.text)) / len(subject) < CONFLICT_MIN_SUBJECT:
            return False
    return True


def _alike_enough(a: Event, b: Event) -> bool:
    return bool(
        same_subject(a, b, min_overlap=CONFLICT_MIN_OVERLAP, min_cosine=calibration().conflict_min_cosine)
    )


def _link(kind: LinkKind, newer: Event, older: Event, props: dict[str, Any]) -> Link:
    return Link(kind=kind, source=newer.id, target=older.id, namespace=newer.namespace, props=props)
