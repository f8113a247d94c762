"""Chit-chat: events made from small talk, atoms lost from casual-looking informative turns, pleasantries.

Two measurements, both of stage 1 (`compress`) alone:

1. A *generated* set (seeded; zh + en): small-talk turns assembled at random from reactions,
   greetings, closers, laughter, emoji and punctuation, some addressed to a random name ("晚安啦
   {name}", "thanks so much, {name} 😊"), mixed with informative turns that look casual ("好的，
   那就周五下午三点见", "lol fine, I'll send you the $40 tomorrow") whose atoms are annotated by the
   generator. Reported: events per 100 small-talk turns (target <= 1), atoms lost (target 0,
   checked with bench/restoration.py's `atom_found`, on event text and fields).
2. LoCoMo dev (conv-26, conv-30): pleasantry events, by the issue's rule (at most five words and
   ending in a speaker's name: "Thanks, Caroline!") and events that carry no atom but a speaker's
   name; count and share of all events (target <= 5%).

    python bench/chitchat.py [--seeds 0 1 2 3 4] [--n 200] [--no-locomo] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from restoration import atom_found  # noqa: E402

from simplemem_graph.compress import CompressStats, compress, load_english_pipeline  # noqa: E402
from simplemem_graph.loaders import load_locomo  # noqa: E402
from simplemem_graph.models import Turn  # noqa: E402

DATA_DIR = Path(os.environ.get("SIMPLEMEM_SHARED_DATA", REPO.parent / "shared" / "data"))
LOCOMO_DEV = DATA_DIR / "locomo" / "locomo_dev.json"
_ZH_NAMES = ["小雨", "阿杰", "老陈", "婷婷", "大伟", "思思", "阿龙", "小凯"]
_EN_NAMES = ["Nina", "Marco", "Jules", "Tess", "Ben", "Ada", "Rory", "Lena"]

_ZH_PARTS = [
    [
        "哈哈",
        "哈哈哈",
        "嘿嘿",
        "嗯嗯",
        "好的",
        "好嘞",
        "好滴",
        "行",
        "收到",
        "可以",
        "哇",
        "嗯",
        "噢噢",
        "太好了",
    ],
    ["", "呀", "啦", "哦", "～", "！", "！！", "。", "…", "👍", "😂", "🙏", "😊", "🎉"],
    [
        "",
        "",
        "辛苦啦",
        "笑死我了",
        "没事没事",
        "真不错",
        "太棒了",
        "我也是",
        "那就好",
        "晚安",
        "回头聊",
        "明白明白",
    ],
    ["", "", "", "😄", "！", "～", "。"],
]
_EN_PARTS = [
    [
        "ok",
        "okay",
        "lol",
        "haha",
        "omg",
        "yay",
        "sure",
        "cool",
        "nice",
        "aw",
        "yep",
        "right",
        "oh wow",
        "hey",
    ],
    ["", ",", "!", "!!", "...", " 😂", " 👍", " 🙏"],
    [
        "",
        "",
        " sounds good",
        " talk later",
        " same here",
        " that's awesome",
        " love it",
        " no worries",
        " so true",
        " good night",
        " miss you",
        " you too",
        " totally",
        " haha same",
    ],
    ["", "", "!", " :)", " 😊", ".", " 🎉"],
]


def _small_talk(rng: random.Random, lang: str) -> str:
    parts = _ZH_PARTS if lang == "zh" else _EN_PARTS
    text = "".join(rng.choice(p) for p in parts).strip(" ,")
    if rng.random() < 0.3:  # addressed to someone: a vocative, not a mention
        name = rng.choice(_ZH_NAMES if lang == "zh" else _EN_NAMES)
        if lang == "zh":
            text = f"{text}{name}" if rng.random() < 0.5 else f"{name}，{text}"
        else:
            text = f"{text}, {name}!" if rng.random() < 0.5 else f"{name}, {text}"
    return text or "ok"


def _weekday_date(turn_time: datetime, weekday: int) -> str:
    """This week's weekday (turn times are Mondays to Wednesdays, the day asked for later)."""
    return (turn_time + timedelta(days=weekday - turn_time.weekday())).date().isoformat()


def _informative(rng: random.Random, lang: str, when: datetime) -> tuple[str, list[dict]]:
    """A casual-looking turn with annotated atoms (restoration schema)."""
    tomorrow = (when + timedelta(days=1)).date().isoformat()
    friday, saturday = _weekday_date(when, 4), _weekday_date(when, 5)
    hour = rng.randint(2, 5)
    money = rng.randint(2, 9) * 10
    opener = rng.choice(
        ["好的，", "哈哈行，", "嗯嗯，", "好呀，", "ok，"]
        if lang == "zh"
        else ["ok ", "lol fine, ", "haha sure, ", "cool, ", "yep, "]
    )
    zh_hours = "一二三四五六七八九"
    if lang == "zh":
        options = [
            (
                f"{opener}那就周五下午{zh_hours[hour - 1]}点见",
                [("date", "周五", friday), ("time", f"下午{zh_hours[hour - 1]}点", f"{hour + 12:02d}:00")],
            ),
            (
                f"{opener}我明天把{money}块转你",
                [("date", "明天", tomorrow), ("money", f"{money}块", f"{money} CNY")],
            ),
            (f"{opener}不过周六我不去了😅", [("date", "周六", saturday), ("negation", "不", "neg")]),
            (f"{opener}要是下雨就改到周六", [("condition", "要是下雨", "cond"), ("date", "周六", saturday)]),
            (f"{opener}记得明天带{rng.randint(2, 6)}把伞", [("date", "明天", tomorrow)]),
        ]
    else:
        options = [
            (
                f"{opener}see you friday at {hour}pm",
                [("date", "friday", friday), ("time", f"{hour}pm", f"{hour + 12:02d}:00")],
            ),
            (
                f"{opener}I'll send you the ${money} tomorrow",
                [("money", f"${money}", f"{money} USD"), ("date", "tomorrow", tomorrow)],
            ),
            (
                f"{opener}but I can't make it on Saturday 😅",
                [("negation", "can't", "neg"), ("date", "Saturday", saturday)],
            ),
            (
                f"{opener}if it rains we'll move it to Saturday",
                [("condition", "if it rains", "cond"), ("date", "Saturday", saturday)],
            ),
            (
                f"{opener}remember to bring {rng.randint(2, 6)} chairs tomorrow",
                [("date", "tomorrow", tomorrow)],
            ),
        ]
    text, atoms = rng.choice(options)
    return text, [{"kind": k, "surface": s, "value": v} for k, s, v in atoms]


def generate(seed: int, n: int) -> list[dict]:
    """n lines per language: 3 small-talk turns for 1 casual informative turn, in random order."""
    rng = random.Random(seed)
    lines = []
    for lang in ("zh", "en"):
        tz = timezone(timedelta(hours=8)) if lang == "zh" else UTC
        for i in range(n):
            when = datetime(2026, 3, 2, 10, 0, tzinfo=tz) + timedelta(
                weeks=rng.randint(0, 30), days=rng.randint(0, 2)
            )
            if i % 4 == 3:
                text, atoms = _informative(rng, lang, when)
            else:
                text, atoms = _small_talk(rng, lang), []
            lines.append(
                {
                    "id": f"c{seed}-{lang}-{i}",
                    "lang": lang,
                    "time": when.isoformat(),
                    "speaker": "user",
                    "text": text,
                    "atoms": atoms,
                }
            )
    return lines


def check_generated(lines: list[dict]) -> dict:
    """Events from small talk and atoms lost in the informative turns (each line compressed alone)."""
    small_talk = chit_events = atoms = lost_n = 0
    leaks, lost = [], []
    stats = CompressStats()
    for line in lines:
        turn = Turn(
            id=line["id"],
            session=line["id"],
            speaker="user",
            time=datetime.fromisoformat(line["time"]),
            text=line["text"],
        )
        events = compress([turn], stats=stats)
        if not line["atoms"]:
            small_talk += 1
            chit_events += len(events)
            if events:
                leaks.append(line["text"])
            continue
        for atom in line["atoms"]:
            atoms += 1
            if atom_found(atom, events) is None:
                lost_n += 1
                lost.append(
                    f"{line['text']} :: {atom['kind']} {atom['surface']} -> {[e.text for e in events]}"
                )
    return {
        "small_talk_turns": small_talk,
        "events_from_small_talk": chit_events,
        "per_100": 100 * chit_events / small_talk if small_talk else 0.0,
        "atoms": atoms,
        "atoms_lost": lost_n,
        "leaks": leaks[:20],
        "lost": lost[:20],
    }


_WORD = re.compile(r"[A-Za-z0-9']+")


def pleasantries(sample: str) -> dict:
    """Pleasantry events of one LoCoMo dev conversation (compressed as ingest does, whole)."""
    turns = load_locomo(LOCOMO_DEV, sample=sample)[sample]
    events = compress(turns)
    speakers = {t.speaker for t in turns}
    first_names = {s.split()[0] for s in speakers}
    shaped, no_atom, examples = 0, 0, []
    for e in events:
        words = _WORD.findall(e.text)
        last = words[-1] if words else ""
        if len(words) <= 5 and last in first_names | speakers:
            shaped += 1
            if len(examples) < 8:
                examples.append(e.text)
        if all(a.kind == "person" and a.value in speakers | first_names for a in e.atoms):
            no_atom += 1
    return {
        "sample": sample,
        "events": len(events),
        "pleasantries_shape": shaped,
        "share_shape": shaped / len(events) if events else 0.0,
        "no_atom_events": no_atom,
        "share_no_atom": no_atom / len(events) if events else 0.0,
        "examples": examples,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--n", type=int, default=100, help="lines per language per seed")
    parser.add_argument("--no-locomo", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load_english_pipeline()
    result = {"generated": check_generated([x for s in args.seeds for x in generate(s, args.n)])}
    if not args.no_locomo:
        result["locomo"] = [pleasantries(s) for s in ("conv-26", "conv-30")]
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    g = result["generated"]
    print(
        f"generated (seeds {args.seeds}): {g['events_from_small_talk']} events from {g['small_talk_turns']} "
        f"small-talk turns = {g['per_100']:.2f} per 100; atoms lost {g['atoms_lost']}/{g['atoms']}"
    )
    for leak in g["leaks"]:
        print(f"  LEAK {leak}")
    for miss in g["lost"]:
        print(f"  LOST {miss}")
    for row in result.get("locomo", []):
        print(
            f"{row['sample']}: {row['events']} events; pleasantry-shaped {row['pleasantries_shape']} "
            f"({row['share_shape']:.1%}); no atom but a speaker name {row['no_atom_events']} "
            f"({row['share_no_atom']:.1%}); e.g. {row['examples'][:5]}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
