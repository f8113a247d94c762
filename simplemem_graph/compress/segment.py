"""Splitting a turn into sentences and each sentence into clauses, keeping character offsets.

A sentence becomes (at most) one event; its clauses are the units the information test looks at,
so chit-chat around a detail ("累死了，……我换手机号了，13905712286") can be trimmed away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Sentence ends: Chinese and English terminators, ellipses, line breaks. A full stop only ends a
# sentence before whitespace and not after a common abbreviation, a single initial or the first word
# of a two-word legal form (Pte. Ltd.).
_SENTENCE_END = re.compile(
    r"[。！？!?；;]+[”’\"')）]*|…{1,2}|\.{3}|\n+|(?<!\b[A-Z])(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)"
    r"(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\ba\.m)(?<!\bp\.m)(?<!\betc)"
    # the first word of a two-word legal form: "Kim Soon Freight Logistics Pte. Ltd." is one name
    r"(?<!\bPte)(?<!\bPty)(?<!\bPvt)(?<!\bSdn)(?<!\bCo)"
    # Indonesian and Malay "Jl." / "Jln." (jalan, street) open an address
    r"(?<!\bJl)(?<!\bJln)\.(?=\s|$)"
    # nor an abbreviation's dot before a number ("No. 41", "Apt. 5", "Blk. 7")
    r"(?!(?<=\b[A-Z][a-z]\.)\s+\d)(?!(?<=\b[A-Z][a-z]{2}\.)\s+\d)"
    # nor a legal form's dot when the sentence goes on in lower case ("signed Acme Widgets, Inc. yesterday")
    r"(?!(?<=\bInc\.)\s+[a-z])(?!(?<=\bLtd\.)\s+[a-z])(?!(?<=\bCorp\.)\s+[a-z])(?!(?<=\bLda\.)\s+[a-z])"
)
# Clause breaks inside a sentence: commas (not thousands separators), colons, dashes. Never the
# enumeration comma 、: it joins the items of one list ("九寨沟、桂林"), and a clause cut at it would
# let the information test keep the first item and drop the rest.
_CLAUSE_BREAK = re.compile(r",(?!\d{3})\s*|[，：:]|\s+[—–-]+\s+|—+|\s*\(\s*|\s*\)\s*|（|）")

# A list item's number alone ("1.", "**2.") is no sentence: the full stop after it is not an end.
_LIST_NUMBER = re.compile(r"[*_#>\s]*\d{1,3}\.[*_]*")

# A URL or e-mail address: its punctuation is part of it.
_LINK = re.compile(
    r"\b(?:https?://|www\.)[^\s\u3000-\u303f\uff00-\uffef\u4e00-\u9fff]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
)


@dataclass(frozen=True)
class Piece:
    """A span of the turn text: [start, end)."""

    start: int
    end: int
    text: str


def _strip(text: str, start: int, end: int) -> Piece | None:
    while start < end and (text[start].isspace() or text[start] in ",，、:："):
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Piece(start, end, text[start:end]) if start < end else None


def split_sentences(text: str) -> list[Piece]:
    """Sentences of a turn, each with its terminator, as offsets into `text`.

    Example:
        >>> [p.text for p in split_sentences("Morning! The sun's out. 好的。")]
        ['Morning!', "The sun's out.", '好的。']
    """
    pieces, start = [], 0
    links = [m.span() for m in _LINK.finditer(text)]
    for m in _SENTENCE_END.finditer(text):
        if any(a <= m.start() < b for a, b in links):
            continue  # "?" and "." inside a URL end nothing
        piece = _strip(text, start, m.end())
        if piece and re.search(r"\w", piece.text):
            pieces.append(piece)
        start = m.end()
    piece = _strip(text, start, len(text))
    if piece and re.search(r"\w", piece.text):
        pieces.append(piece)
    return _numbers_with_their_items(text, pieces)


def _numbers_with_their_items(text: str, pieces: list[Piece]) -> list[Piece]:
    """A list number read as a sentence of its own ("…from:\n\n1. **Hasan Minhaj**…") joins the
    item it numbers. Alone it says nothing, and as a memory of its own a short string like "1."
    sits near every query in vector space (LongMemEval dev: 433 of 24,330 memories were one)."""
    joined: list[Piece] = []
    for piece in pieces:
        if joined and _LIST_NUMBER.fullmatch(joined[-1].text):
            number = joined.pop()
            piece = Piece(number.start, piece.end, text[number.start : piece.end])
        joined.append(piece)
    return joined


def split_clauses(text: str, sentence: Piece) -> list[Piece]:
    """Clauses of one sentence (offsets into the turn text), split at commas, colons and dashes."""
    pieces, start = [], sentence.start
    links = [m.span() for m in _LINK.finditer(text)]
    for m in _CLAUSE_BREAK.finditer(text, sentence.start, sentence.end):
        if any(a <= m.start() < b for a, b in links):
            continue  # "https:" is no clause break
        piece = _strip(text, start, m.start())
        if piece and re.search(r"\w", piece.text):
            pieces.append(piece)
        start = m.end()
    piece = _strip(text, start, sentence.end)
    if piece and re.search(r"\w", piece.text):
        pieces.append(piece)
    return pieces
