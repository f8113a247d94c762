"""The lossless restatement: the clause as said, with "I/you/我/你" and dates made explicit.

The edits, all reversible by a reader: first/second-person pronouns become the speaker's (or the
known addressee's) name, and the present-tense verb right after agrees with it ("you agree" ->
"Caroline agrees", "I don't" -> "Mel doesn't"); a date keeps its words and gains its ISO date
("下周二(2026-03-17)之前", "by next Tuesday (2026-03-17)"; see compress/daterules.py); a vocative (the
listener's name used to address them, kept as a participant of the event) is left out, so
"You're right, Caroline" reads "Caroline is right". Negations, conditions, numbers and names stay
word for word.
"""

from __future__ import annotations

import re

from simplemem_graph.compress.mentions import Mention

_APOS = "['’]"
# (pattern, replacement template); {s} is the speaker. "we" keeps its plurality as "<speaker> et al.".
_EN_FIRST_PERSON = [
    (rf"\bI{_APOS}m\b", "{s} is"),
    (rf"\bI{_APOS}ve\b", "{s} has"),
    (rf"\bI{_APOS}ll\b", "{s} will"),
    (rf"\bI{_APOS}d\b", "{s} would"),
    (r"\bI am\b", "{s} is"),
    (r"\bI have\b", "{s} has"),
    (r"\bI\b", "{s}"),
    (r"\b[Mm]yself\b", "{s}"),
    (r"\b[Mm]y\b", "{s}'s"),
    (r"\b[Mm]ine\b", "{s}'s"),
    (r"\b[Mm]e\b", "{s}"),
    (rf"\b[Ww]e{_APOS}re\b", "{s} et al. are"),
    (rf"\b[Ww]e{_APOS}ve\b", "{s} et al. have"),
    (rf"\b[Ww]e{_APOS}ll\b", "{s} et al. will"),
    (rf"\b[Ww]e{_APOS}d\b", "{s} et al. would"),
    (r"\b[Ww]e\b", "{s} et al."),
    (r"\b[Uu]s\b", "{s} et al."),
    (r"\b[Oo]urs\b", "{s}'s"),
    (r"\b[Oo]urselves\b", "{s} et al."),
    (r"\b[Oo]ur\b", "{s}'s"),
]
_EN_SECOND_PERSON = [
    (rf"\b[Yy]ou{_APOS}re\b", "{a} is"),
    (rf"\b[Yy]ou{_APOS}ve\b", "{a} has"),
    (rf"\b[Yy]ou{_APOS}ll\b", "{a} will"),
    (rf"\b[Yy]ou{_APOS}d\b", "{a} would"),
    (r"\b[Yy]ourself\b", "{a}"),
    (r"\b[Yy]ours\b", "{a}'s"),
    (r"\b[Yy]our\b", "{a}'s"),
    (r"\b[Yy]ou\b", "{a}"),
]
_ZH_FIRST_PERSON = [(r"我们|咱们", "{s}等"), (r"(?<!自)我", "{s}")]
_ZH_SECOND_PERSON = [(r"你们", "{a}等"), (r"你|您", "{a}")]


_BARE_SUBJECT = re.compile(r"^(?:I|[Yy]ou)$")  # the pronouns whose verb changes with a name
_IRREGULAR = {"am": "is", "are": "is", "were": "was", "have": "has", "do": "does", "go": "goes"}


def third_person(verb: str) -> str:
    """The third-person singular present of an English verb ("agree" -> "agrees", "do" -> "does")."""
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def _pronoun_edits(
    text: str, speaker: str, addressee: str | None, verbs: dict[int, str]
) -> list[tuple[int, int, str]]:
    rules = list(_EN_FIRST_PERSON) + list(_ZH_FIRST_PERSON)
    if addressee:
        rules += _EN_SECOND_PERSON + _ZH_SECOND_PERSON
    edits: list[tuple[int, int, str]] = []
    for pattern, template in rules:
        for m in re.finditer(pattern, text):
            if any(s < m.end() and m.start() < e for s, e, _ in edits):
                continue
            edits.append((m.start(), m.end(), template.format(s=speaker, a=addressee)))
            if _BARE_SUBJECT.match(m.group(0)):
                verb_at = m.end() + 1
                verb = verbs.get(verb_at)
                if verb is not None and text[m.end() : verb_at] == " ":
                    edits.append((verb_at, verb_at + len(verb), third_person(verb)))
    return edits


def agreed_negation(surface: str) -> str:
    """A negation as it reads after its subject became a name ("don't" -> "doesn't"); the guard
    accepts either form."""
    match = re.match(r"^(do|have|are|were)(n['’]t)$", surface, re.IGNORECASE)
    return third_person(match.group(1)) + match.group(2) if match else surface


def _vocative_cut(text: str, start: int, end: int, s: int, e: int) -> tuple[int, int]:
    """The characters to remove for a vocative at [s, e): the name and the pause joining it."""
    before = text[start:s]
    lead = re.search(r"[,，]?\s*$", before)
    if lead and lead.group(0) and before[: lead.start()].strip() != "":
        return s - len(lead.group(0)), e  # "..., Caroline!" -> "...!"
    tail = re.match(r"\s*[,，:：]?\s*", text[e:end])
    return s, e + (len(tail.group(0)) if tail else 0)  # "Caroline, ..." -> "..."


def restate(
    text: str,
    start: int,
    end: int,
    dates: list[Mention],
    speaker: str,
    addressee: str | None,
    *,
    vocatives: list[Mention] = (),
    verbs: dict[int, str] | None = None,
) -> str:
    """Rewrite text[start:end] with pronouns and dates made explicit.

    Args:
        text: the whole turn text (mention offsets refer to it).
        start: first character of the kept span.
        end: end of the kept span.
        dates: date mentions inside the span; `extra["replacement"]` is their annotated form.
        speaker: who said the turn ("I", "我").
        addressee: who "you" is, or None to keep "you" as written.
        vocatives: names in the span used to address the listener; left out of the text.
        verbs: present-tense verbs not in the third person (spaCy tag VBP), by turn offset.

    Returns:
        The restatement.

    Example:
        >>> restate("我下周二去", 0, 5, [], "陈晓雯", None)
        '陈晓雯下周二去'
    """
    edits = [
        (m.start - start, m.end - start, m.extra["replacement"])
        for m in dates
        if m.extra.get("replacement") not in (None, m.surface)
    ]
    for m in vocatives:
        cut_start, cut_end = _vocative_cut(text, start, end, m.start, m.end)
        edits.append((cut_start - start, cut_end - start, ""))
    span = text[start:end]
    local_verbs = {o - start: v for o, v in (verbs or {}).items() if start <= o < end}
    for s, e, new in _pronoun_edits(span, speaker, addressee, local_verbs):
        if not any(ds < e and s < de for ds, de, _ in edits):
            edits.append((s, e, new))
    for s, e, new in sorted(edits, reverse=True):
        span = span[:s] + new + span[e:]
    return span
