"""The information test: does a clause carry something worth remembering?

A clause holding any atom (number, amount, date/time, name, negation, condition) is always kept.
Without atoms, a clause is kept when it is a task (a request, promise or to-do) or a substantive
statement: at least a few content words, not a bare question, and no small-talk vocabulary
(greetings, reactions, mood, weather, meals). Everything else is chit-chat and is dropped.
Tried and rejected: tolerating up to a third of small-talk words keeps more LoCoMo facts but lets
2 of 4 chit-chat lines through on each restoration set.
"""

from __future__ import annotations

import re

from simplemem_graph.text import tokenize

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
_SMALL_TALK_EN = frozenset(
    [
        "hi",
        "hey",
        "hello",
        "morning",
        "evening",
        "thanks",
        "thank",
        "lol",
        "haha",
        "hahaha",
        "ugh",
        "wow",
        "cool",
        "awesome",
        "great",
        "nice",
        "glad",
        "sorry",
        "bye",
        "congrats",
        "congratulations",
        "honestly",
        "seriously",
        "literally",
        "basically",
        "sun",
        "sunny",
        "sunshine",
        "rain",
        "raining",
        "weather",
        "hot",
        "cold",
        "freezing",
        "tired",
        "exhausted",
        "sleepy",
        "hungry",
        "coffee",
        "tea",
        "lunch",
        "dinner",
        "breakfast",
        "sandwich",
        "bread",
        "delicious",
        "yummy",
        "tasty",
        "melt",
        "sauna",
        "lovely",
        "omg",
        "yay",
        "yeah",
        "yep",
        "nope",
        "okay",
        "ok",
        "sure",
        "cheers",
        "garden",
    ]
)
_SMALL_TALK_ZH = frozenset(
    [
        "哈哈",
        "哈哈哈",
        "嘿嘿",
        "呵呵",
        "哎",
        "唉",
        "哦",
        "嗯",
        "累",
        "累死",
        "困",
        "饿",
        "香",
        "好吃",
        "好喝",
        "吃",
        "晚饭",
        "午饭",
        "早饭",
        "下班",
        "躺平",
        "宕机",
        "天气",
        "太阳",
        "终于",
        "哇",
        "谢谢",
        "早安",
        "晚安",
        "辛苦",
        "犯困",
        "掏空",
        "红烧肉",
        "食堂",
        "面包",
        "舒服",
        "开心",
        "难受",
        "无聊",
    ]
)
MIN_CONTENT_TOKENS = 4


def is_task(text: str) -> bool:
    """A request, promise or to-do ("Remind me…", "帮我记一下", "need to…", "下周二之前…")."""
    return bool(_EN_TASK.search(text) or _ZH_TASK.search(text))


def has_small_talk(text: str) -> bool:
    """Any greeting, reaction, mood, weather or meal word."""
    tokens = tokenize(text, keep_stopwords=True)
    return any(t in _SMALL_TALK_EN or t in _SMALL_TALK_ZH for t in tokens)


def is_substantive(text: str) -> bool:
    """A statement with enough content words and no small talk (used only for clauses without atoms)."""
    if text.rstrip().endswith(("?", "？")):
        return False
    return len(tokenize(text)) >= MIN_CONTENT_TOKENS and not has_small_talk(text)
