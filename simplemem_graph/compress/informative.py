"""The information test: does a clause carry something worth remembering?

The seed's keep rule, by structure and not by word lists: a clause holding any atom of the
restoration schema (number, amount, date/time, person, organisation, place, negation, condition)
is always kept. Without atoms a clause is kept by default and dropped only when it positively says
nothing (`states_something`): a statement about a thing is kept however short and however recently
the thing was mentioned ("The store's doing great!", "我妈妈是个老师", "我家的冰箱是海尔的"), and
so is the speaker's own state ("今天我很难过"), a task about something (`is_informative_task`) and
a question about something new. What is dropped: greetings, thanks, acknowledgements, farewells and
bare reactions (imperatives and verbless formulas: "Take care", "Thanks for the support"),
clauses whose only thing is the listener's ("your help means a lot", "谢谢你的建议") or pointed
back at ("我会尝试这些方法"), judgements of what was just said ("That's the spirit!", "这是非常实用的
建议") and praise of the listener ("You've got guts").

Measured on real text by bench/survival.py (LoCoMo dev, LongMemEval dev, MemoryBank-cn dev with
hand-labelled fact and phatic turns in bench/data/).

A vocative (the listener's name used to address them: "Thanks, Caroline!", "晚安啦小雨") is not a
mention: `vocatives` finds them so the caller does not count them as atoms.

Tried and rejected: word lists of greetings, moods, weather and meals (they were the dev set's
chit-chat words and let new small talk through: 18.4 events per 100 generated small-talk turns);
then "a statement about something *new*" (`is_substantive`, kept for reference): it dropped facts
about a thing the last turns had mentioned ("I love all dances, but contemporary is my top pick").
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass

from simplemem_graph.compress.mentions import Mention
from simplemem_graph.text import STOPWORDS

_EN_TASK = re.compile(
    r"^\s*(?:please\s+)?(?:remind|book|send|call|email|tell|ask|schedule|make sure|don't forget|remember|"
    r"let's|loop in|cc|forward|prepare|draft|buy|order|pay|sign|submit|check|confirm|follow up|set up|"
    r"cancel|move|reschedule|note|write down|save)\b"
    r"|\b(?:need to|needs to|have to|has to|must|should|i'll|i will|we'll|we will|promise|going to|gonna|"
    r"remind me|todo|to-do|deadline|due)\b",
    re.IGNORECASE,
)
_ZH_TASK = re.compile(
    r"帮我|记得|请|要把|必须|得先|务必|一定要|提醒|安排|记一下|存一下|别忘|答应|负责|让.{1,4}(?:去|把|给)|"
    r"之前|截止|尽快|马上|记下"
)
# Parts of speech that carry content. English: spaCy's universal tags; Chinese: jieba's tag
# prefixes (n* nouns, v* verbs, a* adjectives, i idioms, l fixed expressions).
_EN_CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "NUM"})
_EN_REFERENT_POS = frozenset({"NOUN", "PROPN", "NUM"})
_ZH_CONTENT_TAGS = ("n", "v", "a", "i", "l", "j", "s", "t")
_ZH_REFERENT_TAGS = ("n", "j", "s")
# jieba's person tag is guessed for unknown two-character runs (明白明白, 太棒了 come out as nr): a real
# name is an atom already, found by the name rules, so nr alone does not make a referent.
_ZH_NOT_REFERENT_TAGS = ("nr",)
MIN_CONTENT_WORDS = {"en": 3, "zh": 3}
RECENT_TURNS = 4  # the window "new" is measured against: the last turns of the session
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]+")
_PAUSE_BEFORE = re.compile(r"(?:^|[,，!！:：;；~～…]|^\W+)\s*$")
_ZH_PARTICLE_BEFORE = re.compile(r"[啦呀哦吧呢嘛啊哈噢喔嗯哇]\s*$")
_NOTHING_AFTER = re.compile(r"^[^\w]*$")
_ZH_NAMING_BEFORE = re.compile(r"(?:是|叫|姓|名叫|叫做)\s*$")
_EN_DETERMINERS = "my|your|his|her|our|their|its|the|a|an|these|those"


@dataclass(frozen=True)
class ContentWord:
    """A content word of a clause: its lower-cased lemma and whether it names a thing."""

    lemma: str
    referent: bool
    predicate: bool = False  # a verb or adjective that can say something about a referent


@functools.cache
def _posseg():
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return jieba.posseg


def content_words(text: str, span=None) -> list[ContentWord]:
    """Content words of a clause: from its spaCy span (English) or jieba's tags (Chinese / no span).

    Args:
        text: the clause text.
        span: the clause's spaCy Span (English turns); None reads the text with jieba, where Latin
            words count as content words and capitalised ones as referents.
    """
    if span is not None:
        words = [
            ContentWord(t.lemma_.lower(), t.pos_ in _EN_REFERENT_POS, t.pos_ == "VERB")
            for t in span
            if (t.pos_ in _EN_CONTENT_POS and not t.is_stop and t.is_alpha and _propn_capitalised(t))
            or t.like_num
        ]
        if any(t.pos_ == "AUX" for t in span) and words:  # "the bread was still warm": a copula predicates
            words[0] = ContentWord(words[0].lemma, words[0].referent, True)
        return words
    words = []
    for pair in _posseg().cut(text):
        word, tag = pair.word.strip(), pair.flag
        if not word or word.lower() in STOPWORDS:
            continue
        if _LATIN_WORD.fullmatch(word):
            words.append(ContentWord(word.lower(), word[0].isupper()))
        elif (
            tag.startswith(_ZH_CONTENT_TAGS)
            and re.fullmatch(r"[\u4e00-\u9fff]+", word)
            # one character counts only as a noun (店, 车): single-character verbs and adjectives
            # are where jieba's tags are least reliable (好滴: 滴 "v")
            and (len(word) >= 2 or tag.startswith("n"))
        ):
            referent = tag.startswith(_ZH_REFERENT_TAGS) and not tag.startswith(_ZH_NOT_REFERENT_TAGS)
            words.append(ContentWord(word, referent, tag.startswith(("v", "a", "l", "i"))))
    return words


def _propn_capitalised(token) -> bool:
    """spaCy tags lower-case reactions ("cool", "lol") as proper nouns; a proper noun is capitalised."""
    return token.pos_ != "PROPN" or token.text[:1].isupper()


def is_task(text: str) -> bool:
    """A request, promise or to-do ("Remind me…", "帮我记一下", "need to…", "下周二之前…")."""
    return bool(_EN_TASK.search(text) or _ZH_TASK.search(text))


def is_substantive(
    words: list[ContentWord], lang: str, recent: Iterable[str] = (), *, question=False
) -> bool:
    """A statement that talks about something new (used only for clauses without atoms).

    Args:
        words: the clause's content words (`content_words`), vocatives already left out.
        lang: "zh" or "en".
        recent: lemmas of the content words of the recent turns of the session.
        question: the clause is a question (a question without atoms asks, it does not tell).
    """
    if question:
        return False
    seen = set(recent)
    new_referents = [w for w in words if w.referent and w.lemma not in seen]
    # Distinct words: a reduplicated reaction (明白明白, "yes yes") says one thing.
    # A proposition: something new to talk about, something said about it (a verb or adjective;
    # "cool, good night" has neither), and distinct words (明白明白 says one thing).
    return (
        bool(new_referents)
        and any(w.predicate for w in words)
        and len({w.lemma for w in words}) >= MIN_CONTENT_WORDS.get(lang, 3)
    )


# Finite verbs (a declarative has one, with its subject); imperatives ("Take care", "Appreciate your
# help") and verbless formulas ("Good night", "Thanks for the support") do not.
_EN_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
_EN_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "expl", "csubj"})
# Nouns that, after "a", measure a degree and name nothing ("means a lot", "a bit tired").
_EN_DEGREE_NOUNS = frozenset({"lot", "bit", "ton", "little"})
_EN_POINTING = frozenset({"it", "that", "this"})
_EN_LISTENER = frozenset({"you", "your", "yours", "yourself", "yourselves"})
# What marks a noun phrase as the listener's ("your help") or as pointed back at ("this bowl").
_EN_SPECIFIER_DEPS = frozenset({"det", "poss", "nummod", "predet"})
# A copula or existential carries the predicate in Chinese ("我妈妈是个老师", "我家有两只猫",
# "我住在翠湖花园小区"); jieba files 是/有/在 with the stopwords.
_ZH_COPULA = re.compile(r"是|有|在|住|叫|姓|用")
# the listener's, through a coordination: "你的建议和帮助"
_ZH_LISTENER_BEFORE = re.compile(r"(?:你|您)(?:们)?的?(?:[\u4e00-\u9fff]{1,4}[和与及、])*\s*$")
# "这是非常实用的建议": a judgement of what was just said, unless it is the speaker's ("这是我拍的…")
_ZH_POINTED_SUBJECT = re.compile(r"^\W*(?:这|那)(?:个|些)?(?:是|真是|就是|也是|可是)")
_ZH_DEMONSTRATIVE_BEFORE = re.compile(r"[这那](?:些|个|种|部|本|件|次|位|条|篇|首|样)?\s*$")
# The speaker's own state: 我 with a degree word before its predicate ("今天我很难过", "我有些郁闷",
# "我感到有些无聊"), in a clause that is not about the listener ("我很高兴和你聊天" is a pleasantry).
_ZH_SPEAKER_STATE = re.compile(
    r"我(?!们).{0,4}?(?:很|非常|有些|有点|特别|十分|挺|比较|最|感到|觉得)[\u4e00-\u9fff]{2}"
)
_ZH_LISTENER = re.compile(r"你|您")
_ZH_PRONOUN_CHARS = tuple("我你您他她它")
# Things in Chinese: nouns, abbreviations, places, time nouns (生日), Latin words; not verbal nouns
# (jieba's "尝试" in "我会尝试这些方法的") nor
# jieba's fixed expressions (太好了, 那就好 are tagged l like 自然风光).
_ZH_STATED_TAGS = ("n", "j", "s", "eng", "t")
_ZH_LISTENER_SUBJECT = re.compile(r"^\W*(?:你|您)(?!的)")


def states_something(
    text: str, span=None, *, named: Iterable[str] = (), question: bool = False, recent: Iterable[str] = ()
) -> bool:
    """A declarative clause about a specific thing, however short: kept even when the thing was
    just talked about ("The store's doing great!", "I love all dances, but contemporary is my top
    pick", "我妈妈是个老师", "我家的冰箱是海尔的").

    What is left out, by structure: questions (the caller's), imperatives and verbless formulas
    (greetings, thanks, wishes, farewells), clauses whose only things are the listener's ("your
    help means a lot", "谢谢你的建议"), pointed back at ("这些方法", "that") or generic ("Success is
    almost here"), and statements about the listener ("You've got guts", "你真是个有见识的AI助手"):
    praise and encouragement. A question is kept when it asks about a specific thing ("Did you see
    that band?", "What type of music do you play?"): the answer that follows leans on it.

    Args:
        text: the clause.
        span: its spaCy Span (English); None reads Chinese with jieba.
        named: lower-case words of vocatives in the clause (a name used to address is no thing).
        question: the clause is a question; it must ask about something the recent turns did not
            mention ("还有其他的方法吗？" after an answer full of methods asks about nothing new).
        recent: lemmas of the content words of the recent turns of the session.
    """
    named = {w.casefold() for w in named}
    seen = set(recent)
    pieces = _pieces(text)
    if len(pieces) > 1:
        # an emoji or a tilde separates what it says: "收到😊晚安" is an ack and a good-night, "晚安" no
        # thing that "收到" says something about
        doc = span.doc if span is not None else None
        base = span.start_char if span is not None else 0
        return any(
            states_something(
                text[a:b],
                doc.char_span(base + a, base + b, alignment_mode="expand") if doc is not None else None,
                named=named,
                question=question,
                recent=seen,
            )
            for a, b in pieces
        )
    if span is not None:
        return _en_states(span, named, question, seen)
    if _ZH_LISTENER_SUBJECT.match(text) and not question:
        return False
    if not question and _ZH_SPEAKER_STATE.search(text) and not _ZH_LISTENER.search(text):
        return True
    if _ZH_POINTED_SUBJECT.match(text) and "我" not in text:
        return False
    predicate = question or bool(_ZH_COPULA.search(text))
    referent = False
    at = 0
    pairs = list(_posseg().cut(text))
    for i, pair in enumerate(pairs):
        word, tag = pair.word, pair.flag
        after = pairs[i + 1].flag if i + 1 < len(pairs) else ""
        if (tag.startswith("v") and after.startswith(("n", "j"))) or tag == "ul":
            # a verb with its object ("签合同"), however short the verb; the aspect particle 了 says
            # something happened even where jieba reads the verb into a noun ("恒远医疗签合同了")
            predicate = True
        start = text.find(word, at)
        at = start + len(word) if start >= 0 else at
        if not word.strip() or word.lower() in named:
            continue
        if tag.startswith(("v", "a")) and len(word) >= 2:
            predicate = True  # one-character verbs are where jieba's tags are least reliable (好滴)
        if (
            tag.startswith(_ZH_STATED_TAGS)
            # jieba guesses nr for unknown runs (太棒了); a real name is an atom already
            and not tag.startswith(_ZH_NOT_REFERENT_TAGS)
            and word.lower() not in STOPWORDS
            and not word.startswith(_ZH_PRONOUN_CHARS)  # jieba's "我会" is no noun
            and (not question or word.lower() not in seen)
            and not _ZH_LISTENER_BEFORE.search(text[:start])
            and (question or not _ZH_DEMONSTRATIVE_BEFORE.search(text[:start]))
        ):
            referent = True
    return referent and predicate


_EMOJI_OR_TILDE = re.compile(r"[~～\u2600-\u27bf\U0001f000-\U0001faff]+")


def _pieces(text: str) -> list[tuple[int, int]]:
    """[start, end) of the runs of `text` between emoji and tildes that hold a word."""
    out, at = [], 0
    for m in [*_EMOJI_OR_TILDE.finditer(text), None]:
        end = m.start() if m else len(text)
        if re.search(r"\w", text[at:end]):
            out.append((at, end))
        at = m.end() if m else at
    return out


def _en_states(span, named: set[str], question: bool, seen: set[str]) -> bool:
    finite = [t for t in span if t.tag_ in _EN_FINITE_TAGS]
    inside = {t.i for t in span}
    subjects = [
        c
        for t in finite
        for h in (t, t.head)
        if h.i in inside
        for c in h.children
        if c.dep_ in _EN_SUBJECT_DEPS and c.i in inside
    ]
    if not question and (not finite or not subjects):
        return False
    if not question and all(s.lower_ in _EN_LISTENER for s in subjects):
        return False  # "You've got guts", "you make life's struggles more bearable"
    if not question and all(s.lower_ in _EN_POINTING and s.head.lemma_ == "be" for s in subjects):
        return False  # "That's the spirit!", "It's great to have a supporter!": a judgement of what was said

    def specific(t) -> bool:
        head = t
        while head.dep_ == "compound" and head.head is not head:
            head = head.head  # "guinea pig": the phrase's own determiners
        marks = [c for c in head.children if c.dep_ in _EN_SPECIFIER_DEPS]
        if any(c.lower_ in _EN_LISTENER for c in marks):
            return False  # the listener's: "your kind words"
        # a bare noun counts ("counseling", "mental health"); one pointed back at does not
        return question or not any(c.lower_ in ("this", "that", "these", "those") for c in marks)

    return any(
        t.pos_ in _EN_REFERENT_POS
        and t.dep_ != "npadvmod"  # "a lot", "a bit"
        and not (t.lemma_ in _EN_DEGREE_NOUNS and any(c.lower_ == "a" for c in t.children))
        # a bare lower-case singular subject is a reaction the tagger read as a noun ("cool sounds
        # good", "omg love it"): English needs a determiner there
        and not (t.dep_.startswith("nsubj") and t.tag_ == "NN" and t.text.islower() and not list(t.children))
        and t.lower_ not in named
        and not t.is_stop
        and t.is_alpha
        and _propn_capitalised(t)
        and (not question or t.lemma_.lower() not in seen)
        and specific(t)
        for t in span
    )


def is_informative_task(text: str, words: list[ContentWord], recent: Iterable[str] = ()) -> bool:
    """A task about something: "Remind me to call the bank" (not "Sure, I'll do that", "好的，记下了")."""
    if not is_task(text):
        return False
    # The words of the task cue itself ("记下" of 记下了, "note") are not what the task is about.
    cues = [m.group(0).lower() for p in (_EN_TASK, _ZH_TASK) for m in p.finditer(text)]
    words = [w for w in words if not any(w.lemma in c or c in w.lemma for c in cues)]
    seen = set(recent)
    return any(w.referent and w.lemma not in seen for w in words) or len(words) >= 2


def vocatives(
    text: str, start: int, end: int, names: list[Mention], lang: str, listeners: Iterable[str] = ()
) -> list[Mention]:
    """Person names in characters [start, end) used to address the listener, not to talk about them.

    A name is a vocative when it opens the clause followed by a pause ("Caroline, ..."), or closes it
    with nothing but punctuation or emoji after it and a pause, a particle or the clause start
    before it ("Thanks, Caroline!", "Hey Mel!", "晚安啦小雨", "老陈，行"). After a single word with no
    pause, the name is a vocative unless that word asks for something ("Call Caroline!") and the
    name is not one of `listeners` (the people this turn speaks to).
    """
    listeners = {n.casefold() for n in listeners} | {n.split()[0].casefold() for n in listeners if n.split()}
    found = []
    for m in names:
        # Any kind of name: spaCy types a lone "Nina," as a place as often as a person.
        if m.kind not in ("person", "org", "place", "product") or not (start <= m.start and m.end <= end):
            continue
        before, after = text[start : m.start], text[m.end : end]
        # "Caroline, I went..." / "Mel! ..." - but not an appositive: "Oscar, my guinea pig, is..."
        at_start = (
            not re.search(r"\w", before)
            and (
                re.match(r"\s*[!！:：~～]", after)
                or (lang == "zh" and re.match(r"\s*[,，]", text[m.end :]))
                # a comma, unless a determiner opens an apposition ("Oscar, my guinea pig, ...")
                or re.match(rf"\s*,(?!\s*(?:{_EN_DETERMINERS})\b)|\s*\W*$", text[m.end :], re.IGNORECASE)
            )
        )
        # closing the clause after some words; a name alone in its clause is the at_start case
        # closing the clause after some words, or alone in a clause that ends the sentence
        closing = _NOTHING_AFTER.match(after) is not None and (
            re.search(r"\w", before) is not None
            or re.search(r"[.!?。！？…~～]\W*$", text[start:end]) is not None
            or _NOTHING_AFTER.match(text[m.end :]) is not None
        )
        lead = _LATIN_WORD.findall(before)
        # "Hey Mel!", "Thanks Caroline": one word, not a function word ("in Paris!", "to Tokyo")
        short_lead = (
            len(lead) <= 1
            and not any(w.lower() in STOPWORDS for w in lead)
            and not re.search(r"[\u4e00-\u9fff]{3}", before)
            # "我叫焦彦", "我是郑思雨": the name is what the copula says, not who is addressed
            and not _ZH_NAMING_BEFORE.search(before)
        )
        paused = _PAUSE_BEFORE.search(before) or (lang == "zh" and _ZH_PARTICLE_BEFORE.search(before))
        addressed = m.kind == "person" and (m.surface.casefold() in listeners or not is_task(before))
        if at_start or (closing and (paused or (short_lead and addressed))):
            found.append(m)
    return found
