"""Names as held-out stories wrote them (stop 56), with made-up names: Cantonese 即係 ("is") before
a registered name is no part of it (係 reads 系 once simplified, which jieba joins to the name);
"搵咗間X廚具" (found an X kitchen-equipment firm) introduces a firm as "有家X" does; "佢哋accounts係
Rosa" (their accounts is Rosa) makes Rosa a person, not a product; a Swahili verb after a name
("Wanjala ameniambia", told me) is no part of it, and the name stays; "M-Pesa" holds no person
Pesa; "old TPO" (an adjective before capitals) is a thing, not a firm; "Birchmead Crossing" and
"Alder Square" are sites, not people. Each case failed on the code before."""

from __future__ import annotations

from simplemem_graph.compress.names_zh import find_names_zh

from .conftest import participants_of


def test_cantonese_is_before_a_registered_name_is_not_part_of_it():
    names = {(m.kind, m.value) for m in find_names_zh("OK，TKL即係泰錦隆飲食集團有限公司。")}
    assert ("org", "泰錦隆飲食集團有限公司") in names
    assert not any(value.startswith("係") for _kind, value in names)


def test_a_firm_found_with_a_measure_word_after_done():
    found = {(m.kind, m.value) for m in find_names_zh("佢哋自己搵咗間駿昌廚具，全部佢哋供")}
    assert ("org", "駿昌廚具") in found
    assert ("org", "骏昌厨具") in {(m.kind, m.value) for m in find_names_zh("他们自己找了间骏昌厨具")}
    # a guard: "家里" after 了 is home, no firm
    assert not any(m.kind == "org" for m in find_names_zh("我们去了家里吃饭"))


def test_a_post_then_is_makes_a_person():
    assert participants_of("佢哋accounts係Rosa，之後d invoice要cc佢").get("Rosa") == "person"
    assert participants_of("財務係Rosa").get("Rosa") == "person"
    assert participants_of("用的是Excel").get("Excel") == "product"  # a guard: no post before it


def test_a_swahili_verb_after_a_name_is_not_part_of_it():
    found = participants_of("Wanjala ameniambia balance ya 500k iko on hold")
    assert "Wanjala" in found  # (its kind is the tagger's guess: spaCy reads it as a place)
    assert not any(" " in name for name in found)
    assert participants_of("Kiprono ameniambia balance ya 500k iko on hold") == {"Kiprono": "person"}


def test_m_pesa_holds_no_person():
    assert "Pesa" not in participants_of("field lunches atalipa kila wiki via M-Pesa paybill")


def test_capitals_after_an_adjective_are_a_thing_and_sites_are_places():
    found = participants_of("Birchmead Crossing on Fenwick n Alder Square up north. flat, old TPO, beat up")
    assert found.get("Birchmead Crossing") == "place" and found.get("Alder Square") == "place"
    assert "TPO" not in found
    assert participants_of("PWL signed today").get("PWL") == "org"  # a guard: capitals alone
