"""Negations and conditions: the words that flip or gate a fact, kept verbatim.

A negation atom's surface is the negation word(s) only ("还没有", "don't", "no longer"); a condition
atom's surface is the marker plus its clause ("如果天气不好", "unless they fix the issue first").
"""

from __future__ import annotations

import re

from simplemem_graph.compress.mentions import Mention

_EN_NEGATION = re.compile(
    r"\b(?:in no case|under no circumstances|no longer|no more|not|never|nothing|nobody|no one|none|"
    r"neither|nor|"
    r"nowhere|cannot|[a-z]+n[’']t|no(?=\s+(?!problem|worries|worry|way\b|doubt|kidding|idea\b)[a-z]))\b",
    re.IGNORECASE,
)
_ZH_NEGATION = re.compile(
    r"还是没有|还是没(?!法)|还没有|还没|还不|并没有|并不|从来没有|从来不|从没|从不|没有|没法|不要|不能|不用|不会|不可能|不可以|不可|不得|"
    r"不必|不该|不想|不再|不是|无法|无须|不|没|别|未|勿|甭"
)
# Words that contain a negation character but negate nothing.
_ZH_NOT_NEGATION = (
    "不过",
    "不错",
    "不少",
    "不好意思",
    "不然",
    "要不",
    "不断",
    "差不多",
    "不仅",
    "不但",
    "不管",
    "不论",
    "不久",
    "不如",
    "了不起",
    "忍不住",
    "对不起",
    "不客气",
    "没错",
    "没事",
    "没关系",
    "别人",
    "特别",
    "分别",
    "区别",
    "别的",
    "级别",
    "告别",
    "个别",
    "类别",
    "性别",
    "差别",
    "识别",
    "辨别",
    "未来",
    "未免",
    "不得不",
    "不一会",
    "别墅",
    "别处",
    "道别",
    "临别",
    "久别",
    "派别",
    "鉴别",
    "不知不觉",
)
_EN_CONDITION = re.compile(
    r"\b(?:only if|even if|if|unless|provided that|providing that|as long as|so long as|in case|"
    r"on condition that|"
    r"once|until|till|assuming)\b",
    re.IGNORECASE,
)
_ZH_CONDITION = re.compile(r"如果|要是|假如|假设|万一|若是|倘若|除非|只要|一旦|如若|只有(?=.*才)")
_ZH_WAIT_FOR = re.compile(r"等(?P<body>[^，,。；;！!？?]{1,24}?)(?:以后|之后)|要等[^，,。；;！!？?]+")
_CLAUSE_END = re.compile(r"\s[—–-]\s|,(?!\d{3})|[;:!?，。；：！？—]|\.(?:\s|$)")
_ZH_CONDITION_TAIL = re.compile(r"(?:就行|就好|就可以|就成)$")
# "once a week", "until tomorrow": a frequency or a bare time, not a condition.
_NOT_A_CONDITION_AFTER = re.compile(
    r"\s*(?:a\b|again|more|in a while|upon|and for all|then|now|later|tomorrow|tonight|today|next|the end|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d)",
    re.IGNORECASE,
)


# The A-not-A question (能不能, 是不是, 有没有, 可不可以): it asks, it does not negate.
_ZH_A_NOT_A = re.compile(r"([\u4e00-\u9fff])[不没]\1|可不可以")


# A negation addressed to the listener ("别担心", "不要客气"): advice, not a fact about anyone.
_ZH_PROHIBITIVE = re.compile(r"^(?:别|不要|甭|勿)")


def is_zh_statement_negation(word: str) -> bool:
    """A jieba word that negates what its clause states ("不", "没有", "绝不", "从不"), not a word that
    only holds a negation character ("不错", "不过") nor one that forbids the listener ("别")."""
    return (
        len(word) <= 4
        and bool(_ZH_NEGATION.search(word))
        and not _ZH_PROHIBITIVE.match(word)
        and not any(w in word for w in _ZH_NOT_NEGATION)
    )


def find_negations(text: str) -> list[Mention]:
    """Negation words in English or Chinese.

    Example:
        >>> [m.surface for m in find_negations("如果周五之前赵磊还没有把合同发过来，就别等他了")]
        ['还没有', '别']
    """
    found = [Mention("negation", m.start(), m.end(), m.group(0), "neg") for m in _EN_NEGATION.finditer(text)]
    blocked = [(m.start(), m.end()) for word in _ZH_NOT_NEGATION for m in re.finditer(word, text)]
    blocked += [m.span() for m in _ZH_A_NOT_A.finditer(text)]
    for m in _ZH_NEGATION.finditer(text):
        if not any(s <= m.start() < e for s, e in blocked):
            found.append(Mention("negation", m.start(), m.end(), m.group(0), "neg"))
    return found


def _clause_end(text: str, start: int) -> int:
    end = _CLAUSE_END.search(text, start)
    return end.start() if end else len(text.rstrip())


def find_conditions(text: str) -> list[Mention]:
    """Condition clauses: marker plus clause, up to the next clause boundary.

    Example:
        >>> [m.surface for m in find_conditions("Don't start unless Tomás confirms, and call me.")]
        ['unless Tomás confirms']
    """
    found = []
    for m in _EN_CONDITION.finditer(text):
        marker = m.group(0).lower()
        if marker in ("once", "until", "till") and _NOT_A_CONDITION_AFTER.match(text, m.end()):
            continue
        if marker == "if" and re.search(r"\bas\s+$", text[: m.start()], re.IGNORECASE):
            continue  # "as if" compares, it does not gate
        end = _clause_end(text, m.end())
        if end - m.end() < 3:
            continue
        found.append(Mention("condition", m.start(), end, text[m.start() : end], "cond"))
    for m in _ZH_CONDITION.finditer(text):
        end = _clause_end(text, m.end())
        surface = _ZH_CONDITION_TAIL.sub("", text[m.start() : end])
        if len(surface) > len(m.group(0)):
            found.append(Mention("condition", m.start(), m.start() + len(surface), surface, "cond"))
    for m in _ZH_WAIT_FOR.finditer(text):
        found.append(Mention("condition", m.start(), m.end(), m.group(0), "cond"))
    return found
