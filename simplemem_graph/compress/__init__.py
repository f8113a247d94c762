"""Stage 1: compress turns into self-contained events without losing a detail.

Each turn is split into sentences and clauses; every precise detail (date, time, money, quantity,
number, duration, name, negation, condition) is detected as an atom; chit-chat clauses are dropped
(never one holding an atom); each remaining sentence becomes an event whose text is the lossless
restatement (pronouns → names, dates annotated with their ISO date) and whose fields hold the structure.
A guard checks every atom survived, else the event keeps the verbatim clause.

Example:
    >>> events = compress([Turn(id="s1:1", session="s1", speaker="陈晓雯",
    ...                         time=datetime.fromisoformat("2026-03-10T09:30:00+08:00"),
    ...                         text="下周二之前把报告发给市场部的李经理")])
    >>> events[0].text, events[0].deadline
    ('下周二(2026-03-17)之前把报告发给市场部的李经理', datetime.date(2026, 3, 17))
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Mapping, Sequence
from datetime import date

from simplemem_graph.compress.amounts import find_amounts
from simplemem_graph.compress.fields import (
    action_object_en,
    action_object_zh,
    keywords_from,
    participants_from,
    quantities_from,
    topic_from,
    with_agents,
)
from simplemem_graph.compress.guard import missing_atoms
from simplemem_graph.compress.informative import (
    RECENT_TURNS,
    bare_address,
    content_words,
    only_phatic_words,
    says_something,
    vocatives,
)
from simplemem_graph.compress.informative_en import en_list_item
from simplemem_graph.compress.logic import find_conditions, find_negations
from simplemem_graph.compress.mentions import Mention, resolve_overlaps
from simplemem_graph.compress.names import (
    NAME_KINDS,
    batch_nicknames_zh,
    common_words,
    find_latin_names_in_zh,
    find_names_en,
    load_english_pipeline,
    remember_batch_people,
)
from simplemem_graph.compress.names_zh import find_names_zh
from simplemem_graph.compress.requests import is_task
from simplemem_graph.compress.restate import introduced_name, is_speaker_label, spoken_as
from simplemem_graph.compress.segment import Piece, split_clauses, split_sentences
from simplemem_graph.compress.stats import CompressStats
from simplemem_graph.compress.timeexpr import (
    EN_FUTURE,
    date_points_back,
    find_dates,
    find_times,
    is_past,
    local_date,
)
from simplemem_graph.compress.trigger import INFORMATION_THRESHOLD, Window, information
from simplemem_graph.embedding import Embedder
from simplemem_graph.errors import InputError
from simplemem_graph.lexicon import DEICTIC_DAY_WORDS
from simplemem_graph.models import Event, Turn, stable_id
from simplemem_graph.text import detect_lang, tokenize, zh_simplified

__all__ = ["CompressStats", "apply_guard", "compress", "find_atoms", "load_english_pipeline"]

# A sentence opening with one of these leans on the one before ("It was…", "所以…"): same event.
_CONTINUATION = re.compile(
    r"^(?:it|that|this|they|he|she|which|so|and|but|also|then|there)\b|^(?:那|这|他|她|它|所以|但|"
    r"不过|而且|也|然后|因此)",
    re.IGNORECASE,
)
# A clause or sentence opening with one of these states the effect of what came before.
_EFFECT_OPENING = re.compile(
    r"^(?:结果|所以|因此|因而|于是|从而|以致)"
    r"|^(?:which is why|that's why|that is why|therefore|as a result|consequently)\b"
    r"|^so (?=(?:I|we|they|he|she|it|the|our|my|you)\b)",
    re.IGNORECASE,
)
_BATCH_SIZE = 64
_ZH_PRONOUN = re.compile(r"[你我您他她]")
_EMOTICON_BEFORE = re.compile(r"(?:^|\s)<$")
_CJK_WORD = re.compile(r"[\u4e00-\u9fff]{2}")


def compress(
    turns: Sequence[Turn],
    *,
    embedder: Embedder | None = None,
    stats: CompressStats | None = None,
    nlp=None,
    speakers: Mapping[tuple[str, str], Sequence[str]] | None = None,
    introduced: dict[str, dict[str, str]] | None = None,
) -> list[Event]:
    """Compress turns into events: one per informative sentence, none for pure chit-chat.

    Args:
        turns: the turns, in any order; "you" is resolved to the other speaker when a session of
            these turns has exactly two speakers.
        embedder: when given, all event texts are encoded in one batch into `Event.embedding`.
        stats: counters to accumulate into (turns, clauses, events, dropped chit-chat, guard fallbacks...).
        nlp: a loaded spaCy English pipeline; default: `load_english_pipeline()` (loaded once per process).
        speakers: (namespace, session) -> the session's speakers as the raw log knows them, so "you"
            is resolved the same whatever batch a turn is compressed in; default: the speakers of
            `turns` themselves.
        introduced: namespace -> {role label -> name} the speakers gave before ("我叫陈阳" in an
            earlier batch); names given in `turns` are added to it, so pass the same dict to every
            batch of an ingest.

    Returns:
        The events, in turn order. Ids are stable: stable_id("ev", namespace, turn id, index).

    Raises:
        InputError: an item is not a Turn.
        ModelLoadError: the spaCy pipeline cannot be loaded.
    """
    turns = list(turns)
    for i, turn in enumerate(turns):
        if not isinstance(turn, Turn):
            raise InputError(f"compress: item {i} is a {type(turn).__name__}, expected a Turn")
    stats = stats if stats is not None else CompressStats()
    addressees = _addressees(turns, speakers or {})
    introduced = _introduced_names(turns, introduced if introduced is not None else {})
    english = [i for i, t in enumerate(turns) if detect_lang(t.text) == "en"]
    docs: dict[int, object] = {}
    if english:
        pipeline = nlp if nlp is not None else load_english_pipeline()
        for i, doc in zip(
            english, pipeline.pipe((turns[i].text for i in english), batch_size=_BATCH_SIZE), strict=True
        ):
            docs[i] = doc
    common = common_words(docs.values())
    remember_batch_people(docs.values(), common)
    made_by_turn: list[tuple[int, list[Event]]] = []
    # Content words of the last turns of each session: a clause is new information only when it
    # talks about something these did not.
    windows: dict[tuple[str, str], deque[set[str]]] = {}
    held: dict[tuple[str, str], Window] = {}  # the dual trigger's open window of each session

    def close(key: tuple[str, str]) -> None:
        window_ = held.pop(key)
        merged = window_.close()
        stats.turns_accumulated += len(window_.turns)
        stats.windows += 1 if len(window_.turns) > 1 else 0
        made_by_turn.append((window_.order, merged))

    for i, turn in enumerate(turns):
        key = (turn.namespace, turn.session)
        window = windows.setdefault(key, deque(maxlen=RECENT_TURNS))
        recent = set().union(*window) if window else set()
        names = introduced.get(turn.namespace, {})
        made, said, own_words = _compress_turn(
            turn,
            docs.get(i),
            spoken_as(addressees.get((turn.namespace, turn.session, turn.speaker)), names),
            stats,
            recent,
            common,
            introduced=names,
            to_a_role=is_speaker_label(addressees.get((turn.namespace, turn.session, turn.speaker))),
        )
        window.append(said)
        stats.turns += 1
        if not made:
            stats.turns_without_event += 1
            continue
        new_words = said - recent
        info = information(made, new_words)
        if info >= INFORMATION_THRESHOLD:
            if key in held:
                close(key)
            stats.turns_alone += 1
            made_by_turn.append((i, made))
            continue
        if key in held and not held[key].continues(turn.time, said, own_words - recent):
            close(key)
        held.setdefault(key, Window(order=i)).hold(made, said, info, turn.time)
        if held[key].information >= INFORMATION_THRESHOLD:
            close(key)
    for key in list(held):
        close(key)
    events = [e for _, made in sorted(made_by_turn, key=lambda pair: pair[0]) for e in made]
    stats.events += len(events)
    if embedder is not None and events:
        vectors = embedder.encode([e.text for e in events])
        for event, vector in zip(events, vectors, strict=True):
            event.embedding = [float(x) for x in vector]
    return events


def _addressees(
    turns: list[Turn], known: Mapping[tuple[str, str], Sequence[str]]
) -> dict[tuple[str, str, str], str]:
    """In a session with exactly two speakers, "you" is the other one; otherwise it stays "you"."""
    speakers: dict[tuple[str, str], list[str]] = {key: list(names) for key, names in known.items()}
    for t in turns:
        names = speakers.setdefault((t.namespace, t.session), [])
        if t.speaker not in names:
            names.append(t.speaker)
    result = {}
    for (namespace, session), names in speakers.items():
        if len(names) == 2:
            result[(namespace, session, names[0])] = names[1]
            result[(namespace, session, names[1])] = names[0]
    return result


def _introduced_names(turns: list[Turn], found: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """`found` (namespace -> {role label -> the name its speaker gave: "我叫陈阳"}) with the names
    `turns` give added: who "user" is."""
    for t in turns:
        if is_speaker_label(t.speaker) and t.speaker not in found.get(t.namespace, {}):
            name = introduced_name(t.text)
            if name:
                found.setdefault(t.namespace, {})[t.speaker] = name
    return found


def _is_past(sentence: str, lang: str, doc, piece: Piece) -> bool:
    if lang == "zh":
        return is_past(sentence, lang)
    return bool(_past_verbs(doc, piece)) and not EN_FUTURE.search(sentence)


def _past_verbs(doc, piece: Piece) -> list[tuple[int, int]]:
    """[start, end) of the past-tense verbs of a sentence, relative to it (English; spaCy's VBD)."""
    span = doc.char_span(piece.start, piece.end, alignment_mode="expand") if doc is not None else None
    return [
        (t.idx - piece.start, t.idx - piece.start + len(t.text))
        for t in span or ()
        # a participle without its auxiliary reports a past event too ("box released tuesday")
        if (t.tag_ == "VBD" or (t.tag_ == "VBN" and not any(c.dep_.startswith("aux") for c in t.children)))
        and not _wished_state(t)
    ]


def _wished_state(token) -> bool:
    """ "he wants everything finished before the 15th", "he needs the units cleaned", "we need it done
    by Friday": a participle completing a verb in the present is a state asked for, not a past event;
    so is a verb that only moves plans ("(preponed because of the audit on 15 Oct)")."""
    present = ("VB", "VBP", "VBZ", "VBG")
    if token.tag_ == "VBN" and token.dep_ in ("ccomp", "xcomp", "oprd") and token.head.tag_ in present:
        return True
    if (
        token.tag_ == "VBN"
        and token.dep_ == "acl"
        and token.head.dep_ == "dobj"
        and token.head.head.tag_ in present
    ):
        return True
    return token.lemma_.lower() in _MOVE_VERBS


# Verbs that only ever move a plan: the dates around them are plans, not past events ("completion
# date … preponed"); "moved", "pushed" and "delayed" also tell what happened ("Moved house on 3 May").
_MOVE_VERBS = frozenset(("postpone", "prepone", "reschedule"))


def _dates(sentence: str, today: date, lang: str, past: bool, past_verbs) -> list[Mention]:
    """The sentence's dates, each read in the direction of what it is (timeexpr.date_points_back):
    both readings are made, and each date takes the one its own clause calls for."""
    ahead = {(m.start, m.end): m for m in find_dates(sentence, today, lang, past=False)}
    behind = {(m.start, m.end): m for m in find_dates(sentence, today, lang, past=True)}
    picked = []
    for key in dict.fromkeys([*ahead, *behind]):
        probe = ahead.get(key) or behind[key]
        if past_verbs is None and not _CJK_WORD.search(sentence):
            back = past and not probe.extra.get("deadline")  # no parse: the sentence's tense
        else:
            back = date_points_back(sentence, probe, lang, past_verbs or ())
        picked.append((behind.get(key) if back else ahead.get(key)) or probe)
    return picked


def find_atoms(
    text: str,
    piece: Piece,
    today: date,
    lang: str,
    doc=None,
    *,
    past: bool = False,
    common: frozenset[str] = frozenset(),
    past_verbs: list[tuple[int, int]] | None = None,
) -> list[Mention]:
    """Every atom in one sentence of a turn, offsets relative to the turn text, overlaps resolved.

    Args:
        text: the whole turn.
        piece: the sentence span.
        today: the turn's local date.
        lang: "zh" or "en".
        doc: the spaCy Doc of the turn (English names); None skips spaCy.
        past: the sentence is in the past tense (used for dates only without `past_verbs`).
        common: lower-case words of the batch (names.common_words): not one-word names.
        past_verbs: [start, end) of the sentence's past-tense verbs, relative to it (English).
    """
    sentence = piece.text
    shift = piece.start
    # The rules for Chinese are written in simplified characters (號, 個, 萬 read as 号, 个, 万); the
    # reading keeps every offset, and each atom is given back as written.
    read = zh_simplified(sentence)

    def as_written(m: Mention) -> Mention:
        written, surface = sentence[m.start : m.end], read[m.start : m.end]
        if written == surface or m.surface != surface:
            return m
        extra = dict(m.extra)
        if isinstance(extra.get("replacement"), str):  # "23号(2026-10-23)" said as 23號
            extra["replacement"] = extra["replacement"].replace(surface, written)
        return Mention(m.kind, m.start, m.end, written, m.value, extra)

    def moved(found: list[Mention]) -> list[Mention]:
        return [
            Mention(w.kind, w.start + shift, w.end + shift, w.surface, w.value, w.extra)
            for w in map(as_written, found)
        ]

    dates = resolve_overlaps(moved(_dates(read, today, lang, past, past_verbs)))
    # "<3" is a heart, not the number three
    amounts = [m for m in find_amounts(read) if not _EMOTICON_BEFORE.search(read[: m.start])]
    others = resolve_overlaps(moved(find_times(read) + amounts))
    # A clock time may share characters with its day word ("明晚七点": date 明晚, time 晚七点): keep both.
    values = dates + [v for v in others if v.kind == "time" or not any(v.overlaps(d) for d in dates)]
    if _CJK_WORD.search(sentence):
        # Chinese, possibly with Latin names inside: spaCy cannot tokenise such mixed text.
        raw_names = moved(find_names_zh(sentence) + find_latin_names_in_zh(sentence))
        raw_names += batch_nicknames_zh(doc, piece.start, piece.end)
    elif doc is not None:
        raw_names = find_names_en(doc, piece.start, piece.end, common=common)
    else:  # a Latin-script sentence in a Chinese turn: names by shape
        raw_names = moved(find_latin_names_in_zh(sentence))
    names = [
        m
        for m in resolve_overlaps(raw_names, ())
        # a personal pronoun is never part of a Chinese name ("谢谢你" is thanks, not a person)
        if not any(m.overlaps(v) for v in values)
        and not (m.kind == "person" and _ZH_PRONOUN.search(m.surface))
    ]
    negations = moved(find_negations(read))
    conditions = resolve_overlaps(moved(find_conditions(read)), ())
    return sorted(values + names + negations + conditions, key=lambda m: (m.start, m.kind))


def _kept_span(
    text: str,
    clauses: list[Piece],
    atoms: list[Mention],
    lang: str,
    doc,
    recent: set[str],
    listeners: tuple[str, ...],
    said: set[str],
    today: date,
    to_a_role: bool = False,
) -> tuple[int, int] | None:
    """First to last informative clause; a condition brings its consequence, a bare detail its lead-in.

    A clause is informative when it holds an atom other than a vocative, or is a task about
    something, or says something about a thing however short or already mentioned
    (informative.says_something: kept by default, dropped only when it positively says nothing).
    `said` receives the content words of every clause, for the window of the turns that follow.
    """
    informative: list[bool] = []
    qualifies: list[bool] = []
    list_items: list[bool] = []
    # the listener's own names: "Go Jon!", "same here Caroline" address them, they name no thing
    listener_words = {w.casefold() for n in listeners for w in n.split()}
    for k, c in enumerate(clauses):
        inside = [m for m in atoms if m.within(c.start, c.end) or (m.start < c.end and c.start < m.end)]
        said_before = k > 0 and informative[k - 1]
        addressed = _called(text, c.start, c.end, inside, lang, listeners, to_a_role, said_before)
        span = doc.char_span(c.start, c.end, alignment_mode="expand") if doc is not None else None
        named = {w.casefold() for m in addressed for w in m.surface.split()}
        words = [w for w in content_words(c.text, span) if w.lemma not in named]
        question = c.text.rstrip().endswith(("?", "？"))
        following = clauses[k + 1].text if k + 1 < len(clauses) else ""
        # a name the tagger knows and that addresses no one ("…a telematics company, Orbitrack")
        # is no bare address
        known_name = any(m.kind in NAME_KINDS and m not in addressed for m in inside)
        says = (known_name or not bare_address(c.text, following)) and says_something(
            c.text, span, named=named | listener_words, question=question, recent=recent
        )
        # a day word dates what is done or asked ("Can we meet tomorrow?"), not a farewell ("See
        # you tomorrow"): the rest of the clause decides
        dates = [m.surface for m in inside if m.kind == "date"]
        farewell = not is_task(c.text) and only_phatic_words(
            c.text, span, without=dates + sorted(named | listener_words)
        )
        thing = any(m not in addressed and _names_a_thing(m, listener_words, farewell) for m in inside)
        informative.append(says or thing)
        qualifies.append(any(m.kind in ("negation", "condition") for m in inside))
        list_items.append(span is not None and en_list_item(span, named | listener_words))
        said.update(w.lemma for w in words)
    if not any(informative):
        return None
    # a negation or a condition qualifies what its sentence says ("…near the Rotterdam office,
    # nothing too fancy"); alone in a sentence of reactions it is one too ("I won't quit!")
    informative = [i or q for i, q in zip(informative, qualifies, strict=True)]
    first = informative.index(True)
    last = len(informative) - 1 - informative[::-1].index(True)
    if any(m.kind == "condition" and m.within(clauses[last].start, clauses[last].end) for m in atoms):
        last = min(last + 1, len(clauses) - 1)
    # a clause opened by "but" qualifies what its sentence said ("有考虑过，不过总觉得还差了些什么")
    while last + 1 < len(clauses) and _CONTRAST_OPENING.match(clauses[last + 1].text):
        last += 1
    # the items of a list the commas cut off ("…with almond milk, vanilla extract, and honey", "Place
    # beef brisket, sliced peppers, onions, garlic…") belong to the clause before them, even when an
    # item alone would read as an address ("honey") or an echo of the last turns ("onions")
    while last + 1 < len(clauses) and list_items[last + 1]:
        last += 1
    if first > 0 and len(tokenize(_without_atoms(clauses[first], atoms))) < 2:
        first -= 1  # "13905712286" alone needs "我换手机号了" before it
    return clauses[first].start, clauses[last].end


def _called(
    text: str,
    start: int,
    end: int,
    names: list[Mention],
    lang: str,
    listeners: tuple[str, ...],
    to_a_role: bool,
    said_before: bool,
) -> list[Mention]:
    """The names in text[start:end] that call the listener (`informative.vocatives`). A turn to an
    assistant, or from one (`to_a_role`: the listener is a role label), calls no one by a name that closes a
    sentence after words that said something: "Phone note, 11:05, Odalys." says whose call it was,
    "Sent the invoice today, Marco." whom it went to; "Thanks, Marco!" still calls Marco.
    `said_before`: the clause before this one in its sentence said something."""
    addressed = vocatives(text, start, end, names, lang, listeners)
    if not addressed or not to_a_role:
        return addressed
    if not re.search(r"[.!?。！？]\W*$", text[start:end]):
        return addressed
    kept = []
    for m in addressed:
        before = text[start : m.start]
        closes = not re.search(r"\w", text[m.end : end])
        after_said = not only_phatic_words(before) if re.search(r"\w", before) else said_before
        if not (closes and after_said):
            kept.append(m)
    return kept


_CONTRAST_OPENING = re.compile(r"^\W*(?:不过|但是|可是|只是|但|(?i:but|though|although|except)\b)")


def _names_a_thing(atom: Mention, listener_words: set[str], farewell: bool = False) -> bool:
    """An atom that on its own makes a clause worth keeping. A negation or a condition is a fact
    about what its clause names (the clause's words decide: "I won't quit running" is kept, a bare
    "I won't quit" is a reaction); a day word of the moment of speaking dates a farewell ("明天见",
    "See you tomorrow": `farewell`, the rest of the clause is phatic) but not an action ("Can we meet
    tomorrow?", "合同今天下午签"), and the listener's name addresses them."""
    if atom.kind in ("negation", "condition"):
        return False
    if atom.kind == "date" and atom.surface.strip().casefold() in DEICTIC_DAY_WORDS and farewell:
        return False
    return not (atom.kind in NAME_KINDS and {w.casefold() for w in atom.surface.split()} <= listener_words)


def _without_atoms(clause: Piece, atoms: list[Mention]) -> str:
    out = clause.text
    for m in atoms:
        if m.within(clause.start, clause.end):
            out = out.replace(m.surface, " ")
    return out


def _compress_turn(
    turn: Turn,
    doc,
    addressee: str | None,
    stats: CompressStats,
    recent: set[str],
    common: frozenset[str] = frozenset(),
    *,
    introduced: Mapping[str, str] | None = None,
    to_a_role: bool = False,
) -> tuple[list[Event], set[str], set[str]]:
    """The events of one turn, the content words it said (for the recent window) and those of them
    outside its atoms (for the dual trigger's same-topic test: "Yes, at 3pm." says nothing of its
    own, "剪头发改到6月17号了" does, whatever part of speech jieba gives 剪头发)."""
    text, lang, today = turn.text, detect_lang(turn.text), local_date(turn.time)
    said: set[str] = set()
    listeners = (addressee,) if addressee else ()
    spans: list[list[int]] = []  # [start, end] of each kept span, merged across continuation sentences
    atoms: list[Mention] = []
    previous_kept = False
    for piece in split_sentences(text):
        stats.sentences += 1
        found = find_atoms(
            text,
            piece,
            today,
            lang,
            doc,
            past=_is_past(piece.text, lang, doc, piece),
            common=common,
            past_verbs=_past_verbs(doc, piece) if doc is not None else None,
        )
        clauses = split_clauses(text, piece)
        stats.clauses += len(clauses)
        kept = _kept_span(text, clauses, found, lang, doc, recent, listeners, said, today, to_a_role)
        if kept is None:
            stats.dropped_chitchat += len(clauses)
            previous_kept = False
            continue
        stats.dropped_chitchat += sum(1 for c in clauses if c.end <= kept[0] or c.start >= kept[1])
        end = piece.end if kept[1] == clauses[-1].end else kept[1]
        atoms += [m for m in found if m.within(kept[0], end)]
        parts = _split_at_effects(clauses, kept[0], end)
        leans = _CONTINUATION.match(piece.text) or _without_subject(text, clauses[0], lang, doc)
        if previous_kept and leans and not _EFFECT_OPENING.match(piece.text):
            spans[-1][1] = parts[0][1]
            parts = parts[1:]
        spans += parts
        previous_kept = True
    events = []
    for index, (start, end) in enumerate(spans):
        event = _build_event(
            turn,
            index,
            lang,
            start,
            end,
            [m for m in atoms if m.within(start, end)],
            doc,
            addressee,
            introduced=introduced,
            to_a_role=to_a_role,
        )
        stats.atoms_by_kind.update(a.kind for a in event.atoms)
        events.append(apply_guard(event, text[start:end], stats))
    in_atoms = " ".join(m.surface.casefold() for m in atoms)
    return events, said, {w for w in said if w not in in_atoms}


def _without_subject(text: str, clause: Piece, lang: str, doc) -> bool:
    """A sentence that opens with a clause of no subject and no verb of its own leans on the
    sentence before: "恒远医疗签合同了！一家门诊，24万…" is about 恒远医疗's contract, so it stays
    in the same event rather than lose who signed. English: an opening clause without a subject
    ("Started when I was young.")."""
    if doc is not None and lang == "en":
        span = doc.char_span(clause.start, clause.end, alignment_mode="expand")
        return span is not None and not any(t.dep_.startswith(("nsubj", "expl", "csubj")) for t in span)
    from simplemem_graph.compress.informative_zh import zh_posseg

    return not any(p.flag.startswith("v") for p in zh_posseg().cut(clause.text))


def _split_at_effects(clauses: list[Piece], start: int, end: int) -> list[list[int]]:
    """[start, end) cut before each clause that opens with an effect marker ("…，结果…", "…, so we…").

    The effect becomes its own event, so consolidation can link cause -> effect (CAUSES).
    """
    parts = [[start, end]]
    for previous, clause in itertools.pairwise(clauses):
        if start < clause.start < end and _EFFECT_OPENING.match(clause.text):
            parts[-1][1] = previous.end
            parts.append([clause.start, end])
    return parts


def apply_guard(event: Event, source: str, stats: CompressStats) -> Event:
    """Return `event`, or a copy whose text is the verbatim `source` when an atom did not survive.

    Args:
        event: a built event with its `atoms`.
        source: the source clause the event was made from.
        stats: receives `guard_fallbacks` and `guard_misses`.
    """
    missing = missing_atoms(event)
    if not missing:
        return event
    stats.guard_fallbacks += 1
    stats.guard_misses += [f"{a.kind}:{a.surface}" for a in missing]
    return event.model_copy(update={"text": source, "verbatim": True})


def _comma_pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """[start, end) cut after each comma or pause: where a vocative sits between two clauses."""
    pieces, a = [], start
    for m in re.finditer(r"[,，!！;；]", text[start:end]):
        pieces.append((a, start + m.end()))
        a = start + m.end()
    return [*pieces, (a, end)] if a < end else pieces


def _build_event(
    turn: Turn,
    index: int,
    lang: str,
    start: int,
    end: int,
    atoms: list[Mention],
    doc,
    addressee: str | None,
    *,
    introduced: Mapping[str, str] | None = None,
    to_a_role: bool = False,
) -> Event:
    from simplemem_graph.compress.restate import restate, we_groups, we_names

    text = turn.text
    dates = [m for m in atoms if m.kind == "date"]
    names = [m for m in atoms if m.kind in NAME_KINDS]
    conditions = [m for m in atoms if m.kind == "condition"]
    negations = [m for m in atoms if m.kind == "negation"]
    listeners = (addressee,) if addressee else ()
    pieces = _comma_pieces(text, start, end)
    said = [not only_phatic_words(text[a:b]) for a, b in pieces]
    addressed = [
        m
        for i, (a, b) in enumerate(pieces)
        for m in _called(text, a, b, names, lang, listeners, to_a_role, i > 0 and said[i - 1])
    ]
    rest = text[start:end]
    for m in addressed:
        rest = rest.replace(m.surface, "")
    if addressed and not re.search(r"\w", rest):
        addressed = []  # the name is all there is: keep it rather than restate nothing
    clause_tokens = doc.char_span(start, end, alignment_mode="expand") if doc is not None else None
    verbs = {t.idx: t.text for t in clause_tokens or () if t.tag_ == "VBP" and start <= t.idx < end}
    groups = we_groups(text[:end], lang, doc)
    speaker = spoken_as(turn.speaker, introduced or {})
    restated = restate(
        text,
        start,
        end,
        dates,
        speaker,
        addressee,
        vocatives=addressed,
        verbs=verbs,
        groups=groups,
    )
    # Who "we" stands for acts with the speaker ("Jon and I ... we moved it"), even when named in
    # an earlier clause of the turn.
    acting = we_names(text, start, end, addressee, groups)
    if speaker and speaker != turn.speaker and speaker in restated:
        # "user" named themself (我叫苏婉清): the name acts, the label names no one
        acting = [speaker, *acting]
    if doc is not None:
        action, obj = action_object_en(doc, start, end)
    else:
        action, obj = action_object_zh(text[start:end])
    deadline = next((date.fromisoformat(m.value) for m in dates if m.extra.get("deadline")), None)
    unique_dates = list(dict.fromkeys(date.fromisoformat(m.value) for m in dates))
    speaker_tokens = set(tokenize(turn.speaker, keep_stopwords=True))
    keywords = keywords_from(restated, exclude=speaker_tokens | {"others"})
    places = [m.value for m in names if m.kind == "place"]
    return Event(
        id=stable_id("ev", turn.namespace, turn.id, str(index)),
        namespace=turn.namespace,
        text=restated,
        source_ids=[turn.id],
        session=turn.session,
        speaker=turn.speaker,
        agent=turn.agent,
        clause=index,
        time=turn.time,
        deadline=deadline,
        dates=unique_dates,
        action=action,
        object=obj,
        participants=with_agents(participants_from(names, text, doc), acting),
        location=places[0] if places else None,
        quantities=quantities_from(
            [m for m in atoms if m.kind in ("money", "quantity", "number", "duration")]
        ),
        # Stated in the negative: a negation outside every condition clause.
        negated=any(not any(n.within(c.start, c.end) for c in conditions) for n in negations),
        condition="; ".join(c.surface for c in conditions) or None,
        topic=topic_from(obj, keywords),
        keywords=keywords,
        atoms=[m.to_atom() for m in atoms],
        lang=lang,
        is_task=is_task(text[start:end]) or any(m.extra.get("deadline") for m in dates),
    )
