"""Structured fields of an event: action, object, participant roles, quantities, keywords, topic."""

from __future__ import annotations

import re

from simplemem_graph.compress.mentions import Mention
from simplemem_graph.compress.names import doc_text
from simplemem_graph.compress.names_zh import zh_posseg_default as _posseg
from simplemem_graph.models import Participant, Quantity
from simplemem_graph.text import STOPWORDS, tokenize

_ZH_TARGET_BEFORE = re.compile(r"(?:给|找|跟|和|向|通知|联系|交给|发给|告诉|问|接|见|约|拜访|抄送)$")
_ZH_AGENT_AFTER = re.compile(r"^(?:说|答应|同意|确认|表示|认为|要求|建议|已经|会|打算|负责)")
_ZH_SKIP_VERBS = frozenset({"是", "有", "说", "帮", "让", "要", "把", "会", "能", "想", "觉得", "感觉", "记"})
MAX_KEYWORDS = 8
# The count before a measure word, with its multiplier: "2万件" -> unit 件.
_LEADING_COUNT = re.compile(r"^(?:[\d,.\s]+|[零一二两三四五六七八九十百千万亿]+)[万千百亿]?")


def participants_from(names: list[Mention], text: str, doc=None) -> list[Participant]:
    """Participants with a role guessed from syntax (English) or the words around them (Chinese).

    Roles: agent (does the action), target (receives it), place (a place), mention (anything else).
    """
    people, seen = [], set()
    for m in names:
        if m.value in seen:
            continue
        seen.add(m.value)
        role = "place" if m.kind == "place" else "mention"
        if m.kind != "place":
            if doc is not None:
                span = doc.char_span(m.start, m.end, alignment_mode="expand")
                dep = span.root.dep_ if span is not None else ""
                head_dep = span.root.head.dep_ if span is not None else ""
                if dep in ("nsubj", "nsubjpass"):
                    role = "agent"
                elif dep in ("dobj", "dative", "iobj") or (dep == "pobj" and head_dep in ("dative", "prep")):
                    role = "target"
            elif _ZH_TARGET_BEFORE.search(text[max(0, m.start - 4) : m.start]):
                role = "target"
            elif _ZH_AGENT_AFTER.match(text[m.end : m.end + 4]) or m.start == 0:
                role = "agent"
        people.append(Participant(name=m.value, type=m.kind, role=role))
    return people


def with_agents(participants: list[Participant], names: list[str]) -> list[Participant]:
    """`participants` plus each of `names` not among them, as a person acting (role agent)."""
    seen = {p.name for p in participants}
    return participants + [Participant(name=n, type="person", role="agent") for n in names if n not in seen]


def quantities_from(atoms: list[Mention]) -> list[Quantity]:
    """Money, counts, numbers, percentages and durations as Quantity records."""
    found = []
    for m in atoms:
        if m.kind == "money":
            amount, unit = m.value.split(" ")
            value: float | int | str = float(amount) if "." in amount else int(amount)
            found.append(Quantity(value=value, unit=unit, surface=m.surface, kind="money"))
        elif m.kind == "quantity":
            value = float(m.value) if "." in m.value else int(m.value)
            unit = m.extra.get("unit") or _LEADING_COUNT.sub("", m.surface).strip() or None
            found.append(Quantity(value=value, unit=unit, surface=m.surface, kind="quantity"))
        elif m.kind == "duration":
            found.append(Quantity(value=m.value, unit=None, surface=m.surface, kind="duration"))
        elif m.kind == "number":
            kind = "percent" if m.value.endswith("%") else "number"
            value = int(m.value) if m.value.isdigit() and len(m.value) < 16 else m.value
            found.append(Quantity(value=value, unit=None, surface=m.surface, kind=kind))
    return found


def action_object_en(doc, start: int, end: int) -> tuple[str | None, str | None]:
    """Lemma of the main verb of the span and the text of its direct object."""
    span = doc.char_span(start, end, alignment_mode="expand")
    tokens = list(span) if span is not None else []
    verbs = [t for t in tokens if t.pos_ == "VERB" and t.dep_ in ("ROOT", "xcomp", "ccomp", "conj")]
    roots = [t for t in verbs if t.dep_ == "ROOT"] or verbs
    if not roots:
        return None, None
    verb = roots[0]
    # "Remind me to call X": the action is the complement.
    if verb.lemma_.lower() in ("remind", "need", "want", "plan", "try", "make", "let", "help", "ask"):
        xcomp = [c for c in verb.children if c.dep_ in ("xcomp", "ccomp") and c.pos_ == "VERB"]
        verb = xcomp[0] if xcomp else verb
    obj = next((c for c in verb.children if c.dep_ in ("dobj", "obj", "attr")), None)
    obj_text = (
        doc_text(doc)[obj.left_edge.idx : obj.right_edge.idx + len(obj.right_edge)]
        if obj is not None
        else None
    )
    return verb.lemma_.lower(), obj_text


def action_object_zh(text: str) -> tuple[str | None, str | None]:
    """First content verb of the span and the noun phrase after 把 (or after the verb)."""
    tokens = [(p.word, p.flag) for p in _posseg().cut(text)]
    action = None
    for i, (word, flag) in enumerate(tokens):
        if flag.startswith("v") and word not in _ZH_SKIP_VERBS and len(word) >= 1:
            action = word
            after = tokens[i + 1 :]
            break
    else:
        return None, None
    ba = re.search(
        r"把(?P<obj>[\u4e00-\u9fff]{1,12}?)(?:交|发|给|送|整理|签|做|寄|打|改|放|拿|带|提|传|退)", text
    )
    if ba:
        return action, ba.group("obj").lstrip("那这")
    obj = next((w for w, f in after if f.startswith(("n", "vn")) and len(w) >= 2), None)
    return action, obj


def keywords_from(text: str, *, exclude: set[str]) -> list[str]:
    """Up to MAX_KEYWORDS content words in order of appearance (no stopwords, no speaker name)."""
    seen: list[str] = []
    for token in tokenize(text):
        if len(token) < 2 or token in STOPWORDS or token in exclude or token.isdigit() or token in seen:
            continue
        if re.fullmatch(r"[\d\-.:%]+", token) or re.search(r"['’]|\d", token):
            continue
        seen.append(token)
        if len(seen) == MAX_KEYWORDS:
            break
    return seen


def topic_from(obj: str | None, keywords: list[str]) -> str | None:
    """A short label: the object's last content word, else the first keyword."""
    if obj:
        words = [w for w in tokenize(obj) if w not in STOPWORDS and len(w) >= 2 and not re.search(r"\d", w)]
        if words:
            return words[-1]
    return keywords[0] if keywords else None
