"""Chinese names as written in the line: jieba part-of-speech tags plus rules for titles (李经理,
孙总), nicknames (老郑, 小林, 阿珂), organisation suffixes and trade name + industry word (市场部,
博瑞科技, 远航物流, 恒筑建设), "叫X" introductions (一家叫顺捷的) and a place gazetteer with facility
suffixes (苏州工厂, 三楼会议室). English and Latin-script names are `compress/names.py`'s.
"""

from __future__ import annotations

import functools
import logging
import re

from simplemem_graph.compress.mentions import Mention
from simplemem_graph.gazetteer import ZH_PLACES
from simplemem_graph.lexicon import (
    ZH_CANTONESE_GRAMMAR,
    ZH_COMPOUND_SURNAMES,
    ZH_FACILITY_SUFFIXES,
    ZH_INDUSTRY_WORDS,
    ZH_JOB_ROLES,
    ZH_LEGAL_FORMS,
    ZH_LIGHT_CHARS,
    ZH_ORG_FALSE_FRIENDS,
    ZH_ORG_ROLE_NOUNS,
    ZH_ORG_SUFFIXES,
    ZH_PLACE_SUFFIXES,
    ZH_SHORT_TITLES,
    ZH_SURNAMES,
    ZH_TITLE_FALSE_FRIENDS,
    ZH_TITLES,
)
from simplemem_graph.text import COMMON_WORD_MIN_FREQ, is_common_zh_word, zh_dictionary_tag, zh_simplified

_SURNAME = "(?:" + "|".join(ZH_COMPOUND_SURNAMES) + "|[" + "".join(sorted(ZH_SURNAMES)) + "])"
_TITLE = "(?:" + "|".join(ZH_TITLES) + ")"
# A title or its one-character short form: what follows a surname and ends the name (甘校已确认).
_ANY_TITLE = "(?:" + "|".join((*ZH_TITLES, *sorted(ZH_SHORT_TITLES))) + ")"
_ZH_SHORT_TITLED = re.compile(rf"{_SURNAME}[{''.join(sorted(ZH_SHORT_TITLES))}]")
# "孙总的意思" is a person; "总额", "总价" after a surname-like character are not.
_ZH_TITLED = re.compile(rf"(?:小|老)?{_SURNAME}{_TITLE}(?![额价数共计量体结部线])")
# 老郑, 小林: 老/小 + a surname is a nickname wherever it stands (老郑刚回电话, 跟小林说了), unless the
# surname character opens a word with what follows (老黄牛, 小白菜) or the pair is a word (小时).
_ZH_NICKNAME = re.compile(rf"(?:小|老){_SURNAME}")
# "叫胖哥", "大家都叫他胖哥": what someone is called is a name, whatever its words.
_ZH_CALLED = re.compile(
    r"(?:叫做|名叫|(?:叫|喊|称)(?:他|她|佢)?)[「“\"]?(?P<n>[\u4e00-\u9fff]{2,4}?)(?=的|[」”\"，。,、；;！!？?\s]|$)"
)
# 小美, 老K: 小/老 + a given-name character (not a surname) is a nickname only where a name stands.
_ZH_GIVEN_NICKNAME = re.compile(r"(?:小|老)[\u4e00-\u9fff]")
# Kinship words that follow a surname as a nickname (王姐, 张哥, 李叔): the name ends with them.
_KINSHIP = frozenset("姐哥叔姨嫂婶伯")
# jieba tags around a name: what may stand before it (a pause, 和/跟/给, a verb: 想念小美) and after it
# (a verb, an adverb, a time word, a particle or a pause: 小美最近…, 小美是…, 小美的…).
_ZH_BEFORE_NAME_TAGS = ("p", "c", "v", "x", "w", "uj", "n")  # n: a role before it (同事小美)
_ZH_AFTER_NAME_TAGS = ("v", "d", "p", "t", "f", "c", "x", "w", "uj", "ul", "y", "l", "i")
# 阿 + one character (阿珂, 阿凯) is a way to call a person when the pair is no word of its own (阿姨).
_ZH_A_NICKNAME = re.compile(r"阿[\u4e00-\u9fff]")
_ZH_PLACE = re.compile("|".join(sorted(ZH_PLACES, key=len, reverse=True)))
_ZH_FACILITY = "(?:" + "|".join(ZH_FACILITY_SUFFIXES) + ")"
_ZH_FLOOR_ROOM = re.compile(r"(?:[一二三四五六七八九十\d]+[楼层]|[A-Z]\d*座)(?:会议室|办公室|大厅|前台|展厅)")
# jieba tags that can never start or extend a name: prepositions, conjunctions, particles, pronouns,
# adverbs, numerals, measure words, punctuation, interjections, direction and time words.
_NOT_NAME_TAGS = ("p", "c", "u", "r", "d", "m", "q", "x", "y", "e", "o", "f", "t", "w", "z", "ad")
_NOUNISH_TAGS = ("ns", "nz", "nt", "nr", "j")
_REGISTERED_NAME_MAX = 14  # characters between the place and the legal form (深圳市锐拓精密五金: 9)


@functools.cache
def zh_posseg_default():
    """jieba's shared tagger, quiet: the one that also segments the fulltext indexes."""
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return jieba.posseg


_posseg = zh_posseg_default


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


# A quantifier and a classifier (成间, 整家, 这间, 每家): "the whole / this / every" firm, no name.
_QUANTIFIED_CLASSIFIER = re.compile(r"[成整一这那每哪几两各全][间家个所座]")


def _nameable(word: str, tag: str) -> bool:
    return (
        len(word) >= 2
        and not tag.startswith(_NOT_NAME_TAGS)
        and not re.search(r"[^\w]", word)
        and not _QUANTIFIED_CLASSIFIER.fullmatch(word)
    )


# (a 市 of a market is no city: 超市, 门市, 夜市, 菜市, 股市 — 生活超市股份有限公司 opens at 佳禾)
_MARKED_PLACE_NAME = re.compile(
    r"(?:[\u4e00-\u9fff]{2,3}?(?:[省县区]|(?<![超门夜菜股])市))+[\u4e00-\u9fff]{2,10}$"
)


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
_PREDICATE_CHAR_MIN_FREQ = 10000  # 重 15718, 打 33853; characters of trade names: 鑫 141, 澜 368
_VERBISH = ("v", "p", "d", "c", "r", "u")


def _unknown_run_start(tokens: list[tuple[str, str, int]], i: int) -> int | None:
    """Start of "<unlisted place><trade name><industry><legal form>" (淮溪润澄化工有限公司), for places
    and trade names no list, tag or 市 marks: jieba cuts them into rare words and single characters.

    The industry words right before the legal form are passed over; the name then runs back to the
    nearest boundary: the clause start, a particle or preposition (的, 和, 给...), a common word that
    is not a noun (说, 上周, 一家, 大型), or a role noun (客户, 供应商: "新客户X有限公司"). Its core
    (place + trade name) must be 2-6 characters, not all of them ordinary words.
    """
    # 股份 of 股份有限公司 (jieba cuts it off) belongs to the legal form, not to the industry words
    last = i - 1 if i >= 1 and tokens[i - 1][0] == "股份" else i
    j = last - 1
    while (
        j >= 0
        and j >= last - 2
        and (
            tokens[j][0] in ZH_INDUSTRY_WORDS or (len(tokens[j][0]) >= 2 and is_common_zh_word(tokens[j][0]))
        )
    ):
        j -= 1
    if j == last - 1:
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


def _nickname_pair(pair: str) -> bool:
    """X哥/X姐 no word of jieba's dictionary, or one it files only as a rare proper name (龙哥 ns,
    7: a place to jieba, a nickname to the people who write it; 帅哥 nr 66, 大哥 n: words)."""
    tag = _dictionary_tag(pair)
    if tag in ("nr", "ns", "nz", "nt"):
        return not is_common_zh_word(pair, _RARE_PROPER_PAIR_FREQ)
    return not tag and not is_common_zh_word(pair, 1)


_RARE_PROPER_PAIR_FREQ = 20


def _titled_person(chars: str) -> bool:
    """A surname and a title (杨总, 老郑): the shape of a person's name, never of a trade name."""
    return bool(
        re.fullmatch(rf"(?:小|老)?{_SURNAME}{_TITLE}|(?:小|老){_SURNAME}", chars)
        or (_ZH_SIBLING_NICKNAME.fullmatch(chars) and _nickname_pair(chars))  # 鹏|哥|拍板
    )


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
        if word in "讲说话问" and tag.startswith("v"):
            break  # 佳|怡|讲|样品: a verb of speech after a name ("讲" as Wu and Cantonese say it)
        if word in _GIVEN_NAME_BEFORE and tag.startswith(("v", "p")):
            break  # 自己|找|净|烽|环保: the errand before the name (找, 让, 请), not a character of it
        if tag.startswith(_VERBISH) and is_common_zh_word(word, _OPENING_VERB_MIN_FREQ):
            # 去|铭|泰|建材: 去 is the errand before the name; 说|没|问题, 要|做|毕业: a verb this
            # frequent is the predicate, never a character of a trade name
            break
        if _ZH_CALLED.match("".join(w for w, _, _ in tokens[j:])):
            break  # 叫|鼎|匠|装饰: 叫 introduces the name, it is not part of it
        if tag.startswith("d") and j + 1 < len(tokens) and tokens[j + 1][1].startswith("v"):
            return None  # 刚|回|电话: an adverb before a verb opens a predicate, never a firm's name
        if _dictionary_tag(word).startswith("d"):
            return None  # 人|挺|客气: a degree adverb makes 客气 a predicate, whatever jieba tagged it
        begin, count, j = start, count + 1, j - 1
    run = "".join(w for w, _, s in tokens if s >= begin)[:count] if begin is not None else ""
    if count >= 2 and _titled_person(run):
        return None  # 杨|总|见面: a surname and a title make a person, not a trade name
    if count >= 2 and all(_dictionary_tag(c).startswith("v") for c in run):
        return None  # 拉|进|企业微信群: verbs only make a predicate ("pulled into"), never a name
    predicate = [
        _dictionary_tag(c).startswith(("v", "a")) and is_common_zh_word(c, _PREDICATE_CHAR_MIN_FREQ)
        for c in run
    ]
    if count >= 2 and all(predicate):
        return None  # 扣掉|重|打|费用: frequent verbs and adjectives ("print again") say what is done
    return begin if count >= 2 else None


# Nouns of jieba's that speak of time or of people, never of a line of business.
_NOT_A_TRADE = frozenset({"原本", "人家", "大家", "本身", "自身", "人们", "本地", "当地"})


def _trade_word(word: str, tag: str, min_freq: int = COMMON_WORD_MIN_FREQ) -> bool:
    """A common two-character noun (jieba n / vn): the industry word that can end a trade name.
    `min_freq=1`: any dictionary noun, when what comes before already has a firm's shape. A rare
    four-character noun whose head is one (医疗|器械, 建筑|设计) is a line of business too; a common
    one is ordinary speech (工作人员)."""
    if len(word) == 4 and tag in ("n", "vn") and not is_common_zh_word(word):
        return _trade_word(word[2:], _dictionary_tag(word[2:]), min_freq)
    if (
        len(word) != 2
        or tag not in ("n", "vn")
        or word in ZH_ORG_FALSE_FRIENDS
        or word in ZH_FACILITY_SUFFIXES
    ):
        return False  # 仓库, 工厂 after a place make a facility (澄屿仓库), not a firm
    if word in _NOT_A_TRADE:
        return False  # 志伟|原本|是管…: the name, then "originally", no firm
    if _dictionary_tag(word[0]).startswith("p"):
        return False  # 亮屏|自带: 自 (self) opens a verb phrase (自带, 自营), not a line of business
    # A title or role after a name makes a person (晓燕老师, 小王同事), not a firm.
    return is_common_zh_word(word, min_freq) and word not in ZH_TITLES and word not in ZH_JOB_ROLES


def _guessed_name(word: str, tag: str) -> bool:
    """Two rare characters jieba tags a person (nr, the first no surname), a place or a proper name
    (ns, nz, nt): its guess for characters it does not know, as likely a trade name as anything."""
    if len(word) != 2 or is_common_zh_word(word) or not re.fullmatch(r"[\u4e00-\u9fff]+", word):
        return False
    if all(_dictionary_tag(c).startswith(("v", "a", "d")) for c in word):
        return False  # 印错(ns)|尺寸: a verb and its complement, what someone did, not a name
    if tag in ("ns", "nz", "nt"):
        return True  # 澄屿(ns)|建材: a rare word jieba takes for a place or a proper name
    # jieba's "person" is a guess only for characters its dictionary lacks: 黑屏 is listed (a black
    # screen), so 黑屏事故 is an incident, not a firm
    return (
        tag == "nr"
        and not _dictionary_tag(word)
        and word[0] not in ZH_SURNAMES
        and word[0] not in "小老阿"  # 小明, 老周: nicknames
    )


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


_DEPARTMENT = "部"


# The head characters of a three-character noun for a place that serves people (幼儿园, 健身房,
# 美容院, 咖啡馆): after a trade name jieba does not know, the whole is an institution's name.
_INSTITUTION_HEADS = "园院校馆店房厅"


_FIRM_CONTEXT_AFTER = re.compile(r"老板|那边|这边|也找|又找|也来|又来|找我们|来问")


def _zh_orgs(tokens: list[tuple[str, str, int]]) -> list[Mention]:
    found = []
    for i, (word, tag, start) in enumerate(tokens):
        if (
            i
            and len(word) == 3
            and word[-1] in _INSTITUTION_HEADS
            and is_common_zh_word(word)
            and _unlisted_word(tokens[i - 1][0])
        ):
            name_start = tokens[i - 1][2]
            surface = tokens[i - 1][0] + word
            found.append(Mention("org", name_start, start + len(word), surface, surface))  # 葵语|幼儿园
            continue
        if (
            i
            and i + 1 < len(tokens)
            and len(word) == 2
            and tag == "n"
            and is_common_zh_word(word, 1)
            and (_unlisted_word(tokens[i - 1][0]) or _guessed_name(*tokens[i - 1][:2]))
            and _FIRM_CONTEXT_AFTER.match("".join(w for w, _t, _s in tokens[i + 1 : i + 3]))
        ):
            # 望舟|民宿|老板, 葵雨|琴行|也找我们: a new word and a rarer noun of a business, then its
            # boss or what a client does
            name_start = tokens[i - 1][2]
            surface = tokens[i - 1][0] + word
            found.append(Mention("org", name_start, start + len(word), surface, surface))
            continue
        suffix = next((s for s in ZH_ORG_SUFFIXES if word.endswith(s)), None)
        # (漳州|柚间|茶饮, 鸿|跃|鞋业: a line of business of the lexicon that jieba's dictionary holds
        # as rare, after a place and a new word or after characters it could not make a word of)
        industry = word in ZH_INDUSTRY_WORDS
        placed = i >= 2 and (
            (_placed_trade_name(tokens[i - 2], tokens[i - 1]) and (_trade_word(word, tag, 1) or industry))
            or (
                (industry and _placed_trade_name(tokens[i - 2], (tokens[i - 1][0], "nz", 0)))
                and _unlisted_word(tokens[i - 1][0])
            )
        )
        after_chars = industry and i >= 2 and _single_char_run(tokens, i - 1) is not None
        if suffix is None and (placed or after_chars or _trade_word(word, tag)):
            run = _single_char_run(tokens, i - 1)
            if run is None and placed:
                run = tokens[i - 2][2]  # 佛山|宏达(nz)|五金: a place, a proper-name guess, an industry
            if (
                run is None
                and i
                and _guessed_name(*tokens[i - 1][:2])
                and not _titled_person(tokens[i - 1][0])
                and not _ZH_SIBLING_NICKNAME.fullmatch(tokens[i - 1][0])
            ):
                # 达祺(nr)|运输: jieba's "person" guess for two rare characters; 龙哥(ns)|拍板 is a
                # person's nickname and what they do
                run = tokens[i - 1][2]
            if run is None and i and word in ZH_INDUSTRY_WORDS and _unlisted_word(tokens[i - 1][0]):
                run = tokens[i - 1][2]  # 恒筑(n)|建设: a word jieba does not know, then a line of business
            if (
                run is None
                and i >= 2
                and tokens[i - 2][0] in ("有家", "一家")
                and _unlisted_word(tokens[i - 1][0])
            ):
                run = tokens[i - 1][2]  # 有家|蓝豆|咖啡: the measure word of a firm, a new word, what it does
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
        if suffix == _DEPARTMENT:
            # 客服部, 财务部: a department is part of a firm, no party of its own; "瑞岐信息部" is
            # 瑞岐's department, so only the trade name before it names a firm
            j = i - 1
            run = _single_char_run(tokens, j) if word != suffix else None
            if run is not None:  # 澜|岐|信息部: jieba left the trade name in single characters
                name = "".join(w for w, _, s in tokens if run <= s < start)
                found.append(Mention("org", run, start, name, name))
            elif word != suffix and j >= 0 and len(tokens[j][0]) >= 2:
                name, tag_before, name_start = tokens[j]
                if _guessed_name(name, tag_before) or _unlisted_word(name):
                    found.append(Mention("org", name_start, name_start + len(name), name, name))
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
                # "签了家打样公司", "一家物流公司": a measure word before an ordinary word of a trade
                # makes a description of a kind of firm, not a name
                or (
                    j >= 1
                    and tokens[j - 1][1].startswith(("q", "m"))
                    and _dictionary_tag(tokens[j][0]) in ("v", "vn", "n")
                )
            ):
                continue
            else:
                begin, j = tokens[j][2], j - 1
        elif len(word) < 3:
            continue
        if j >= 0 and tokens[j][1].startswith(_NOUNISH_TAGS) and _nameable(tokens[j][0], tokens[j][1]):
            begin = tokens[j][2]
        elif j >= 0 and begin != start and len(tokens[j + 1][0]) >= 2:
            # 澜|序|建筑设计|事务所: only a line of business so far; the characters jieba left
            # single before it are the trade name
            run = _single_char_run(tokens, j)
            begin = run if run is not None else begin
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


def _is_given_nickname(text: str, start: int, end: int, tokens: list[tuple[str, str, int]]) -> bool:
    """小/老 + a character at text[start:end] that is no surname (小美, 小琳) calls a person when the
    pair is no word of jieba's dictionary (小猫, 小区, 老虎 are), sits inside no longer word (小红书),
    opens none with what follows (小美丽, 小明天) and closes none before it (大小), and stands where a
    name stands: after a pause, a preposition, a verb or a role, before a verb, an adverb or a pause."""
    pair = text[start:end]
    if _dictionary_tag(pair) not in ("", "nr") or is_common_zh_word(pair, 10):
        return False
    if pair in ZH_TITLE_FALSE_FRIENDS or pair[1] in ZH_LIGHT_CHARS:
        return False  # 老是, 老在: 老 is "always" before a light verb
    if _dictionary_tag(pair[1]).startswith(_NOT_NAME_TAGS):
        return False  # 老了, 小的: a particle or a function word is no given name
    if start > 0 and is_common_zh_word(text[start - 1 : start + 1]):
        return False
    if end < len(text) and is_common_zh_word(text[end - 1 : end + 1], 1):
        return False
    if any(s < b < s + len(w) for w, _t, s in tokens for b in (start, end)):
        return False  # jieba's word runs across the pair: 小|红书
    before = [t for w, t, s in tokens if s + len(w) <= start]
    after = [t for _w, t, s in tokens if s >= end]
    return (not before or before[-1].startswith(_ZH_BEFORE_NAME_TAGS)) and (
        not after or after[0].startswith(_ZH_AFTER_NAME_TAGS)
    )


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


# Before a given name said alone: an errand or a handing-to verb (找思琪, 发思琪, 跟嘉豪说); after it:
# what a person does (说, 确认, 回, 负责...) or is (是他们财务).
_GIVEN_NAME_BEFORE = frozenset("找发给跟和让问请叫催抄@")


def _bare_given_name(tokens: list[tuple[str, str, int]], i: int) -> str | None:
    """A given name said alone (思琪, 嘉豪, 浩宇), where a person stands: at a clause start before a
    verb or 是, or after an errand verb (找/发/跟...). Two characters jieba's dictionary does not hold
    as a word and guesses are a person (nr), or two single characters it guesses are (浩|宇); no
    frequent function character (太棒: 太), not a nickname or a surname + name (the rules above).
    A name without a surname is how colleagues and clients' staff are called."""
    word, tag, _ = tokens[i]
    following = i + 1
    if len(word) == 1 and tag == "nr" and i + 1 < len(tokens) and tokens[i + 1][1] == "nr":
        word, following = word + tokens[i + 1][0], i + 2  # 浩|宇, 欣|妍
    elif tag != "nr":
        return None  # jieba's n for an unknown pair is as often a noun it lacks (交期, 官网, 辣度)
    if (
        len(word) != 2
        or not re.fullmatch(r"[\u4e00-\u9fff]{2}", word)
        or _dictionary_tag(word)
        or word[0] in ZH_SURNAMES
        or word[0] in "小老阿"
        or any(
            _dictionary_tag(c).startswith(_NOT_NAME_TAGS) and is_common_zh_word(c, _FUNCTION_CHAR_MIN_FREQ)
            for c in word
        )
    ):
        return None
    before = tokens[i - 1][0] if i else ""
    after_word, after_tag = (
        (tokens[following][0], tokens[following][1]) if following < len(tokens) else ("", "x")
    )
    opens = not before or bool(re.fullmatch(r"[，。,.；;：:！!？?\s]", before))
    # 云帆|教育: a line of business after it makes the two characters a trade name
    trade = after_word in ZH_INDUSTRY_WORDS or _trade_word(after_word, after_tag)
    acts = after_tag.startswith(("v", "d", "p")) and after_word != "的" and not trade
    handed = before in _GIVEN_NAME_BEFORE and after_tag.startswith(("x", "w", "v", "ul", "uj", "y"))
    return word if (opens and acts) or handed else None


# A two-character word jieba tags a person that its dictionary counts this often is an ordinary
# word (顾问 1697): real given names are rare as words (李强 159; most are absent).
_NAME_AS_WORD_MIN_FREQ = 1000


def _word_across(text: str, at: int) -> bool:
    """A two-character dictionary word opens at `at` (取件 of 何俊取件)."""
    pair = text[at : at + 2]
    return len(pair) == 2 and is_common_zh_word(pair, 1)


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
    for m in _ZH_GIVEN_NICKNAME.finditer(text):
        if not any(k.start <= m.start() < k.end for k in found) and _is_given_nickname(
            text, m.start(), m.end(), tokens
        ):
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
        elif given_name := _bare_given_name(tokens, i):
            name = given_name  # 思琪说…, 找嘉豪: a given name alone, where a person stands
        # 田总刚来电话: jieba's "name" 田总刚 is 田总 + 刚 (just): a title right after the surname
        if name and (re.match(_ANY_TITLE, name[1:]) or re.match(_TITLE, text[start + len(name) :])):
            continue
        following = tokens[i + 1] if i + 1 < len(tokens) else ("", "", 0)
        measure_after = len(following[0]) == 1 and following[1].startswith("q")
        if (
            name == word
            and len(name) == 3
            and tag.startswith("nr")
            and (name[1] in _KINSHIP or _word_across(text, start + 2) or measure_after)
        ):
            name = name[:2]  # 罗姐|刚, 何俊|取|件: jieba ran the name into the next word
        after_adverb = i > 0 and tokens[i - 1][1][:1] in "rdv"
        if name and len(name) == 3 and name[0] in _PREPOSITION_BEFORE_NAME and after_adverb:
            name = None  # 自行|向华睿|追偿: 向 (towards) after an adverb is the preposition, no surname
        if name and len(name) >= 3 and name[-1] in _KINSHIP:
            continue  # 平时向铁姐汇报: 向 is a preposition here, 铁姐 a nickname (read on its own below)
        after = text[start + len(name) : start + len(name) + 1] if name else ""
        if name and name[0] in _PREPOSITION_BEFORE_NAME and after in _KINSHIP:
            continue  # 直接向海|叔|汇报: the same, jieba cut 向海 as a name
        district = name and len(name) == 3 and name[-1] in "省市县区"
        if name and (district or _PLACE_AFTER.match(text, start + len(name))):
            continue  # 于洪区, 徐汇支行: a district and its branch (于 and 徐 are surnames too)
        if name and any(k.start < start < k.end for k in found):
            continue  # 跟小邓微信确认: jieba's 邓微信 opens inside the nickname 小邓 (微信: WeChat)
        if name:
            found.append(Mention("person", start, start + len(name), name, name))
    for mention in _short_titled(text) + _sibling_nicknames(text, tokens) + _spoken_given_names(text, tokens):
        if not any(k.start < mention.end and mention.start < k.end for k in found):
            found.append(mention)
    return found


def _short_titled(text: str) -> list[Mention]:
    """甘校 (甘校长), 王局, 李处: a surname and the short form of a title, when the two characters are
    no word of their own (高校, 全校, 何处) and the title character does not open a word with what
    follows (毛|处理, 周|院子), unless that next character opens a word of its own (甘校|正好)."""
    found = []
    for m in _ZH_SHORT_TITLED.finditer(text):
        s, e = m.span()
        if is_common_zh_word(m.group(0), 1) or _dictionary_tag(m.group(0)):
            continue
        if s > 0 and is_common_zh_word(text[s - 1 : s + 1]):
            continue  # the surname character closes the word before it
        if (
            e < len(text)
            and is_common_zh_word(text[e - 1 : e + 1], 1)
            and not is_common_zh_word(text[e : e + 2])
        ):
            continue  # 毛处理好, 周院子里, 甘校长 (the full title is _ZH_TITLED's)
        found.append(Mention("person", s, e, m.group(0), m.group(0)))
    return found


# 炮哥, 峰姐: one character + 哥/姐 is how a colleague or a client's boss is called.
_ZH_SIBLING_NICKNAME = re.compile(r"[\u4e00-\u9fff][哥姐叔姨]")  # 炮哥, 铁姐, 海叔, 王姨


_PREPOSITION_BEFORE_NAME = frozenset("向跟给和与对找让")
# What follows a place, never a person: its district, its county, a bank's branch there
_PLACE_AFTER = re.compile(r"[省市县区镇](?!别|分|长|委|政|场|里|外|内)|支行|分行")


def _sibling_nicknames(text: str, tokens: list[tuple[str, str, int]]) -> list[Mention]:
    """X哥/X姐 as a name (炮哥拍板了, 都喊他炮哥) when the pair is no word of jieba's dictionary (大哥,
    帅哥, 师姐 are), jieba's words start and end with it (这|哥们 runs across it), and the first
    character is no pronoun, numeral or adverb (我姐, 二哥, 刚|哥: family or grammar, not a name)."""
    bounds = {start for _w, _t, start in tokens} | {len(text)}
    found = []
    for m in _ZH_SIBLING_NICKNAME.finditer(text):
        s, e = m.span()
        pair = m.group(0)
        # jieba may glue a preposition to it as one "name" (向铁姐|汇报): the pair still opens there
        opens = s in bounds or (s - 1 in bounds and text[s - 1] in _PREPOSITION_BEFORE_NAME)
        if not opens or e not in bounds or not _nickname_pair(pair):
            continue
        if _dictionary_tag(pair[0]).startswith(_NOT_NAME_TAGS):
            continue
        glued = s > 0 and text[s - 1] not in _PREPOSITION_BEFORE_NAME
        if glued and is_common_zh_word(text[s - 1 : s + 1], 1):
            continue  # the character closes a word before it
        found.append(Mention("person", s, e, pair, pair))
    # 可乐哥, 眼镜姐: a whole word of jieba's (a noun or an adjective) and then 哥/姐 on its own
    for i in range(len(tokens) - 1):
        (word, tag, s), (kin, _t, k) = tokens[i], tokens[i + 1]
        if (
            len(word) == 2
            and kin in ("哥", "姐")
            and k + 1 in bounds
            and tag in ("n", "a", "nz")
            and is_common_zh_word(word, 1)
            and not is_common_zh_word(word + kin, 1)
            and word not in ZH_TITLES
            and (i == 0 or tokens[i - 1][1][:1] not in ("m", "r", "q"))  # not after 这个, 两个…
        ):
            found.append(Mention("person", s, k + 1, word + kin, word + kin))
    return found


# What a person does right after a name said alone: speaks, asks, replies, @s or adds someone.
_ZH_SPEAKS = re.compile(
    r"(?:还|也|又|刚|就|都|已经)?(?:说|问|回复|回|讲|答应|表示|告诉|发消息|打电话|签字|@|加我|加了我)"
)
# What someone a post goes to does with it (改由志伟接, 由雨萱负责).
_ZH_TAKES_ON = re.compile(r"接(?!受|收|到|着)|负责|跟进|对接|处理|管")
# Handing something to someone: the word after it is who receives it (抄送振华, 发给子墨).
_ZH_HANDING = ("抄送", "发给", "转给", "交给", "@", "＠")
# A role, 是/=, a name closing the clause: 财务是浩然, 对接人是子墨.
_ZH_ROLE_IS_NAME = re.compile(
    "(?:" + "|".join(sorted(ZH_JOB_ROLES, key=len, reverse=True)) + r")(?:是|为|=|＝)"
    r"(?P<n>[\u4e00-\u9fff]{2})(?=[\s，,。；;！!？?]|$)"
)
# A signature closing a forwarded message: "——<org> <department> <name>".
_ZH_SIGNATURE = re.compile(r"(?:——|--|—)\s*(?:[\w&·]+[ \u3000|｜/]+){1,3}(?P<n>[\u4e00-\u9fff]{2,3})\s*$")
# The same by characters, where jieba cut the name into the verb (晓|彤说, 晓|彤是他们…): two
# characters opening a clause before a verb of speech or before "是他们/是对方", or after an @.
_ZH_OPENING_SPEAKER = re.compile(
    r"(?:^|(?<=[，。,.；;：:！!？?\n「“\s]))(?P<n>[\u4e00-\u9fff]{2})"
    r"(?=" + _ZH_SPEAKS.pattern + r"|是(?:他们|她们|对方))"
)
_ZH_AT_NAME = re.compile(r"[@＠](?P<n>[\u4e00-\u9fff]{2})(?=[\s，,。：:」”]|$)")


def _could_be_given_name(word: str) -> bool:
    """Two CJK characters that may be a given name said alone: no frequent word (雨萱, 子墨, 振华
    and 浩然 are rare as words), no role or title, no surname first (those are read with it), no
    nickname prefix and no frequent function character."""
    return (
        bool(re.fullmatch(r"[\u4e00-\u9fff]{2}", word))
        and not is_common_zh_word(word)
        and word not in ZH_JOB_ROLES
        and word not in ZH_TITLES
        and word not in ZH_ORG_ROLE_NOUNS
        and word[0] not in ZH_SURNAMES
        and word[0] not in "小老阿"
        and not any(
            _dictionary_tag(c).startswith(_NOT_NAME_TAGS) and is_common_zh_word(c, _FUNCTION_CHAR_MIN_FREQ)
            for c in word
        )
    )


def _spoken_given_names(text: str, tokens: list[tuple[str, str, int]]) -> list[Mention]:
    """A given name said alone, by what the sentence does with it, whatever jieba tagged it (雨萱 n,
    振华 nz, 浩然 a): the subject of a verb of speech or of @ at a clause start (振华问…, 浩然说…,
    群里雨萱@我), the one something is handed to (给雨萱发了, 抄送振华), the name a role is (财务是
    浩然), the name closing a signature (——锦骋汽车 市场部 雨萱) and an unknown word before a title
    (子墨老师)."""
    found = []
    bounds = {start for _w, _t, start in tokens} | {len(text)}
    # the start of the word after "<verb>|给" (交付|给|思琪): 给 closes a verb of handing over
    verbs_before_give = {
        tokens[i + 1][2]: tokens[i - 1][1].startswith("v")
        for i in range(1, len(tokens) - 1)
        if tokens[i][0] == "给"
    }
    for word, tag, start in tokens:
        end = start + len(word)
        if not _could_be_given_name(word) or tag.startswith(("v", "d", "m", "q", "t", "f")):
            continue
        before = text[:start].rstrip(" ")
        opens = not before or bool(re.search(r"[，。,.；;：:！!？?\n]$", before))
        speaks = _ZH_SPEAKS.match(text, end)
        if speaks and speaks.end() not in bounds and is_common_zh_word(text[end : speaks.end() + 1]):
            speaks = None  # 官网|说明: the verb opens a word with what follows (振华|问能|不能 does not)
        ats = text[end : end + 1] in ("@", "＠")
        unknown = not _dictionary_tag(word)  # 雨萱: no word of jieba's, only its guess
        # 给雨萱发了, 发给子墨了: after a one-character errand verb the name needs a verb after it
        # (下周一给全表: the whole table is handed, no one); 抄送振华 may end the clause
        # (下周一给全表: the whole table is handed, no one); 抄送振华, 交付给思琪。may end the clause
        pause_after = re.match(r"$|[\s，,。；;！!？?]|[发了说]", text[end:])
        handed = unknown and (
            (before.endswith(tuple(_GIVEN_NAME_BEFORE)) and re.match(r"[发了说]", text[end:]))
            or (before.endswith(_ZH_HANDING) and pause_after)
            or (before.endswith("给") and verbs_before_give.get(start, False) and pause_after)
        )
        # 子墨老师: a title after two characters no dictionary holds makes them a given name
        titled = unknown and re.match(_TITLE, text[end:]) and not re.match(_TITLE, word)
        # 以后改由志伟接, 由雨萱负责: who a post goes to, then what they take on
        takes_over = (
            (unknown or tag.startswith("nr")) and before.endswith("由") and _ZH_TAKES_ON.match(text, end)
        )
        if (
            takes_over
            or (opens and speaks)
            or ats
            or handed
            or titled
            or (before.endswith(_ZH_HANDING) and end == len(text))
        ):
            found.append(Mention("person", start, end, word, word))
    for regex in (_ZH_ROLE_IS_NAME, _ZH_SIGNATURE, _ZH_OPENING_SPEAKER, _ZH_AT_NAME):
        for m in regex.finditer(text):
            name = m.group("n")
            if regex is _ZH_OPENING_SPEAKER and is_common_zh_word(text[m.end("n") : m.end("n") + 2]):
                continue  # 官网|说明天: the verb opens a word with what follows
            if _could_be_given_name(name) or (regex is _ZH_SIGNATURE and not is_common_zh_word(name)):
                found.append(Mention("person", m.start("n"), m.end("n"), name, name))
    return found


# Structure that marks a place with no list: 去/到/在X + a facility or a trip activity (去淮城出差,
# 在临平的仓库, 车去云州提货).
_ZH_PLACE_CUE = re.compile(
    r"(?:去|到|在|从|回|飞|赴|来)(?P<p>[\u4e00-\u9fff]{2,3}?)(?:市|省|县|区)?"
    rf"(?=的?{_ZH_FACILITY}|出差|提货|验货|参观|开会|考察|见面|办事|拜访|送货|发货)"
)
# A person by position: after 让/跟/找/对接人... or a clause start, before a verb or a pause
# (让郑林在…, 对接人许炎，, 陈宁宁下周要去…). Given names are one or two characters.
_GIVEN = r"(?:(?![了的着过])[\u4e00-\u9fff])"  # a character of a given name, not a particle
_ZH_PERSON_AFTER = (
    r"(?=说|在|把|要|会|下周|明天|今天|后天|确认|提醒|表示|发来|发了|负责|已经|也|[，,。；;！!]|的|去|来|打|报"
    r"|可以|答应|$)"
)
_ZH_PERSON_CUE = re.compile(
    r"(?:^|(?<=[，,。；;：:\s])|(?<=让|叫|请|找|跟|和|给|由|派|问|的))"
    rf"(?P<n>{_SURNAME}{_GIVEN}{{1,2}}){_ZH_PERSON_AFTER}"  # 钱到了: a particle is no given name
)
# After a job role or an errand verb (采购胡勇之, 对接人是刘海河, 让赵建国在...) the position alone says
# "a person": the given name may be an ordinary word (建国, 海河).
_ZH_ROLE_CUE = re.compile(
    "(?:" + "|".join(sorted(ZH_JOB_ROLES, key=len, reverse=True)) + r")(?:是|为)?"
    rf"(?P<n>{_SURNAME}[\u4e00-\u9fff]{{1,2}}){_ZH_PERSON_AFTER}"
    rf"|(?<=让|请|派|找)(?P<m>{_SURNAME}[\u4e00-\u9fff]{{1,2}})(?=在|把|去|来|负责|明天|下周|今天)"
    # a handover names who takes the post: "后面对接换何骁 运营的男生", "对接人换成何骁了"
    rf"|(?<=换)(?P<h>{_SURNAME}{_GIVEN}{{1,2}})(?=对接|负责|跟进|\s)"
    rf"|(?<=换成|转给|交给|接替)(?P<k>{_SURNAME}{_GIVEN}{{1,2}})(?=对接|负责|跟进|了|\s|[，,。；;！!]|$)"
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
        group = next(g for g in ("n", "m", "h", "k") if m.group(g))
        name, end = m.group(group), m.end(group)
        after = text[end - 1 : end + 1]
        if len(name) == 3 and len(after) == 2 and is_common_zh_word(after):
            name, end = name[:2], end - 1  # 叶广发来了 (as below)
        elif len(name) == 3 and name[1] in _KINSHIP:
            name, end = name[:2], end - 1  # 财务王姐打的: a kinship word closes the nickname (王姐)
        if is_common_zh_word(name) or name in ZH_TITLE_FALSE_FRIENDS or re.match(_ANY_TITLE, name[1:]):
            continue
        if group in ("h", "k") and _dictionary_tag(name).startswith("ns"):
            continue  # 换成张家界的路线: a place
        if len(name) == 3 and _dictionary_tag(name[1:]).startswith(_NOT_NAME_TAGS):
            continue  # 让王明天去: 明天 is a time word, not a given name (建国, 海河 are nouns)
        role_cued.add(m.start(group))
        found.append(Mention("person", m.start(group), end, name, name))
    tokens = _zh_tokens(text)
    single_nouns = {start for word, tag, start in tokens if len(word) == 1 and tag in ("n", "ng")}
    word_at = {start: (word, tag) for word, tag, start in tokens}
    for m in _ZH_PERSON_CUE.finditer(text):
        if m.start("n") in role_cued:
            continue
        given_word, given_tag = word_at.get(m.start("n") + 1, ("", ""))
        if m.start("n") in single_nouns and (
            len(given_word) > len(m.group("n")) - 1
            or (len(given_word) == 1 and given_tag.startswith(("d", "p", "c", "u")))
        ):
            continue  # 钱|进来了 (the money came in), 钱|单|算: a noun alone, then a word or an adverb
        if text[m.start("n") - 1 : m.start("n")] == "的" and m.start("n") in single_nouns:
            continue  # 他们自己的车来载: after 的 a noun read alone (车, a truck) is a thing, no surname
        name, end = m.group("n"), m.end("n")
        # 叶广发来了: the last character may open the next word (发来): then the name is 叶广
        if len(name) == 3 and (is_common_zh_word(text[end - 1 : end + 1]) or _titled_person(name[:2])):
            name, end = name[:2], end - 1  # 龙哥刚打电话: a nickname is whole in two characters
        given = name[1:]
        if is_common_zh_word(name) or (len(given) == 2 and is_common_zh_word(given)):
            continue
        if len(name) == 3 and is_common_zh_word(name[:2]) and not _dictionary_tag(name[:2]).startswith("nr"):
            continue  # 看样的时候说要换: 时候 (the time when) is a word, 时 no surname here
        if name in ZH_TITLE_FALSE_FRIENDS or re.match(_ANY_TITLE, given):
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
    """Chinese names of people, organisations and places (possibly overlapping), read on the text
    in simplified characters and given back as written (大醫生 stays 大醫生).

    Example:
        >>> sorted(m.value for m in find_names_zh("付款找財務部的周婷 她跟恒筑建設簽的"))
        ['周婷', '恒筑建設']
    """
    simplified = zh_simplified(text)
    found = _names_in_simplified(simplified)
    if simplified == text:
        return found
    as_written = []
    for m in found:
        start = m.start
        written = text[start : m.end]
        value = written if m.value == m.surface else m.value
        if written[0] == "係" and value.startswith("係") and len(written) > 3:
            # "KML即係金滿樓飲食…": Cantonese 係 is "is", read as 系 (a system) once simplified,
            # which jieba joins to the name after it
            start, written, value = start + 1, written[1:], value[1:]
        as_written.append(Mention(m.kind, start, m.end, written, value, m.extra))
    return as_written


def _names_in_simplified(text: str) -> list[Mention]:
    tokens = _zh_tokens(text)
    found = _zh_orgs(tokens) + _shops_read_as_people(text, tokens, _zh_people(text, tokens))
    places = _zh_places(text, tokens)
    # 高雄 of "高雄今天是在热什么啦": a listed city jieba also guessed a person is the city
    listed = {(m.start, m.end) for m in places if m.surface in ZH_PLACES}
    found = [m for m in found if m.kind != "person" or (m.start, m.end) not in listed] + places
    for m in _structural_zh_names(text):
        clash = [k for k in found if m.start < k.end and k.start < m.end]
        # jieba cut 吴涛|腾 before a verb: the structural name, starting at the same place, is longer
        if all(k.kind == m.kind and k.start == m.start and k.end < m.end for k in clash):
            found = [k for k in found if k not in clash] + [m]
    for m in _role_introduced_orgs(tokens):
        if not any(k.start < m.end and m.start < k.end for k in found):
            found.append(m)
    for m in _orgs_read_on_characters(text) + _introduced_firm_runs(text):
        # the structure outweighs jieba's guess of a person across the name (商澳|岐, 岚|麦咖啡)
        clash = [k for k in found if k.start < m.end and m.start < k.end]
        # a person guessed across it, or a shorter firm inside it (澜汐皮肤 of 澜汐皮肤管理)
        if all(k.kind == "person" or (m.start <= k.start and k.end <= m.end) for k in clash):
            found = [k for k in found if k not in clash] + [m]
    for m in _ZH_QUOTED_FIRM_NAME.finditer(text):
        firm = Mention("org", m.start("n"), m.end("n"), m.group("n"), m.group("n"))
        found = [k for k in found if not k.overlaps(firm)] + [firm]
    for m in _ZH_BRACKETED_PLACE_FIRM.finditer(text):
        start = m.start("n")
        # the name starts after the clause's last function character (…公司 after 的 or a space)
        lead = max((i for i, c in enumerate(m.group("n")) if c in _ZH_NAME_BOUNDARY_CHARS), default=-1) + 1
        firm = Mention("org", start + lead, m.end("n"), m.group("n")[lead:], m.group("n")[lead:])
        found = [k for k in found if not k.overlaps(firm)] + [firm]
    for m in _called_firms(text):
        clash = [k for k in found if k.start < m.end and m.start < k.end]
        # a piece of it read alone, or a word jieba glued across 叫 (叫晓|堂堂)
        if all(m.start - 1 <= k.start and k.end <= m.end for k in clash):
            found = [k for k in found if k not in clash] + [m]
    for m in _ZH_CALLED.finditer(text):
        if any(k.kind == "org" and k.start <= m.start("n") < k.end for k in found):
            continue  # 叫圆满时光婚宴中心: already read whole as a firm
        name = m.group("n")
        if _no_name_given(name):
            continue
        tail = name[-2:]
        # "一家云仓，叫顺捷云仓": the noun the measure word introduced ends the name
        before = text[max(0, m.start() - 8) : m.start()]
        introduced = re.search(r"[家间]([\u4e00-\u9fff]{1,4})[，,\s]?$", before)
        kind = (
            "org"
            if re.search(r"(?:[家所间]|公司|厂|店)[，,\s]?$", text[max(0, m.start() - 5) : m.start()])
            or (introduced is not None and name.endswith(introduced.group(1)))
            # 叫鼎匠装饰: a name ending in a line of business is the firm's
            or (len(name) >= 4 and (tail in ZH_INDUSTRY_WORDS or _trade_word(tail, _dictionary_tag(tail))))
            else "person"
        )
        found.append(Mention(kind, m.start("n"), m.end("n"), name, name))
    found = _own_sites_as_places(text, found)
    # "话睇咗后台", "佢哋财务发咗封邮件": a Cantonese grammar character (咗 done, 哋 plural, 嘅 of)
    # is inside a clause, never inside a name: such a run is a verb phrase read as a firm.
    return [m for m in found if not ZH_CANTONESE_GRAMMAR.intersection(m.surface)]


# "送他们大甲总厂", "我们东莞分厂": a possessive, a place, then a part of a firm (its head plant, a
# branch, its headquarters) names a site of the firm "they" or "we" are, not another firm.
_OWN_SITE = re.compile(
    r"(?:他们|她们|我们|咱们|佢哋|我哋)(?:的)?(?P<place>[\u4e00-\u9fff]{2,3}?)"
    r"(?P<part>总厂|分厂|总部|分部|总店|分店|分公司|厂区|门市)"
)


def _own_sites_as_places(text: str, found: list[Mention]) -> list[Mention]:
    for m in _OWN_SITE.finditer(text):
        site = [k for k in found if k.kind == "org" and k.start == m.start("place") and k.end == m.end()]
        if site:
            place = Mention("place", m.start("place"), m.end("place"), m.group("place"), m.group("place"))
            found = [k for k in found if k not in site and not k.overlaps(place)] + [place]
    return found


# "宴会厅叫什么圆满时光婚宴中心的", "外面一家叫亮堂堂灯光音响的公司": what a firm is called, whatever its
# words, up to the clause's end or the 的 of "…的公司".
_ZH_CALLED_LONG = re.compile(
    r"(?:叫做|名叫|叫)(?:什么|啥)?(?P<n>[\u4e00-\u9fff]{4,10}?)"
    r"(?=的(?:公司|店|厂|品牌|机构|酒店|工作室)|的[\s，。,]|[，。,、；;！!？?\s（(]|$)"
)
_ZH_FIRM_AFTER_NAME = re.compile(r"的(?:公司|店|厂|品牌|机构|酒店|工作室)")
_ZH_FIRM_BEFORE_CALLED = re.compile(r"(?:[家所间]|公司|厂|店|厅|馆|[学习训]班|学校)[，,\s]?$")
# "刚好数控机床（昆山）有限公司": a registered name with its place in a bracket before the legal form.
_ZH_BRACKETED_PLACE_FIRM = re.compile(
    r"(?P<n>[\u4e00-\u9fff]{2,12}[（(][\u4e00-\u9fff]{2,4}[）)](?:股份有限公司|有限责任公司|有限公司))"
)


# "招牌就三个字「慢慢来」", "店名叫“拾光”": a quoted name after a shop's sign, name or brand is the
# firm's, whatever its words (慢慢来 is three everyday characters).
_ZH_QUOTED_FIRM_NAME = re.compile(
    r"(?:招牌|店名|品牌|牌子|商号|门头|公司名)[^「」“”\"。！？\n]{0,8}?[「“\"](?P<n>[\u4e00-\u9fff]{2,8})[」”\"]"
)


def _no_name_given(called: str) -> bool:
    """叫他…, 叫什么来着: what follows 叫 is a pronoun or asks the name, it gives none."""
    return called[0] in "什啥怎这那他她它佢我你" or "来着" in called


def _called_firms(text: str) -> list[Mention]:
    """A name of four or more characters after 叫 is a firm's when the words around it say so (一家
    叫…的公司, 宴会厅叫…) or it ends in an organisation word (中心, 物流) or a line of business."""
    found = []
    for m in _ZH_CALLED_LONG.finditer(text):
        name = m.group("n")
        tail = name[-2:]
        if _no_name_given(name) or any(c in _ZH_NAME_BOUNDARY_CHARS or c == "都" for c in name):
            continue  # 叫顺捷的都报了价: the name ended at 的 (the short name is read below)
        if (
            _ZH_FIRM_AFTER_NAME.match(text, m.end("n"))
            or _ZH_FIRM_BEFORE_CALLED.search(text[max(0, m.start() - 5) : m.start()])
            or any(name.endswith(s) and len(s) >= 2 for s in ZH_ORG_SUFFIXES)
            or tail in ZH_INDUSTRY_WORDS
            # 晴天数理补习班: a common noun of a place that serves people ends it (补习班, 幼儿园)
            or (name[-1] in _INSTITUTION_HEADS + "班" and is_common_zh_word(name[-3:], 1))
        ):
            found.append(Mention("org", m.start("n"), m.end("n"), name, name))
    return found


def _role_introduced_orgs(tokens: list[tuple[str, str, int]]) -> list[Mention]:
    """ "型材供应商华铝，第一批…": a firm's role noun (供应商, 厂家, 承运商), then one word that is no
    ordinary word and ends the clause, is that firm's name, with no industry word after it."""
    found = []
    for i in range(len(tokens) - 2):
        role, (word, tag, start), (after, _, _) = tokens[i][0], tokens[i + 1], tokens[i + 2]
        if (
            role in ZH_ORG_ROLE_NOUNS
            and len(role) >= 2
            and role != "对方"
            and 2 <= len(word) <= 4
            and re.fullmatch(r"[\u4e00-\u9fff]+", word)
            and not is_common_zh_word(word)
            and not tag.startswith(("v", "m", "t", "r"))
            and after in _CLAUSE_ENDS
        ):
            found.append(Mention("org", start, start + len(word), word, word))
    return found


_CLAUSE_ENDS = frozenset("，,。；;！!？?、")
# "…的设备商澳焙设备负责": a trader noun (X商), then a trade name jieba does not know and an industry
# word; read on the characters, since jieba cuts across the name (商澳|焙).
_ZH_TRADER_THEN_FIRM = re.compile(
    r"[\u4e00-\u9fff]商(?P<n>(?P<trade>[\u4e00-\u9fff]{2})(?:"
    + "|".join(sorted(ZH_INDUSTRY_WORDS, key=len, reverse=True))
    + "))"
)


# "福田有家岚麦咖啡", "佢哋搵咗間鴻發廚具" (found a 鴻發 kitchen-equipment firm): the measure word
# that introduces a firm, a trade name jieba does not know and
# a noun of what it does; read on the characters (jieba may cut 岚|麦咖啡).
_ZH_MEASURED_FIRM = re.compile(
    r"(?<![一二三四五六七八九十百千两几\d])(?:有|一|了|咗)[家间](?P<n>(?P<trade>[^\W\d的了是在和与及个这那叫]{2})(?P<kind>[\u4e00-\u9fff]{2}))"
)


# A firm introduced by what it is to us or by signing with it: "新客户🎉 蔓汐皮肤管理，…", "跟星禾模特经纪
# 签了年框". The name is a trade name jieba does not know, then ordinary words of what it does.
_ZH_INTRODUCED_RUN = re.compile(
    r"(?:新客户|客户|供应商|合作方|甲方|\b(?:new\s+)?(?:client|supplier|vendor|account)\b)"
    r"(?:签了|谈下来了|来了)?[^\u4e00-\u9fff\n]{0,4}"
    r"(?P<n>[\u4e00-\u9fff]{4,8}?)(?=[，,。（(\s]|那边|这边|$)"
    r"|(?:跟|和|与)(?P<s>[\u4e00-\u9fff]{4,8}?)签(?:了|的|约|合同)"
)


def _introduced_firm_runs(text: str) -> list[Mention]:
    found = []
    for m in _ZH_INTRODUCED_RUN.finditer(text):
        group = "n" if m.group("n") else "s"
        name = m.group(group)
        rest = [w for w, _t, _s in _zh_tokens(name[2:])]
        ordinary_rest = bool(rest) and all(is_common_zh_word(w, 1) and len(w) >= 2 for w in rest)
        coined = _unlisted_word(name[:2]) and ordinary_rest
        # "新客户好多云联合办公（共享办公，两个点位）": a name and, in a bracket, what the firm is;
        # its words may be everyday ones (好多云)
        described = (
            re.match(r"\s*(?:[（(]|[—–]|-\s)", text[m.end(group) :]) is not None
            and name[0] not in "那这他她它我你"
            and not any(c in _ZH_NAME_BOUNDARY_CHARS for c in name)
        )
        if coined or described:
            found.append(Mention("org", m.start(group), m.end(group), name, name))
    return found


# "又来个新客户 汕头澄海的 小犀鸟玩具": a client introduced, maybe where it is from, then a trade
# name and a line of business; read on the characters (jieba cuts 小|犀鸟|玩具 as everyday words).
_ZH_CLIENT_THEN_FIRM = re.compile(
    r"(?:新客户|新客人|客户)[^，,。；;！!？?\n]{0,10}?(?:的\s*|\s+)(?P<n>(?P<trade>[\u4e00-\u9fff]{2,3}?)(?:"
    + "|".join(sorted(ZH_INDUSTRY_WORDS, key=len, reverse=True))
    + "))"
)


def _orgs_read_on_characters(text: str) -> list[Mention]:
    found = [
        Mention("org", m.start("n"), m.end("n"), m.group("n"), m.group("n"))
        for m in _ZH_CLIENT_THEN_FIRM.finditer(text)
        if not is_common_zh_word(m.group("trade"))
        and not _dictionary_tag(m.group("trade")[0]).startswith(("v", "p", "d", "r", "m", "u", "c"))
    ]
    found += [
        Mention("org", m.start("n"), m.end("n"), m.group("n"), m.group("n"))
        for m in _ZH_TRADER_THEN_FIRM.finditer(text)
        if _unlisted_word(m.group("trade"))
    ]
    found += [
        Mention("org", m.start("n"), m.end("n"), m.group("n"), m.group("n"))
        for m in _ZH_MEASURED_FIRM.finditer(text)
        if _unlisted_word(m.group("trade"))
        and _trade_word(m.group("kind"), _dictionary_tag(m.group("kind")), 1)
    ]
    return found


# What only a person does or is called right after a name: speaks, agrees, replies; a title.
