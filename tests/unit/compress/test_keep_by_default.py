"""Keep by default: a clause that says something about someone or something becomes a memory
however short; identifiers are atoms; a sentence without its own subject keeps its sentence's."""

from __future__ import annotations

import random
import re

import pytest

from simplemem_graph.compress import compress

_POOL = "岚茗烁琪璐珂瑶翎骁澜昕锦湘黛珀蔚霁汐榕樾"


def _word(rng: random.Random, n: int = 2) -> str:
    return "".join(rng.sample(_POOL, n))


@pytest.mark.parametrize("seed", range(4))
def test_short_first_person_facts_are_kept(make_turn, nlp, seed):
    rng = random.Random(seed)
    place, shop = _word(rng) + "花园小区", _word(rng) + "城"
    lines = [
        f"我住在{place}。",
        "我妈妈是个老师。",
        "我表姐是做会计的。",
        f"我去的那个商场是{shop}。",
        "今天我很难过。",
    ]
    for line in lines:
        events = compress([make_turn(line, speaker="林")], nlp=nlp)
        assert events, line
        # every word kept: only 我 is named (with the 的 a name needs before what it owns) and a
        # date annotated
        assert (
            re.sub(r"\(\d{4}-\d{2}-\d{2}\)", "", events[0].text).replace("林的", "我").replace("林", "我")
            == line
        )
        if line.startswith("我妈妈"):
            assert events[0].text.startswith("林的妈妈"), events[0].text


@pytest.mark.parametrize("seed", range(4))
def test_identifiers_are_atoms_kept_in_the_text(make_turn, nlp, seed):
    rng = random.Random(seed)
    user = "".join(rng.choice("abcdefghijklmnop") for _ in range(6)) + str(rng.randint(10, 9999))
    email = f"{user}@example.com"
    model = rng.choice(["Mate", "iPhone", "Pixel", "RTX"]) + str(rng.randint(10, 9000))
    url = f"https://example.org/{user}?id={rng.randint(1, 99)}"
    text = f"我同事的邮箱是{email}，手机是{model}，资料在 {url} 里。"
    [event] = compress([make_turn(text, speaker="林")], nlp=nlp)
    surfaces = {a.surface for a in event.atoms}
    assert {email, model, url} <= surfaces
    assert all(s in event.text for s in (email, model, url))


@pytest.mark.parametrize("seed", range(4))
def test_a_sentence_without_its_own_subject_keeps_the_one_before(make_turn, nlp, seed):
    rng = random.Random(seed)
    company = _word(rng) + "医疗"
    amount = rng.randint(11, 99)
    text = f"{company}签合同了！一家门诊，{amount}万，首付款30%五月十号之前到账。"
    events = compress([make_turn(text, speaker="林")], nlp=nlp)
    holding = [e for e in events if f"{amount}万" in e.text]
    assert holding and company in holding[0].text


def test_pleasantries_stay_out(make_turn, nlp):
    for line in ["谢谢你的建议和帮助。", "好的，我会尝试这些方法的。", "Thanks for the support!",
                 "Your help means a lot.", "That's the spirit!", "收到😊晚安～"]:  # fmt: skip
        assert not compress([make_turn(line, speaker="林")], nlp=nlp), line


@pytest.mark.parametrize(
    "line",
    ["我会尝试跟他坦诚相待。", "他最近总是心不在焉。", "我们一直相安无事。", "她对工作一丝不苟。"],
)
def test_an_idiom_said_of_someone_is_kept(make_turn, nlp, line):
    """jieba tags a four-character idiom i and no noun or verb in these: how a person acts or is
    made no memory ("我会尝试跟他坦诚相待", MemoryBank-cn's companion chat)."""
    events = compress([make_turn(line, speaker="林")], nlp=nlp)
    assert events and events[0].text.rstrip("。").endswith(line.rstrip("。")[-4:]), line


@pytest.mark.parametrize("line", ["一路顺风！", "祝你心想事成。", "你真是才华横溢！"])
def test_an_idiom_as_a_wish_or_praise_stays_out(make_turn, nlp, line):
    assert not compress([make_turn(line, speaker="林")], nlp=nlp), line


def test_an_idiom_of_feeling_for_the_listener_stays_out(make_turn, nlp):
    assert not compress([make_turn("我也为你感到高兴！", speaker="林")], nlp=nlp)
