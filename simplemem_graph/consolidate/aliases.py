"""Alias evidence read from text: explicit alias statements, nickname forms, short names.

These are pure functions over strings; `entities.py` decides what to do with what they find.
Only evidence that names both forms counts as explicit: "深圳市锐拓精密五金有限公司（下面简称锐拓）",
"罗志强（罗总）", "黄建国，大家都叫他黄工", "张总张伟", "Acme Corporation (Acme)".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from functools import cache

# Word lists only (data, no stage-1 logic): the one lexicon, and the place fallback.
from simplemem_graph.compress.names import is_department, is_job_title, is_plural_common_noun
from simplemem_graph.consolidate.romanisation import cantonese_initials, pinyin_initials
from simplemem_graph.gazetteer import ZH_PLACES
from simplemem_graph.lexicon import (
    EN_FIRM_INTRODUCED,
    EN_ORG_SUFFIXES,
    EN_POSTS,
    EN_TITLES,
    INTERNATIONAL_LEGAL_FORMS,
    LATIN_KIND_FIRST_WORDS,
    ZH_INDUSTRY_WORDS,
    ZH_JOB_ROLES,
    ZH_ORG_ROLE_NOUNS,
    ZH_ORG_SUFFIXES,
    ZH_SURNAMES,
    ZH_TITLE_FALSE_FRIENDS,
    ZH_TITLES,
    _words,
)
from simplemem_graph.text import is_common_zh_word, is_latin, zh_dictionary_tag, zh_simplified

# A nickname form (老黄, 小蒋, 罗总, 黄工) is only read as a person when its surname is one of the
# lexicon's, which keeps words such as 小时 or 总价 out.
SURNAMES = "".join(sorted(ZH_SURNAMES))
TITLES = ZH_TITLES
_TITLE_ALT = "|".join(TITLES)
_NICKNAME = re.compile(rf"^(?:[老小]([{SURNAMES}])|([{SURNAMES}])(?:{_TITLE_ALT}))$")
NICKNAME_IN_TEXT = re.compile(rf"[老小][{SURNAMES}]|[{SURNAMES}](?:{_TITLE_ALT})")
_FULL_NAME = re.compile(rf"^[{SURNAMES}][\u4e00-\u9fff]{{1,3}}$")

_EN_LEGAL = (
    *("Corp", "Corp.", "Corporation", "Inc", "Inc.", "Ltd", "Ltd.", "LLC", "LLP", "GmbH", "Co", "Co."),
    *("Pvt", "Pvt.", "Pty", "Pty.", "Pte", "Pte.", "Sdn", "Bhd", "PLC", "B.V.", "BV", "Limited"),
    # legal forms of other countries written in Latin letters (Lda. in Portugal, S.L. in Spain…)
    *("Lda", "Lda.", "Ltda", "Ltda.", "S.A.", "S.L.", "SARL", "S.A.S.", "S.r.l.", "Srl", "SpA", "S.p.A."),
    *("AG", "KG", "OHG", "e.K.", "N.V.", "NV", "Oy", "ApS", "DAC", "CIC", "Bhd.", "Sdn."),
    *("L.L.C.", "W.L.L.", "FZE", "FZCO", "FZ-LLC", "Berhad", "inc", "inc.", "ltée", "Ltée"),
    # written out in full: "Munchwala Foods Private Limited" is the "… Pvt. Ltd." of a signature
    *("Private Limited", "Proprietary Limited", "Sendirian Berhad", "Public Limited Company"),
)
# Words for a kind of company in other languages written in Latin letters: "Ribeira Nova
# Produções" is a firm whatever stage 1 typed it, as "… Productions" is.
_OTHER_LATIN_ORG_WORDS = (
    *("Produções", "Producciones", "Produzioni", "Produktion", "Filmes", "Comércio", "Serviços"),
    *("Servicios", "Soluções", "Soluciones", "Consultoria", "Construções", "Construcciones"),
    *("Engenharia", "Ingeniería", "Tecnologia", "Tecnología", "Distribuidora", "Editora", "Transportes"),
    *("Imobiliária", "Inmobiliaria", "Indústria", "Industrias", "Seguros", "Banco"),
)
_LATIN_ORG_ENDINGS = {*EN_ORG_SUFFIXES, *_EN_LEGAL, *_OTHER_LATIN_ORG_WORDS}
# A name ending in an organisation word of the lexicon (or a legal form) is an organisation.
ORG_SUFFIX = re.compile(
    "(?:有限责任公司|"
    + "|".join(sorted({*ZH_ORG_SUFFIXES, "工厂", "厂"}, key=len, reverse=True))
    + ")$|(?<![A-Za-z])(?:"
    + "|".join(re.escape(w) for w in sorted(_LATIN_ORG_ENDINGS, key=len, reverse=True))
    + r")\.?$",
    re.IGNORECASE,
)
# Words that name a kind of organisation, never one organisation: never a short name on their own.
GENERIC_ORG_WORDS = frozenset(
    {
        *ZH_ORG_SUFFIXES,
        *ZH_INDUSTRY_WORDS,
        *("工厂", "厂", "供应商", "客户", "厂家"),
        *(w.casefold().rstrip(".") for w in (*_EN_LEGAL, *EN_ORG_SUFFIXES)),
    }
)
_EN_TITLED = re.compile(r"^(?:" + "|".join(re.escape(t) for t in EN_TITLES) + r")\s+([A-Z][\w'’-]+)$")
EN_TITLED_IN_TEXT = re.compile(
    r"(?<![A-Za-z])(?:" + "|".join(re.escape(t) for t in EN_TITLES) + r")\s+[A-Z][\w'’-]+"
)

_PAREN_ALIAS = re.compile(
    r"[（(]\s*(?:下面简称|以下简称|下称|简称|又称|aka|a\.k\.a\.|hereafter|hereinafter)?\s*[“\"']?"
    r"([^（）()，,。；;：:“”\"'\s][^（）()，,。；;：:“”\"']{0,19}?)[”\"']?\s*[）)]",
    re.IGNORECASE,
)
_CALLED = re.compile(
    r"(?:大家都叫他|大家都叫她|大家叫他|大家叫她|都叫他|都叫她|人称|我们叫他|我们叫她)\s*[“\"']?([\u4e00-\u9fff]{2,4})"
    r"|(?:\bknown as|\bnicknamed|\bgoes by|\bcalls (?:him|her)|\bcall (?:him|her))\s+[“\"']?"
    r"([A-Z][\w\-]*(?: [A-Z][\w\-]*)?)"
)
_TITLE_THEN_NAME = re.compile(rf"([{SURNAMES}])({_TITLE_ALT})(\1)")
_CJK_CHAR = re.compile(r"[\u4e00-\u9fff]")
_CJK_ONLY = re.compile(r"[\u4e00-\u9fff]+")
_ZH_PLACE_ALT = "|".join(sorted(ZH_PLACES, key=len, reverse=True))
_ZH_ORG_HEAD = r"(?:工厂|厂|公司|供应商|厂家|商家)"
_ZH_THAT_PLACE_ORG = re.compile(
    rf"[那这]家(?P<place>{_ZH_PLACE_ALT})(?P<kind>[\u4e00-\u9fff]{{0,4}}?){_ZH_ORG_HEAD}"
)
_ZH_PLACE_THAT = re.compile(
    rf"(?P<place>{_ZH_PLACE_ALT})的?[那这]家(?:(?P<kind>[\u4e00-\u9fff]{{0,4}}?){_ZH_ORG_HEAD})?"
)
_PLACE_WORD = "[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+"
_EN_THE_PLACE_ORG = re.compile(
    # (a place written with its own letters: "the Nørrebro label", "the Malmö brand")
    rf"\b(?:[Tt]he|[Tt]hat) (?P<place>{_PLACE_WORD}(?: {_PLACE_WORD})?) (?P<kind>(?:[a-z]+ ){{0,2}})"
    r"(?:supplier|vendor|factory|manufacturer|company|firm|client|customer|plant|label|brand|chain"
    # "The Peebles lot want a shot list": a firm's people, called by where it is
    r"|lot|crowd|mob|folks|people)\b(?!\s+(?:of|who|that|which)\b)"
)
_CALENDAR_WORD = re.compile(
    r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|January|February|March|April|May|June|July|August|"
    r"September|October|November|December|Christmas|Easter|Weekend"
)
# "那个做紧固件的客户", "做包装的那家供应商", "the fastener client": an organisation by what it does.
_ZH_DOES_X_ORG = re.compile(
    r"(?:那个|那家|这个|这家)?做(?P<what>[\u4e00-\u9fff]{1,6}?)的(?:那个|那家|这个|这家)?"
    r"(?:客户|供应商|厂家|工厂|厂|公司|商家|厂商)"
)
_EN_THE_X_ORG = re.compile(
    r"\b(?:[Tt]he|[Tt]hat|[Oo]ur) (?P<what>[a-z][a-z-]+) "
    r"(?:client|customer|supplier|vendor|manufacturer|maker|firm|importer|exporter|distributor)\b"
)
# Words that fill the slot of a description without saying what the organisation does.
_NOT_ACTIVITIES = frozenset(
    _words(
        """new old other same first second last main big small local foreign usual previous current key
        potential existing former next only"""
    )
)
# A registered Chinese company name opens with its place (深圳市, 东莞, 广东省深圳市)...
_ZH_PLACE_PREFIX = re.compile(
    "^(?:(?:" + "|".join(sorted(ZH_PLACES, key=len, reverse=True)) + ")[省市区县]?)+"
)
_ZH_MARKED_PLACE_PREFIX = re.compile(r"^(?:[\u4e00-\u9fff]{2,3}?[省市县区])+")
# ...and closes with its legal form and industry words (精密五金有限公司, 塑胶制品有限公司).
_ZH_ORG_TAIL = re.compile(
    "(?:有限责任公司|股份有限公司|有限公司|股份公司|公司|集团|工厂|厂|"
    + "|".join(sorted(set(ZH_ORG_SUFFIXES) | set(ZH_INDUSTRY_WORDS), key=len, reverse=True))
    + ")$"
)
_CLAUSE_BREAK = re.compile(r"[，,。：:；;！!？?、\n]")
_TRAILING_CAPITALISED = re.compile(r"((?:[A-Z][\w&.\-]*\s+){0,5}[A-Z][\w&.\-]*)\s*$")


@dataclass(frozen=True)
class AliasEvidence:
    """`alias` names the same thing as `full`, as stated in the text (`reason` says how)."""

    full: str
    alias: str
    type: str  # person|org|other
    reason: str  # "parenthesis" | "called" | "title-name" | "full-name"


def normalise_name(name: str) -> str:
    """The key two spellings of one name share: NFKC, case-folded, inner whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split()).strip(" .,'\"“”‘’")


def nickname_surname(name: str) -> str | None:
    """The surname of a Chinese nickname or title form (老黄, 小蒋, 罗总, 黄工), else None."""
    name = name.strip()
    if name in ZH_TITLE_FALSE_FRIENDS:
        return None
    match = _NICKNAME.match(name)
    return (match.group(1) or match.group(2)) if match else None


def titled_surname_en(name: str) -> str | None:
    """The surname of an English title form ("Ms. Rivera", "Dr Okafor"), else None."""
    match = _EN_TITLED.match(name.strip())
    return match.group(1) if match else None


def is_chinese_full_name(name: str) -> bool:
    """A 2-4 character Chinese personal name with a common surname, not a nickname form."""
    return bool(_FULL_NAME.match(name)) and nickname_surname(name) is None


# Particles that open a personal name written with an inner capital (McDonald, DeAndre, O'Neil):
# any other single word with one (PayNest, WeChat) is a brand or a firm, never a person.
_NAME_PARTICLES = ("Mc", "Mac", "De", "Di", "Da", "Du", "La", "Le", "Van", "Von", "O'", "O’")
_INNER_CAPITAL = re.compile(r"^[A-Z][a-z]+(?:[A-Z][a-z]+)+$")
# What an organisation is to us, written right before its name when it is introduced: "新客户签了
# 麦野烘焙", "a new importer — Ashby & Rourke".
_EN_ORG_ROLES = r"client|customer|supplier|vendor|importer|exporter|distributor|manufacturer"
# One-character 厂 opens 厂长 (a job), 对方 is a pronoun for whoever the other side is: neither
# introduces a firm's name.
_ZH_INTRODUCING = sorted((w for w in ZH_ORG_ROLE_NOUNS if len(w) >= 2 and w != "对方"), key=len, reverse=True)
_ORG_ROLE_ALT = "|".join(_ZH_INTRODUCING) + "|" + _EN_ORG_ROLES
# A job written right before a person's name ("财务梅姐", "采购胡勇之"), not our own ("我们财务小王").
ZH_JOB_ALT = "|".join(sorted(ZH_JOB_ROLES, key=len, reverse=True))  # a regex alternation, longest first


def brand_shaped(name: str) -> bool:
    """One word with an inner capital that no name particle explains: PayNest, not McDonald."""
    name = name.strip()
    return bool(_INNER_CAPITAL.match(name)) and not name.startswith(_NAME_PARTICLES)


def introduced_as_org(name: str, text: str) -> bool:
    """`text` introduces `name` as an organisation: a role noun (客户, supplier...) shortly before it
    in the same clause ("新客户签了🎉 麦野烘焙", "signed a new importer yesterday — X")."""
    # Not through a possessive: "客户的王总", "the client's contact Tom" name someone at the firm;
    # not inside the firm ("公司里都叫她铁姐") and not after 他/她: who is called so is a person.
    name, text = zh_simplified(name), zh_simplified(text)  # 新客戶 is 新客户
    pattern = rf"(?:{_ORG_ROLE_ALT})(?![长里内])[^，,。；;！!？?\n的'’他她佢]{{0,12}}?{re.escape(name)}"
    if re.search(pattern, text, re.IGNORECASE):
        return True
    # "signed direct with a telematics company, Orbitrack", "a firm called Tallyclock"
    return any(text.startswith(name, m.end()) for m in EN_FIRM_INTRODUCED.finditer(text))


def job_before(name: str, text: str) -> bool:
    """A job title right before `name` ("财务梅姐", "日常对接找思琪", "老板大家都喊龙哥"), or given
    right after it as an apposition ("思琪，律师助理", "嘉豪是财务"); not after 我们/我方 (our own
    staff)."""
    if re.search(rf"(?<!我们)(?<!我方)(?:{ZH_JOB_ALT}|对接)[找是为]?{re.escape(name)}", text):
        return True
    # "老板大家都喊龙哥" (the boss, everyone calls him 龙哥): a post, then what people call its holder
    called = rf"(?<!我们)(?<!我方)(?<!我)(?:{ZH_JOB_ALT}|老板|老总)(?:大家|他们|她们)?都?[喊叫称][他她]?"
    if re.search(rf"{called}{re.escape(name)}", text):
        return True
    after = (
        rf"(?<!我们)(?<!我方){re.escape(name)}(?:[，,]\s*|是)(?!我们|我方|咱们)"
        rf"[\u4e00-\u9fff]{{0,3}}(?:{ZH_JOB_ALT})(?=[，,。；;）)\s]|$)"
    )
    return re.search(after, text) is not None or _en_post_after(name).search(text) is not None


# "Manjunath, facility manager at the main branch", "Shalini will be facility manager here", "they
# call the Colonel he's the operations director": a post given right after an English name (not
# "our …": our own staff; not "at <Firm>": that firm's).
def _en_post_after(name: str) -> re.Pattern:
    return re.compile(
        rf"\b{re.escape(name)}(?:,\s*|\s+is\s+(?:the\s+|their\s+)?|\s+will\s+be\s+(?:the\s+|their\s+)?|"
        rf",?\s+(?:he|she)(?:'s|’s|\s+is)\s+(?:the\s+|their\s+)?)"
        rf"(?!our\b|my\b)(?:[a-z][\w&/-]*\s+){{0,3}}(?:{EN_POSTS})\b(?!\s+(?:at|of|from)\s+[A-Z])"
    )


def guess_type(name: str) -> str:
    """person / org / other from the shape of a name alone (used when stage 1 gave no type)."""
    if ORG_SUFFIX.search(name.strip()):
        return "org"
    if nickname_surname(name) or is_chinese_full_name(name):
        return "person"
    return "other"


# A form written in capitals only (HDG, U.K.): initials, never an ordinary word.
_INITIALS_FORM = re.compile(r"^[A-Z](?:\.?[A-Z]){1,5}\.?$")
_LATIN_WORD = re.compile(r"[A-Za-z][\w'’-]*")


def initials(name: str) -> str:
    """The capitals that open the capitalised words of a Latin name of two words or more
    ("Harbourside Dental Group" -> "HDG"); "" for one word or a name in another script. Words in
    lower case ("of", "and") are not counted: people leave them out of initials."""
    if not is_latin(name):
        return ""
    capitals = [w[0] for w in _LATIN_WORD.findall(name) if w[0].isupper()]
    return "".join(capitals) if len(capitals) >= 2 else ""


def opens_with_initials(short: str, full: str) -> bool:
    """`short` is written as the initials of the first two or more words of `full` ("DM" of "Di
    Marco Family Restaurants"): what a naming statement may introduce ("gonnae call them DM"),
    never enough on its own (DM opens too many names)."""
    letters = initials_form(short)
    # every capital that opens a word, a hyphened one too ("Stor-All": S and A)
    name = without_legal_form(full) or full
    opening = "".join(_WORD_OPENING_CAPITAL.findall(name)) if is_latin(name) else ""
    return len(letters) >= 2 and opening.startswith(letters) and len(opening) > len(letters)


_WORD_OPENING_CAPITAL = re.compile(r"(?<![A-Za-z])[A-Z]")


def initials_form(form: str) -> str:
    """The letters of `form` when it is written as initials ("HDG", "H.D.G."), else ""."""
    form = form.strip()
    return form.replace(".", "") if _INITIALS_FORM.match(form) else ""


def is_initials_of(short: str, full: str) -> bool:
    """True when `short` is written as initials and they are the capitals of `full` (HDG of
    Harbourside Dental Group); not HD, not HGD."""
    letters = initials_form(short)
    # the legal form is left out as often as not (KDHFCS of "... Co-operative Society Ltd")
    return bool(letters) and letters in (initials(full), initials(without_legal_form(full) or ""))


def is_abbreviation(short: str, full: str) -> bool:
    """True when `short` is a distinctive short form of `full`: a contained run, its initial words,
    its initials (exact, or scored as `abbreviation_accepted`), or a Chinese short form
    (`is_zh_short_form`).

    锐拓 of 深圳市锐拓精密五金有限公司, Kingsway of Kingsway Fasteners, Emma of Emma Hale, HDG of
    Harbourside Dental Group; not 五金.
    """
    short_key, full_key = normalise_name(short), normalise_name(full)
    if not short_key or short_key == full_key or short_key in GENERIC_ORG_WORDS:
        return False
    if is_initials_of(short, full) or abbreviation_accepted(short, full):
        return True
    if is_zh_short_form(short, full):
        return True
    if is_latin(short_key):
        short_words, full_words = short_key.split(), full_key.split()
        return len(short_words) < len(full_words) and full_words[: len(short_words)] == short_words
    # The end of a Chinese firm's name is its industry (五金 of 佛山宏达五金, 物流 of 杭州天成物流):
    # a kind of business, shared by many firms, never the short form of one.
    return len(short_key) >= 2 and short_key in full_key and not full_key.endswith(short_key)


_NAME_CONNECTORS = frozenset(["&", "and", "of"])  # inside a registered name: "Marks and Spencer Group PLC"
_ALL_LEGAL_FORMS = frozenset([*_EN_LEGAL, *INTERNATIONAL_LEGAL_FORMS])
_MULTIWORD_LEGAL_FORMS = sorted((f for f in _ALL_LEGAL_FORMS if " " in f), key=len, reverse=True)


def has_legal_form(name: str) -> bool:
    """A Latin-script name that carries a registered legal form ("… Microfinance Bank Limited",
    "Acme Pty Ltd"), not only an organisation word ("Main Hospital")."""
    if any(name.endswith(" " + form) for form in _MULTIWORD_LEGAL_FORMS):  # "…, S.A. de C.V."
        return True
    return any({w.rstrip(","), w.rstrip(",.")} & _ALL_LEGAL_FORMS for w in name.split()[1:])


def without_legal_form(name: str) -> str | None:
    """An English firm's name without its legal form when at least two words remain ("Kessler
    Vaughn Ostrander LLP" -> "Kessler Vaughn Ostrander"; "Acme Ltd" keeps its form: one word alone
    is too easily another thing)."""
    for form in _MULTIWORD_LEGAL_FORMS:  # "Importadora Biomédica Tepeyac, S.A. de C.V."
        if name.endswith(" " + form):
            bare = name[: -len(form)].rstrip(" ,")
            return bare if len(bare.split()) >= 2 else None
    words = name.split()
    if len(words) < 3 or not all(
        w[:1].isupper() or w in _NAME_CONNECTORS or w.rstrip(",") in _ALL_LEGAL_FORMS for w in words
    ):
        return None
    kept = list(words)
    while len(kept) >= 3 and kept[-1].rstrip(",") in _ALL_LEGAL_FORMS:  # "Pvt Ltd", "Co., Ltd."
        kept.pop()
    return " ".join(kept).rstrip(",") if len(kept) < len(words) else None


# One legal form, spelt long or short: "Crestfield Medical Services Ltd" on a signature is the
# "… Limited" of the first turn. Keys are the form lower-cased without dots, commas or spaces.
_LEGAL_FORM_SPELLINGS = {
    "limited": "ltd", "incorporated": "inc", "corporation": "corp", "company": "co",
    "colimited": "coltd", "companylimited": "coltd", "proprietarylimited": "ptyltd",
    "privatelimited": "pvtltd", "sendirianberhad": "sdnbhd", "publiclimitedcompany": "plc",
    "limitedliabilitycompany": "llc", "limitedliabilitypartnership": "llp",
}


def same_firm_by_legal_form(name: str, other: str) -> bool:
    """Two spellings of one registered name: the same words before the legal form and the same
    form written long or short ("… Services Limited" / "… Services Ltd."). A different form
    ("Acme Holdings Ltd" / "Acme Holdings Inc") may be another firm of another country: no."""
    bare, other_bare = without_legal_form(name), without_legal_form(other)
    if not bare or not other_bare or normalise_name(bare) != normalise_name(other_bare):
        return False

    def form_key(full: str, stem: str) -> str:
        key = re.sub(r"[\s.,]", "", full[len(stem) :]).casefold()
        return _LEGAL_FORM_SPELLINGS.get(key, key)

    return form_key(name, bare) == form_key(other, other_bare)


def short_forms(name: str, type_: str) -> list[str]:
    """The forms people use for a full name once it is known, by the name's shape alone.

    - a registered Chinese company goes by its trade name: 深圳市锐拓精密五金有限公司 -> 锐拓,
      佛山宏达五金 -> 宏达 (the place, the legal form and the industry words dropped);
    - an English company by its first word: Kingsway Fasteners -> Kingsway;
    - an English full name by the given name: Emma Hale -> Emma;
    - a Chinese full name by its given name, when that is no word of its own: 付家明 -> 家明
      (colleagues call each other so), not 王建国 -> 建国.

    Example:
        >>> short_forms("东莞锐丰塑胶制品有限公司", "org"), short_forms("Emma Hale", "person")
        (['锐丰'], ['Emma'])
    """
    name = name.strip()
    words = name.split()
    if type_ == "org" and _CJK_CHAR.match(name):
        return _zh_trade_names(name)
    if type_ == "org" and is_latin(name):
        named = _name_after_its_kind(without_legal_form(name) or name)
        if named:
            return named
    if type_ == "person" and re.fullmatch(r"[\u4e00-\u9fff]{3}", name) and name[0] in ZH_SURNAMES:
        given = name[1:]
        tag = zh_dictionary_tag(given)
        return [given] if not is_common_zh_word(given) and (not tag or tag.startswith("nr")) else []
    if is_latin(name) and 2 <= len(words) <= 3 and all(w[:1].isupper() for w in words):
        if (
            type_ == "org"
            # "Wrenfield Cabs", "Corwell Opticians": a firm named by what it is goes by its first word
            and (ORG_SUFFIX.search(name) or words[-1] in EN_ORG_SUFFIXES or is_plural_common_noun(words[-1]))
            and len(words[0]) >= 3
        ):
            return [words[0]]
        if type_ == "person" and words[0].isalpha() and len(words[0]) >= 2:
            return [words[0]]
    return []


def _name_after_its_kind(name: str) -> list[str]:
    """ "Gestion Immobilière Desrochers-Bélanger" -> Desrochers-Bélanger and Desrochers, "Bank
    Seriwangi" -> Seriwangi: a firm whose name opens with words for its kind (LATIN_KIND_FIRST_WORDS,
    "de" / "of" between them) goes by the one or two capitalised words after them; a double-barrelled
    name by its first half too."""
    words = name.split()
    at = 0
    while at < len(words) - 1 and (words[at] in LATIN_KIND_FIRST_WORDS or words[at].lower() in _KIND_JOINERS):
        at += 1
    rest = words[at:]
    if at == 0 or words[at - 1].lower() in _KIND_JOINERS or not 1 <= len(rest) <= 2:
        return []
    if not all(w[:1].isupper() and len(w) >= 3 for w in rest):
        return []
    forms = [" ".join(rest)]
    halves = rest[0].split("-")
    if len(rest) == 1 and len(halves) == 2 and len(halves[0]) >= 4:
        forms.append(halves[0])
    return forms


_KIND_JOINERS = frozenset(["de", "des", "du", "of", "y", "e", "la"])


def _zh_trade_names(name: str) -> list[str]:
    """The trade name inside a Chinese company name, read from its structure.

    <place><trade name><industry><legal form>: the place is a run ending in 省/市/县/区 (or, as a
    fallback, a listed major place); the tail is legal forms, organisation words and common words
    (jieba's general dictionary knows 包装 and 机电, not 澄泰 or 锐拓). A four-character core with no
    marked place may still open with one (宁源澄泰): its last two characters are offered too. A place
    in a bracket before the legal form (刚好数控机床（昆山）有限公司) is no part of it. Read in
    simplified characters, given back as written (晴天數理補習班 -> 晴天數理).
    """
    written = _ZH_BRACKETED_PLACE.sub("", name)
    simplified = zh_simplified(written)
    return [written[(at := simplified.find(f)) : at + len(f)] for f in _zh_trade_names_simplified(simplified)]


_ZH_BRACKETED_PLACE = re.compile(r"[（(][\u4e00-\u9fff]{2,4}[）)](?=[\u4e00-\u9fff]*公司$)")


_EVERYDAY_WORD_FREQ = 100


def _zh_trade_names_simplified(name: str) -> list[str]:
    without_place = _ZH_MARKED_PLACE_PREFIX.sub("", name)
    marked = without_place != name
    without_place = _ZH_PLACE_PREFIX.sub("", without_place)
    marked = marked or without_place != name
    core, previous, industry = without_place, None, False
    while core != previous:
        previous = core
        core = _ZH_ORG_TAIL.sub("", core)
        if len(core) >= 5 and core[-1] in "园院校馆班" and is_common_zh_word(core[-3:], 1):
            core = core[:-3]  # 幼儿园, 美容院, 补习班: a noun for a place that serves people ends a name
        # A dictionary word at the end of the core is industry (五金 counts 75 in jieba's
        # dictionary, 精密 more): trade names are rare there or absent (锐拓 0). Once an industry
        # word is gone, four characters with no marked place are <place><trade name> (江溪达信 of
        # 江溪达信纺织): the trade name may be a dictionary word too (达信), so stripping stops.
        if len(core) >= 5 and is_common_zh_word(core[-3:], 1):
            core, industry = core[:-3], True  # 自行车 of 腾驰自行车, not 行车 leaving 腾驰自
        elif (len(core) > 4 or (len(core) == 4 and (marked or not industry))) and is_common_zh_word(
            core[-2:], 1
        ):
            core, industry = core[:-2], True
    # A rare word opens a coined name (宏亮 of 宏亮表面处理: 21 in jieba's dictionary); an everyday
    # one (圆满, 晴天) is no coinage, the whole core is the name.
    coined = not is_common_zh_word(core[:2], _EVERYDAY_WORD_FREQ)
    if len(core) == 4 and industry and not marked and coined and is_common_zh_word(core[2:]):
        # 蔓汐|皮肤|管理: a coined trade name, then ordinary words of what it does (a place-like
        # opening before a rare word, 江溪|达信, stays whole above)
        core = core[:2]
    # 市场部 is a department, not 市场: the tail must be a real company word, not 部 or 局.
    if len(without_place) - len(core) < 2 or not 2 <= len(core) <= 4 or not _CJK_ONLY.fullmatch(core):
        return []
    forms = [core]
    # its last two characters, unless they are an everyday word (时光 of 圆满时光: "time")
    if len(core) == 4 and not marked and not is_common_zh_word(core[2:]):
        forms.append(core[2:])
    return [f for f in forms if f not in GENERIC_ORG_WORDS]


# "Ashby & Rourke Homewares", "Marks & Spencer": capitalised words joined by "&" name a firm (a
# partnership's name), whatever words follow; one word on each side of "&", up to three after.
# One line only: a signature's "Director of Facilities & Operations" over the firm's name on the
# next line is no firm called "Facilities & Operations Hollowbrook …".
_AMPERSAND_NAME = re.compile(
    r"(?<![A-Za-z0-9&])([A-Z][A-Za-z0-9'’.-]*)[ \t]*&[ \t]*([A-Z][A-Za-z0-9'’.-]*)"
    r"((?:[ \t]+[A-Z][A-Za-z0-9'’-]*){0,3})(?![A-Za-z0-9&])"
)


def ampersand_names(text: str) -> list[tuple[str, list[str]]]:
    """Firm names written with "&" in `text`, each with the forms people shorten it to: the two
    joined words ("Ashby & Rourke") when more words follow, and the initials ("A&R").

    A name that is already initials ("A&R", "P&L") is no full name and is left out.

    Example:
        >>> ampersand_names("we signed Ashby & Rourke Homewares yesterday")
        [('Ashby & Rourke Homewares', ['Ashby & Rourke', 'A&R'])]
    """
    found = []
    for match in _AMPERSAND_NAME.finditer(text):
        first, second, rest = match.group(1), match.group(2), match.group(3).strip()
        if (len(first) == 1 and len(second) == 1) or (not rest and is_department(text, *match.span())):
            continue
        full = " ".join(w for w in (f"{first} & {second}", rest) if w).rstrip(".")
        if is_job_title(full):  # "Weddings & Events Manager" under a name in a signature: a post
            continue
        forms = ([f"{first} & {second}"] if rest else []) + [f"{first[0]}&{second[0]}"]
        found.append((full, forms))
    return found


@dataclass(frozen=True)
class DescriptiveReference:
    """A reference by description ("深圳那家", "那家深圳五金厂", "the Shenzhen bracket supplier")."""

    surface: str
    place: str  # "" when the description names no place
    kind_words: str  # words between the place and the head noun (五金), "" when none
    activity: str = ""  # what the organisation makes or does ("做紧固件的客户": 紧固件), "" when none
    located: bool = False  # the place is no known place: it must be where the text put one firm ("…在良渚")


def find_descriptive_references(text: str) -> list[DescriptiveReference]:
    """Places used to point at an organisation: "深圳那家", "那家深圳五金厂", "the Shenzhen supplier".

    Example:
        >>> [(r.surface, r.place, r.kind_words) for r in find_descriptive_references("那家深圳五金厂怎么样")]
        [('那家深圳五金厂', '深圳', '五金')]
    """
    found = []
    for pattern in (_ZH_DOES_X_ORG, _EN_THE_X_ORG):
        for m in pattern.finditer(text):
            what = m.group("what").strip()
            if what.casefold() in _NOT_ACTIVITIES:
                continue
            found.append((m.start(), m.end(), DescriptiveReference(m.group(0), "", "", what)))
    for pattern in (_ZH_THAT_PLACE_ORG, _ZH_PLACE_THAT, _EN_THE_PLACE_ORG):
        for m in pattern.finditer(text):
            if any(m.start() < f_end and f_start < m.end() for f_start, f_end, _ in found):
                continue
            kind = (m.group("kind") or "").strip()
            if _CALENDAR_WORD.fullmatch(m.group("place")):
                continue  # "the Monday people", "the January client": when, not where
            found.append((m.start(), m.end(), DescriptiveReference(m.group(0), m.group("place"), kind)))
    # "良渚那家的汝窑盖碗": a word no gazetteer holds before 那家; its two or three characters are
    # tried, resolution keeps the one the text gave as where a firm is ("青瓯公司在良渚").
    for m in _ZH_WORD_THAT.finditer(text):
        if any(m.start("that") < f_end and f_start < m.end() for f_start, f_end, _ in found):
            continue
        for size in (3, 2):
            place = text[max(0, m.start("that") - size) : m.start("that")]
            if len(place) == size and _CJK_ONLY.fullmatch(place) and not _NOT_A_PLACE.search(place):
                surface = place + m.group(0)  # "光谷那家药厂": the kind of firm said after it too
                reference = DescriptiveReference(surface, place, "", located=True)
                found.append((m.start("that") - size, m.end(), reference))
    return [ref for _, _, ref in sorted(found, key=lambda f: f[0])]


_ZH_WORD_THAT = re.compile(r"(?P<that>那家)(?:[\u4e00-\u9fff]{0,2}?(?:公司|工厂|厂|供应商|店))?")
# Words before 那家 that say when or which, not where ("上次那家", "最便宜那家", "就是那家").
_NOT_A_PLACE = re.compile(r"[上下次前后最就是的了这那哪个也还]")


def find_explicit_aliases(text: str, known_names: Iterable[tuple[str, str]] = ()) -> list[AliasEvidence]:
    """Alias statements in `text`.

    Args:
        text: an event text or the raw turn it came from.
        known_names: (name, type) pairs already known (entities, this event's participants); a
            known name right before the alias statement is preferred to guessing its boundary.

    Returns:
        One AliasEvidence per statement whose full form could be identified.

    Example:
        >>> find_explicit_aliases("佛山宏达五金的罗志强（罗总）说样品今天寄出")[0].full
        '罗志强'
    """
    known = sorted({(n.strip(), t) for n, t in known_names if n.strip()}, key=lambda nt: -len(nt[0]))
    found: list[AliasEvidence] = []
    for match in _PAREN_ALIAS.finditer(text):
        full = _full_name_before(text[: match.start()], match.group(1).strip(), known, adjacent=True)
        if full:
            found.append(AliasEvidence(full[0], match.group(1).strip(), full[1], "parenthesis"))
    for match in _CALLED.finditer(text):
        alias = (match.group(1) or match.group(2)).strip()
        full = _full_name_before(text[: match.start()].rstrip("，, "), alias, known, adjacent=False)
        if full:
            found.append(AliasEvidence(full[0], alias, full[1], "called"))
    for match in _TITLE_THEN_NAME.finditer(text):
        full = _name_at(text, match.start(3), known)
        if full:
            found.append(AliasEvidence(full, match.group(1) + match.group(2), "person", "title-name"))
    found += _full_names_given(text, known)
    found += _names_in_two_scripts(text, known)
    return [e for e in found if normalise_name(e.full) != normalise_name(e.alias)]


# "明睿教育事業股份有限公司 MingRui Education Co., Ltd.": a registered Chinese name and, right after it
# on its line, the English name the firm gives itself (a signature's, a contract's heading)
_ZH_REGISTERED_END = re.compile(r"(?:股份有限公司|有限公司|股份公司|有限責任公司|有限责任公司|集团|集團)$")


def _names_in_two_scripts(text: str, known: list[tuple[str, str]]) -> list[AliasEvidence]:
    """A known Chinese registered name followed, on the same line after a space or a slash, by a
    known Latin organisation name: one firm in its two scripts (the Chinese name the full one)."""
    found = []
    orgs = [n for n, kind in known if kind == "org"]  # longest first
    chinese = [n for n in orgs if _CJK_CHAR.match(n) and len(_ZH_REGISTERED_END.sub("", n)) >= 2]
    for latin in (n for n in orgs if is_latin(n)):
        for match in re.finditer(re.escape(latin), text):
            before = re.sub(r"[ \t]*[/｜|]?[ \t]*$", "", text[: match.start()])
            registered = re.search(r"[\u4e00-\u9fff]+$", before)
            if len(before) == match.start() or not registered or not _ZH_REGISTERED_END.search(before):
                continue  # no space between the two, or no registered Chinese name before it
            # the known name the registered one is written out from (明睿教育 of 明睿教育事業股份有限公司)
            zh = next((n for n in chinese if n in registered.group(0)), None)
            if zh:
                found.append(AliasEvidence(zh, latin, "org", "two-scripts"))
    return found


# "天猫店叫青瓯茶器旗舰店，公司全称杭州青瓯文化创意有限公司", "锐拓，全称深圳市锐拓…有限公司": the
# registered name given for the firm just named.
_FULL_NAME_GIVEN = re.compile(r"(?:全称|全名|注册名称?|工商名称?)\s*(?:是|叫|为|[：:])?\s*")


def _full_names_given(text: str, known: list[tuple[str, str]]) -> list[AliasEvidence]:
    """The one known firm named right before "全称 <a known firm's name>" in its sentence is that firm."""
    found = []
    orgs = [n for n, kind in known if kind == "org"]
    for match in _FULL_NAME_GIVEN.finditer(text):
        full = next((n for n in orgs if text.startswith(n, match.end())), None)
        ends = [m.end() for m in re.finditer(r"[。！？!?\n]", text[: match.start()])]
        before = text[max(ends, default=0) : match.start()]
        named = {n for n in orgs if n in before and n != full and not (full and n in full)}
        # the longest names only: 青瓯茶器 inside 青瓯茶器旗舰店 is one name
        named = {n for n in named if not any(n != m and n in m for m in named)}
        if full and len(named) == 1:
            found.append(AliasEvidence(full, named.pop(), "org", "full-name"))
    return found


def _full_name_before(
    before: str, alias: str, known: list[tuple[str, str]], *, adjacent: bool
) -> tuple[str, str] | None:
    """The full name an alias statement refers to: a known name (or a name-shaped run) before it."""
    stripped = before.rstrip()
    surname = nickname_surname(alias)
    if adjacent:
        for name, kind in known:
            fits = _surname_fits(surname, name) if surname else _abbreviates(alias, name)
            fits = fits or (kind == "org" and chinese_name_of_latin_firm(alias, name))
            if stripped.endswith(name) and fits:
                return name, kind
    else:  # "X，大家都叫他Y": the nearest known person before the phrase
        best = max(
            (
                (stripped.rfind(name), name, kind)
                for name, kind in known
                if kind == "person" and name in stripped
            ),
            default=None,
        )
        if best and _surname_fits(surname, best[1]):
            return best[1], best[2]
    run = _CLAUSE_BREAK.split(stripped)[-1].strip()
    if adjacent and not surname:
        # "新客户 Aurelia Tanjong Hospitality Sdn. Bhd.（奥丽雅）" before the firm is known: a Latin
        # name with its legal form, then the Chinese name it goes by
        latin = _TRAILING_CAPITALISED.search(stripped)
        firm = latin.group(1) if latin else ""
        if ORG_SUFFIX.search(firm) and chinese_name_of_latin_firm(alias, firm):
            return firm, "org"
    if surname:
        for length in (3, 2, 4):
            candidate = run[-length:]
            if len(candidate) == length and candidate[0] == surname and is_chinese_full_name(candidate):
                return candidate, "person"
        return None
    if is_latin(run):
        trailing = _TRAILING_CAPITALISED.search(run)
        words = trailing.group(1).split() if trailing else []
        # "Signed Harbourside Dental Group (HDG)": a capitalised verb may open the run; the longest
        # tail of it the alias abbreviates is the name.
        tails = (" ".join(words[i:]) for i in range(len(words)))
        run = next((tail for tail in tails if _abbreviates(alias, tail)), "")
    if run and _abbreviates(alias, run):
        return run, guess_type(run)
    return None


def chinese_name_of_latin_firm(alias: str, name: str) -> bool:
    """`alias` may be the Chinese name a Latin-script firm goes by ("Aurelia Tanjong Hospitality Sdn.
    Bhd.（奥丽雅）"): two to six Chinese characters, no place (深圳) and no everyday word at its
    start (明天来): a coined name, as transliterations are."""
    return (
        is_latin(name)
        and _CJK_ONLY.fullmatch(alias) is not None
        and 2 <= len(alias) <= 6
        and not is_common_zh_word(alias[:2])
        and not zh_dictionary_tag(alias).startswith("ns")
    )


def _abbreviates(alias: str, name: str) -> bool:
    """`is_abbreviation`, of the name or of it without its legal form: "Ileri Trust Microfinance
    Bank Limited (ITMFB)" gives the initials of the name before "Limited" (MFB: microfinance bank)."""
    bare = without_legal_form(name.rstrip("."))
    if is_abbreviation(alias, name) or (bare is not None and is_abbreviation(alias, bare)):
        return True
    # "… Healthcare Pvt. Ltd. (SMH Group)": initials and an organisation word of their own
    words = alias.split()
    return (
        len(words) == 2
        and words[1] in EN_ORG_SUFFIXES
        and bool(_INITIALS_FORM.match(words[0]))
        and _abbreviates(words[0], name)
    )


def _name_at(text: str, start: int, known: list[tuple[str, str]]) -> str | None:
    """The person name starting at `start`: a known one, else a 2-3 character name the text ends."""
    for name, kind in known:
        if kind == "person" and text.startswith(name, start):
            return name
    for length in (3, 2):  # unknown name: only when its end is unambiguous (punctuation or text end)
        end = start + length
        if (
            len(text) >= end
            and not _CJK_CHAR.match(text[end : end + 1])
            and is_chinese_full_name(text[start:end])
        ):
            return text[start:end]
    return None


def _surname_fits(surname: str | None, name: str) -> bool:
    return surname is None or (is_chinese_full_name(name) and name[0] == surname)


# ---- abbreviations by the Schwartz & Hearst (2003) rule -------------------------------------------
# A short form written in capitals abbreviates a long form when its letters occur in the long form in
# order, the first one opening it. Many long forms satisfy that for a given short form (PWL:
# Pellworth Logistics, and Pelworth Removals through P..w..l), so each match is scored by how many of
# its letters open a word (or are an inner capital): people build initials from word starts.


@dataclass(frozen=True)
class _Letter:
    letters: frozenset[str]  # lower-case letters this position may be written as
    opens_word: bool
    word: int | None  # which capitalised word it is in (None: a word in lower case, "of")


def _letters_of(name: str, cantonese: bool = False) -> list[_Letter]:
    """The letters of a name in order: a Latin letter opens a word after a non-letter or as an
    inner capital (AquaTrace); every Chinese character is one syllable, so one word, written by
    the initials of its pinyin (and, `cantonese`, of its Hong Kong spelling: 金 K as well as J)."""
    found: list[_Letter] = []
    previous, word, capitalised, paired = "", -1, False, False
    for char in unicodedata.normalize("NFKC", name):
        if _CJK_CHAR.match(char):
            word += 1
            initials = pinyin_initials(char) | (cantonese_initials(char) if cantonese else frozenset())
            found.append(_Letter(initials, True, word))
        elif char.isascii() and char.isalnum():
            if not (previous.isascii() and previous.isalnum()):
                # the word after "&" ends a pair people abbreviate by its first word or both
                # (MBP and MBPH of "Moccia Brothers Plumbing & Heating"): it need hold no letter
                capitalised = not char.islower() and not paired
                word += capitalised
                paired = False
            opens = not (previous.isascii() and previous.isalnum()) or (char.isupper() and previous.islower())
            found.append(_Letter(frozenset({char.lower()}), opens, word if capitalised else None))
        if char == "&":
            paired = True
        elif not char.isspace() and not (char.isascii() and char.isalnum()):
            paired = False
        previous = char
    return found


def abbreviation_starts(name: str) -> list[int]:
    """Where a short form of `name` may open (indexes into `_letters_of` / the characters of a
    Chinese name): its start, and for a Chinese organisation its trade name's start (锐拓 of
    深圳市锐拓精密五金有限公司), since the place is dropped."""
    starts = [0]
    if _CJK_CHAR.match(name.strip()):
        name = name.strip()
        for trade in _zh_trade_names(name):
            at = name.find(trade)
            if at > 0 and _CJK_ONLY.fullmatch(name[:at]):
                starts.append(at)
    return sorted(set(starts))


def abbreviation_letter_pairs(name: str) -> set[str]:
    """The letter pairs a Latin short form that `abbreviation_accepted` may find for `name` holds:
    the letter opening the name (or its trade name), then a later letter that opens a word. A
    short form with fewer than two letters on word starts never wins (`best_abbreviated`), so
    filing a name under these pairs finds every name a short form can stand for: PWL looks up
    "pw" and "pl", and Pellworth Logistics is filed under "pl". Chinese names: the initials of
    the two syllables a run opens with ("jc" of 锦骋汽车)."""
    letters = _letters_of(name)
    chinese = bool(_CJK_CHAR.search(name))
    pairs = set()
    for start in abbreviation_starts(name):
        if start >= len(letters):
            continue
        later = letters[start + 1 : start + 2] if chinese else letters[start + 1 :]
        for unit in later:
            if unit.opens_word:
                pairs |= {a + b for a in letters[start].letters for b in unit.letters}
    return pairs


def short_form_letter_pairs(short: str) -> set[str]:
    """The pairs `abbreviation_letter_pairs` files a name under that a capitals form may fit:
    its first letter with each later one (PWL: pw, pl)."""
    written = initials_form(short).lower()
    return {written[0] + later for later in written[1:]} if written else set()


def abbreviation_score(short: str, full: str) -> int:
    """How many letters of the capitals `short` fall on word starts of `full` in the best
    alignment that keeps them in order with the first opening `full` (or its trade name); 0 when
    there is none. A Chinese name is matched by the pinyin initials of a run of its characters:
    CXW of 澄溪外国语学校 (3), JC of 锦骋汽车 (2).

    Example:
        >>> abbreviation_score("PWL", "Pellworth Logistics"), abbreviation_score("PWL", "Pelworth Removals")
        (2, 1)
    """
    bare = without_legal_form(full)
    if bare:  # people leave the legal form out of initials (FLS of Fjordlin Studio ApS)
        return max(_abbreviation_score(short, full), _abbreviation_score(short, bare))
    return _abbreviation_score(short, full)


def _abbreviation_score(short: str, full: str) -> int:
    chinese = bool(_CJK_CHAR.search(full))
    score = _scored_on(short, full, _letters_of(full))
    if not score and chinese and initials_form(short):
        # Hong Kong initials follow Cantonese: KML of 金滿樓 (gam mun lau, written Kam Mun Lau)
        score = _scored_on(short, full, _letters_of(full, cantonese=True))
    return score


def _scored_on(short: str, full: str, letters: list[_Letter]) -> int:
    written = initials_form(short).lower()
    if not written or len(written) > len(letters) or normalise_name(short) == normalise_name(full):
        return 0
    chinese = bool(_CJK_CHAR.search(full))
    best = 0
    for start in abbreviation_starts(full):
        opening = letters[start] if start < len(letters) else None
        if opening is None or not opening.opens_word or written[0] not in opening.letters:
            continue
        if chinese:
            # Syllable by syllable from the start, through the trade name: the initials of a run.
            run = letters[start : start + len(written)]
            if (
                len(run) == len(written)
                and start + len(run) >= _zh_trade_end(full, start)
                and all(c in u.letters for c, u in zip(written, run, strict=True))
            ):
                best = max(best, len(written))
            continue
        last_word = max((u.word for u in letters if u.word is not None), default=0)
        rest = _best_word_starts(written[1:], letters[start + 1 :], opening.word or 0, last_word)
        if rest is not None:
            best = max(best, 1 + rest)
    return best


def _zh_trade_end(full: str, start: int) -> int:
    """Where the first trade name at or after `start` ends (0 when there is none): initials
    from the name's start run through it (SZSRT, not SZ, of 深圳市锐拓...)."""
    full = full.strip()
    ends = [full.find(t) + len(t) for t in _zh_trade_names(full) if full.find(t) >= start]
    return min(ends, default=0)


def _best_word_starts(written: str, letters: list[_Letter], word: int, last_word: int) -> int | None:
    """The most letters of `written` that can fall on word starts while all of them match
    `letters` in order and every capitalised word up to `last_word` holds one of them (BMS of
    Brackenfield Marine Services, not BM); None when they cannot."""

    @cache
    def best(i: int, j: int, current: int) -> int | None:
        if i == len(written):
            return 0 if current == last_word else None
        found = None
        for k in range(j, len(letters)):
            unit = letters[k]
            if unit.word is not None and unit.word > current + 1:
                break  # a capitalised word would be left without a letter
            if written[i] not in unit.letters:
                continue
            rest = best(i + 1, k + 1, current if unit.word is None else unit.word)
            if rest is not None and (found is None or rest + unit.opens_word > found):
                found = rest + unit.opens_word
        return found

    return best(0, 0, word)


def abbreviation_accepted(short: str, full: str) -> bool:
    """`short` stands for `full` with nothing else to back it: at least two of its letters, and
    more than half of them, open words of `full` (PWL of Pellworth Logistics; not PO of it)."""
    score = abbreviation_score(short, full)
    return score >= 2 and 2 * score > len(initials_form(short))


def best_abbreviated(short: str, candidates: Iterable[tuple[str, Hashable]], *, backed: bool = False):
    """The key of the one candidate (name, key) that `short` abbreviates best, else None.

    Candidates are ranked by `abbreviation_score` (a Chinese short form by `is_zh_short_form`,
    all equal). A tie at the top says the short form is ambiguous: nothing. The winner must also
    pass `abbreviation_accepted`, or, when `backed` (the text introduces the short form for one of
    these candidates), have two letters on word starts.

    Example:
        >>> best_abbreviated("PWL", [("Pellworth Logistics", 1), ("Pelworth Removals", 2)])
        1
    """
    scored: dict[Hashable, int] = {}
    for name, key in candidates:
        if initials_form(short):
            score = abbreviation_score(short, name)
        else:
            score = 1 if is_zh_short_form(short, name) else 0
        if score:
            scored[key] = max(score, scored.get(key, 0))
    if not scored:
        return None
    top = max(scored.values())
    winners = [key for key, score in scored.items() if score == top]
    if len(winners) != 1:
        return None
    winner = winners[0]
    if not initials_form(short):
        return winner
    names = [name for name, key in candidates if key == winner]
    if backed:  # the text says so: two letters on word starts are enough (PWL: P and L)
        return winner if any(abbreviation_score(short, name) >= 2 for name in names) else None
    return winner if any(abbreviation_accepted(short, name) for name in names) else None


def is_zh_short_form(short: str, full: str) -> bool:
    """`short` (2-4 Chinese characters) is a short form of the Chinese organisation name `full`:
    its characters occur in `full` in order, the first opening the name or its trade name — 澄外 of
    澄溪外国语学校, 北大 of 北京大学, 锐拓 of 深圳市锐拓精密五金有限公司; not 澄西 of it (no 西),
    never a generic organisation word (学校)."""
    short, full = short.strip(), full.strip()
    if (
        not _CJK_ONLY.fullmatch(short)
        or not 2 <= len(short) <= 4
        or len(short) >= len(full)
        or short in GENERIC_ORG_WORDS
        or not _CJK_CHAR.match(full)
        or not (_zh_trade_names(full) or ORG_SUFFIX.search(full))
    ):
        return False
    starts = abbreviation_starts(full)
    trade_start = max(starts)
    for start in starts:
        if full[start] == short[0] and _ends_at_or_after(short[1:], full, start + 1, trade_start):
            return True
    return False


def _ends_at_or_after(chars: str, text: str, begin: int, at_least: int) -> bool:
    """`chars` occur in `text[begin:]` in order, the last at index `at_least` or later: a short
    form opening with the place reaches into the trade name (深锐 of 深圳市锐拓...), never the
    place alone (深圳)."""
    position = begin
    for char in chars[:-1]:
        found = text.find(char, position)
        if found < 0:
            return False
        position = found + 1
    return not chars or text.find(chars[-1], max(position, at_least)) >= 0


# ---- short forms and descriptions a text introduces -------------------------------------------
# "gonna call them RSM", "that's what I'm calling them": a naming verb whose object is a pronoun
# for what was just named. 写/叫/称 + a form ("群里以后直接写JC"): a Chinese naming verb followed
# directly by the form. An alternative follows "or" / 或者 ("写CXW 或者澄外", "... or the Quarry Rd
# people"). Which entity the form names is decided by the caller (what the turn or its session
# names, and what the form abbreviates).
_EN_NAMING = re.compile(r"\b(?:call|calls|calling|called|refer to|referring to)\s+(?:them|it|'em|him|her)\b")
_EN_NAMING_FORM = re.compile(r"\s+(?:as\s+)?([A-Z][A-Za-z&]*(?:\s+[A-Z][A-Za-z&]*){0,2})")
_WHAT_BEFORE = re.compile(r"\bwhat\b[^.!?\n]{0,24}$", re.IGNORECASE)
# "everyone on the marina calls them the sunset cruise mob", "I don dey call them the market-women
# bank": a description in lower case after the naming verb, up to five words, cut before a word that
# goes on with the sentence ("… mob now lol")
_EN_NAMING_DESCRIPTION = re.compile(
    r"\s+(?:as\s+)?(?P<form>the(?!\s+(?:day|week|month|year|morning|afternoon|evening|night|weekend|next|"
    r"other|same|whole|first|last|following|previous|moment|minute|hour)\b)(?:\s+[a-z][\w'’-]*){1,5})"
)
_DESCRIPTION_STOP = re.compile(
    r"\s+(?:now|lol|haha|too|because|since|cos|coz|cause|cuz|bc|b/c|and|but|so|in|on|at|for|from|with|after)\b.*$"
)
_FORM = r"(?P<form>[A-Za-z][A-Za-z&.]{1,6}|[\u4e00-\u9fff]{2,4})"
# 称 of 全称 / 简称 / 名称 is the noun "name" ("全称太长了"), not the verb "to call"
ZH_THEM = "(?:他们|她们|它们|佢哋)"
# "我们华人叫他们奥丽雅": the pronoun for what is named comes first
_ZH_NAMING = re.compile(rf"(?:写|叫|(?<![全简名统俗昵号])称)(?:成|作|做|为)?\s*{ZH_THEM}?\s*{_FORM}")
_ZH_ALTERNATIVE = re.compile(rf"(?:或者|或是|或)\s*{_FORM}")
# "MBP from now on", "KPRC for short": capitals followed by a phrase that makes them the name used
_EN_FORM_FROM_NOW = re.compile(
    r"(?<![A-Za-z0-9&])(?P<form>[A-Z][A-Z&]{1,5})\s+"
    r"(?:from (?:now|here)(?: on)?|from here out|for short|going forward|henceforth)\b"
)
_EN_ALTERNATIVE = re.compile(
    r"(?:^|[,.;:!?]\s*|\s)or\s+(?P<form>(?:the|that)\s+[^,.;:!?\n]{2,48}?)\s*(?=[,.;:!?\n]|$)"
)


def introduced_forms(text: str) -> list[str]:
    """The forms a naming statement in `text` introduces, the main one first, or [] when the text
    makes none: "gonna call them RSM in here ... or the Quarry Rd strata people" -> ["RSM",
    "the Quarry Rd strata people"]; "群里以后就写CXW 或者澄外" -> ["CXW", "澄外"]; "all their paperwork
    says PWL so that's what I'm calling them" -> ["PWL"] (the capitals the turn writes).

    Example:
        >>> introduced_forms("锦骋俩字打着费劲 群里以后直接写JC")
        ['JC']
    """
    forms: list[str] = []
    english = _EN_NAMING.search(text)
    if english:
        # "call them RSM": the form follows; "that's what I'm calling them": it was written before
        # (the capitals of the turn). Anything else ("I called them yesterday") names nothing.
        after = _EN_NAMING_FORM.match(text, english.end())
        described = _EN_NAMING_DESCRIPTION.match(text, english.end())
        if after:
            forms.append(after.group(1))
        elif described:
            forms.append(_DESCRIPTION_STOP.sub("", described.group("form")))
        elif _WHAT_BEFORE.search(text[: english.start()]):
            forms += _CAPITALS_IN_TEXT.findall(text)
        if forms:
            forms += [m.group("form") for m in _EN_ALTERNATIVE.finditer(text, english.start())]
    forms += [m.group("form") for m in _EN_FORM_FROM_NOW.finditer(text)]
    for match in _ZH_NAMING.finditer(text):
        forms.append(match.group("form"))
        tail = text[match.end() :]
        alternative = _ZH_ALTERNATIVE.match(tail.lstrip())
        if alternative:
            forms.append(alternative.group("form"))
    return [f.strip() for f in dict.fromkeys(forms) if f.strip()]


# A word written in capitals only, standing alone ("HDG pulled go-live", "写JC", "at H.D.G."), not
# inside a Latin word (Chinese characters next to it do not join it), nor hyphened into a code
# ("KGF-20260220", a bill of lading number).
# A closing dot belongs to a dotted form (H.D.G.), not to "…in Xero now, FTQ." (the sentence's).
_CAPITALS_IN_TEXT = re.compile(
    r"(?<![A-Za-z0-9_.&-])(?:[A-Z](?:\.[A-Z]){1,5}\.?|[A-Z]{2,6})(?![A-Za-z0-9_&-])"
)


def capitals_words(text: str) -> list[str]:
    """The words of `text` written in capitals only (see `initials_form`), in order, once each."""
    return list(dict.fromkeys(_CAPITALS_IN_TEXT.findall(text)))


# "Pellworth Logistics, the cold store out at Daventry", "锦骋汽车，开发区那家4S店": a description
# set beside an organisation's name. English: a "the"/"that" noun phrase of four to seven words to
# the clause's end, or any short phrase after "aka"; Chinese: a short phrase with a demonstrative
# and a classifier inside (开发区那家4S店, 城南那所学校, Cantonese 西貢嗰間地產, "Eunos 那间货运公司"),
# opening with what picks the organisation out, not with the demonstrative, after a comma, a dash
# or 就是.
_STOP = r",，.。;；:：!?！？()（）\n"
_AKA = r"(?:aka|a\.k\.a\.?|also known as)"
# after a comma to the clause's end, or between two dashes ("Velmor Tiles — the Changi tile
# wholesaler — wants 3"): a dash opening a clause ("Redgum — the guy there is Shane") is no apposition
_EN_APPOSITION = re.compile(
    rf"\A\s*(?:[,，]\s*((?:the|that)\s+[^{_STOP}—–]{{2,60}}?)\s*(?=[{_STOP}—–]|\Z)"
    rf"|(?:—+|–)\s*((?:the|that)\s+[^{_STOP}—–]{{2,60}}?)\s*(?=—|–))",
    re.IGNORECASE,
)
_FINITE_VERB = re.compile(r"\b(?:is|are|was|were|has|have|had|will|did|does)\b", re.IGNORECASE)
_EN_AKA = re.compile(rf"\A\s*[,，]?\s*{_AKA}\s+([^{_STOP}—–]{{2,60}}?)\s*(?=[{_STOP}—–]|\Z)", re.IGNORECASE)
_ZH_DEMONSTRATIVE = r"[那这這嗰呢][家所个個间間座]"
_ZH_APPOSITION = re.compile(
    rf"\A\s*(?:[，,]|—+|–)\s*(?:也就是|就是|即)?\s*"
    rf"((?:[A-Za-z][\w'’-]*\s?|[^{_STOP}\s]{{1,6}}){_ZH_DEMONSTRATIVE})([^{_STOP}\s]{{0,6}})(?=[{_STOP}\s—–]|\Z)"
)
# A legal form between the name and its description: "Bergkloof Wine Estates (Pty) Ltd, the …"
_LEGAL_TAIL = re.compile(
    r"\A(?:\s*,?\s*(?:\((?:Pty|Pvt|Pte)\)|"
    + "|".join(re.escape(f) for f in sorted(_ALL_LEGAL_FORMS, key=len, reverse=True))
    + r")(?![A-Za-z]))*"
)


def appositive_descriptions(text: str, name: str) -> list[str]:
    """The descriptions `text` sets right after the organisation name `name` (found in any case,
    past a legal form), else []. A Chinese one that goes on past its demonstrative and classifier
    also gives the form that stops there ("阿城山上那家滑雪场" -> also "阿城山上那家"): that is how the
    later turns say it.

    Example:
        >>> appositive_descriptions("client Acme Freight, the depot at Wigan. they want 4", "Acme Freight")
        ['the depot at Wigan']
        >>> appositive_descriptions("银岭滑雪有限公司，就是阿城山上那家滑雪场，让咱整", "银岭滑雪有限公司")
        ['阿城山上那家滑雪场', '阿城山上那家']
    """
    if not name:
        return []
    for found in re.finditer(re.escape(name), text, re.IGNORECASE):
        tail = _LEGAL_TAIL.sub("", text[found.end() :], count=1)
        chinese = _ZH_APPOSITION.match(tail)
        if chinese:
            return list(dict.fromkeys([chinese.group(1) + chinese.group(2), chinese.group(1)]))
        aka = _EN_AKA.match(tail)
        if aka and len(aka.group(1).split()) <= 7:
            return [aka.group(1).strip()]
        english = _EN_APPOSITION.match(tail)
        phrase = (english.group(1) or english.group(2)).strip() if english else ""
        # Four words at least: "the client", "the new client" say what it is to us, which many
        # firms are; a description picks one out ("the cold store out at Daventry"). A clause
        # ("the guy there is Shane") describes someone else.
        if 4 <= len(phrase.split()) <= 7 and not _FINITE_VERB.search(phrase):
            return [phrase]
    return []
