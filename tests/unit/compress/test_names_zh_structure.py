"""Chinese names by structure (trade name + industry word, surname + given name, 老X/小X/X总), the
traps that are not names (a verb before a firm, a common word jieba tags a person), Latin words in
Chinese text, and how a role-labelled speaker ("user") is restated. Names here are made up for the
test and appear in no list of the product."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.mentions import resolve_overlaps
from simplemem_graph.compress.names import find_latin_names_in_zh
from simplemem_graph.compress.names_zh import find_names_zh
from simplemem_graph.compress.restate import introduced_name, spoken_as
from simplemem_graph.models import Turn

T = datetime(2026, 3, 2, 9, tzinfo=UTC)


def _zh(text: str) -> list[tuple[str, str]]:
    return sorted((m.kind, m.surface) for m in resolve_overlaps(find_names_zh(text), ()))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("刚回完邮件，准备去澄屿建材的仓库看看样品。", [("org", "澄屿建材")]),
        ("明天去鑫钰物流提货", [("org", "鑫钰物流")]),
        ("好的，约冯总见面。", [("person", "冯总")]),
        ("周华为公司工作", [("org", "华为公司")]),
    ],
)
def test_an_errand_verb_or_a_titled_person_is_not_part_of_a_firm(text, expected):
    assert _zh(text) == expected


def test_a_nickname_before_any_word_is_a_person():
    assert _zh("老郑刚回电话，说要看报价单。") == [("person", "老郑")]
    assert _zh("我跟小蒋说了视频的事") == [("person", "小蒋")]


@pytest.mark.parametrize("text", ["他是个老黄牛", "等了两个小时", "这个房子很古老", "大小合适"])
def test_words_that_hold_a_surname_after_lao_or_xiao_are_no_nickname(text):
    assert [m for m in find_names_zh(text) if m.kind == "person"] == []


def test_a_three_character_name_whose_given_name_is_also_a_word():
    # jieba: 邓|nr 建华|nz — the surname stands alone as a name, the word after it is the given name
    assert ("person", "邓建华") in _zh("旭辉电子的邓建华今天来找我")


def test_a_frequent_word_jieba_tags_as_a_person_is_no_name():
    assert ("person", "顾问") not in _zh("刚开始做独立销售顾问，手上有几个客户")


def test_one_latin_word_in_chinese_text_is_a_product_unless_the_text_makes_it_a_person():
    found = {
        (m.kind, m.value) for m in find_latin_names_in_zh("想把旧电脑全换成ThinkPad，再问问Emma说怎么办")
    }
    assert ("product", "ThinkPad") in found
    assert ("person", "Emma") in found
    assert {m.kind for m in find_latin_names_in_zh("戴尔的Dell和Atlas服务器")} == {"product"}


def test_a_self_introduction_names_a_role_labelled_speaker():
    assert introduced_name("你好，我叫苏婉清，刚开始做销售。") == "苏婉清"
    assert introduced_name("Hi, my name is Dana Whitfield.") == "Dana Whitfield"
    assert introduced_name("我是一个很内向的人") is None
    assert spoken_as("user", {"user": "苏婉清"}) == "苏婉清"
    assert spoken_as("user", {}) is None
    assert spoken_as("陈晓雯", {}) == "陈晓雯"


@pytest.mark.parametrize(
    "text",
    [
        'Once upon a time a rabbit hopped up to Tim.\n\n"My name is Benny," said the rabbit.',
        '"My name is Benny," said the rabbit.',
        "Here is a draft of your cover letter:\n\nDear Ms. Lee,\nMy name is Alexia Moore and I am applying",
        'Jesus said to them, "You call me Teacher and Lord, and rightly so."',
        "Can you help me write a resume? Assume that my name is Juan Perez and I'm a manager.",
        "“我叫小明，”他笑着说。",
        "故事是这样的：\n我叫陈阳，住在山里。",
    ],
)
def test_a_name_in_a_story_a_draft_or_a_premise_is_not_the_speakers(text):
    """Only the speaker's own opening words introduce them: 5 of 48 LongMemEval dev haystacks took
    a story's or a draft's name for the assistant's or the user's, and restated every later "you"
    with it."""
    assert introduced_name(text) is None


def test_a_role_labelled_speaker_is_not_renamed_by_a_story_in_a_later_turn():
    turns = [
        Turn(id="1", session="s", speaker="assistant", time=T,
             text='A rabbit came out. "My name is Benny," said the rabbit. "I know these woods."'),
        Turn(id="2", session="s", speaker="user", time=T,
             text="Can you tell me more about the Fossil Grant Chronograph watch?"),
    ]  # fmt: skip
    texts = _texts(turns)
    assert any("Can you tell me more about the Fossil Grant" in t for t in texts)
    assert all("Benny tell" not in t for t in texts)


def _texts(turns: list[Turn]) -> list[str]:
    return [e.text for e in compress(turns)]


def test_restatements_never_read_a_speaker_label():
    ask = Turn(id="1", session="s", speaker="user", time=T, text="帮我把给德瑞物流的季度对账单整理一下。")
    texts = _texts([ask])
    assert texts and all("user" not in t for t in texts)
    assert any("帮我把" in t for t in texts)  # nobody named: 我 stays as said


def test_restatements_name_the_speaker_as_they_introduced_themself():
    turns = [
        Turn(id="1", session="s", speaker="user", time=T, text="你好，我叫苏婉清，很高兴认识你。"),
        Turn(id="2", session="s", speaker="assistant", time=T, text="你好！有什么可以帮你？"),
        Turn(id="3", session="s", speaker="user", time=T, text="帮我把给德瑞物流的季度对账单整理一下。"),
    ]
    texts = _texts(turns)
    assert any("帮苏婉清把" in t for t in texts)
    assert all("user" not in t and "assistant" not in t for t in texts)


def test_a_verb_phrase_is_never_a_firm_and_a_placed_three_character_name_is_a_person():
    # jieba reads 周 as "week" and 建国 as a place; the position (after 的, before 刚回) says person
    assert _zh("恒远医疗的周建国刚回电话，说下周要二十台货。") == [("org", "恒远医疗"), ("person", "周建国")]
    assert _zh("他刚回公司") == []
    assert _zh("下周建国庆典") == []


def test_a_name_given_in_an_earlier_batch_names_the_speaker_in_later_ones():
    known: dict[str, dict[str, str]] = {}
    first = Turn(id="1", session="s", speaker="user", time=T, text="你好，我叫苏婉清，很高兴认识你。")
    later = Turn(id="2", session="s2", speaker="user", time=T, text="我下周二去德瑞物流开会。")
    compress([first], introduced=known)
    assert list(known.values()) == [{"user": "苏婉清"}]
    assert any(t.startswith("苏婉清") for t in (e.text for e in compress([later], introduced=known)))
    assert not any("苏婉清" in e.text for e in compress([later]))  # no earlier name: 我 stays


@pytest.mark.parametrize(
    ("text", "firm"),
    [
        ("恒屹建设那边定了，外墙给我们做", "恒屹建设"),  # jieba guesses 恒屹 a noun
        ("珩筑建设的报价来了", "珩筑建设"),  # ...and 珩筑 a verb: the guess is no evidence either way
        ("澜汀装饰说下周进场", "澜汀装饰"),
    ],
)
def test_a_word_jieba_does_not_know_before_an_industry_word_is_a_firm(text, firm):
    assert ("org", firm) in _zh(text)


@pytest.mark.parametrize(
    "text",
    [
        "合同价186万，含税单价3.6元",  # 含税 is no dictionary word either, but 单价 is no industry
        "盐雾测试只撑了36小时",
        "看厂情况怎么样？",
        "刚回完邮件，马上过去",
    ],
)
def test_ordinary_words_before_a_common_noun_are_no_firm(text):
    assert [m for m in _zh(text) if m[0] == "org"] == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("话睇咗后台记录，知唔关我哋事", []),
        ("佢哋财务发咗封邮件嚟", []),
        ("阿坤打咗电话嚟", []),
        ("佢哋仓入面员工嘅午饭交畀我哋包", []),
        ("明天去澄屿建材提货，佢哋话打咗电话", [("org", "澄屿建材")]),
    ],
)
def test_a_run_with_a_cantonese_grammar_character_is_no_name(text, kept):
    """咗 (done), 哋 (plural), 嘅 (of) stand in clauses, never in names: "打咗电话" (made a call) and
    "发咗封邮件" (sent an email) are verb phrases, not firms; a firm beside them is still one."""
    assert [m for m in _zh(text) if m[0] == "org"] == kept
