"""Names (spaCy + rules, jieba + rules), negations and conditions."""

from __future__ import annotations

from simplemem_graph.compress.logic import find_conditions, find_negations
from simplemem_graph.compress.mentions import resolve_overlaps
from simplemem_graph.compress.names import find_names_en
from simplemem_graph.compress.names_zh import find_names_zh


def _zh(text: str) -> list[tuple[str, str]]:
    return sorted((m.kind, m.surface) for m in resolve_overlaps(find_names_zh(text), ()))


def _en(nlp, text: str) -> list[tuple[str, str]]:
    doc = nlp(text)
    return sorted((m.kind, m.surface) for m in resolve_overlaps(find_names_en(doc, 0, len(text)), ()))


def test_chinese_titles_orgs_places():
    # a department is part of a firm, no party of its own; a trade name before it is the firm
    assert _zh("下周二之前把报告发给市场部的李经理") == [("person", "李经理")]
    assert ("org", "澜岐") in _zh("记下了：俊熙，澜岐信息部，负责账号")
    assert _zh("跟博瑞科技的孙总开会，地点在他们杭州的办公室") == [
        ("org", "博瑞科技"),
        ("person", "孙总"),
        ("place", "杭州"),
    ]
    assert _zh("远航物流和另一家叫顺捷的都报了价") == [("org", "远航物流"), ("org", "顺捷")]
    assert _zh("如果苏州工厂交不出来") == [("place", "苏州工厂")]
    assert _zh("让赵磊和周婷到三楼会议室") == [
        ("person", "周婷"),
        ("person", "赵磊"),
        ("place", "三楼会议室"),
    ]
    assert _zh("深圳的供应商") == [("place", "深圳")]


def test_chinese_names_skip_ordinary_words():
    assert _zh("大概需要一个半小时，全部投广告") == []


def test_english_orgs_people_places(nlp):
    assert _en(nlp, "Remind me to call Daniel Okafor at Helix Labs.") == [
        ("org", "Helix Labs"),
        ("person", "Daniel Okafor"),
    ]
    assert _en(nlp, "Book a table near the Rotterdam office.") == [("place", "Rotterdam")]
    assert ("person", "Priya Nair") in _en(nlp, "Loop in Priya Nair and Tomás Reyes from Brightline Media.")
    assert _en(nlp, "Tell Brightline Media we can do it.") == [("org", "Brightline Media")]


def test_a_name_ending_in_a_plural_noun_is_a_firm_not_a_person(nlp):
    # made-up firms: a person's name is singular, a firm's can end in its trade ("Architects")
    assert _en(nlp, "Brightmoor Architects called about the drawings.") == [("org", "Brightmoor Architects")]
    assert _en(nlp, "We signed with Kestrel Surveyors last week.") == [("org", "Kestrel Surveyors")]
    # surnames ending in -s stay people
    assert _en(nlp, "Serena Williams called.") == [("person", "Serena Williams")]
    assert _en(nlp, "Chris Evans sent it.") == [("person", "Chris Evans")]


def test_a_proper_noun_before_a_capitalised_plural_noun_is_a_firm(nlp):
    # made-up names; spaCy tags the trade word a common noun, so the name run stops before it
    assert ("org", "Pellbrook Vets") in _en(nlp, "Signed a new one: Pellbrook Vets, four clinics.")
    # a plural in lower case is no part of a name; a person stays a person
    assert ("person", "Priya Nair") in _en(nlp, "Priya Nair sent two files yesterday.")
    assert not any(kind == "org" for kind, _ in _en(nlp, "Priya Nair sent two files yesterday."))


def test_a_one_word_name_after_a_preposition_of_place_is_a_place(nlp):
    # spaCy labels this made-up town an organisation; "around" says it is where the clinics are
    assert ("place", "Kelso") in _en(nlp, "Signed a new one: Pellbrook Vets, four clinics around Kelso.")
    assert ("org", "Kelso") in _en(nlp, "We signed a retainer with Kelso last week.")


def test_negations():
    assert [m.surface for m in find_negations("如果周五之前赵磊还没有把合同发过来，就别等他了")] == [
        "还没有",
        "别",
    ]
    assert [m.surface for m in find_negations("不过物料费不能超过1.2万")] == ["不能"]
    assert [m.surface for m in find_negations("Don't send it; the old one is no longer valid")] == [
        "Don't",
        "no longer",
    ]
    assert [m.surface for m in find_negations("No worries, nothing")] == ["nothing"]


def test_conditions():
    assert [m.surface for m in find_conditions("如果天气不好，团建就改到室内")] == ["如果天气不好"]
    assert [m.surface for m in find_conditions("剩下的70%等验收合格以后，下个月再付")] == ["等验收合格以后"]
    assert [m.surface for m in find_conditions("只要我们在下周一之前补发同样数量就行。")] == [
        "只要我们在下周一之前补发同样数量"
    ]
    text = "unless Tomás Reyes confirms the $6,000 deposit — and even then, never"
    assert [m.surface for m in find_conditions(text)] == ["unless Tomás Reyes confirms the $6,000 deposit"]
    assert find_conditions("call me once a week") == []
    assert [m.surface for m in resolve_overlaps(find_conditions("but only if we sign the lease."), ())] == [
        "only if we sign the lease"
    ]
