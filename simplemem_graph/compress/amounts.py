"""Money, quantities, numbers, durations and percentages, with values in EVALSETS.md's conventions.

money "25000 CNY" (no separators, no trailing .0) · quantity "300" (unit stays in the surface) ·
number: plain digits, "40%", ordinals as their number, identifiers as written ("MU5137", "Mate60",
e-mail addresses, URLs) ·
duration: ISO 8601 ("PT1H30M", "P2W", "PT48H").
"""

from __future__ import annotations

import re
import unicodedata

from simplemem_graph.compress.mentions import Mention
from simplemem_graph.compress.numerals import (
    EN_NUMBER_WORD_PATTERN,
    EN_ORDINALS,
    NUMBER_PATTERN,
    ZH_NUMERAL,
    format_number,
    parse_count,
    parse_number,
)
from simplemem_graph.text import STOPWORDS

_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# ISO 4217 codes people write before an amount beyond the majors (a code that is also an English
# word, such as ALL, TOP or TRY, is left out: "TOP 10" is no money).
_MORE_ISO_CODES = """KES UGX TZS RWF ETB NGN GHS XOF XAF ZAR EGP MAD AED SAR QAR KWD BHD OMR JOD ILS PKR BDT
LKR NPR MYR THB IDR VND SEK NOK DKK ISK PLN CZK HUF RON BGN RSD UAH RUB KZT ARS CLP COP UYU"""
# The currency signs of Unicode's block for them (category Sc: ₱, ₦, ₫, ₾...), and the baht's.
_SIGN_CHARS = re.escape(
    "".join(chr(c) for c in range(0x20A0, 0x20D0) if unicodedata.category(chr(c)) == "Sc") + "฿"
)
_CURRENCY_SIGNS = {
    "US$": "USD",
    "HK$": "HKD",
    "A$": "AUD",
    "AU$": "AUD",
    "C$": "CAD",
    "CA$": "CAD",
    "S$": "SGD",
    "NZ$": "NZD",
    "$": "USD",
    "£": "GBP",
    "€": "EUR",
    "¥": "CNY",
    "￥": "CNY",
    "RMB": "CNY",
    "CNY": "CNY",
    "USD": "USD",
    "EUR": "EUR",
    "GBP": "GBP",
    "HKD": "HKD",
    "AUD": "AUD",
    "CAD": "CAD",
    "JPY": "JPY",
    "SGD": "SGD",
    "INR": "INR",
    "CHF": "CHF",
    "KRW": "KRW",
    "TWD": "TWD",
    "NZD": "NZD",
    "MXN": "MXN",
    "BRL": "BRL",
    **{code: code for code in _MORE_ISO_CODES.split()},
    "₹": "INR",
    "₩": "KRW",
    # Signs and local abbreviations written before an amount across Africa and Asia (any other sign of
    # Unicode's currency category is kept as written: `_unlisted_sign`)
    "₱": "PHP",
    "₦": "NGN",
    "₫": "VND",
    "₺": "TRY",
    "₪": "ILS",
    "฿": "THB",
    "₴": "UAH",
    "₽": "RUB",
    "₵": "GHS",
    "R$": "BRL",
    "Ksh": "KES",
    "KSh": "KES",
    "Kshs": "KES",
    "RM": "MYR",
    "Rp": "IDR",
    "Rs": "INR",
    "Rs.": "INR",
    "rupee": "INR",
    "rupees": "INR",
    "dollar": "USD",
    "dollars": "USD",
    "bucks": "USD",
    "euro": "EUR",
    "euros": "EUR",
    "pound": "GBP",
    "pounds": "GBP",
    "yuan": "CNY",
    "人民币": "CNY",
}
_MULTIPLIERS = {
    "k": 1e3,
    "K": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "M": 1e6,
    "million": 1e6,
    "mn": 1e6,
    "bn": 1e9,
    "billion": 1e9,
    "千": 1e3,
    "百": 1e2,
    "万": 1e4,
    "亿": 1e8,
}
_EN_MULT = r"(?P<mult>\s?(?:k|K|m|M|mn|bn)\b|\s(?:thousand|million|billion)\b|万|亿)?"
_MONEY_PREFIX = re.compile(
    r"(?P<cur>US\$|HK\$|AU\$|A\$|CA\$|C\$|NZ\$|S\$|R\$|\$|£|€|¥|￥|₹|₩|人民币|[" + _SIGN_CHARS + "]"
    r"|\b(?:RMB|CNY|USD|EUR|GBP|HKD|AUD|CAD|JPY|SGD|INR|CHF|KRW|TWD|NZD|MXN|BRL|"
    + "|".join(_MORE_ISO_CODES.split())
    + r"|Kshs?|KSh|RM|Rp|Rs\.?)(?![A-Za-z]))"
    rf"\s?(?P<n>{_DIGITS}){_EN_MULT}"
)
_MONEY_SUFFIX = re.compile(
    rf"\b(?P<n>{_DIGITS}){_EN_MULT}\s?(?P<cur>dollars?|bucks|euros?|pounds?|yuan|RMB|CNY|USD|EUR|GBP|HKD|AUD|CAD"
    r"|JPY|INR|CHF|KRW|TWD|NZD|MXN|BRL|rupees?)\b"
)
# Chinese measure words: a number followed by one of these is a count, not money.
_MEASURE = (
    "台|家|箱|人|位|个|件|套|吨|公斤|千克|斤|米|公里|千米|辆|份|张|本|瓶|杯|次|批|条|只|头|名|间|层|座|栋|柜|包|盒|袋|"
    "片|颗|支|把|双|对|节|场|轮|趟|期|款|项|单|笔|页|平方米|平米|克|升|毫升|集|户|所|店|门店|部|篇|道|台次|单位|板|卷|架|字|词|行"
)
_ZH_MONEY = re.compile(
    rf"(?P<n>{_DIGITS}|{ZH_NUMERAL})(?P<mult>万|千|百|亿)?(?P<cur>块钱|块|元|圆|毛钱|毛|角)"
)
# "每柜2.5万", "预算批了8万": a bare 万/亿 amount is money (CNY) unless a measure word follows.
_ZH_BARE_WAN = re.compile(rf"(?P<n>{_DIGITS})(?P<mult>万|亿)(?!{_MEASURE}|[元块圆\d])")
# "数量要从6万改成5万": a bare 万 amount in a clause about a count is a quantity, not money.
_ZH_COUNT_CONTEXT = re.compile(r"数量|件数|台数|个数|人数|户数|订量|订货量|采购量|产量|销量|库存|用量")
_COUNT_CONTEXT_CHARS = 12
_ZH_PRICE_CONTEXT = re.compile(r"单价|价格|报价|售价|进价|价钱|定价")
# Words of an amount of money (a payment, a balance, a fee): a bare figure right after one, in its
# clause or as the clause that follows it ("尾款28800", "首付到了，26400", "bill them the 920",
# "Bev paid 1,400 today"), is money though no currency is written.
_ZH_AMOUNT_CONTEXT = re.compile(
    r"单价|价格|报价|售价|进价|价钱|定价|总价|合同价|首付|尾款|余款|定金|订金|押金|预算|费用|付款|货款|"
    r"进度款|违约金|罚款|金额|到账|欠款|退款|费"
)
_EN_AMOUNT_CONTEXT = re.compile(
    r"\b(?:prices?|priced|fees?|quoted?|quotes|budget|rates?|costs?|charged?|charges|invoiced?|bill(?:ed)?"
    r"|pa(?:y|ys|id|ying)|owes?|owed|deposit|retainer|balance|refund(?:ed)?|amount|due)\b",
    re.IGNORECASE,
)
_EN_AMOUNT_CONTEXT_CHARS = 30  # "bill them the 920", "the rate we agreed is 2350"
# A number written next to these is a time, a date, a ratio or a code, never an amount.
_NOT_AN_AMOUNT_NEIGHBOUR = re.compile(r"[:/\-]")
NO_CURRENCY = "XXX"  # ISO 4217's code for "no currency": an amount whose currency was not written
_ZH_IDENTIFIER_CONTEXT = re.compile(r"号|编码|编号|单号|代码")  # 报价单号20260101 is an identifier
# 六角铜柱, 三角形: 角 followed by a noun is a shape, not 0.1 yuan (五角钱, 三块五角 stay money).
_ZH_NOT_JIAO = re.compile(r"[\u4e00-\u9fff](?<![钱的了])")
_ZH_QUANTITY = re.compile(
    rf"(?<!第)(?P<n>{_DIGITS}|{ZH_NUMERAL}|几)(?P<mult>万|千|百|亿)?(?P<unit>{_MEASURE})(?!月)"
)
_ZH_ORDINAL = re.compile(rf"第(?P<n>\d+|{ZH_NUMERAL})(?:{_MEASURE}|天|周|年)?")
_ZH_DISCOUNT = re.compile(r"(?P<a>[一二三四五六七八九])(?P<b>[一二三四五六七八九])?折|(?P<d>\d(?:\.\d)?)折")
_PERCENT = re.compile(
    rf"(?P<n>{_DIGITS})\s?(?:%|％|\s?percent\b|\s?per cent\b)|百分之(?P<z>{NUMBER_PATTERN})"
)
_ZH_DURATION = re.compile(
    rf"(?<![第\d])(?P<n>一个半|半个|半|{_DIGITS}|{ZH_NUMERAL})(?P<half>个半|半)?个?"
    r"(?P<u>小时|钟头|分钟|秒钟|秒|天|周|星期|礼拜|个月|年)(?![前后内底初末之以])"
)
_DURATION_PREFIX = (
    r"(?:(?<=\bfor )|(?<=\babout )|(?<=\baround )|(?<=\bnearly )|(?<=\balmost )|(?<=\bover )|"
    r"(?<=\bunder )|(?<=\btakes )|(?<=\btook )|(?<=\blasts )|(?<=\bspent ))"
)
_EN_DURATION = re.compile(
    rf"\b(?P<n>{_DIGITS}|{EN_NUMBER_WORD_PATTERN}|a couple of|{_DURATION_PREFIX}(?:an?|one))[\s-]+"
    r"(?P<u>seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|yrs?)\b",
    re.IGNORECASE,
)
_EN_DURATION_HALF = re.compile(
    r"\b(?:half an hour|an hour and a half|half a day|half a year)\b", re.IGNORECASE
)
_PLURAL_EXCEPTIONS = r"people|children|men|women|staff|feet|sheep|fish|personnel|crew|team"
_EN_QUANTITY = re.compile(
    rf"\b(?P<n>{_DIGITS}|{EN_NUMBER_WORD_PATTERN})\s+(?P<noun>(?:[a-z]+\s+){{0,2}}?(?:[a-z]+s|{_PLURAL_EXCEPTIONS}))\b"
)
_EN_NUMBER_WORD = re.compile(rf"\b(?P<n>{EN_NUMBER_WORD_PATTERN})\b", re.IGNORECASE)
# "phase 1 branches 6 → 8", "headcount 182 → 197": a note's arrow between two bare counts of the
# word before them (a date or an amount after the arrow is read elsewhere).
_EN_ARROW_COUNT = re.compile(
    rf"\b(?P<noun>[A-Za-z][a-z-]{{2,}})\s+(?P<a>{_DIGITS})\s?[→⟶⇒]\s?(?P<b>{_DIGITS})(?![\d.,]*\s?(?:%|[A-Za-z£$€¥]))"
)
_EN_ORDINAL = re.compile(
    r"\b(?P<w>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
    r"twelfth)\s+(?P<noun>[a-z]+)\b",
    re.IGNORECASE,
)
_IDENTIFIER = re.compile(
    r"(?<![A-Za-z0-9])(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*\d[A-Z0-9]*(?![A-Za-z0-9])"
    r"|(?<![A-Za-z0-9])[A-Z]{1,5}-\d[\w-]*"
)
# Contact details and model numbers are identifiers: kept as written ("zhao_lin0612@example.com",
# "https://example.com/a?b=1", "Mate60", "iPhone13").
_EMAIL = re.compile(r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_URL = re.compile(
    r"\b(?:https?://|www\.)[^\s\u3000-\u303f\uff00-\uffef\u4e00-\u9fff]+[^\s.,;:!?)\]）。，；：！？]"
)
_MODEL = re.compile(r"(?<![A-Za-z0-9_@./-])[A-Za-z]+\d+[A-Za-z0-9]*(?![A-Za-z0-9_@-])")
_PHONE = re.compile(r"(?<![\d\w])\+?\d{2,4}(?:[- ]\d{3,4}){2,3}(?![\d\w])")
# A decimal before Chinese ("0.28一个字") is whole: never its integer part alone.
_PLAIN_NUMBER = re.compile(
    rf"(?<![\w.,])(?:{_DIGITS})(?![\w])(?!\.\d)|(?<=[\u4e00-\u9fff])\d+(?:\.\d+)?"
    r"|(?<![\w.,])\d+\.\d+(?=[\u4e00-\u9fff])"
)
_UNIT_CODES = {
    "second": "S",
    "sec": "S",
    "secs": "S",
    "minute": "M",
    "min": "M",
    "hour": "H",
    "hr": "H",
    "day": "D",
    "week": "W",
    "month": "M",
    "year": "Y",
    "yr": "Y",
    "小时": "H",
    "钟头": "H",
    "分钟": "M",
    "秒": "S",
    "秒钟": "S",
    "天": "D",
    "周": "W",
    "星期": "W",
    "礼拜": "W",
    "个月": "M",
    "年": "Y",
}


def _amount(raw: str, mult: str | None) -> float | None:
    value = parse_number(raw)
    if value is None:
        return None
    return value * _MULTIPLIERS.get((mult or "").strip(), 1)


def iso_duration(amount: float, unit_code: str, *, clock: bool) -> str:
    """ISO 8601 duration: (1.5, "H", clock=True) -> "PT1H30M"; (2, "W", clock=False) -> "P2W"."""
    if clock:
        if unit_code == "H" and amount != int(amount):
            hours, minutes = int(amount), round((amount - int(amount)) * 60)
            return f"PT{hours}H{minutes}M" if hours else f"PT{minutes}M"
        return f"PT{format_number(amount)}{unit_code}"
    if amount != int(amount):  # half days/weeks/months/years: fall back to a finer calendar unit
        if unit_code == "D":
            return f"PT{format_number(amount * 24)}H"
        days = {"W": 7, "M": 30, "Y": 365}[unit_code]
        return f"P{format_number(round(amount * days))}D"
    return f"P{int(amount)}{unit_code}"


def _unlisted_sign(sign: str) -> str | None:
    return sign if len(sign) == 1 and unicodedata.category(sign) == "Sc" else None


def _money(text: str) -> list[Mention]:
    found = []
    for pattern in (_MONEY_PREFIX, _MONEY_SUFFIX):
        for m in pattern.finditer(text):
            value = _amount(m.group("n"), m.group("mult"))
            sign = m.group("cur")
            # a sign of Unicode's currency category with no code here is kept as written
            currency = _CURRENCY_SIGNS.get(sign) or _CURRENCY_SIGNS.get(sign.lower()) or _unlisted_sign(sign)
            if value is not None and currency:
                found.append(
                    Mention("money", m.start(), m.end(), m.group(0), f"{format_number(value)} {currency}")
                )
    for m in _ZH_MONEY.finditer(text):
        value = _amount(m.group("n"), m.group("mult"))
        if value is None or (m.group("cur") == "角" and _ZH_NOT_JIAO.match(text, m.end())):
            continue
        if m.group("cur").startswith("毛") or m.group("cur") == "角":
            value /= 10
        found.append(Mention("money", m.start(), m.end(), m.group(0), f"{format_number(value)} CNY"))
    for m in _PLAIN_NUMBER.finditer(text):
        # "单价从3.85降到3.65": a bare figure in a clause about a price is money (CNY by default).
        clause = _clause_before(text, m.start())
        if (
            _ZH_PRICE_CONTEXT.search(clause)
            and not _ZH_IDENTIFIER_CONTEXT.search(clause)
            and not re.match(rf"\s?(?:{_MEASURE}|[%％万千百亿元块毛角.]|[A-Za-z])", text[m.end() :])
        ):
            value = parse_number(m.group(0))
            found.append(Mention("money", m.start(), m.end(), m.group(0), f"{format_number(value)} CNY"))
    priced = {m.start for m in found}
    found += [m for m in _bare_amounts(text) if m.start not in priced]
    for m in _ZH_BARE_WAN.finditer(text):
        value = _amount(m.group("n"), m.group("mult"))
        if _ZH_COUNT_CONTEXT.search(_clause_before(text, m.start())):
            found.append(Mention("quantity", m.start(), m.end(), m.group(0), format_number(value)))
        else:
            found.append(Mention("money", m.start(), m.end(), m.group(0), f"{format_number(value)} CNY"))
    return found


def _bare_amounts(text: str) -> list[Mention]:
    """Figures with no currency that the words before them make an amount of money: CNY in a
    Chinese clause (the existing convention for 单价3.85), else NO_CURRENCY."""
    found = []
    for m in _PLAIN_NUMBER.finditer(text):
        value = parse_number(m.group(0))
        neighbours = text[max(0, m.start() - 1) : m.start()] + text[m.end() : m.end() + 1]
        if (
            value is None
            or value < 10
            or _NOT_AN_AMOUNT_NEIGHBOUR.search(neighbours)
            or re.match(rf"\s?(?:{_MEASURE}|[%％万千百亿元块毛角号月日年]|\.\d)", text[m.end() :])
            or _unit_after(text[m.end() :])
        ):
            continue
        clause = _clause_before(text, m.start())
        chinese = re.search(r"[\u4e00-\u9fff]", text[max(0, m.start() - _COUNT_CONTEXT_CHARS) : m.start()])
        if chinese:
            # The clause before, or the one before that when the figure opens its clause.
            context = clause if clause.strip() else _clause_before(text, m.start() - len(clause) - 1)
            if not _ZH_AMOUNT_CONTEXT.search(context) or _ZH_IDENTIFIER_CONTEXT.search(context):
                continue
            currency = "CNY"
        else:
            before = text[max(0, m.start() - _EN_AMOUNT_CONTEXT_CHARS) : m.start()]
            before = re.split(r"[.;:!?]\s", before)[-1]
            if not _EN_AMOUNT_CONTEXT.search(before) or (1900 <= value <= 2100 and float(value).is_integer()):
                continue  # "paid in 2026" is a year
            currency = NO_CURRENCY
        found.append(Mention("money", m.start(), m.end(), m.group(0), f"{format_number(value)} {currency}"))
    return found


# Words that may follow an amount without being its unit ("paid 1,400 today", "580 from then").
_NOT_A_UNIT = frozenset(
    [
        "today",
        "tomorrow",
        "yesterday",
        "tonight",
        "now",
        "then",
        "upfront",
        "total",
        "plus",
        "vat",
        "per",
        "each",
    ]
)


def _unit_after(rest: str) -> bool:
    """A word right after a figure that counts something ("20 req/s", "38 patients", "11 stores")."""
    word = re.match(r"\s?([A-Za-z]+)", rest)
    if word is None:
        return False
    lowered = word.group(1).lower()
    return lowered not in STOPWORDS and lowered not in _NOT_A_UNIT


def _clause_before(text: str, position: int) -> str:
    """The words of the clause before `position`, at most _COUNT_CONTEXT_CHARS characters back."""
    before = text[max(0, position - _COUNT_CONTEXT_CHARS) : position]
    return re.split(r"[，,。；;：:！!？?]", before)[-1]


def _duration(m: re.Match, amount: float, unit: str, *, clock: bool) -> Mention:
    return Mention(
        "duration", m.start(), m.end(), m.group(0), iso_duration(amount, _UNIT_CODES[unit], clock=clock)
    )


def _durations(text: str) -> list[Mention]:
    found = []
    for m in _ZH_DURATION.finditer(text):
        raw, half, unit = m.group("n"), m.group("half"), m.group("u")
        amount = parse_count(raw)
        if amount is None or (unit == "年" and amount >= 100):  # "2026年" is a year, not a duration
            continue
        amount += 0.5 if half else 0
        found.append(_duration(m, amount, unit, clock=unit in ("小时", "钟头", "分钟", "秒", "秒钟")))
    for m in _EN_DURATION.finditer(text):
        raw = m.group("n").lower()
        amount = parse_count(raw)
        unit = m.group("u").lower()
        unit = unit if unit in _UNIT_CODES else unit.rstrip("s")
        if amount is None or unit not in _UNIT_CODES:
            continue
        found.append(
            _duration(m, amount, unit, clock=unit in ("second", "sec", "secs", "minute", "min", "hour", "hr"))
        )
    for m in _EN_DURATION_HALF.finditer(text):
        value = {
            "half an hour": "PT30M",
            "an hour and a half": "PT1H30M",
            "half a day": "PT12H",
            "half a year": "P6M",
        }[m.group(0).lower()]
        found.append(Mention("duration", m.start(), m.end(), m.group(0), value))
    return found


def _numbers(text: str) -> list[Mention]:
    found = []
    for m in _PERCENT.finditer(text):
        value = parse_number(m.group("n") or m.group("z"))
        if value is not None:
            found.append(Mention("number", m.start(), m.end(), m.group(0), f"{format_number(value)}%"))
    for m in _ZH_DISCOUNT.finditer(text):
        if m.group("d"):
            percent = float(m.group("d")) * 10
        else:
            percent = 10 * parse_number(m.group("a")) + (parse_number(m.group("b")) if m.group("b") else 0)
        found.append(Mention("number", m.start(), m.end(), m.group(0), f"{format_number(percent)}%"))
    for m in _ZH_ORDINAL.finditer(text):
        value = parse_number(m.group("n"))
        if value is not None:
            found.append(Mention("number", m.start(), m.end(), m.group(0), format_number(value)))
    for m in _EN_ORDINAL.finditer(text):
        # "the second payment" is a detail; "first, ..." or "fix it first" is not.
        if m.group("noun").lower() not in STOPWORDS:
            found.append(
                Mention(
                    "number",
                    m.start(),
                    m.start() + len(m.group("w")),
                    m.group("w"),
                    str(EN_ORDINALS[m.group("w").lower()]),
                )
            )
    for m in _IDENTIFIER.finditer(text):
        found.append(Mention("number", m.start(), m.end(), m.group(0), m.group(0)))
    for pattern in (_EMAIL, _URL, _MODEL):
        for m in pattern.finditer(text):
            found.append(Mention("number", m.start(), m.end(), m.group(0), m.group(0)))
    for m in _PHONE.finditer(text):
        found.append(Mention("number", m.start(), m.end(), m.group(0), re.sub(r"\D", "", m.group(0))))
    for m in _PLAIN_NUMBER.finditer(text):
        found.append(
            Mention("number", m.start(), m.end(), m.group(0), format_number(parse_number(m.group(0))))
        )
    return found


def _quantities(text: str) -> list[Mention]:
    found = []
    for m in _ZH_QUANTITY.finditer(text):
        if m.group("n") == "几" or (
            m.group("n") == "一" and m.group("unit") in ("个", "次", "下", "点", "件", "位", "家", "份")
        ):
            continue  # "一个" / "一下" are grammar, not a count worth guarding
        value = _amount(m.group("n"), m.group("mult"))
        if value is not None:
            found.append(Mention("quantity", m.start(), m.end(), m.group(0), format_number(value)))
    for m in _EN_QUANTITY.finditer(text):
        words = m.group("noun").split()
        if any(w in STOPWORDS for w in words):
            continue
        found.append(
            Mention("quantity", m.start(), m.end(), m.group(0), format_number(parse_number(m.group("n"))))
        )
    for m in _EN_NUMBER_WORD.finditer(text):
        found.append(
            Mention("quantity", m.start(), m.end(), m.group(0), format_number(parse_number(m.group("n"))))
        )
    for m in _EN_ARROW_COUNT.finditer(text):
        if m.group("noun").lower() in STOPWORDS:
            continue
        for side in ("a", "b"):
            count = format_number(parse_number(m.group(side)))
            unit = {"unit": m.group("noun").lower()}
            found.append(Mention("quantity", m.start(side), m.end(side), m.group(side), count, unit))
    return found


def find_amounts(text: str) -> list[Mention]:
    """Money, durations, numbers and quantities in `text` (possibly overlapping; see resolve_overlaps).

    Example:
        >>> sorted(m.value for m in find_amounts("报价是每柜2.5万，比上次贵了3000块"))[:2]
        ['25000 CNY', '3000 CNY']
    """
    return _money(text) + _durations(text) + _numbers(text) + _quantities(text)
