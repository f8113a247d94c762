"""The values an event states, as update detection compares them: amounts and counts by figure
(and unit), dates, the people it names as holding a post; where each value is written in the text,
and the words that label it ("retainer £1,200 a month": retainer, counted per month).
"""

from __future__ import annotations

import re

from simplemem_graph.models import Event
from simplemem_graph.text import tokenize, zh_dictionary_tag

# A handover names the new holder of a post: "接手的是阿珂", "Ollie takes over", "replacement is",
# "X换人了…以后对接阿梅", "采购这块交给邵杰", "这个项目后头交给何俊", "trevor is covering ops while
# shes out", "Kim fills in for her".
HANDOVER = (
    r"接手|接替|接管|换人|交接|(?:这块|这边|工作|业务|采购|对接|项目)(?:后头|后面|以后|之后)?(?:就|都)?交给|"
    r"\b(?:takes|took|taking|take) over\b|\breplacement\b|"
    r"\bcover(?:s|ing)? (?:for|\w+ while)\b|\b(?:fill|step)(?:s|ing|ped)? in for\b"
)
# Someone leaving a post, for a while or for good ("Vivian下周开始休产假", "Lindiwe's going on
# maternity leave", "以宁…调去做他们…新项目了", "walt is stepping back from the budget"): beside a
# person named as in charge, the turn is a handover even with no change word. Not a change word
# itself: "going on leave from 1 Jun" changes no date.
LEAVES_POST = re.compile(
    r"产假|產假|病假|休假|离职|離職|辞职|辭職|退休|调去|調去|调走|調走|调到|調到|"
    r"\b(?:maternity|paternity|parental|sick|long service|medical) leave\b|\bon leave\b|"
    r"\blast day\b|\bleaving\b|\bstepping (?:back|down)\b|\bstepped (?:back|down)\b|"
    r"\bretir(?:es|ed|ing)\b|\btransferr?(?:ed|ing)? to\b|\bmoved on\b",
    re.IGNORECASE,
)


# Words that make the people an event names the holders of a post: who is in charge, the contact,
# who runs something for the subject. With one of them, the named people are the value of the
# subject's "contact" attribute, and a new name there is a change of the person in charge.
IN_CHARGE = re.compile(
    rf"对接|负责|联系人|运营|经理|主管|{HANDOVER}|"
    r"\bcontacts?\b|\bin charge\b|"
    r"\bmanager\b|\bcoordinator\b|\bruns\b|\bday to day\b|\bowner\b|"
    # "Bradley … is our guy from here on", "si Trent na point person natin"
    r"\b(?:our|the) (?:new )?(?:guy|gal|person|go-to)\b|\bpoint (?:person|of contact)\b",
    re.IGNORECASE,
)


def attribute_values(event: Event) -> dict[str, set[str]]:
    """The comparable values an event states, by attribute: money, date, quantity, decision."""
    values: dict[str, set[str]] = {}
    for q in event.quantities:
        attribute = "money" if q.kind == "money" else "quantity" if q.kind == "quantity" else None
        if attribute:
            values.setdefault(attribute, set()).add(value_key(q))
    dates = {d.isoformat() for d in event.dates} | ({event.deadline.isoformat()} if event.deadline else set())
    dates.discard(event.time.date().isoformat())  # "today" dates when it was said, not what it says
    if dates:
        values["date"] = dates
    contacts = people_in_charge(event)
    if contacts:
        values["contact"] = contacts
    values["decision"] = {"no" if event.negated else "yes"}
    return values


def people_in_charge(event: Event) -> set[str]:
    """The people an event names as holding a post (the contact, who is in charge): the persons it
    mentions, other than the speaker, when it says what they do ("日常对接是他们运营小陶",
    "Ollie Strand takes over their logistics"). Names are compared case-folded."""
    if not IN_CHARGE.search(event.text):
        return set()
    speaker = event.speaker.casefold()
    return {
        p.name.casefold()
        for p in event.participants
        if p.type == "person" and p.role != "speaker" and p.name.casefold() != speaker
    }


def values_after(event: Event, attribute: str, position: int) -> set[str]:
    """The values of `attribute` the event's text states at or after `position`, normalised as
    `attribute_values` does."""
    found: set[str] = set()
    if attribute in ("money", "quantity"):
        for q in event.quantities:
            at = event.text.find(q.surface) if q.surface else -1
            kind = "money" if q.kind == "money" else "quantity" if q.kind == "quantity" else None
            if kind == attribute and at >= position:
                found.add(value_key(q))
    elif attribute == "contact":
        lowered = event.text.casefold()
        found = {name for name in people_in_charge(event) if lowered.find(name, position) >= 0}
    elif attribute == "date":
        for atom in event.atoms:
            at = event.text.find(atom.surface) if atom.surface else -1
            if atom.kind == "date" and at >= position:
                found.add(atom.value)
        # The restatement writes the ISO date beside the words: "5月6日(2026-05-06)".
        found |= {d.isoformat() for d in event.dates if event.text.find(d.isoformat()) >= position}
    return found


QUESTION = re.compile(r"[?？]\s*$")


def value_spans(event: Event) -> list[tuple[int, int, str, str]]:
    """(start, end, attribute, key) of every value written in the event's text, in text order:
    amounts and counts, other figures (attribute ""), dates and the ISO form written beside them."""
    text, spans = event.text, []
    for q in event.quantities:
        at = text.find(q.surface) if q.surface else -1
        if at >= 0:
            kind = "money" if q.kind == "money" else "quantity" if q.kind == "quantity" else ""
            spans.append((at, at + len(q.surface), kind, value_key(q) if kind else ""))
    for atom in event.atoms:
        at = text.find(atom.surface) if atom.surface else -1
        if atom.kind == "date" and at >= 0:
            spans.append((at, at + len(atom.surface), "date", str(atom.value)))
    for day in event.dates:
        iso = day.isoformat()
        at = text.find(iso)
        if at >= 0:
            spans.append((at, at + len(iso), "date", iso))
    return sorted(spans)


def value_keys(event: Event, attribute: str) -> list[tuple[int, str]]:
    """(position, key) of each value of `attribute` the event's text states, in text order, keyed
    as `attribute_values` keys them (the turn's own date is no value)."""
    own = attribute_values(event).get(attribute, set())
    return [(at, key) for at, _end, kind, key in value_spans(event) if kind == attribute and key in own]


def figures(attribute: str, values: set[str]) -> set[str]:
    """Amounts and counts by their figure alone: "6万" restates "6万件" (a count said again without
    its unit); other values as they are."""
    if attribute in LABELLED_ATTRIBUTES:
        return {value.split()[0] for value in values}
    return set(values)


def value_key(q) -> str:
    """How a money or quantity value compares: an amount by its figure alone (one subject's amounts
    share a currency, and "2780" with no currency written is the same value as "£2,780"), a count
    with its unit."""
    if q.kind == "money":
        return figure(q.value)
    return f"{figure(q.value)} {q.unit or ''}".strip()


def figure(value: float | int | str) -> str:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f"{number:g}"


# A value's label: the words beside it in its clause, up to the neighbouring value. A decimal
# point does not end a clause.
_LABEL_CLAUSE_BREAK = re.compile(r"[，,。；;：:！!？?\n—–]|\.(?!\d)|\s[-+=×x*/]\s|[+=×]")


# Amounts and counts only: a date beside the same words is as often another occurrence ("delivered
# on 14 April" / "delivered yesterday") as a new value of one plan.
LABELLED_ATTRIBUTES = ("money", "quantity")


# Only the words nearest a value label it ("closed the X quote as lost to the £61 offer": lost,
# not quote); a Chinese character counts as a word here.
LABEL_REACH = 4


_LABEL_TOKEN = re.compile(r"[A-Za-z0-9][\w'&-]*|[\u4e00-\u9fff]")


# A Latin label word this short ("per", "for", "the") says nothing of what the value is of.
LABEL_MIN_LATIN = 4


def value_labels(event: Event, attribute: str) -> dict[tuple[str, str], frozenset[str]]:
    """Per value of `attribute` and its basis (see `_basis`), the content words that say what it
    is the value of: the nearest ones between it and the edge of its clause, on each side where no other
    value of its kind stands between (words between two amounts may label either), without dates,
    figures and the names of the people and firms the event mentions ("retainer S$800/month":
    (800, month) retainer; "£2,350 + £430 = £2,780 per 40HC": (2780, 40hc) 40hc, 2350 none)."""
    spans = value_spans(event)
    masked = list(event.text)
    for start, end, _kind, _key in spans:  # a date or figure beside a value is not what it is of
        masked[start:end] = " " * (end - start)
    text = "".join(masked)
    names = frozenset(tokenize(" ".join([event.speaker, *(p.name for p in event.participants)])))
    breaks = [m.start() for m in _LABEL_CLAUSE_BREAK.finditer(event.text)]
    labels: dict[tuple[str, str], frozenset[str]] = {}
    for start, end, kind, key in spans:
        if kind != attribute:
            continue
        clause_start = max([0, *(b + 1 for b in breaks if b < start)])
        clause_end = min([len(text), *(b for b in breaks if b >= end)])
        inside = [(s, e) for s, e, k, _ in spans if k == attribute and clause_start <= s and e <= clause_end]
        left = "" if any(e <= start for s, e in inside) else text[clause_start:start]
        right = "" if any(s >= end for s, e in inside) else text[end:clause_end]
        left_tokens = [m.start() for m in _LABEL_TOKEN.finditer(left)][-LABEL_REACH:]
        right_tokens = [m.end() for m in _LABEL_TOKEN.finditer(right)][:LABEL_REACH]
        near = left[left_tokens[0] :] if left_tokens else ""
        near += " " + (right[: right_tokens[-1]] if right_tokens else "")
        words = frozenset(w for w in tokenize(near) if label_word(w)) - names
        basis = _basis(event.text[:start], event.text[end:])
        labels[(key, basis)] = labels.get((key, basis), frozenset()) | words
    return labels


def label_word(word: str) -> bool:
    """A word that can say what a value is of: a Latin word of LABEL_MIN_LATIN letters or more, or
    a Chinese noun of jieba's dictionary (单价, 定金; not 就是, 之前, nor a trade name it lacks)."""
    if word.isascii():
        return len(word) >= LABEL_MIN_LATIN and any(c.isalpha() for c in word)
    tag = zh_dictionary_tag(word)
    return len(word) >= 2 and tag.startswith(("n", "vn")) and tag != "nr"


# What an amount is counted per: "£85 a day", "£2,350 per 40HC", "S$800/month", "3.65元/件", "每天2000".
_BASIS_AFTER = re.compile(
    r"^\s*(?:(?:/\s*|per\s+|an?\s+|each\s+)([A-Za-z][\w'-]*)|/\s*([\u4e00-\u9fff]))", re.IGNORECASE
)


_BASIS_BEFORE = re.compile(r"每([\u4e00-\u9fff])\s*$")


def _basis(before: str, after: str) -> str:
    """What a value is counted per ("day", "40hc", "天"), "" for a total: a rate and a total are
    never two values of one thing."""
    match = _BASIS_AFTER.match(after) or _BASIS_BEFORE.search(before)
    return next(g for g in match.groups() if g).casefold() if match else ""
