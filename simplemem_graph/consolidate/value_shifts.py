"""Value changes said without a change word: a recomputed total, and a new value given with a cue of
time or quantity ("28 March now", "最快下周二，也就是晚十来天").

Both are implicit SUPERSEDES (updates.py): the older value is the one a reader takes as pending in
the same thread, the newer one replaces it.

- Recomputed total: two computations (an arithmetic sign or word between their figures) that share
  a part and end in different totals recompute one amount: "£680 + £240 exam fee = £920" then
  "£340 plus the £240 exam fee, so £580". The total is the computation's last amount.
- Cued shift: a value whose own clause carries a cue that it is the value from now on ("now") or a
  shift by a span of time ("晚十来天", "a week later"), about the same thing as an earlier value of
  its kind: a word that labels the earlier value occurs in the newer text ("go-live 14 March" /
  "go-live has to move ... 28 March now"), or, when the cue's sentence names nothing of its own
  (an answer: "他说最快下周二"), the thing the session was just discussing: the value the latest
  event of the session before it states. The replaced event is where that pending value was first
  stated in the thread (later events repeat it).
"""

from __future__ import annotations

import re

from simplemem_graph.compress.names import load_english_pipeline
from simplemem_graph.consolidate.similarity import content_terms
from simplemem_graph.consolidate.values import (
    QUESTION,
    attribute_values,
    label_word,
    value_keys,
    value_labels,
    value_spans,
)
from simplemem_graph.models import Event
from simplemem_graph.text import tokenize

# Arithmetic between figures: a sign, or the words that join the parts of a sum or a product.
_ARITHMETIC = re.compile(
    r"[+×*=＝＋]|(?<=\d)\s?[xX]\s?(?=[£$€¥\d])|\b(?:plus|minus|times)\b|加上|减去|乘以", re.IGNORECASE
)
# "now" beside a value: the value holds from here on ("28 March now", "it's £1,600 now").
_NOW = re.compile(r"\bnow\b|现在改|现在是", re.IGNORECASE)
# A shift by a span of time: "晚十来天", "早两天", "推迟一周", "a week later", "three days late".
_ZH_SPAN = r"[一二两三四五六七八九十几数半\d]+\s*(?:来|多)?\s*(?:个)?\s*(?:天|日|周|星期|礼拜|月)"
_EN_SPAN = (
    r"\b(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of)\s+"
    r"(?:days?|weeks?|months?)\s+(?:late|later|earlier|early|behind|ahead|sooner)\b"
)
# Not a rate: "每延期一日" / "每晚一天扣0.5%" price a delay, they report none.
_SHIFT = re.compile(rf"(?<!每)(?:[晚迟早]|推迟?|延期?|延后|提前)了?约?{_ZH_SPAN}|{_EN_SPAN}", re.IGNORECASE)
# Where a clause ends: a value and its cue must share one.
_CLAUSE_BREAK = re.compile(r"[，,。；;！!？?\n]|\.(?!\d)")
_SENTENCE_BREAK = re.compile(r"[。！!？?\n]|\.(?!\d)\s")
SHIFT_ATTRIBUTES = ("date", "money", "quantity")
REFERENCE_REACH = 3  # an answer continues one of the session's last few events


def computation(event: Event, attribute: str) -> tuple[str, set[str]] | None:
    """(total, parts) of an event that computes an amount: its text has arithmetic between figures;
    the total is its last value of `attribute` (the result is said last: "= £920", "so £580"), the
    parts are its other amounts and counts. None for any other event."""
    if not _ARITHMETIC.search(event.text):
        return None
    own = [key for _at, key in value_keys(event, attribute)]
    if len(own) < 1:
        return None
    total = own[-1]
    parts = {key.split()[0] for a in ("money", "quantity") for _at, key in value_keys(event, a)}
    parts.discard(total.split()[0])
    return (total, parts) if parts else None


def recomputed_total(newer: Event, older: Event, attribute: str) -> frozenset[str]:
    """The parts two computations share when they end in different totals (the newer one recomputes
    the older's amount); empty otherwise."""
    new, old = computation(newer, attribute), computation(older, attribute)
    if new is None or old is None or new[0] == old[0]:
        return frozenset()
    return frozenset(new[1] & old[1])


def cued_values(event: Event, attribute: str) -> tuple[set[str], str]:
    """The values of `attribute` the event gives with a cue in their own clause, and the cue."""
    found, cue = set(), ""
    for at, key in value_keys(event, attribute):
        # "now" bears on its own clause; a shift by a span may follow in the next one
        # ("最快下周二，也就是晚十来天")
        clause, sentence = _clause(event.text, at), _sentence(event.text, at)
        match = _NOW.search(event.text, *clause) or _shift(event.text, *sentence)
        if match:
            found.add(key)
            cue = cue or match.group(0)
    return found, cue


def _shift(text: str, start: int, end: int) -> re.Match | None:
    """A shift by a span in text[start:end] that is no comparison with a value said beside it: "two
    days ahead of the 16 April promise", "比合同晚了11天" measure what happened against the plan,
    they give no new value of it."""
    for match in _SHIFT.finditer(text, start, end):
        if not _COMPARED_AFTER.match(text, match.end()) and "比" not in text[start : match.start()]:
            return match
    return None


def shift_cue(text: str) -> re.Match | None:
    """A shift by a span anywhere in `text` that is no comparison (see `_shift`)."""
    return _shift(text, 0, len(text))


_COMPARED_AFTER = re.compile(r"\s*(?:of|than|from|on)\b", re.IGNORECASE)


def cue_sentences(event: Event, attribute: str, values: set[str]) -> list[str]:
    """The sentences that give `values`, each without its values and its cue words."""
    sentences = []
    for at, key in value_keys(event, attribute):
        if key in values:
            start, end = _sentence(event.text, at)
            sentence = event.text[start:end]
            for pattern in (_NOW, _SHIFT):  # the cue says when, not what
                sentence = pattern.sub(" ", sentence)
            sentences.append(sentence)
    return sentences


def _clause(text: str, at: int) -> tuple[int, int]:
    starts = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, at)]
    after = _CLAUSE_BREAK.search(text, at)
    return (starts[-1] if starts else 0), (after.start() if after else len(text))


def _sentence(text: str, at: int) -> tuple[int, int]:
    starts = [m.end() for m in _SENTENCE_BREAK.finditer(text, 0, at)]
    after = _SENTENCE_BREAK.search(text, at)
    return (starts[-1] if starts else 0), (after.start() if after else len(text))


_LATIN = re.compile(r"[A-Za-z]")
_EN_THING_POS = ("NOUN", "PROPN", "ADJ")


def thing_words(text: str) -> set[str]:
    """The words of `text` that can name what a value is of: its tokens, without the English verbs
    and function words ("Raj says go-live has to move": live, practice, not says). A label shared
    only through a verb ("Marco says end of the week") ties nothing."""
    words = set(tokenize(text))
    if not _LATIN.search(text):
        return words
    verbs = {
        t.text.lower() for t in load_english_pipeline()(text) if t.is_alpha and t.pos_ not in _EN_THING_POS
    }
    nouns = {t.text.lower() for t in load_english_pipeline()(text) if t.pos_ in _EN_THING_POS}
    return {w for w in words if not (w.isascii() and w in verbs and w not in nouns)}


def moved_without_subject(
    event: Event, attribute: str, candidates: list[Event], shared_entity: set[tuple[str, str]]
) -> Event | None:
    """The thread's latest event stating a pending value of `attribute` that a bare change replaces:
    "又提前了 温总监说18号必须交" names no thing of its own (a person and a value), so what moves is
    what the thread was last given. None when the event names a subject (the ordinary rules
    compare subjects) or nothing in its thread states such a value."""
    new = attribute_values(event).get(attribute, set())
    if not new or names_something(event, event.text):
        return None
    thread = _thread_with_other_values(event, attribute, candidates, shared_entity, new)
    return thread[-1] if thread else None


def _thread_with_other_values(
    event: Event,
    attribute: str,
    candidates: list[Event],
    shared_entity: set[tuple[str, str]],
    new: set[str],
) -> list[Event]:
    """Earlier events of the event's thread (a shared entity, or its session) that state a value of
    `attribute` and not already the new one."""
    return [
        older
        for older in candidates
        if older.id != event.id
        and older.time <= event.time
        and ((event.id, older.id) in shared_entity or older.session == event.session)
        and attribute_values(older).get(attribute)
        and not new <= attribute_values(older)[attribute]  # it already states the new value
    ]


def cued_shift(
    event: Event, attribute: str, candidates: list[Event], shared_entity: set[tuple[str, str]]
) -> tuple[Event, dict[str, str]] | None:
    """The event whose pending value a cued new value replaces (see value_shifts.py), with the cue.

    Thread: earlier events that share an entity with it or its session. Same thing: a word that
    labels an earlier value of the kind occurs in the newer text; else, when the sentences of the
    cued values name nothing, the value the session's latest events state; else, for a bare value
    after an announced shift, what the announcement is about. The replaced event is the first in
    the thread to state that pending value (later ones repeat it)."""
    new, cue = cued_values(event, attribute)
    announcer = None
    if not new:
        new, cue, announcer = _announced_values(event, attribute, candidates)
    if not new:
        return None
    thread = _thread_with_other_values(event, attribute, candidates, shared_entity, new)
    words = thing_words(event.text)
    labelled = []
    for older in thread:
        keys = {key for (key, _basis), label in value_labels(older, attribute).items() if label & words}
        if keys - new:
            labelled.append((older, keys - new))
    if labelled:
        pending = labelled[-1][1]
        origin = next(older for older, keys in labelled if keys & pending)
        return origin, {"cue": cue}
    if announcer is not None:
        reference = announcer  # what was announced to change is what the bare value gives
    else:
        sentences = cue_sentences(event, attribute, new)
        if any(names_something(event, sentence) for sentence in sentences):
            return None
        # The session's latest event before it that states the pending value ("第一批原定1月30日前到货").
        session = [
            older
            for older in thread
            if older.session == event.session and older.time <= event.time and older.id != event.id
        ][-REFERENCE_REACH:]
        if not session:
            return None
        reference = session[-1]
    pending = attribute_values(reference).get(attribute, set()) - new
    about = _subject_terms(reference)
    for older in thread:
        if (not pending or attribute_values(older)[attribute] & pending) and (
            older is reference or about & _subject_terms(older)
        ):
            return older, {"cue": cue}
    return None


def _announced_values(
    event: Event, attribute: str, candidates: list[Event]
) -> tuple[set[str], str, Event | None]:
    """The event's dates when one of its session's last events announced a shift by a span
    without saying to what ("华铝第一批没到 要推一周" ... "跟张工说了 17号进场"): the bare value that
    follows gives it. A question gives no value."""
    values = {key for _at, key in value_keys(event, attribute)}
    if attribute != "date" or not values or QUESTION.search(event.text):
        return set(), "", None
    session = [
        e for e in candidates if e.session == event.session and e.time <= event.time and e.id != event.id
    ]
    for earlier in session[-REFERENCE_REACH:]:
        if attribute_values(earlier).get(attribute):
            continue  # it says to what: the ordinary rules compare with it
        cue = shift_cue(earlier.text)  # a change word alone says neither that a date moves nor how
        if cue:
            return values, cue.group(0), earlier
    return set(), "", None


def _subject_terms(event: Event) -> frozenset[str]:
    """What an event is about: its content terms without values and without the names it mentions
    (a firm's name is in every event of its story)."""
    names = " ".join([event.speaker, *(p.name for p in event.participants)])
    return content_terms(_without_values(event)) - content_terms(names)


def _without_values(event: Event) -> str:
    """The event's text with its dates, amounts and figures blanked out."""
    text = event.text
    for start, end, _kind, _key in sorted(value_spans(event), reverse=True):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def names_something(event: Event, sentence: str) -> bool:
    """Whether a sentence names a subject of its own: a noun (Chinese, jieba's dictionary) or a
    content word (Latin) that is no value and no name of a person or firm the event mentions."""
    for atom in event.atoms:
        if atom.surface:
            sentence = sentence.replace(atom.surface, " ")
    for q in event.quantities:
        if q.surface:
            sentence = sentence.replace(q.surface, " ")
    sentence = _ISO_DATE.sub(" ", sentence)
    names = set(tokenize(" ".join([event.speaker, *(p.name for p in event.participants)])))
    return any(label_word(word) for word in tokenize(sentence) if word not in names)


# The ISO form compression writes beside a date: "下周二(2026-02-10)", "周末(2026-02-14周末)".
_ISO_DATE = re.compile(r"\(\d{4}-\d{2}[^)）]{0,12}[)）]|\d{4}-\d{2}(?:-\d{2})?")
