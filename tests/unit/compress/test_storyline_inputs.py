"""Stage-1 details the storyline depends on: whole company names, Latin names inside Chinese text,
counts that are not money, and effect clauses cut into their own event (for CAUSES)."""

from __future__ import annotations

from simplemem_graph.compress import compress
from simplemem_graph.compress.amounts import find_amounts
from simplemem_graph.compress.names import find_latin_names_in_zh
from simplemem_graph.compress.names_zh import find_names_zh


def _orgs(text: str) -> set[str]:
    return {m.value for m in find_names_zh(text) if m.kind == "org"}


def test_registered_company_name_is_one_org_from_its_place(make_turn, nlp):
    text = "另外苏州市恒通精密机械有限公司的报价到了，交期30天。"
    assert "苏州市恒通精密机械有限公司" in _orgs(text)
    event = compress([make_turn(text)], nlp=nlp)[0]
    assert [(p.name, p.type) for p in event.participants] == [("苏州市恒通精密机械有限公司", "org")]


def test_a_verb_or_particle_before_the_legal_form_stops_the_name():
    # "和" stops the name: 我们 is not part of the company.
    assert "杭州博瑞科技有限公司" in _orgs("我们和杭州博瑞科技有限公司签了合同")
    assert not any(o.startswith("我们") for o in _orgs("我们和杭州博瑞科技有限公司签了合同"))


def test_latin_names_inside_chinese_text_are_typed_by_shape():
    found = find_latin_names_in_zh("荷兰Northbridge Components的Lena Park说Rotterdam港口拥堵，March再发")
    assert [(m.kind, m.value) for m in found] == [
        ("org", "Northbridge Components"),
        ("person", "Lena Park"),
        ("place", "Rotterdam"),
    ]


def test_mixed_sentence_keeps_whole_latin_names_as_participants(make_turn, nlp):
    turn = make_turn(
        'Northbridge Components那边Lena Park回邮件了："Your order will leave Rotterdam on 3 May."'
    )
    names = {(p.name, p.type) for e in compress([turn], nlp=nlp) for p in e.participants}
    assert names == {("Northbridge Components", "org"), ("Lena Park", "person"), ("Rotterdam", "place")}


def test_bare_wan_is_a_count_when_the_clause_is_about_a_quantity():
    found = {(m.kind, m.surface, m.value) for m in find_amounts("订货量从8万改成7万，预算批了8万")}
    assert ("quantity", "8万", "80000") in found and ("quantity", "7万", "70000") in found
    assert ("money", "8万", "80000 CNY") in found  # 预算 is money


def test_jiao_before_a_noun_is_a_shape_not_money():
    assert not [m for m in find_amounts("M6六角螺母的样品到了") if m.kind == "money"]
    assert [m.value for m in find_amounts("一共五角钱") if m.kind == "money"] == ["0.5 CNY"]


def test_mid_sentence_effect_clause_becomes_its_own_event(make_turn, nlp):
    turn = make_turn("恒通上周五已经发货了，结果物流在路上丢了两箱，只能补发。")
    texts = [e.text for e in compress([turn], nlp=nlp)]
    # what follows from the loss ("只能补发": they must ship again) is kept with the effect
    assert texts == ["恒通上周五(2026-03-06)已经发货了", "结果物流在路上丢了两箱，只能补发。"]


def test_english_which_is_why_clause_becomes_its_own_event(make_turn, nlp):
    turn = make_turn("The customs check took four days, which is why we missed the launch on May 2.")
    texts = [e.text for e in compress([turn], nlp=nlp)]
    assert len(texts) == 2 and texts[1].startswith("which is why")
