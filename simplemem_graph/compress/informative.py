"""The information test: does a clause carry something worth remembering?

The seed's keep rule: coverage first. A clause holding an atom that names something (a number, an
amount, a date or time, a person, organisation, place or product) is always kept. Every other
clause is kept by default and dropped only when it positively says nothing (`says_something`):
each of its content words is in the phatic vocabulary (`lexicon.EN_PHATIC_WORDS`,
`ZH_PHATIC_WORDS`: greetings, thanks, acknowledgement, farewell, affect and light verbs,
encouragement, talk about the talk, generic nouns — general English and Chinese, not any data
set's phrasings) and it names no thing. So a copula, a possession, an experience, the speaker's
own state, an appositive fragment ("Oscar, my guinea pig.") and a question about a named thing
("Did you see that band?") are kept however short; "Keep going!", "Can't wait to hear about
it", "What gave you the idea?", "谢谢你的建议，我会尝试的" are not. Structure decides the rest:
praise of the listener ("You've got guts"), verdicts on what was just said ("That's the spirit!",
"这是非常实用的建议"), things pointed back at ("我会尝试这些方法") and verbless echoes of the last
turns carry nothing new.

A negation or a condition is a fact about what its clause names: "I won't quit running" is kept,
a bare "I won't quit" is a reaction (the caller keeps a negation that qualifies a kept clause of
its sentence: "…near the office, nothing too fancy"). A day word of the moment of speaking dates an
action ("Can we meet tomorrow?"), not a farewell ("明天见").

A vocative (the listener's name used to address them: "Thanks, Caroline!", "晚安啦小雨") is not a
mention: `vocatives` finds them so the caller does not count them as atoms; the listener's own
name is no thing either ("Go Jon!").

The structural rules live by language: `informative_en.py` (spaCy's parse) and `informative_zh.py`
(jieba's tags).

Measured on real text by bench/survival.py (LoCoMo dev, LongMemEval dev, MemoryBank-cn dev with
hand-labelled fact and phatic turns in bench/data/, and a held-out set of short turns written
apart from them, bench/data/short_turns_heldout.json).

Tried and rejected: word lists of greetings, moods, weather and meals fitted to the dev set (they
let new small talk through: 18.4 events per 100 generated small-talk turns); "a statement about
something *new*" (it dropped facts about a thing the last turns had mentioned: "I love all
dances, but contemporary is my top pick"); a declarative with a subject and a finite verb (it
dropped fragments: "Still working on opening a dance studio."); bare generic subjects as maxims
("Obstacles are inevitable": it also dropped "Contemporary dance is so expressive").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from simplemem_graph.compress.informative_en import EN_REFERENT_POS, en_phatic_word, en_says
from simplemem_graph.compress.informative_zh import (
    LATIN_WORD,
    TYPED_SOUND,
    ZH_FUNCTION_TAGS,
    ZH_NOT_REFERENT_TAGS,
    zh_phatic_word,
    zh_posseg,
    zh_says,
)
from simplemem_graph.compress.mentions import Mention
from simplemem_graph.compress.names import is_plural_common_noun
from simplemem_graph.compress.requests import is_task
from simplemem_graph.lexicon import (
    EN_FIRM_INTRODUCED,
    EN_ORG_SUFFIXES,
    EN_POSTS,
    INTERNATIONAL_LEGAL_FORMS,
    ZH_INTERJECTION_CHARS,
)
from simplemem_graph.text import STOPWORDS

# Parts of speech that carry content. English: spaCy's universal tags; Chinese: jieba's tag
# prefixes (n* nouns, v* verbs, a* adjectives, i idioms, l fixed expressions).
_EN_CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "NUM"})
_ZH_CONTENT_TAGS = ("n", "v", "a", "i", "l", "j", "s", "t")
_ZH_REFERENT_TAGS = ("n", "j", "s")
MIN_CONTENT_WORDS = {"en": 3, "zh": 3}
RECENT_TURNS = 4  # the window "new" is measured against: the last turns of the session
_PAUSE_BEFORE = re.compile(r"(?:^|[,，!！:：;；~～…]|^\W+)\s*$")
_ZH_PARTICLE_BEFORE = re.compile(rf"[{''.join(sorted(ZH_INTERJECTION_CHARS))}]\s*$")
_NOTHING_AFTER = re.compile(r"^[^\w]*$")
_ZH_NAMING_BEFORE = re.compile(r"(?:是|叫|姓|名叫|叫做)\s*$")
_EN_DETERMINERS = "my|your|his|her|our|their|its|the|a|an|these|those"


@dataclass(frozen=True)
class ContentWord:
    """A content word of a clause: its lower-cased lemma and whether it names a thing."""

    lemma: str
    referent: bool
    predicate: bool = False  # a verb or adjective that can say something about a referent


def content_words(text: str, span=None) -> list[ContentWord]:
    """Content words of a clause: from its spaCy span (English) or jieba's tags (Chinese / no span).

    Args:
        text: the clause text.
        span: the clause's spaCy Span (English turns); None reads the text with jieba, where Latin
            words count as content words and capitalised ones as referents.
    """
    if span is not None:
        words = [
            ContentWord(t.lemma_.lower(), t.pos_ in EN_REFERENT_POS, t.pos_ == "VERB")
            for t in span
            if (t.pos_ in _EN_CONTENT_POS and not t.is_stop and t.is_alpha and _propn_capitalised(t))
            or t.like_num
        ]
        if any(t.pos_ == "AUX" for t in span) and words:  # "the bread was still warm": a copula predicates
            words[0] = ContentWord(words[0].lemma, words[0].referent, True)
        return words
    words = []
    for pair in zh_posseg().cut(text):
        word, tag = pair.word.strip(), pair.flag
        if not word or word.lower() in STOPWORDS:
            continue
        if LATIN_WORD.fullmatch(word):
            words.append(ContentWord(word.lower(), word[0].isupper()))
        elif (
            tag.startswith(_ZH_CONTENT_TAGS)
            and re.fullmatch(r"[\u4e00-\u9fff]+", word)
            # one character counts only as a noun (店, 车): single-character verbs and adjectives
            # are where jieba's tags are least reliable (好滴: 滴 "v")
            and (len(word) >= 2 or tag.startswith("n"))
        ):
            referent = tag.startswith(_ZH_REFERENT_TAGS) and not tag.startswith(ZH_NOT_REFERENT_TAGS)
            words.append(ContentWord(word, referent, tag.startswith(("v", "a", "l", "i"))))
    return words


def _propn_capitalised(token) -> bool:
    """spaCy tags lower-case reactions ("cool", "lol") as proper nouns; a proper noun is capitalised."""
    return token.pos_ != "PROPN" or token.text[:1].isupper()


def says_something(
    text: str,
    span=None,
    *,
    named: Iterable[str] = (),
    question: bool = False,
    recent: Iterable[str] = (),
) -> bool:
    """A clause that says something about someone or something, however short; False only when it
    positively says nothing (the phatic test; atoms are the caller's).

    Kept: any content word outside the phatic vocabulary (lexicon.EN_PHATIC_WORDS /
    ZH_PHATIC_WORDS: greetings, thanks, affect and light verbs, talk about the talk, generic nouns),
    so a copula, a possession, an experience or an opinion about a named thing stays ("The store's
    doing great!", "Still working on opening a dance studio.", "我妈妈是个老师"), and the speaker's own
    state ("I'm excited!", "今天我很难过"). A question is kept when it names a thing (a noun, a
    name, a number, an activity: "Did you see that band?", "For walking or running?"); its verbs
    alone ask about nothing ("What gave you the idea?", "Did you join in?").

    Dropped, by structure: clauses whose every content word is phatic ("Keep going!", "Can't wait
    to hear about it", "谢谢你的建议"), adjectives of a bare reaction ("Wow, Mel. That must've been
    breathtaking!"), statements about the listener ("You've got guts": praise), judgements of what
    was just said ("That's the spirit!", "这是非常实用的建议"), things pointed back at ("我会尝试这些
    方法"), and a verbless fragment that only repeats what the last turns said ("A puppy from the
    shelter, lovely!").

    Args:
        text: the clause.
        span: its spaCy Span (English); None reads Chinese with jieba.
        named: lower-case words of the vocatives in the clause and of the listener's names (a name
            used to address someone is no thing).
        question: the clause is a question.
        recent: lemmas of the content words of the recent turns of the session.
    """
    named = {w.casefold() for w in named}
    seen = set(recent)
    pieces = _pieces(text)
    if len(pieces) > 1:
        # an emoji or a tilde separates what it says: "收到😊晚安" is an ack and a good-night
        doc = span.doc if span is not None else None
        base = span.start_char if span is not None else 0
        return any(
            says_something(
                text[a:b],
                doc.char_span(base + a, base + b, alignment_mode="expand") if doc is not None else None,
                named=named,
                question=question,
                recent=seen,
            )
            for a, b in pieces
        )
    if span is not None:
        return en_says(span, named, question, seen)
    return zh_says(text, named, question)


_EN_FUNCTION_POS = frozenset({"PRON", "DET", "ADP", "AUX", "PART", "CCONJ", "SCONJ", "INTJ", "PUNCT", "SYM"})


def only_phatic_words(text: str, span=None, *, without: Iterable[str] = ()) -> bool:
    """Every word of the clause but the surfaces `without` (a date, a vocative) is a function word
    or of the phatic vocabulary: "See you tomorrow", "明天继续和你聊天" (not "Can we meet
    tomorrow?", "合同今天下午签")."""
    left_out = [w.casefold() for w in without if w]
    if span is not None:
        return all(
            t.is_punct
            or t.is_space
            or any(t.lower_ in w for w in left_out)
            or t.pos_ in _EN_FUNCTION_POS
            or t.is_stop
            or en_phatic_word(t)
            or TYPED_SOUND.fullmatch(t.lower_)
            for t in span
        )
    for surface in left_out:
        text = re.sub(re.escape(surface), " ", text, flags=re.IGNORECASE)
    return all(
        not word.strip() or flag.startswith(ZH_FUNCTION_TAGS) or zh_phatic_word(word)
        for word, flag in ((p.word, p.flag) for p in zh_posseg().cut(text))
    )


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


_ZH_ADDRESS_NAME = re.compile(r"(?:[老小阿][\u4e00-\u9fff]{1,2}|([\u4e00-\u9fff])\1)")


def bare_address(clause: str, following: str = "") -> bool:
    """A clause that is only a name the tagger did not know, set off by a pause: the listener
    addressed ("Marco, yep!", "…talk later, Jules!", "噢噢😊。思思"). Not before an apposition
    ("Oscar, my guinea pig."). Chinese: the shapes of a name used to call someone (老陈, 小雨, 思思)."""
    core = re.sub(r"[\W_]+", "", clause)
    if re.fullmatch(r"[\W_]*[A-Z][a-z]+[\W_]*", clause):
        return not re.match(rf"\s*(?:{_EN_DETERMINERS})\b", following, re.IGNORECASE)
    return bool(_ZH_ADDRESS_NAME.fullmatch(core))


# "…, Weddings & Events Manager", ", operations manager": a post after the comma, a few words in
_POST_APPOSITION = rf"\s*(?:[\w&/-]+\s+){{0,4}}(?:{EN_POSTS})\b"
_POST_BEFORE = re.compile(rf"\b(?:{EN_POSTS})\s*,\s*$", re.IGNORECASE)


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
        if m.kind == "org" and (
            lang == "zh"
            or m.surface.split()[-1] in EN_ORG_SUFFIXES
            or m.surface.split()[-1] in INTERNATIONAL_LEGAL_FORMS  # "Brenner Logistik GmbH", a firm
            # "Hanrahan Taverns, Rosscarbery pub": a firm named by what it is, in the plural
            or (len(m.surface.split()) >= 2 and is_plural_common_noun(m.surface.split()[-1]))
            or any(f.end() == m.start for f in EN_FIRM_INTRODUCED.finditer(text, max(0, m.start - 80), m.end))
        ):
            continue  # "栖岚服饰，湖州那家…", "a telematics company, Orbitrack": talked about, not called
        opened = text[: m.start]
        if opened.count("(") + opened.count("（") > opened.count(")") + opened.count("）"):
            continue  # "3 locations (Kelderton, Ashcombe, Richmond)": no one is called in a bracket
        before, after = text[start : m.start], text[m.end : end]
        # "Caroline, I went..." / "Mel! ..." - but not an appositive: "Oscar, my guinea pig, is..."
        at_start = (
            not re.search(r"\w", before)
            and (
                re.match(r"\s*[!！:：~～]", after)
                or (lang == "zh" and re.match(r"\s*[,，]", text[m.end :]))
                # a comma, unless a determiner or a post opens an apposition ("Oscar, my guinea pig,
                # ...", "Aoife Lenihan, Weddings & Events Manager.")
                or re.match(
                    rf"\s*,(?!\s*(?:{_EN_DETERMINERS})\b)(?!{_POST_APPOSITION})|\s*\W*$",
                    text[m.end :],
                    re.IGNORECASE,
                )
            )
        )
        # closing the clause after some words; a name alone in its clause is the at_start case
        # closing the clause after some words, or alone in a clause that ends the sentence
        closing = _NOTHING_AFTER.match(after) is not None and (
            re.search(r"\w", before) is not None
            or re.search(r"[.!?。！？…~～]\W*$", text[start:end]) is not None
            or _NOTHING_AFTER.match(text[m.end :]) is not None
        )
        lead = LATIN_WORD.findall(before)
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
        # "I do- Oscar, my guinea pig", "penggantinya Sekar, brand executive": a name before an
        # apposition (a determiner or a post) is talked about
        # ("their Executive Head, Dr Mokoena.": the name after a post is the post's holder)
        holds_post = _POST_BEFORE.search(text, max(0, m.start - 80), m.start) is not None
        apposed = holds_post or (
            re.match(rf"\s*,\s*(?:{_EN_DETERMINERS})\b|\s*,{_POST_APPOSITION}", text[m.end :], re.IGNORECASE)
            is not None
        )
        called_at_close = closing and not apposed and (paused or (short_lead and addressed))
        if (at_start and not holds_post) or called_at_close:
            found.append(m)
    return found
