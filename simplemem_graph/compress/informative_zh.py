"""The phatic test for Chinese (and the Latin words inside it): jieba's tags, read with the phatic
vocabulary as whole words. `compress/informative.py` holds the test itself and the English rules."""

from __future__ import annotations

import functools
import itertools
import logging
import re

from simplemem_graph.compress.logic import is_zh_statement_negation
from simplemem_graph.lexicon import (
    DEICTIC_DAY_WORDS,
    EN_PHATIC_WORDS,
    ZH_ADDRESS_TERMS,
    ZH_DEGREE_WORDS,
    ZH_FEELING_VERBS,
    ZH_INTERJECTION_CHARS,
    ZH_LEANING_ADVERBS,
    ZH_LIGHT_CHARS,
    ZH_PHATIC_WORDS,
)
from simplemem_graph.text import STOPWORDS, zh_dictionary_tag

LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]+")
# Sounds typed out: laughter ("haha", "hehe", "lol", "xD", the "hhhh" of Chinese chat) and
# hesitation ("hmm", "umm", "emmm").
TYPED_SOUND = re.compile(r"(?:a*h+a+h*|h+e+|l+o+l+|x+d+)+|h{3,}|[ehu]?m{2,}|h+m+|u+m+")

# jieba's person tag is guessed for unknown two-character runs (明白明白, 太棒了 come out as nr): a real
# name is an atom already, found by the name rules, so nr alone does not make a referent.
ZH_NOT_REFERENT_TAGS = ("nr",)


@functools.cache
def zh_posseg():
    """jieba's tagger with the phatic vocabulary as whole words, so that a formula is one word
    ("没问题", "好梦" rather than 没/问题, 好/梦: a noun). A tokenizer of its own: the shared one
    segments the fulltext indexes and must not change under a stored index."""
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    tagger = jieba.posseg.POSTokenizer(jieba.Tokenizer())
    tagger.tokenizer.initialize()
    for word in ZH_PHATIC_WORDS:
        # only the formulas jieba does not know: a known word keeps its own tag
        if len(word) > 1 and not tagger.tokenizer.FREQ.get(word):
            tagger.tokenizer.add_word(word, tag="e")
    return tagger


_ZH_THANKS = re.compile(r"谢|感激|抱歉|对不起")


_ZH_LISTENER = re.compile(r"你|您")


# "谢谢您的耐心解答", "谢谢你帮忙": thanks for what the listener did, said back to them
_ZH_THANKS_LISTENER = re.compile(r"^\W*(?:谢谢|感谢|多谢)(?:你|您)")


# "这个蛋糕是我自己烤的": who made, bought or took it is a fact about the speaker ("这是我应该做的"
# is the formula of a reply to thanks)
_ZH_SPEAKER_CLEFT = re.compile(r"是我们?(?:自己|亲手)?(?!应该|该)[\u4e00-\u9fff]{1,3}的")


# "这是非常实用的建议": a judgement of what was just said, unless it is the speaker's ("这是我拍的…")
_ZH_POINTED_SUBJECT = re.compile(r"^\W*(?:这|那)(?:个|些)?(?:是|真是|就是|也是|可是)")


_ZH_DEMONSTRATIVE_BEFORE = re.compile(r"[这那](?:些|个|种|部|本|件|次|位|条|篇|首|样)?\s*$")


# A possessor or a speaker before an address term makes it a mention ("我朋友", "我的朋友").
_ZH_OWNER_BEFORE = re.compile(r"(?:[我他她它]|的)\s*$")


_ZH_PRONOUN_CHARS = tuple("我你您他她它咱")


# Things in Chinese: nouns, abbreviations, places, time nouns (生日), Latin words.
_ZH_THING_TAGS = ("n", "j", "s", "eng", "t")


_ZH_LISTENER_SUBJECT = re.compile(r"^\W*(?:你|您)(?!的)")
# Advice to the listener: what they could or should do ("你可以利用番茄钟的技巧", "你还可以去散步")
# is what the speaker recommends, no praise; the clause's own words decide ("你也可以考虑尝试一下"
# names nothing).
_ZH_LISTENER_ADVISED = re.compile(
    r"^\W*(?:你|您)(?:们)?(?:还|也|就|先|再)?(?:可以|不妨|应该|最好|需要|得|可|要)"
)


# "叫我小琳", "他姓刘": a naming verb, perhaps with whom it names, before the name given
_ZH_NAMING_BEFORE_PRONOUN = re.compile(r"(?:是|叫|姓|名叫|叫做|称呼)(?:我|他|她|它)?\s*$")


ZH_FUNCTION_TAGS = ("x", "y", "u", "r", "p", "c", "e", "o")


def zh_says(text: str, named: set[str], question: bool) -> bool:
    pairs = [pair for p in zh_posseg().cut(text) for pair in _without_trailing_particle(p.word, p.flag)]
    # In thanks to the listener, a verb is the listener's act thanked for; a thing, a name or the
    # speaker's part in it ("谢谢你来接我") still says something.
    thanked_act = bool(_ZH_THANKS_LISTENER.match(text)) and "我" not in text
    if not question:
        if _ZH_LISTENER_SUBJECT.match(text) and not _ZH_LISTENER_ADVISED.match(text):
            return False  # "你真是个有见识的AI助手", "你说得对": praise and agreement
        if _zh_speaker_state(pairs) and not _ZH_LISTENER.search(text):
            return True
        if _ZH_SPEAKER_CLEFT.search(text):
            return True
        if _ZH_POINTED_SUBJECT.match(text) and "我" not in text:
            return False
        if _zh_negated_act(pairs):
            return True
        if _zh_generic_thing_judged(pairs) or _zh_experienced(pairs) or _zh_idiom_of_someone(pairs, named):
            return True
    at = 0
    previous_tag = ""
    for word, tag in pairs:
        counted, previous_tag = previous_tag.startswith(("m", "q")), tag
        start = text.find(word, at)
        at = start + len(word) if start >= 0 else at
        before = text[: max(start, 0)]
        folded = word.casefold()
        if not word.strip() or any(folded in n or n in folded for n in named if n):
            continue
        if tag.startswith("nr") and _ZH_NAMING_BEFORE_PRONOUN.search(before):
            return True  # "你可以叫我小琳": the name the speaker gives
        if zh_phatic_word(word):
            continue
        if word.startswith(_ZH_PRONOUN_CHARS):
            continue  # jieba's "我会" is no noun
        if counted and not tag.startswith(ZH_FUNCTION_TAGS):
            return True  # after a measure word, what is counted: "提了辆比亚迪" (jieba: nr)
        if word in ZH_ADDRESS_TERMS and not _ZH_OWNER_BEFORE.search(before):
            continue  # "谢谢，朋友": the listener addressed
        if TYPED_SOUND.fullmatch(folded):
            continue  # "hhhh"
        if LATIN_WORD.fullmatch(word) and word.lower() not in EN_PHATIC_WORDS:
            return True
        if (
            tag.startswith(_ZH_THING_TAGS)
            # a one-character time morpheme is a degree of lateness or earliness ("有点晚了")
            and not (tag.startswith("t") and len(word) < 2)
            # jieba guesses nr for unknown runs (太棒了); a real name is an atom already
            and not tag.startswith(ZH_NOT_REFERENT_TAGS)
            and (question or not _ZH_DEMONSTRATIVE_BEFORE.search(before))
        ):
            return True
        # a verb (two characters and more: one-character verbs are where jieba's tags are least
        # reliable, 好滴) says what someone did; a question's verbs alone ask about nothing
        if not question and not thanked_act and tag.startswith("v") and len(word) >= 2:
            return True
    return False


def _without_trailing_particle(word: str, tag: str) -> list[tuple[str, str]]:
    """jieba glues a sentence-final particle to an unknown run and guesses a name or a place for it
    ("聊哈" ns, "好嘞" nr): a dictionary word before the particle is read with its own tag."""
    if len(word) >= 2 and word[-1] in ZH_INTERJECTION_CHARS and not zh_dictionary_tag(word):
        own = zh_dictionary_tag(word[:-1])
        if own:
            return [(word[:-1], own), (word[-1], "y")]
    return [(word, tag)]


def _zh_negated_act(pairs: list[tuple[str, str]]) -> bool:
    """What someone does not or will not do ("绝不原谅他", "我从不喝酒") is a fact, whatever tag jieba
    gives the verb; a negated formula ("不客气", "没事") is not."""
    for (word, _tag), (nxt, flag) in itertools.pairwise(pairs):
        if (
            is_zh_statement_negation(word)
            and not zh_phatic_word(word)
            and nxt.strip()
            and not flag.startswith(ZH_FUNCTION_TAGS)
            and not zh_phatic_word(nxt)
            and not nxt.startswith(_ZH_PRONOUN_CHARS)
        ):
            return True
    return False


# jieba's tags of a predicate adjective ("缓慢" is tagged d, as an adverb would be).
_ZH_ADJECTIVE_TAGS = ("a", "ad", "an", "d")


def _zh_generic_thing_judged(pairs: list[tuple[str, str]]) -> bool:
    """A generic noun with an adjective of its own ("进展缓慢", "情况很糟", "变化很大") says how the
    thing the sentence talks about is going: a fact, though each word alone is phatic; so does a
    noun jieba's dictionary files as a name ("友谊在逐渐疏远": 友谊 is nr there). A phatic
    adjective ("进展不错", "方法很好") stays a reaction."""
    subject = False
    for word, tag in pairs:
        if subject and (word in ZH_DEGREE_WORDS or word in ("在", "正在") or is_zh_statement_negation(word)):
            continue
        if subject and tag.startswith(_ZH_ADJECTIVE_TAGS) and not zh_phatic_word(word):
            return tag != "d" or len(word) >= 2  # a one-character d is an adverb (都, 就, 还)
        subject = (tag.startswith(("n", "vn")) and word in ZH_PHATIC_WORDS) or (
            tag == "nr" and len(word) >= 2 and not zh_phatic_word(word)
        )
    return False


def _zh_idiom_of_someone(pairs: list[tuple[str, str]], named: set[str]) -> bool:
    """An idiom or set phrase (jieba's i / l, four characters and more) said of someone the clause
    names before it: "我会尝试跟他坦诚相待", "他最近总是心不在焉", "我们一直相安无事" say how a person
    acts or is, a fact, though jieba tags no noun or verb in them. Without a person before it an
    idiom is a wish or a verdict ("一路顺风", "太棒了"); with the listener before it, a reaction to
    them ("我也为你感到高兴") or praise."""
    someone = False
    for word, tag in pairs:
        if _ZH_LISTENER.search(word):
            return False  # "我也为你感到高兴": a feeling for the listener, a reaction
        if word.startswith(_ZH_PRONOUN_CHARS) or (tag.startswith("nr") and word in named):
            someone = True
        elif someone and tag in ("i", "l") and len(word) >= 4 and not zh_phatic_word(word):
            return True
    return False


def _zh_experienced(pairs: list[tuple[str, str]]) -> bool:
    """A verb with the experiential 过 ("有考虑过", "我试过了"): what someone has done, an answer to
    "have you ever…?", whatever the verb."""
    return any(
        tag.startswith("v") and nxt == "过" and flag == "ug"
        for (_word, tag), (nxt, flag) in itertools.pairwise(pairs)
    )


# A one-character verb, 得 and its complement: how the act went ("说得对", "做得好").
_ZH_VERB_DE_COMPLEMENT = re.compile(r"[\u4e00-\u9fff]得[\u4e00-\u9fff]{1,2}")


def zh_phatic_word(word: str) -> bool:
    """A word of the phatic vocabulary, also leaning on an adverb ("再聊", "多谢"), one made only of
    modal and light-verb characters ("得去": jieba's cut of "我得去休息了"), or a verb of the talk
    judged by its complement ("说得对")."""
    if word in ZH_PHATIC_WORDS or word in DEICTIC_DAY_WORDS or word in ZH_DEGREE_WORDS:
        return True
    if word.lower() in STOPWORDS or all(ch in ZH_LIGHT_CHARS for ch in word):
        return True
    if all(ch in ZH_INTERJECTION_CHARS for ch in word):
        return True  # a sound: "哦哦哦", "哈哈哈"
    if _ZH_VERB_DE_COMPLEMENT.fullmatch(word) and word[0] in ZH_PHATIC_WORDS:
        # "说得对": how something was said, judged (jieba's one word); a verb after 得 says what
        # can be done ("我们谈得来": we get along)
        return not any(p.flag.startswith("v") for p in zh_posseg().cut(word[2:]))
    return len(word) >= 2 and word[0] in ZH_LEANING_ADVERBS and word[1:] in ZH_PHATIC_WORDS


def _zh_speaker_state(pairs: list[tuple[str, str]]) -> bool:
    """The speaker's own state ("今天我很难过", "我今天好累", "我感到有些无聊"): after 我, a degree
    word or a verb of feeling before an adjective or a verb that is no thanks ("我太感谢了" thanks)."""
    after_me = False
    for i, (word, _tag) in enumerate(pairs):
        if word == "我":
            after_me = True
            continue
        if not after_me or (word not in ZH_DEGREE_WORDS and word not in ZH_FEELING_VERBS):
            continue
        for nxt, flag in pairs[i + 1 : i + 3]:
            if nxt in ZH_DEGREE_WORDS:
                continue
            if flag.startswith(("a", "v", "i", "l")) and not _ZH_THANKS.search(nxt):
                return True
            break
    return False
