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
from simplemem_graph.lexicon import (
    DEICTIC_DAY_WORDS,
    EN_ACK_ADJECTIVES,
    EN_ADDRESS_TERMS,
    EN_FORMULA_NEGATED_VERBS,
    EN_PHATIC_WORDS,
    EN_PREFERENCE_VERBS,
    EN_THANKS_WORDS,
    EN_WISH_VERBS,
    ZH_INTERJECTION_CHARS,
)
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
            ContentWord(t.lemma_.lower(), t.pos_ in _EN_REFERENT_POS, t.pos_ == "VERB")
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


def is_task(text: str) -> bool:
    """A request, promise or to-do ("Remind me…", "帮我记一下", "need to…", "下周二之前…")."""
    return bool(_EN_TASK.search(text) or _ZH_TASK.search(text))


# Finite verbs (a declarative has one, with its subject); imperatives ("Take care", "Appreciate your
# help") and verbless formulas ("Good night", "Thanks for the support") do not.
_EN_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
_EN_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "expl", "csubj"})
_EN_POINTING = frozenset({"it", "that", "this"})
_EN_THIRD_PERSONS = frozenset({"he", "she", "they"})
_EN_COPULAS = frozenset({"be", "look", "sound", "seem"})
# Laughter however spelled: "haha", "Ahhahha", "hehe", "lolol".
_EN_LISTENER = frozenset({"you", "your", "yours", "yourself", "yourselves", "ya", "u"})
_EN_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
_EN_FIRST_PERSON = frozenset({"i", "my", "mine", "myself", "we", "our", "ours", "ourselves"})
# What marks a noun phrase as pointed back at ("this path") or tied to someone ("my friend").
_EN_SPECIFIER_DEPS = frozenset({"det", "poss", "nummod", "predet"})
# A clause that hands its point to another clause: its adjective is not the speaker's whole state
# ("I'm glad it helped", "I'm so happy to see my words motivating you").
_EN_CLAUSAL_DEPS = frozenset({"ccomp", "xcomp", "advcl"})
_EN_STATE_VERBS = frozenset({"be", "feel", "get", "seem", "look", "become", "stay"})
# A gerund names an activity ("For walking or running?", "What got you into running?").
_EN_GERUND_DEPS = frozenset({"pcomp", "pobj", "dobj", "nsubj", "conj", "attr", "ROOT"})


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
        return _en_says(span, named, question, seen)
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
            or _en_phatic_word(t)
            or TYPED_SOUND.fullmatch(t.lower_)
            for t in span
        )
    for surface in left_out:
        text = re.sub(re.escape(surface), " ", text, flags=re.IGNORECASE)
    return all(
        not word.strip() or flag.startswith(ZH_FUNCTION_TAGS) or zh_phatic_word(word)
        for word, flag in ((p.word, p.flag) for p in zh_posseg().cut(text))
    )


def _en_says(span, named: set[str], question: bool, seen: set[str]) -> bool:
    tokens = [t for t in span if not t.is_punct and not t.is_space]
    if not question:
        if (
            _en_speaker_state(span)
            or _en_own_experience(span)
            or _en_negated_visit(span)
            or _en_own_negated_act(span)
            or _en_own_preference(span, named)
        ):
            return True
        subjects = _en_main_subjects(span)
        if not subjects and (_en_wellbeing_wish(span, named) or _en_advice(span, named, seen)):
            return False
        if subjects and all(s.lower_ in _EN_LISTENER for s in subjects):
            return False  # "You've got guts", "you make life's struggles more bearable": praise
        if subjects and all(s.lower_ in _EN_THIRD_PERSONS for s in subjects):
            # "They're a real support.", "She loves it": about someone; but a bare verdict on them
            # ("They're priceless.") is a reaction like "That's awesome"
            return not _en_copular(subjects[0].head) or any(
                t.dep_ == "attr" and t.pos_ == "NOUN" for t in subjects[0].head.children
            )
        if (subjects and all(s.lower_ in _EN_POINTING and _en_copular(s.head) for s in subjects)) or (
            not subjects and _en_bare_verdict(span)
        ):
            # "That's the spirit!", "That must've been breathtaking!", "Sounds like a plan!" (its
            # subject left out): a judgement of what was just
            # said; a name, a number, a described thing ("an ongoing adventure of learning") or one
            # someone owns ("great for my mental health") in it is still a thing
            return any(_en_named_thing(t, named) or _en_described(t, named) for t in tokens)
        if subjects and all(_en_discourse_verdict(s, span) for s in subjects):
            # "That makes total sense", "That means a lot to me": what was just said judged by a verb
            # that names nothing; a thing it does name comes with a determiner, an owner or a name
            # ("That explains the noise", "That took three hours")
            return any(_en_named_thing(t, named) or _en_specified(t) for t in tokens)
    things = [t for t in tokens if _en_thing(t, named, question)]
    if not things:
        return False
    if not question and not any(t.pos_ in ("VERB", "AUX") for t in tokens):
        # a verbless fragment only repeating the last turns' things is an echo
        return any(t.lemma_.lower() not in seen for t in things)
    return True


def _en_own_experience(span) -> bool:
    """What the speaker went through, judged ("I had a great time", "We had so much fun"): a past
    verb of the speaker with a described object is an experience, however phatic its words; not
    one about the talk itself ("I had a great time talking with you", "…chatting")."""
    if any(t.lower_ in _EN_LISTENER for t in span):
        return False
    inside = {t.i for t in span}  # a clause before it may hang on its verb
    return any(
        t.tag_ == "VBD"
        and any(c.dep_.startswith("nsubj") and c.lower_ in ("i", "we") for c in t.children)
        and not any(c.dep_ in (*_EN_CLAUSAL_DEPS, "acl") and c.i in inside for c in t.children)
        and any(
            o.dep_ == "dobj"
            and o.pos_ == "NOUN"
            and any(a.dep_ == "amod" and a.pos_ == "ADJ" for a in o.children)
            and not any(a.dep_ in (*_EN_CLAUSAL_DEPS, "acl", "relcl") for a in o.children)
            for o in t.children
        )
        for t in span
    )


def _en_discourse_verdict(subject, span) -> bool:
    """A demonstrative pronoun subject of a verb of the phatic vocabulary, the speaker left out:
    "that" points at what was just said ("That makes sense"); "it" more often at a thing ("It was
    made for a local church"), and the speaker's own part is a fact ("That helps me plan my week").
    A verb of its own in the clause says what the thing does ("This helps loosen your hips")."""
    return (
        subject.lower_ in ("that", "this")
        and subject.pos_ == "PRON"
        and subject.head.pos_ == "VERB"
        and _en_phatic_word(subject.head)
        # the speaker's or the listener's part is a fact ("That helps me plan", "This will help you see")
        and not any(t.lower_ in _EN_FIRST_PERSON or t.lower_ in _EN_LISTENER for t in span)
        and not any(t.pos_ == "VERB" and t.i != subject.head.i and not _en_phatic_word(t) for t in span)
    )


def _en_specified(t) -> bool:
    """A noun tied to something: a determiner, an owner, a number, a compound or a complement
    ("the noise", "your hips", "three hours", "the end of the show", "scenarios where data is scarce")."""
    tying = (*_EN_SPECIFIER_DEPS, "compound", "prep", "relcl", "acl")
    return t.pos_ == "NOUN" and any(c.dep_ in tying for c in t.children)


def _en_advice(span, named: set[str], seen: set[str]) -> bool:
    """An imperative of a phatic verb handing on a general truth ("Just remember that sometimes
    stumbling blocks can be opened doors", "Remember, life is short"): what it says names no one and
    nothing specified (not "Remember that the meeting moved", "Remember that I'm allergic to nuts"),
    and none of the things the last turns talked about ("Remember that auditions can be subjective",
    said about the listener's audition, is about the topic)."""
    inside = {t.i for t in span}
    for root in (t for t in span if t.head.i == t.i or t.head.i not in inside):
        if (
            root.tag_ != "VB"
            or not _en_phatic_word(root)
            or any(c.dep_.startswith(("nsubj", "aux", "neg")) for c in root.children)
        ):
            continue
        # what is handed on is a clause with its own subject ("…that blocks can be doors"), not a
        # bare verb ("Let cool")
        said = [
            c
            for c in root.children
            if c.dep_ == "ccomp"
            and c.i in inside
            and any(g.dep_.startswith(("nsubj", "csubj")) for g in c.children)
        ]
        if any(c.dep_ == "conj" and c.pos_ == "VERB" and not _en_phatic_word(c) for c in root.children):
            continue  # "Let cool and top with fruit": a sequence of instructions
        # the whole clause, not only what is handed on: "Reach out to the store" names the store
        if said and _en_general(span, named, seen):
            return True
    return False


def _en_general(tokens, named: set[str], seen: set[str]) -> bool:
    """Words about no one and nothing in particular: no person pronoun, no name or number, no noun
    with a determiner, an owner or a number, no noun of the last turns ("stumbling blocks can be
    opened doors")."""
    return not any(
        t.lower_ in _EN_FIRST_PERSON
        or (t.pos_ == "PRON" and t.lower_ in ("us", "'s"))  # "let's spread the word": a plan of ours
        or t.lower_ in _EN_LISTENER
        or t.lower_ in _EN_THIRD_PERSONS
        or (t.pos_ == "PRON" and t.lower_ in (*_EN_POINTING, *_EN_DEMONSTRATIVES))  # "these are estimates"
        or _en_named_thing(t, named)
        or (t.pos_ == "NOUN" and any(c.dep_ in _EN_SPECIFIER_DEPS for c in t.children))
        or (t.pos_ == "NOUN" and t.lemma_.lower() in seen)
        for t in tokens
    )


def _en_own_negated_act(span) -> bool:
    """What the speaker does not do, will not do or never did ("I'm not giving up", "I never drink
    coffee") is a fact about them, unlike the set negative phrases that react ("I can't wait", "I
    don't know": lexicon.EN_FORMULA_NEGATED_VERBS)."""
    return any(
        t.pos_ == "VERB"
        and t.lemma_.lower() not in EN_FORMULA_NEGATED_VERBS
        and any(c.dep_ == "neg" for c in t.children)
        and any(c.dep_.startswith("nsubj") and c.lower_ in ("i", "we") for c in t.children)
        for t in span
    )


def _en_bare_verdict(span) -> bool:
    """A verdict with its "that" left out ("Sounds like a plan!", "Looks amazing"), not one that
    states something of its own ("Sounds like the parade was a blast": a subject inside) nor a
    presentation ("Here's one of the agencies": be is no verdict without a subject)."""
    return any(
        t.dep_ == "ROOT" and t.tag_ == "VBZ" and t.lemma_ in _EN_COPULAS and t.lemma_ != "be" for t in span
    ) and not any(t.dep_.startswith(("nsubj", "expl", "csubj")) for t in span)


def _en_own_preference(span, named: set[str]) -> bool:
    """The speaker's taste in something ("I hate cilantro", "I love dancing"), however the tagger
    reads the thing, but not a reaction to what was said ("I love that!", "I love hearing that")."""
    for t in span:
        if t.lemma_.lower() not in EN_PREFERENCE_VERBS:
            continue
        if not any(c.dep_.startswith("nsubj") and c.lower_ in ("i", "we") for c in t.children):
            continue
        if any(
            c.dep_ in ("dobj", "advmod", "xcomp", "acomp", "attr", "oprd")
            and c.is_alpha
            and c.pos_ not in ("PRON", "DET", "ADV")
            and not _en_phatic_word(c)
            and c.lower_ not in named
            for c in t.children
        ):
            return True
    return False


def _en_wellbeing_wish(span, named: set[str]) -> bool:
    """A wish for the listener or a bare imperative of well-being names nothing: "Hope you slept
    well", "Sleep tight", "Talk soon", "Stay safe" (not "Hope you get the job", "Call me", "Book the
    room")."""
    tokens = [t for t in span if t.is_alpha or t.like_num]  # an emoji is neither word nor thing
    inside = {t.i for t in span}
    # the clause's own head: "talk soon" in "Take care, talk soon!" hangs on "Take"
    root = next((t for t in tokens if t.head.i == t.i or t.head.i not in inside), None)
    if root is None or root.pos_ != "VERB":
        return False
    if root.lemma_.lower() in EN_WISH_VERBS:
        wished = [c for c in root.children if c.dep_ in _EN_CLAUSAL_DEPS]
        return bool(wished) and all(
            any(s.lower_ in _EN_LISTENER for s in _en_main_subjects(_subtree_span(w)))
            and not any(t.pos_ in _EN_REFERENT_POS and _en_thing(t, named, False) for t in w.subtree)
            for w in wished
        )
    return (
        root.tag_ in ("VB", "VBP")  # without a subject (the caller's test), a present form commands
        and len(tokens) <= 3
        and not any(c.dep_.startswith("aux") or c.dep_ == "neg" for c in root.children)
        # a determiner or a pronoun introduces a thing, whatever the tagger makes of it ("Love the
        # tattoo" with "tattoo" read as an adverb); a taste is the speaker's with "I" left out
        and not any(t.pos_ in (*_EN_REFERENT_POS, "PRON", "DET") for t in tokens)
        and root.lemma_.lower() not in EN_PREFERENCE_VERBS
        and not is_task(span.text)
    )


def _subtree_span(t):
    return t.doc[t.left_edge.i : t.right_edge.i + 1]


def _en_main_subjects(span) -> list:
    """Subjects of the clause's own predicate (not of a relative clause: "that book you recommended")."""
    inside = {t.i for t in span}
    heads = [t for t in span if t.head.i not in inside or t.head.i == t.i]
    roots = {t.i for t in heads}
    heads += [t for t in span if t.dep_ == "conj" and t.head.i in roots]
    return [c for h in heads for c in h.children if c.dep_ in _EN_SUBJECT_DEPS and c.i in inside]


def _en_copular(head) -> bool:
    """A verdict's predicate: be / look / sound, or an adjective-like participle after be
    ("must've been breathtaking")."""
    return head.lemma_ in _EN_COPULAS or (
        head.tag_ in ("VBG", "VBN") and any(c.dep_ == "aux" and c.lemma_ == "be" for c in head.children)
    )


def _en_described(t, named: set[str]) -> bool:
    """In a verdict: a thing described ("an ongoing adventure of learning") or owned ("my health")."""
    if t.pos_ != "NOUN" or not _en_thing(t, named, False):
        return False
    if t.dep_ == "attr":
        return any(c.dep_ in ("amod", "compound", "prep") for c in t.children)
    return any(c.dep_ == "poss" and c.lower_ not in _EN_LISTENER for c in t.children)


def _en_negated_visit(span) -> bool:
    """A negated experience of a place or an event ("Never been to something like that", "I haven't
    been there") is a fact even when a pronoun stands for it."""
    return any(
        t.lemma_ == "be"
        and any(c.dep_ == "neg" for c in t.children)
        and any(c.dep_ == "prep" and any(g.dep_ == "pobj" for g in c.children) for c in t.children)
        for t in span
    )


def _en_named_thing(t, named: set[str]) -> bool:
    return (
        # the tagger reads an emoji as a number ("lol same 😂"): a number is written as one
        ((t.pos_ == "PROPN" and t.text[:1].isupper()) or (t.pos_ == "NUM" and t.like_num))
        and t.lower_ not in named
        and t.lemma_.lower() not in EN_PHATIC_WORDS
    )


def _en_thing(t, named: set[str], question: bool) -> bool:
    """A token naming something: a noun, a name, a number, a verb or place adverb outside the
    phatic vocabulary (in a question: no verb but a gerund, "For walking or running?")."""
    if t.lower_ in named or _en_phatic_word(t) or TYPED_SOUND.fullmatch(t.lower_):
        return False
    if t.dep_ in ("intj", "punct"):
        return False  # the parser's own reading: "Aw bless", the kiss of "Sleep well x"
    if t.pos_ == "ADJ" and t.dep_ in ("amod", "compound") and _laughter_phrase(t.head):
        return t.is_alpha  # "got a puppy lol": the parser took the laughter for the phrase's noun
    if t.pos_ in ("PROPN", "NUM"):
        return _en_named_thing(t, named)
    if not t.is_alpha:
        return False
    if t.pos_ == "NOUN":
        head = t
        while head.dep_ == "compound" and head.head.i != head.i:
            head = head.head  # "guinea pig": the phrase's own determiners
        marks = [c for c in head.children if c.dep_ in _EN_SPECIFIER_DEPS]
        if t.lemma_.lower() in EN_ADDRESS_TERMS and not marks:
            return False  # "Cheers mate": the listener addressed
        if not question and any(c.lower_ in _EN_DEMONSTRATIVES for c in marks):
            return False  # pointed back at: "this path"
        if question and _en_about_pointed(head):
            return False  # "What's the best part you remember from it?": about what was just said
        if _en_thanked_for(head, marks):
            return False  # "thank you for your patience", "Thanks for having my back"
        # a bare lower-case singular subject is a reaction the tagger read as a noun ("cool sounds
        # good", "omg love it"): English needs a determiner there
        return not (t.dep_.startswith("nsubj") and t.tag_ == "NN" and not list(t.children))
    if t.pos_ == "VERB" and not t.is_stop:
        if t.tag_ in ("VBG", "VBN", "VBD") and (
            t.dep_ in ("acomp", "amod", "oprd") or (t.dep_ == "conj" and _en_adjective_like(t.head))
        ):
            return False  # a participle used as an adjective: "so exciting", "resilient and focused"
        if question:
            return (
                t.tag_ == "VBG"
                and t.dep_ in _EN_GERUND_DEPS
                and not any(c.dep_.startswith("aux") for c in t.children)
            )
        return True
    # "home", "abroad", "downtown": a place; "-ly" adverbs are manner and stance ("honestly")
    return t.pos_ == "ADV" and not question and not t.is_stop and not t.lemma_.lower().endswith("ly")


def _laughter_phrase(head) -> bool:
    """Laughter read as the noun of a phrase with its own determiner ("a puppy lol")."""
    return bool(TYPED_SOUND.fullmatch(head.lower_)) and any(c.dep_ in ("det", "poss") for c in head.children)


def _en_about_pointed(noun) -> bool:
    """A noun whose own complement is a pronoun pointing back ("the best part … from it", "the
    funniest bit about that"): it names a piece of what was just said, not a thing of its own; a
    compound, a name or a number inside still names one ("the drive to Lyon about it")."""
    inside = [t for t in noun.subtree if t.i != noun.i]
    return (
        # "the …": a piece of something known; "a blazer like that" is a thing compared to it
        any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children)
        and any(
            t.lower_ in _EN_POINTING
            and t.pos_ == "PRON"
            and t.dep_ == "pobj"
            and t.head.lower_ not in ("like", "than")
            for t in inside
        )
        and not any(c.dep_ == "compound" for c in noun.children)
        and not any(t.pos_ in ("PROPN", "NUM", "NOUN") for t in inside)
    )


def _en_thanked_for(noun, marks) -> bool:
    """A noun in what thanks or an apology is for, owned and nothing else: the listener's ("thank
    you for your patience") or the object of a light verb ("Thanks for having my back") is the
    listener's own act said back to them; an article, a compound or a content verb names a thing
    ("Thanks for the book", "Thanks for my birthday card", "Thanks for feeding my cat")."""
    if not marks or not all(c.dep_ == "poss" and c.pos_ == "PRON" for c in marks):
        return False
    if noun.dep_ == "poss" or any(c.dep_ in ("compound", "prep") for c in noun.children):
        return False
    if any(a.dep_.startswith(("nsubj", "csubj")) for a in (noun, *noun.ancestors)):
        return False  # "my mom will appreciate that": who thanks is no thanked-for act
    thanked = any(a.lemma_.lower() in EN_THANKS_WORDS or a.lower_ in EN_THANKS_WORDS for a in noun.ancestors)
    owner = marks[0].lower_
    return thanked and (owner in _EN_LISTENER or (noun.head.pos_ == "VERB" and _en_phatic_word(noun.head)))


def _en_adjective_like(t) -> bool:
    return t.pos_ == "ADJ" or any(c.dep_ == "acomp" for c in t.children)


def _en_phatic_word(t) -> bool:
    """The token's lemma (or, for a verbal noun the tagger left unlemmatised, its verb: "staying")
    is in the phatic vocabulary, or is a day word of the moment of speaking."""
    forms = {t.lemma_.lower(), t.lower_}
    if t.lower_.endswith("ing") and len(t.lower_) > 5:
        stem = t.lower_[:-3]
        forms |= {stem, stem + "e", stem[:-1]}
    return bool(forms & (EN_PHATIC_WORDS | DEICTIC_DAY_WORDS))


def _en_speaker_state(span) -> bool:
    """The speaker's own state ("I'm excited!", "I've been feeling anxious lately"), a fact, unless it
    concerns the listener, hands its point to another clause or is the formulaic "I'm good"."""
    words = {t.lower_ for t in span}
    if words & _EN_LISTENER or {"each", "other"} <= words:
        return False
    for t in span:
        if t.pos_ not in ("ADJ", "VERB") or t.dep_ not in ("acomp", "ROOT") or t.tag_ not in ("JJ", "VBN"):
            continue
        head = t if t.dep_ == "ROOT" else t.head
        has_i = any(c.dep_.startswith("nsubj") and c.lower_ == "i" for c in head.children)
        if (
            has_i
            and (head.i == t.i or head.lemma_ in _EN_STATE_VERBS)
            and t.lemma_.lower() not in EN_ACK_ADJECTIVES
            and t.lower_ not in EN_ACK_ADJECTIVES
            and not any(c.dep_ in _EN_CLAUSAL_DEPS for c in (*t.children, *head.children))
        ):
            return True
    return False


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
        # "I do- Oscar, my guinea pig": a name before an apposition is talked about
        apposed = re.match(rf"\s*,\s*(?:{_EN_DETERMINERS})\b", text[m.end :], re.IGNORECASE) is not None
        if at_start or (closing and not apposed and (paused or (short_lead and addressed))):
            found.append(m)
    return found
