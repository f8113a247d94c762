"""A generated Chinese personal-assistant dev set: a user's daily messages among companion chat.

Seeded and random: people, places and items are made of random characters each run of a seed,
so no closed list can be fitted to it (the character pools below are generic, not taken from any
dev data). Each haystack is a month of days (one session a day); each day the user tells the
companion a few facts (purchases, meals with people, appointments, changed plans) and both chat
about nothing in particular. Questions carry their gold turns (the user's turns that hold the
fact; the companion's echoes are not gold) and a type:

- `single`: one fact, asked plainly ("我在哪里买的<item>？");
- `noisy`: the same kind of question with fillers, a dropped character, chat-style wording;
- `computed`: needs several turns and a computation (a total price, a count of visits, days
  between two events);
- `update`: a plan changed later; the gold is the turn with the latest value (and the original);
- `temporal`: what happened on a given relative day ("上周三我干了什么？"), gold = that day's facts.

    python3 bench/zh_devset.py --seed 7 --haystacks 10 > /tmp/zh_dev.json
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import date, datetime, timedelta, timezone

TZ = timezone(timedelta(hours=8))
# Deliberately not lexicon.ZH_SURNAMES: a generator sharing the product's lists makes tests circular.
_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈"
)
_NAME_CHARS = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏飞慧琳晨宇浩然欣怡子涵梓轩思远嘉"
_PLACE_CHARS = "青松云溪枫桥明湖金沙碧海星河翠柳鹿鸣望江紫竹白塔南山北苑东篱西岭晴川绿洲锦里长乐"
_PLACE_KINDS = ("咖啡馆", "书店", "商场", "公园", "餐厅", "健身房", "超市", "菜市场", "电影院", "茶馆")
_ITEM_KINDS = (
    "耳机",
    "背包",
    "台灯",
    "跑鞋",
    "咖啡机",
    "电饭煲",
    "保温杯",
    "键盘",
    "雨伞",
    "吹风机",
    "围巾",
    "手表",
)
_BRAND_CHARS = "米乐优品奇迈途安达星光原野森林悦动极简拾贝小熊"
_MEALS = ("火锅", "烤鸭", "日料", "西餐", "拉面", "烧烤", "粤菜", "川菜")
_ACTIVITIES = ("看牙医", "办签证", "上瑜伽课", "修电脑", "剪头发", "体检", "见房东", "取快递")
_WEEKDAYS = "一二三四五六日"
_CHAT_USER = (
    "今天好累啊。",
    "哈哈哈，太好笑了。",
    "晚安～",
    "早上好！",
    "下雨了，心情一般。",
    "刚睡醒。",
    "有点无聊。",
    "你说人为什么要上班呢？",
    "今天天气真不错。",
    "好想放假啊。",
    "嗯嗯。",
    "算了不说了。",
)
_CHAT_BOT = (
    "听起来你今天过得挺充实的！",
    "要注意休息哦。",
    "哈哈，我也觉得！",
    "有什么想聊的吗？",
    "晚安，做个好梦～",
    "早呀！今天有什么计划？",
    "记得多喝水。",
    "我一直在这里陪你。",
    "这个问题好深奥呀。",
    "抱抱你。",
    "真不错！",
    "慢慢来，不着急。",
)
_ECHO = ("{x}听起来不错！", "哇，{x}！", "关于{x}，还有什么想说的吗？", "{x}啊，我记住啦。")
_NOISY_PREFIX = ("额那个，", "诶我问下，", "就是那个，", "话说", "emmm ", "我忘了，")
_NOISY_SUFFIX = ("来着？", "来着", "？？", "啊", "呀我想不起来了", "")


class Namer:
    """Random, unique names for one haystack."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()

    def _unique(self, make) -> str:
        while True:
            name = make()
            if name not in self.used:
                self.used.add(name)
                return name

    def person(self) -> str:
        return self._unique(lambda: self.rng.choice(_SURNAMES) + "".join(self.rng.sample(_NAME_CHARS, 2)))

    def place(self) -> str:
        return self._unique(lambda: "".join(self.rng.sample(_PLACE_CHARS, 2)) + self.rng.choice(_PLACE_KINDS))

    def item(self) -> str:
        return self._unique(lambda: "".join(self.rng.sample(_BRAND_CHARS, 2)) + self.rng.choice(_ITEM_KINDS))


def _noisy(rng: random.Random, question: str, key: str) -> str:
    """Chat-style wording with a dropped character from the key name (as people misremember)."""
    if len(key) > 2:
        cut = rng.randrange(len(key))
        question = question.replace(key, key[:cut] + key[cut + 1 :])
    return rng.choice(_NOISY_PREFIX) + question.rstrip("？") + rng.choice(_NOISY_SUFFIX)


def _relative_day(day: date, at: date) -> str | None:
    """A Chinese phrase for `day` as seen from `at`: 昨天, 前天, 上周X, or M月D号."""
    delta = (at - day).days
    if delta == 1:
        return "昨天"
    if delta == 2:
        return "前天"
    week_start = at - timedelta(days=at.weekday())
    if week_start - timedelta(days=7) <= day < week_start:
        return f"上周{_WEEKDAYS[day.weekday()]}"
    return f"{day.month}月{day.day}号"


def make_haystack(rng: random.Random, hid: int, start: date, days: int = 30) -> dict:
    names = Namer(rng)
    turns: list[dict] = []
    facts: list[dict] = []  # {kind, day, turn, ...}

    def say(day: date, speaker: str, text: str, hour: int) -> str:
        session = f"d{(day - start).days + 1}"
        index = sum(1 for t in turns if t["session"] == session)
        tid = f"{session}:{index}"
        when = datetime(day.year, day.month, day.day, hour, rng.randrange(60), tzinfo=TZ)
        turns.append(
            {"id": tid, "session": session, "time": when.isoformat(), "speaker": speaker, "text": text}
        )
        return tid

    people = [names.person() for _ in range(4)]
    free_activities = list(_ACTIVITIES)
    places = [names.place() for _ in range(6)]
    for offset in range(days):
        day = start + timedelta(days=offset)
        hour = 8
        for _ in range(rng.randint(0, 2)):  # chit-chat before
            say(day, "我", rng.choice(_CHAT_USER), hour)
            say(day, "小伴", rng.choice(_CHAT_BOT), hour)
            hour += 1
        kind = rng.choice(("buy", "buy", "meal", "plan", "visit", "none"))
        if kind == "buy":
            item, place, price = names.item(), rng.choice(places), rng.randint(30, 900)
            tid = say(day, "我", f"今天在{place}买了个{item}，花了{price}块。", hour)
            say(day, "小伴", rng.choice(_ECHO).format(x=item), hour)
            facts.append(
                {"kind": "buy", "day": day, "turn": tid, "item": item, "place": place, "price": price}
            )
        elif kind == "meal":
            person, place, meal = rng.choice(people), rng.choice(places), rng.choice(_MEALS)
            tid = say(day, "我", f"晚上和{person}去{place}吃了{meal}。", hour)
            say(day, "小伴", rng.choice(_ECHO).format(x=meal), hour)
            facts.append(
                {"kind": "meal", "day": day, "turn": tid, "person": person, "place": place, "meal": meal}
            )
        elif kind == "plan" and free_activities:
            # Each activity is planned once a month, so "when is X now?" has one answer.
            activity = free_activities.pop(rng.randrange(len(free_activities)))
            when = day + timedelta(days=rng.randint(3, 9))
            tid = say(day, "我", f"约了{when.month}月{when.day}号去{activity}，别让我忘了。", hour)
            say(day, "小伴", "好的，我帮你记着。", hour)
            facts.append({"kind": "plan", "day": day, "turn": tid, "activity": activity, "when": when})
        elif kind == "visit":
            place = rng.choice(places)
            tid = say(day, "我", f"下午又去了一趟{place}。", hour)
            say(day, "小伴", rng.choice(_ECHO).format(x=place), hour)
            facts.append({"kind": "visit", "day": day, "turn": tid, "place": place})
        # a changed plan a few days later
        open_plans = [
            f for f in facts if f["kind"] == "plan" and "moved" not in f and f["day"] < day < f["when"]
        ]
        if open_plans and rng.random() < 0.5:
            plan = rng.choice(open_plans)
            new = plan["when"] + timedelta(days=rng.randint(1, 4))
            plan["moved"] = say(day, "我", f"{plan['activity']}改到{new.month}月{new.day}号了。", hour + 1)
            plan["new"] = new
            say(day, "小伴", "收到，已经帮你改好。", hour + 1)
        for _ in range(rng.randint(1, 2)):  # chit-chat after
            say(day, "我", rng.choice(_CHAT_USER), 21)
            say(day, "小伴", rng.choice(_CHAT_BOT), 21)
    at = datetime(start.year, start.month, start.day, 12, tzinfo=TZ) + timedelta(days=days)
    return {
        "id": f"zh-{hid}",
        "turns": turns,
        "at": at.isoformat(),
        "questions": _questions(rng, facts, at.date(), hid),
    }


def _questions(rng: random.Random, facts: list[dict], at: date, hid: int) -> list[dict]:
    questions: list[dict] = []

    def ask(kind: str, query: str, gold: list[str], answer: str | None) -> None:
        questions.append(
            {
                "id": f"zh-{hid}-q{len(questions)}",
                "type": kind,
                "query": query,
                "gold_turns": gold,
                "answer": answer,
            }
        )

    buys = [f for f in facts if f["kind"] == "buy"]
    meals = [f for f in facts if f["kind"] == "meal"]
    plans = [f for f in facts if f["kind"] == "plan"]
    for fact in rng.sample(buys, min(2, len(buys))):
        ask("single", f"我在哪里买的{fact['item']}？", [fact["turn"]], fact["place"])
    for fact in rng.sample(meals, min(1, len(meals))):
        same = [f for f in meals if (f["person"], f["meal"]) == (fact["person"], fact["meal"])]
        places = "、".join(dict.fromkeys(f["place"] for f in same))
        ask("single", f"我和{fact['person']}去哪吃的{fact['meal']}？", [f["turn"] for f in same], places)
    for fact in rng.sample(buys, min(2, len(buys))):
        question = _noisy(rng, f"{fact['item']}多少钱买的？", fact["item"])
        ask("noisy", question, [fact["turn"]], f"{fact['price']}块")
    if meals:
        person = rng.choice(meals)["person"]
        last = [f for f in meals if f["person"] == person][-1]  # "上次" is the latest meal with them
        ask("noisy", _noisy(rng, f"上次跟{person}吃饭是在哪？", person), [last["turn"]], last["place"])
    if len(buys) >= 2:
        pair = rng.sample(buys, 2)
        # The answer words are what the sum is made of: no retrieval returns the sum itself.
        ask(
            "computed",
            f"{pair[0]['item']}和{pair[1]['item']}一共花了多少钱？",
            [f["turn"] for f in pair],
            "、".join(f"{f['price']}块" for f in pair),
        )
    visited = {}
    for f in facts:
        if "place" in f:
            visited.setdefault(f["place"], []).append(f["turn"])
    repeated = [p for p, ts in visited.items() if len(ts) >= 2]
    if repeated:
        place = rng.choice(repeated)
        # A count is no words to find in returned text: scored on evidence recall alone.
        ask("computed", f"这段时间我一共去了几次{place}？", visited[place], None)
    for plan in [p for p in plans if "moved" in p][:2]:
        new = plan["new"]
        ask(
            "update",
            f"{plan['activity']}现在定在哪天？",
            [plan["moved"], plan["turn"]],
            f"{new.month}月{new.day}号",
        )
    recent = [f for f in facts if 1 <= (at - f["day"]).days <= 9 and f["kind"] != "plan"]
    for fact in rng.sample(recent, min(1, len(recent))):
        phrase = _relative_day(fact["day"], at)
        same_day = [f for f in facts if f["day"] == fact["day"] and f["kind"] != "plan"]
        done = "、".join(_what_was_done(f) for f in same_day)
        ask("temporal", f"{phrase}我干了什么？", [f["turn"] for f in same_day], done)
    return questions


def _what_was_done(fact: dict) -> str:
    """The names in a fact that say what the user did that day (a temporal question's answer)."""
    if fact["kind"] == "buy":
        return f"{fact['place']}、{fact['item']}"
    if fact["kind"] == "meal":
        return f"{fact['person']}、{fact['place']}、{fact['meal']}"
    return fact["place"]


def generate(seed: int, haystacks: int, days: int = 30) -> dict:
    rng = random.Random(seed)
    start = date(2026, 1, 5) + timedelta(days=rng.randrange(300))
    return {
        "seed": seed,
        "haystacks": [
            make_haystack(rng, h, start + timedelta(days=h * rng.randint(1, 5)), days)
            for h in range(haystacks)
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--haystacks", type=int, default=10)
    parser.add_argument("--days", type=int, default=30)
    args = parser.parse_args()
    print(json.dumps(generate(args.seed, args.haystacks, args.days), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
