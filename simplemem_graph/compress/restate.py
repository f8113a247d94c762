"""The lossless restatement: the clause as said, with "I/you/我/你" and relative dates made explicit.

Only two kinds of edit are made, both reversible by a reader: first/second-person pronouns become
the speaker's (or the known addressee's) name, and relative dates become ISO dates. Negations,
conditions, numbers and names stay word for word.
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


def _pronoun_edits(text: str, speaker: str, addressee: str | None) -> list[tuple[int, int, str]]:
    rules = list(_EN_FIRST_PERSON) + list(_ZH_FIRST_PERSON)
    if addressee:
        rules += _EN_SECOND_PERSON + _ZH_SECOND_PERSON
    edits: list[tuple[int, int, str]] = []
    for pattern, template in rules:
        for m in re.finditer(pattern, text):
            if any(s < m.end() and m.start() < e for s, e, _ in edits):
                continue
            edits.append((m.start(), m.end(), template.format(s=speaker, a=addressee)))
    return edits


def restate(
    text: str, start: int, end: int, dates: list[Mention], speaker: str, addressee: str | None
) -> str:
    """Rewrite text[start:end] with pronouns and relative dates made explicit.

    Args:
        text: the whole turn text (mention offsets refer to it).
        start: first character of the kept span.
        end: end of the kept span.
        dates: date mentions inside the span; `extra["replacement"]` is their restated form.
        speaker: who said the turn ("I", "我").
        addressee: who "you" is, or None to keep "you" as written.

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
    span = text[start:end]
    for s, e, new in _pronoun_edits(span, speaker, addressee):
        if not any(ds < e and s < de for ds, de, _ in edits):
            edits.append((s, e, new))
    for s, e, new in sorted(edits, reverse=True):
        span = span[:s] + new + span[e:]
    return span
