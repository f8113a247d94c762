"""Language detection and word tokenisation shared by compression, fulltext search and retrieval.

Chinese has no spaces: jieba segments it. Everything else is split on word characters. The same
tokeniser feeds the SQLite FTS5 index and the queries against it, so both sides agree.
"""

from __future__ import annotations

import functools
import logging
import re

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_CJK_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# A non-CJK word never swallows CJK characters: "QM-220铝支架" is "qm-220" then jieba's words.
_WORD = re.compile(
    rf"[{_CJK_CHARS}]+|[^\W_{_CJK_CHARS}]+(?:['’.\-][^\W_{_CJK_CHARS}]+)*",
    re.UNICODE,
)
# Count tokens the way the README states: one per CJK character, one per other word or symbol.
# A Latin word stops at a CJK character: "user喜欢更加复杂的情节" is 1 + 8 tokens, not one word.
_COUNT = re.compile(rf"[{_CJK_CHARS}]|[^\W_{_CJK_CHARS}]+|[^\w\s]", re.UNICODE)

# Function words. The last line is the rest of Chinese's closed class of sentence-final and
# interjection particles (jieba's y/e tags): in a question ("…是在哪呀") they are tone, and as
# rare tokens they would match any chit-chat line that has the same tone ("早呀！").
_STOPWORD_TEXT = """
a an the and or but if of to in on at by for with from as is are was were be been being am do does
did have has had i me my we our you your he him his she her it its they them their this that these
those what which who whom whose when where why how there here so not no yes just than then too very
can could will would shall should may might must about into over after before up down out off again
all any both each few more most other some such only own same s t don now get got go going went
的 了 和 是 在 我 你 他 她 它 我们 你们 他们 这 那 就 都 也 还 吗 呢 吧 啊 一个 有 把 被 给 跟 与 及
上 下 个 着 过 要 会 说 让 对 而 并 或 又 很 太 哦 嗯
呀 嘛 啦 咯 哇 呗 哟 喽 噢 喔 诶 欸 哈 嘿 哎 唉 么 嘞 呐 咧
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


# Latin script: ASCII and the Latin letters with diacritics (Latin-1 and Latin Extended, without
# × and ÷) plus curly apostrophes: Brandstätter, Kōtare, Łódź, O’Brien are spelled word by word as
# English names are, and match as they do.
_NOT_LATIN = re.compile(r"[^\x00-\x7f\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff\u2018\u2019]")


def is_latin(text: str) -> bool:
    """True when `text` is in the Latin alphabet (diacritics allowed), not CJK or another script."""
    return not _NOT_LATIN.search(text)


def is_chinese(text: str) -> bool:
    """True when CJK characters make up a real share of the text's letters."""
    cjk = len(_CJK.findall(text))
    return cjk > 0 and cjk >= 0.2 * max(1, len(re.findall(r"\w", text)))


def detect_lang(text: str) -> str:
    return "zh" if is_chinese(text) else "en"


@functools.cache
def _jieba():
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


@functools.cache
def _to_simplified():
    import opencc

    return opencc.OpenCC("t2s")


@functools.lru_cache(maxsize=65536)
def _simplified_char(char: str) -> str:
    converted = _to_simplified().convert(char)
    # one character of the same block (騴 would become 𫘫, outside the ranges the rules read; 鸂
    # would become 㶉, out of the unified block most rules read as [\u4e00-\u9fff])
    return converted if len(converted) == 1 and _cjk_block(converted) == _cjk_block(char) else char


def _cjk_block(char: str) -> int:
    """Which of the CJK ranges the rules read holds `char` (-1: none)."""
    code = ord(char)
    return next((i for i, (low, high) in enumerate(_CJK_BLOCKS) if low <= code <= high), -1)


_CJK_BLOCKS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))


@functools.lru_cache(maxsize=4096)
def zh_simplified(text: str) -> str:
    """`text` in simplified characters, each character on its own (the same length, so an offset
    into it is an offset into `text`): jieba's dictionary and the Chinese rules are written in
    simplified characters, and a Hong Kong or Taiwan user writes 請, 們, 簽, 醫生. Never by phrase:
    OpenCC's phrase table reads the surname in 沈厚 as 沉 (to sink).

    Example:
        >>> zh_simplified("係佢哋自己請 ChillTrack 裝嘅"), zh_simplified("沈厚提醒我们")
        ('系佢哋自己请 ChillTrack 装嘅', '沈厚提醒我们')
    """
    if not _CJK.search(text):
        return text
    return "".join(_simplified_char(c) if _CJK.match(c) else c for c in text)


COMMON_WORD_MIN_FREQ = 100  # jieba dictionary count (of ~60M): 包装 910, 机电 828, 宏达 275, 锐拓 0


def is_common_zh_word(word: str, min_freq: int = COMMON_WORD_MIN_FREQ) -> bool:
    """A frequent word of jieba's general dictionary (an ordinary word such as 包装, 机电, 精密).

    Trade names and given names are rare or absent there, so this separates "the kind of business"
    from "the name of the business" without a list of either.
    """
    jieba = _jieba()
    jieba.dt.check_initialized()
    return jieba.dt.FREQ.get(word, 0) >= min_freq


def zh_dictionary_tag(word: str) -> str:
    """jieba's dictionary part of speech for a word ("" when it has none): the word's usual reading,
    whatever the sentence around it."""
    import jieba.posseg

    jieba.posseg.dt.tokenizer.check_initialized()
    return jieba.posseg.dt.word_tag_tab.get(word, "")


def tokenize(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lower-cased word tokens; Chinese runs segmented with jieba."""
    tokens: list[str] = []
    for match in _WORD.finditer(text):
        piece = match.group(0)
        if _CJK_RUN.fullmatch(piece):
            tokens.extend(w for w in _jieba().lcut(piece) if w.strip())
        else:
            tokens.append(piece.lower())
    if keep_stopwords:
        return tokens
    return [t for t in tokens if t not in STOPWORDS]


# What the fulltext indexes hold, recorded in each store: a store written with other terms is
# re-indexed once when opened (EmbeddedStore._migrate, Neo4jStore._ensure_schema).
SEARCH_TERMS_VERSION = "words+cjk-bigrams"


def search_terms(text: str) -> list[str]:
    """The terms a fulltext index holds and a fulltext query asks for: `tokenize`'s words, and for
    Chinese also every pair of adjacent characters. jieba can cut one name two ways (湘黛 in a
    memory, 湘 / 黛 in a question) and a hurried question shortens names (乐光鞋 for 乐光跑鞋); the
    character pairs still meet, as in Lucene's CJK analyzer. Pairs made only of stopwords are left
    out, as the stopwords themselves are, and so is a pair that is one of the words already (今天)."""
    terms = tokenize(text)
    words = set(terms)
    for run in _CJK_RUN.findall(text):
        for i in range(len(run) - 1):
            pair = run[i : i + 2]
            if pair in words or pair in STOPWORDS or (pair[0] in STOPWORDS and pair[1] in STOPWORDS):
                continue
            terms.append(pair)
    return terms


_COMPOUND_SPLIT = re.compile(r"['’.\-]")


def query_terms(text: str) -> list[str]:
    """The terms a fulltext *query* asks for: `search_terms`, and each part of a joined word too.
    An index matches a joined word ("transgender-specific", "Caroline's") only as the phrase of its
    parts, which the text rarely repeats ("a transgender poetry reading"); its parts alone still
    meet it. The index side keeps the joined words as they are, so nothing is re-indexed."""
    # A lone Chinese function character (不 of 不舒服, 都, 在, 和, 啥) meets every sentence that
    # negates or links anything: "哪儿不舒服" ranked "不知道该怎么开始" first on 不 alone. Its
    # character pairs (不舒) still ask for it; the index keeps it, so nothing is re-indexed.
    terms = [t for t in search_terms(text) if not _function_character(t)]
    seen = set(terms)
    for term in list(terms):
        for part in _COMPOUND_SPLIT.split(term) if _COMPOUND_SPLIT.search(term) else ():
            if len(part) > 1 and part not in STOPWORDS and part not in seen:
                seen.add(part)
                terms.append(part)
    return terms


_FUNCTION_TAGS = ("d", "p", "c", "u", "y", "r")  # adverb, preposition, conjunction, particles, pronoun


def _function_character(term: str) -> bool:
    return len(term) == 1 and bool(_CJK.match(term)) and zh_dictionary_tag(term).startswith(_FUNCTION_TAGS)


def count_tokens(text: str) -> int:
    """Tokens for budgets and `context_tokens`: one per CJK character, word, or punctuation mark."""
    return len(_COUNT.findall(text))


def token_prefix(text: str, budget: int) -> str:
    """The longest prefix of `text` holding at most `budget` tokens (as `count_tokens` counts)."""
    end = 0
    for n, match in enumerate(_COUNT.finditer(text)):
        if n == budget:
            break
        end = match.end()
    return text[:end]


_CLAUSE_END = re.compile(r"[,.;:!?，。；：！？、]")


def clause_window(text: str, budget: int, terms: set[str]) -> str:
    """The run of whole clauses of `text` within `budget` tokens that holds the most of `terms`
    (ties: the longest, then the earliest), "…" marking each side cut off; "" when no clause fits.
    Whole clauses: half a name or half an amount would be worse than none. A clause ends at a
    comma, a full stop and the like, not inside a number ("3.5", "1,420"). A term counts by its
    length up to 4 characters: 惊悚片 says more than 看, and English words weigh alike; an English
    word also matches its inflections ("recommend", "recommended")."""
    if count_tokens(text) <= budget:
        return text
    bounds, start = [], 0
    for m in _CLAUSE_END.finditer(text):
        i = m.start()
        if 0 < i < len(text) - 1 and text[i - 1].isdigit() and text[i + 1].isdigit():
            continue
        bounds.append((start, m.end()))
        start = m.end()
    if start < len(text):
        bounds.append((start, len(text)))
    # each clause's words once: a window's words are the union of its clauses'
    words = [set(tokenize(text[a:b])) for a, b in bounds]
    best, best_key = "", None
    for first in range(len(bounds)):
        seen: set[str] = set()
        for last in range(first, len(bounds)):
            piece = text[bounds[first][0] : bounds[last][1]].strip()
            cut_after = last < len(bounds) - 1
            shown = ("…" if first else "") + piece.rstrip(",;:，；：、") + ("…" if cut_after else "")
            if count_tokens(shown) > budget:
                break
            seen |= words[last]
            key = (weight_of_terms(seen, terms), count_tokens(piece))
            if best_key is None or key > best_key:
                best, best_key = shown, key
    return best


def weight_of_terms(words: set[str], terms: set[str]) -> int:
    """Each term found among `words` (an English one also as an inflection), by its length up to 4."""
    found = {
        t
        for t in terms
        if t in words
        or (t.isascii() and len(t) >= 5 and any(w.startswith(t[:5]) and w.isascii() for w in words))
    }
    return sum(min(len(t), 4) for t in found)
