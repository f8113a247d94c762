"""Seeded generator of client stories (zh and en) with random names, places, industries and dates.

The timeline and alias benchmarks must run on text nobody tuned the rules on. Every story has the
shape of timeline_dev.json (entities with gold aliases, turns, queries with gold turns) but its
people, companies, places and products are drawn at random, and most names are *made up* from
syllables / characters, so no word list in the package can contain them:

- a client company (registered name -> short trade name, and a descriptive reference such as
  "那个做轴承的客户" / "the bearings client"), its contact (full name -> surname + title);
- a second, similar company with its own contact (a distractor: same kind of events, other names);
- a colleague on our side; places for visits and deliveries;
- dates drawn at random inside a few months, turns in time order, assistant acknowledgements in
  between (chit-chat, never gold).

Gold: for each entity, the turns that mention it by any of its forms (the timeline it should get);
one query per entity naming it by a random one of its forms.

    python bench/generate_stories.py --seed 3 --lang zh > story.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from datetime import UTC, datetime, timedelta, timezone

# Characters and syllables names are built from. They are generic building blocks, not names.
# Deliberately not lexicon.ZH_SURNAMES: a generator sharing the product's lists makes tests circular.
_ZH_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁沈姚卢"
)
_ZH_GIVEN = (
    "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉萍红建文辉力永健世广志义兴良海山仁波宁贵福生龙元全"
    "国胜学祥才发武新利清飞彬富顺信子杰涛昌成康星光天达安岩中茂进林有坚和彪博诚先敬震振壮会思群豪心邦承乐"
    "绍功松善厚庆磊民友裕河哲江超浩亮政谦亨奇固之轮翰朗伯宏言若鸣朋斌梁栋维启克伦翔旭鹏泽晨辰士以建家致树"
    "炎德行时泰盛雄琛钧冠策腾楠榕风航弘"
)
_ZH_TRADE = "鑫瑞恒晟泓诚嘉信达拓丰禾润弘昊铭隆泰宸骏峰启翊澄源祺臻钰琨昕"
_ZH_PLACE_A = "宁临清永安平泰长兴云丰嘉昌华德江阳淮"
_ZH_PLACE_B = "川州阳安江城平源山河湖泉陵溪"
_ZH_INDUSTRIES = [  # (what they make, the industry word inside the registered name)
    ("轴承", "机械"),
    ("紧固件", "五金"),
    ("注塑件", "塑胶"),
    ("线束", "电子"),
    ("包装箱", "包装"),
    ("涂料", "化工"),
    ("面料", "纺织"),
    ("电机", "机电"),
    ("阀门", "流体"),
    ("玻璃瓶", "玻璃"),
]
_ZH_TITLES = ["总", "经理", "主任", "工"]

_EN_FIRST = [
    "Alice",
    "Brian",
    "Chloe",
    "Daniel",
    "Elena",
    "Felix",
    "Grace",
    "Hugo",
    "Irene",
    "Jonas",
    "Kara",
    "Leon",
    "Maya",
    "Nolan",
    "Olive",
    "Peter",
    "Quinn",
    "Rosa",
    "Simon",
    "Tara",
    "Victor",
    "Wendy",
    "Yusuf",
    "Zoe",
    "Marta",
    "Omar",
    "Priya",
    "Ravi",
    "Sofia",
    "Tomas",
]
_EN_SYL_A = [
    "Bel",
    "Cor",
    "Dra",
    "El",
    "Fen",
    "Gal",
    "Har",
    "Kel",
    "Lor",
    "Mar",
    "Nor",
    "Ost",
    "Pel",
    "Quen",
    "Ros",
    "Sten",
    "Tal",
    "Var",
    "Wel",
    "Zan",
    "Brin",
    "Cal",
    "Dun",
    "Hol",
]
_EN_SYL_B = [
    "dor",
    "vex",
    "mar",
    "ton",
    "wick",
    "sby",
    "rian",
    "ven",
    "holt",
    "ley",
    "ford",
    "ric",
    "nell",
    "mont",
    "dane",
    "worth",
    "ick",
    "ara",
    "ith",
    "oran",
]
_EN_PLACE_END = ["ford", "ton", "bury", "field", "haven", "port", "mouth", "dale"]
_EN_INDUSTRIES = [  # (what they make, the industry word in the company name)
    ("bearings", "Bearings"),
    ("fasteners", "Fasteners"),
    ("valves", "Valves"),
    ("cables", "Cables"),
    ("packaging", "Packaging"),
    ("pumps", "Pumps"),
    ("coatings", "Coatings"),
    ("textiles", "Textiles"),
    ("castings", "Castings"),
    ("sensors", "Sensors"),
]
_EN_LEGAL = ["Ltd", "Inc.", "LLC", "Co."]
# The carrier's trade word, drawn from more words than the product's organisation-suffix lists hold
# (simplemem_graph/lexicon.py has Freight, Shipping and 物流 among them, not the others): a story
# must not name its companies only in words the extractor was written to know.
_EN_CARRIER_WORDS = ["Freight", "Haulage", "Cargo", "Couriers", "Transport", "Carriers", "Express", "Movers"]
_ZH_CARRIER_WORDS = ["物流", "货运", "快运", "运输", "速运"]
_EN_TITLE = {"f": "Ms.", "m": "Mr."}
_EN_FEMALE = {
    "Alice",
    "Chloe",
    "Elena",
    "Grace",
    "Irene",
    "Kara",
    "Maya",
    "Olive",
    "Rosa",
    "Tara",
    "Wendy",
    "Zoe",
    "Marta",
    "Priya",
    "Sofia",
    "Quinn",
}

_ZH_ACKS = ["好的，记下了。", "收到。", "明白，已经记录。", "好的👌", "嗯嗯，知道了。"]
_EN_ACKS = ["Got it, noted.", "Okay, saved.", "Noted 👍", "Sure, done.", "Thanks, recorded."]


def _zh_person(rng: random.Random, used: set[str]) -> tuple[str, str]:
    while True:
        surname = rng.choice(_ZH_SURNAMES)
        name = surname + "".join(rng.choice(_ZH_GIVEN) for _ in range(rng.choice((1, 2))))
        if name not in used and surname not in {n[0] for n in used}:
            used.add(name)
            return name, surname


def _zh_trade(rng: random.Random, used: set[str]) -> str:
    while True:
        name = "".join(rng.sample(_ZH_TRADE, 2))
        if name not in used and not (set(name) & set("".join(used))):
            used.add(name)
            return name


def _zh_place(rng: random.Random, used: set[str]) -> str:
    while True:
        name = rng.choice(_ZH_PLACE_A) + rng.choice(_ZH_PLACE_B)
        if name not in used:
            used.add(name)
            return name


def _en_word(rng: random.Random, used: set[str]) -> str:
    while True:
        word = rng.choice(_EN_SYL_A) + rng.choice(_EN_SYL_B)
        if word not in used:
            used.add(word)
            return word


def _dates(rng: random.Random, n: int) -> list[datetime]:
    """n turn times, increasing, one to nine days apart, in office hours (UTC+8 / UTC+0)."""
    start = datetime(2026, rng.randint(1, 6), rng.randint(1, 25), 9, 0)
    out, day = [], start
    for _ in range(n):
        day = day + timedelta(days=rng.randint(1, 9))
        out.append(day.replace(hour=rng.randint(9, 17), minute=rng.randint(0, 59)))
    return out


def _later(rng: random.Random, when: datetime, lo: int = 5, hi: int = 30) -> datetime:
    return when + timedelta(days=rng.randint(lo, hi))


def generate(seed: int, lang: str) -> dict:
    """One story: {"name", "seed", "lang", "entities", "turns", "queries"} (timeline_dev.json shape)."""
    if lang not in ("zh", "en"):
        raise ValueError(f"lang must be zh or en, got {lang!r}")
    rng = random.Random(f"{seed}-{lang}")
    return _story_zh(rng, seed) if lang == "zh" else _story_en(rng, seed)


def _md_zh(d: datetime) -> str:
    return f"{d.month}月{d.day}日"


def _md_en(d: datetime) -> str:
    return f"{d.strftime('%B')} {d.day}"


def _finish(rng, seed, lang, entities, lines, tz) -> dict:
    """Turn (entity keys, speaker, text) lines into turns with times, acks, gold turns and queries."""
    times = _dates(rng, len(lines))
    turns, gold = [], {key: [] for key in entities}
    acks = _ZH_ACKS if lang == "zh" else _EN_ACKS
    for i, ((keys, text), when) in enumerate(zip(lines, times, strict=True)):
        session = f"s{i // 3 + 1}"
        tid = f"{session}:{len(turns) + 1}"
        turns.append(
            {
                "id": tid,
                "session": session,
                "time": when.replace(tzinfo=tz).isoformat(),
                "speaker": "user",
                "text": text(when) if callable(text) else text,
            }
        )
        for key in keys:
            gold[key].append(tid)
        if rng.random() < 0.6:
            ack_time = (when + timedelta(minutes=1)).replace(tzinfo=tz)
            turns.append(
                {
                    "id": f"{session}:{len(turns) + 1}",
                    "session": session,
                    "time": ack_time.isoformat(),
                    "speaker": "assistant",
                    "text": rng.choice(acks),
                }
            )
    queries = []
    for n, (key, entity) in enumerate(entities.items(), 1):
        form = rng.choice(
            [
                entity["canonical"],
                *[
                    a
                    for a in entity["aliases"]
                    if "做" not in a
                    and not a.startswith("the ")
                    # the bare name of a firm with a legal form is gold, not a form the queries use
                    and a != entity["canonical"].rsplit(" ", 1)[0]
                ],
            ]
        )
        query = (
            f"{form}的所有进展按时间说一下" if lang == "zh" else f"Walk me through everything about {form}."
        )
        queries.append(
            {
                "id": f"q{n}",
                "type": "story",
                "query": query,
                "entity_form": form,
                "about": entity["canonical"],
                "gold_order_matters": True,
                "gold_turns": gold[key],
            }
        )
    return {
        "name": f"generated {lang} story, seed {seed}",
        "seed": seed,
        "lang": lang,
        "entities": list(entities.values()),
        "turns": turns,
        "queries": queries,
    }


def _entities(*rows: tuple[str, str, list[str]]) -> dict[str, dict]:
    """The gold entities under the keys the story lines use (c1 p1 c2 p2 p3 site c3 p4)."""
    keys = ("c1", "p1", "c2", "p2", "p3", "site", "c3", "p4")
    return {
        key: {"canonical": name, "type": type_, "aliases": aliases}
        for key, (name, type_, aliases) in zip(keys, rows, strict=True)
    }


def _carrier_word(seed: int, words: list[str]) -> str:
    """Drawn from its own RNG, so the rest of a seed's story stays what it was before this word
    was random (results across releases stay comparable)."""
    return random.Random(f"carrier-{seed}").choice(words)


def _story_zh(rng: random.Random, seed: int) -> dict:
    people, trades, places = set(), set(), set()
    c1, c2 = _zh_trade(rng, trades), _zh_trade(rng, trades)
    (prod1, ind1), (_prod2, ind2) = rng.sample(_ZH_INDUSTRIES, 2)
    city1, city2, site = _zh_place(rng, places), _zh_place(rng, places), _zh_place(rng, places)
    c1_full = f"{city1}市{c1}{ind1}有限公司"
    c2_full = f"{city2}{c2}{ind2}有限公司"
    (p1, s1), (p2, s2), (p3, _s3), (p4, _s4) = (_zh_person(rng, people) for _ in range(4))
    c3_full = _zh_trade(rng, trades) + _carrier_word(seed, _ZH_CARRIER_WORDS)
    t1, t2 = rng.choice(_ZH_TITLES), rng.choice(_ZH_TITLES)
    a1, a2 = s1 + t1, s2 + t2
    desc1 = f"那个做{prod1}的客户"
    q1, q2 = rng.randint(2, 30) * 500, rng.randint(2, 20) * 100
    price1 = rng.randint(20, 90) / 10
    price2 = round(price1 + rng.choice((-1, 1)) * rng.randint(1, 5) / 10, 1)
    price3 = rng.randint(10, 60) / 10
    amount = rng.randint(3, 90) * 1000
    explicit = rng.random() < 0.5
    intro = (
        f"新客户{c1_full}（以下简称{c1}），主要做{prod1}，对接人是采购{p1}。"
        if explicit
        else f"新客户{c1_full}，主要做{prod1}，对接人是采购{p1}。"
    )
    entities = _entities(
        (c1_full, "org", [c1, desc1]),
        (p1, "person", [a1]),
        (c2_full, "org", [c2]),
        (p2, "person", [a2]),
        (p3, "person", []),
        (site, "place", []),
        (c3_full, "org", []),
        (p4, "person", []),
    )
    lines = [
        (("c1", "p1"), intro),
        (("c3", "p4"), f"物流找了{c3_full}，对接人{p4}，运费每吨{rng.randint(80, 400)}元。"),
        ((), lambda d: f"{_md_zh(_later(rng, d, 1, 6))}下午三点开季度复盘会，会议室在三楼。"),
        (("p1", "c1"), lambda d: f"{p1}说{c1}第一批要{q1}件{prod1}，{_md_zh(_later(rng, d))}之前交货。"),
        (("p1",), f"{a1}刚来电话，单价从{price1}元改成{price2}元。"),
        (("c2", "p2"), f"{c2_full}的{p2}发来了报价，每件{price3}元，起订量{q2}件。"),
        (("c1", "site"), lambda d: f"{desc1}要求{_md_zh(_later(rng, d))}去{site}的仓库验货。"),
        (("c2",), lambda d: f"{c2}那边说交期要推迟到{_md_zh(_later(rng, d))}。"),
        (("p2",), lambda d: f"{a2}确认{_md_zh(_later(rng, d, 2, 9))}发第一批样品。"),
        (("p3", "c1"), lambda d: f"让{p3}在{_md_zh(_later(rng, d, 3, 10))}之前把{c1}的合同准备好。"),
        (("c1",), f"{c1}的预付款{amount}元已经到账了。"),
        (("p3", "site"), lambda d: f"{p3}下周要去{site}出差，顺便看一下新仓库。"),
        (("p1",), f"{a1}说如果质量没问题，明年还会追加订单。"),
        (("p4", "site"), lambda d: f"{p4}说{_md_zh(_later(rng, d, 1, 6))}可以安排车去{site}提货。"),
        ((), lambda d: f"报销单要在{_md_zh(_later(rng, d, 2, 8))}之前交给财务。"),
        (("c3",), f"{c3_full}的发票还没开，月底前要催一下。"),
        (("c2", "p2"), f"{p2}提醒我们{c2}的报价只保留两周。"),
    ]
    return _finish(rng, seed, "zh", entities, lines, timezone(timedelta(hours=8)))


def _story_en(rng: random.Random, seed: int) -> dict:
    words: set[str] = set()
    c1, c2 = _en_word(rng, words), _en_word(rng, words)
    (prod1, ind1), (_prod2, ind2) = rng.sample(_EN_INDUSTRIES, 2)
    city1 = _en_word(rng, words)[:-1] + rng.choice(_EN_PLACE_END)
    site = rng.choice(_EN_SYL_A) + rng.choice(_EN_PLACE_END)
    c1_full = f"{c1} {ind1} {rng.choice(_EN_LEGAL)}"
    c2_full = f"{c2} {ind2} {rng.choice(_EN_LEGAL)}"
    firsts = rng.sample(_EN_FIRST, 4)
    lasts = [_en_word(rng, words) for _ in range(4)]
    p1, p2, p3, p4 = (f"{f} {s}" for f, s in zip(firsts, lasts, strict=True))
    c3_full = f"{_en_word(rng, words)} {_carrier_word(seed, _EN_CARRIER_WORDS)}"
    a1 = f"{_EN_TITLE['f' if firsts[0] in _EN_FEMALE else 'm']} {lasts[0]}"
    a2 = f"{_EN_TITLE['f' if firsts[1] in _EN_FEMALE else 'm']} {lasts[1]}"
    desc1 = f"the {prod1} client"
    q1, q2 = rng.randint(2, 30) * 500, rng.randint(2, 20) * 100
    price1 = rng.randint(20, 90) / 10
    price2 = round(price1 + rng.choice((-1, 1)) * rng.randint(1, 5) / 10, 1)
    price3 = rng.randint(10, 60) / 10
    amount = rng.randint(3, 90) * 1000
    explicit = rng.random() < 0.5
    intro = (
        f"New client: {c1_full} (hereafter {c1}), based in {city1}; they make {prod1}. "
        f"Our contact is {p1}, their purchasing lead."
        if explicit
        else f"New client: {c1_full}, based in {city1}; they make {prod1}. "
        f"Our contact is {p1}, their purchasing lead."
    )
    entities = _entities(
        # the name without its legal form is the same firm ("Varford Castings" of "… Inc.")
        (c1_full, "org", [c1, desc1, f"{c1} {ind1}"]),
        (p1, "person", [a1]),
        (c2_full, "org", [c2, f"{c2} {ind2}"]),
        (p2, "person", [a2]),
        (p3, "person", []),
        (site, "place", []),
        (c3_full, "org", []),
        (p4, "person", []),
    )
    lines = [
        (("c1", "p1"), intro),
        (("c3", "p4"), f"For freight we picked {c3_full}; {p4} quoted ${rng.randint(80, 400)} per ton."),
        (
            (),
            lambda d: f"Quarterly review on {_md_en(_later(rng, d, 1, 6))} at 3 pm in the third-floor room.",
        ),
        (
            ("p1", "c1"),
            lambda d: (
                f"{p1} said {c1} wants {q1} {prod1} in the first batch, "
                f"delivered before {_md_en(_later(rng, d))}."
            ),
        ),
        (("p1",), f"{a1} just called: the unit price changes from ${price1} to ${price2}."),
        (("c2", "p2"), f"{p2} from {c2_full} sent a quote: ${price3} per unit, minimum order {q2} units."),
        (
            ("c1", "site"),
            lambda d: (
                f"{desc1[0].upper()}{desc1[1:]} wants an inspection at the {site} "
                f"warehouse on {_md_en(_later(rng, d))}."
            ),
        ),
        (("c2",), lambda d: f"{c2} says the delivery slips to {_md_en(_later(rng, d))}."),
        (("p2",), lambda d: f"{a2} confirmed the first samples ship on {_md_en(_later(rng, d, 2, 9))}."),
        (
            ("p3", "c1"),
            lambda d: f"Ask {p3} to have the {c1} contract ready by {_md_en(_later(rng, d, 3, 10))}.",
        ),
        (("c1",), f"The {c1} deposit of ${amount} has arrived."),
        (("p3", "site"), f"{p3} travels to {site} next week and will look at the new warehouse."),
        (("p1",), f"{a1} said that if the quality is fine they will order again next year."),
        (("p4", "site"), lambda d: f"{p4} can send a truck to {site} on {_md_en(_later(rng, d, 1, 6))}."),
        ((), lambda d: f"Expense reports are due to finance by {_md_en(_later(rng, d, 2, 8))}."),
        (("c3",), f"{c3_full} has not sent its invoice yet; chase it before the month ends."),
        (("c2", "p2"), f"{p2} reminded us that the {c2} quote is only valid for two weeks."),
    ]
    return _finish(rng, seed, "en", entities, lines, UTC)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lang", choices=("zh", "en"), default="zh")
    args = parser.parse_args(argv)
    print(json.dumps(generate(args.seed, args.lang), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
