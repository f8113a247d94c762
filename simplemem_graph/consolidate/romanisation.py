"""How Chinese names are written in Latin letters: a firm's registered English name spells its
Chinese trade name ("Kam Mun Lau Catering Group Limited" of 金滿樓飲食集團有限公司, "Hangzhou Yunqi
Tea Co., Ltd." of 杭州云栖茶业有限公司), a person's English name carries the surname of the Chinese
one beside it ("Cheryl Tsang 曾詠琪"), and Hong Kong initials follow Cantonese (KML of 金滿樓).

Readings come from pypinyin (Mandarin) and ToJyutping (Cantonese). Each reading is written out in
the spellings people use: pinyin, the Wade-Giles-like spelling of Taiwan (Tseng, Chang, Hsu), and
the Hong Kong government's spelling of Cantonese (Kam, Tsang, Cheung, Yip). ToJyutping holds a
word dictionary of about 60 MB in memory, so it is loaded on first use: only when a Latin name is
compared with a Chinese one, never for a store that holds only one script.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from pypinyin import Style, pinyin

_CJK = re.compile(r"[\u4e00-\u9fff]")

# ---- Mandarin -----------------------------------------------------------------------------------
# Initials as Taiwan and older romanisations write them (曾 Tseng, 張 Chang, 許 Hsu, 周 Chou).
_PINYIN_INITIALS = {
    "zh": ("zh", "ch", "j"),
    "ch": ("ch",),
    "sh": ("sh",),
    "q": ("q", "ch"),
    "x": ("x", "hs", "s"),
    "z": ("z", "ts", "tz"),
    "c": ("c", "ts", "tz"),
    "j": ("j", "ch"),
    "r": ("r", "j"),
}
_PINYIN_FINALS = {"ong": ("ong", "ung"), "ian": ("ian", "ien"), "ie": ("ie", "ieh"), "ou": ("ou", "ow")}


def _split(syllable: str, initials: tuple[str, ...]) -> tuple[str, str]:
    for initial in sorted(initials, key=len, reverse=True):
        if initial and syllable.startswith(initial):
            return initial, syllable[len(initial) :]
    return "", syllable


_MANDARIN_INITIALS = ("zh", "ch", "sh", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "j", "q",
                      "x", "r", "z", "c", "s", "y", "w")


def _mandarin_spellings(reading: str) -> set[str]:
    reading = reading.replace("v", "u")
    initial, final = _split(reading, _MANDARIN_INITIALS)
    finals = set(_PINYIN_FINALS.get(final, (final,)))
    if initial in ("zh", "ch", "sh", "r", "z", "c", "s") and final == "i":
        finals |= {"ih", "u", "e"}  # 馳 Chih, 子 Tzu, 思 Sze
    return {i + f for i in _PINYIN_INITIALS.get(initial, (initial,)) for f in finals}


# ---- Cantonese (Jyutping to the Hong Kong government's spelling) --------------------------------
_JYUTPING_INITIALS = {
    "b": ("p", "b"),
    "d": ("t", "d"),
    "g": ("k", "g"),
    "gw": ("kw",),
    "z": ("ch", "ts", "tz", "j"),
    "c": ("ch", "ts", "tz"),
    "s": ("s", "sh"),
    "j": ("y",),
}
_JYUTPING_INITIAL_LIST = ("gw", "kw", "ng", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "w", "z",
                          "c", "s", "j")
_JYUTPING_FINALS = {
    "aa": ("a", "ah"),
    "aai": ("ai",),
    "aau": ("au",),
    "aam": ("am",),
    "aan": ("an",),
    "aang": ("ang",),
    "aap": ("ap",),
    "aat": ("at",),
    "aak": ("ak",),
    "ei": ("ei", "ee", "i", "ay"),
    "i": ("i", "ee", "yi"),
    "o": ("o", "oh"),
    "oi": ("oi", "oy"),
    "ou": ("o", "ou"),
    "u": ("u", "oo"),
    "un": ("un", "oon"),
    "ui": ("ui", "ooi"),
    "oe": ("oe", "euh"),
    "oeng": ("eung",),
    "oek": ("euk",),
    "eoi": ("ui", "eui", "ue"),
    "eon": ("un", "eun"),
    "eot": ("ut", "eut"),
    "yu": ("u", "ue", "yu"),
    "yun": ("un", "uen", "yun"),
    "yut": ("ut", "uet", "yut"),
}


def _cantonese_spellings(reading: str) -> set[str]:
    initial, final = _split(reading, _JYUTPING_INITIAL_LIST)
    finals = _JYUTPING_FINALS.get(final, (final,))
    spelt = {i + f for i in _JYUTPING_INITIALS.get(initial, (initial,)) for f in finals}
    if initial == "j" and final.startswith("yu"):  # 余 jyu4: Yu, Yue (the y is written once)
        spelt |= {"y" + f.removeprefix("y") for f in finals}
    return spelt


@lru_cache(maxsize=1)
def _jyutping() -> Any:
    import ToJyutping  # loaded on first use: its dictionary is large (see the module's docstring)

    return ToJyutping


@lru_cache(maxsize=16384)
def _cantonese_readings(char: str) -> tuple[str, ...]:
    found = _jyutping().get_jyutping_candidates(char)
    readings = found[0][1] if found and found[0][1] else []
    return tuple(dict.fromkeys(re.sub(r"\d", "", str(r)) for r in readings))


@lru_cache(maxsize=16384)
def spellings(char: str) -> frozenset[str]:
    """Every way `char` is written in Latin letters, lower case: 曾 → ceng, zeng, tseng, tsang..."""
    mandarin = pinyin(char, style=Style.NORMAL, heteronym=True, strict=False)[0]
    spelt: set[str] = set()
    for reading in mandarin:
        if reading.isascii() and reading.isalpha():
            spelt |= _mandarin_spellings(reading.lower())
    for reading in _cantonese_readings(char):
        spelt |= _cantonese_spellings(reading)
    return frozenset(spelt)


@lru_cache(maxsize=16384)
def pinyin_initials(char: str) -> frozenset[str]:
    """The first letters of every Mandarin reading of a Chinese character (澄: c, d), lower case."""
    readings = pinyin(char, style=Style.FIRST_LETTER, heteronym=True, strict=False)[0]
    return frozenset(r[0].lower() for r in readings if r and r[0].isascii() and r[0].isalpha())


@lru_cache(maxsize=16384)
def cantonese_initials(char: str) -> frozenset[str]:
    """The first letters of the Hong Kong spellings of `char` (金: k, 曾: c, t, j)."""
    return frozenset(s[0] for r in _cantonese_readings(char) for s in _cantonese_spellings(r) if s)


def _latin_words(text: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return [w.lower() for w in re.findall(r"[A-Za-z]+", plain)]


def spells(words: list[str], chars: str) -> bool:
    """The Latin `words` write the Chinese `chars` syllable by syllable, a word holding one
    syllable or several run together (Yunqi of 云栖), every word and every character used."""

    def word_holds(word: str, at: int, from_char: int) -> list[int]:
        # the character positions where a run of syllables written by word[at:] may end
        if at == len(word):
            return [from_char]
        if from_char >= len(chars):
            return []
        ends = []
        for spelt in spellings(chars[from_char]):
            if spelt and word.startswith(spelt, at):
                ends += word_holds(word, at + len(spelt), from_char + 1)
        return ends

    positions = {0}
    for word in words:
        positions = {end for start in positions for end in word_holds(word, 0, start) if end > start}
        if not positions:
            return False
    return len(chars) in positions


def romanised_firm_name(latin: str, chinese: str, trade_names: list[str]) -> bool:
    """`latin`, a firm's name in Latin letters, opens with a spelling of the Chinese firm's trade
    name, or of its place and trade name: "Kam Mun Lau Catering Group Limited" of 金滿樓飲食集團有限公司
    (trade name 金滿樓), "Hangzhou Yunqi Tea" of 杭州云栖茶业有限公司. Two syllables at least."""
    words = _latin_words(latin)
    targets = []
    for trade in trade_names:
        at = chinese.find(trade)
        if len(trade) >= 2 and at >= 0 and _CJK.match(trade):
            targets += [trade, chinese[: at + len(trade)]]
    for target in dict.fromkeys(targets):
        for n in range(1, min(len(words), len(target)) + 1):
            if spells(words[:n], target):
                return True
    return False


def surname_spelt(latin_surname: str, chinese_name: str) -> bool:
    """The Latin surname writes the surname opening the Chinese name (Tsang of 曾詠琪, Chan of 陳)."""
    words = _latin_words(latin_surname)
    return len(words) == 1 and bool(chinese_name) and spells(words, chinese_name[0])
