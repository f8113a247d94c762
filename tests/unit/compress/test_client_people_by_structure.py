"""A client's people named the way chat names them, read by the structure of the sentence (stage 1,
compress/names.py and compress/names_zh.py): a nickname (X哥, surname + short title, "the guy
everyone calls X"), a given name said alone as a subject, an @mention, a role that is a name, a
signature line; and the phrases that look like names but are not (a verb glued to a firm, a verb and
its complement, "the AGM", a weekday plural, a pronoun). Every name here is made up for the test and
appears in no list of the product; each rule has the cases that must not change beside it."""

from __future__ import annotations

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.mentions import resolve_overlaps
from simplemem_graph.compress.names import find_names_en
from simplemem_graph.compress.names_zh import find_names_zh


def _zh(text: str) -> dict[str, str]:
    return {m.value: m.kind for m in resolve_overlaps(find_names_zh(text), ())}


def _en(nlp, text: str) -> dict[str, str]:
    doc = nlp(text)
    return {m.surface: m.kind for m in resolve_overlaps(find_names_en(doc, 0, len(text)), ())}


# --- Chinese -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["鹏哥拍板了 下周五开工", "店里都喊他鹏哥，嗓门大"])
def test_one_character_and_ge_is_a_nickname(text):
    assert _zh(text) == {"鹏哥": "person"}


@pytest.mark.parametrize("text", ["大哥说没事", "我姐说周末来", "这哥们靠谱"])
def test_kinship_words_and_pronouns_before_ge_are_no_nickname(text):
    assert not [k for k in _zh(text) if "哥" in k or "姐" in k]


@pytest.mark.parametrize("text", ["蔡校拍板了 总价不变", "已更新：总价不变，蔡校已确认。"])
def test_a_surname_and_a_short_title_is_a_person(text):
    assert _zh(text) == {"蔡校": "person"}


@pytest.mark.parametrize("text", ["高校毕业季", "毛处理好了"])
def test_a_word_that_holds_a_surname_and_a_short_title_is_no_person(text):
    assert not [k for k, v in _zh(text).items() if v == "person"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("思远问能不能开两张票", "思远"),  # the subject of a verb of speech, at a clause start
        ("慕白说发票收到了", "慕白"),
        ("语桐还问七月能不能继续", "语桐"),
        ("群里语桐@我：场地换了", "语桐"),  # the one who @s someone
        ("财务是慕白 要我们开专票", "慕白"),  # a role that is a name
        ("您好，有问题直接找我 ——澜川科技 销售部 语桐", "语桐"),  # a signature line
    ],
)
def test_a_given_name_said_alone_is_a_person_by_what_the_sentence_does(text, name):
    assert _zh(text).get(name) == "person"


def test_an_unknown_word_before_a_title_is_a_given_name():
    assert _zh("具体对接是总务处的语桐老师 人很好").get("语桐") == "person"
    assert not [k for k, v in _zh("市场老师说下午来").items() if v == "person"]


def test_a_given_name_handed_something_is_a_person():
    names = _zh("给语桐发了情况说明，抄送思远")
    assert names.get("语桐") == "person" and names.get("思远") == "person"


@pytest.mark.parametrize("text", ["官网说明天上新", "财务是关键，别拖", "报价说好了", "门店菜单下周一给全表"])
def test_an_ordinary_word_before_a_verb_of_speech_is_no_given_name(text):
    assert not [k for k, v in _zh(text).items() if v == "person"]


@pytest.mark.parametrize(
    "text",
    [
        "阿强说没问题，明天进场",
        "说要做毕业纪念册",
        "说我们印错尺寸",
        "屏的电走的是朗屏自带的配电箱",
        "客户要求对黑屏事故给个说法",  # 黑屏 is a dictionary word, no guessed name
    ],
)
def test_a_predicate_is_no_firm(text):
    assert not [k for k, v in _zh(text).items() if v == "org"]


def test_the_verb_that_introduces_a_firm_is_not_part_of_its_name():
    names = _zh("装修队是他们自己找的，叫铂匠装饰，尺寸铂匠给")
    assert names.get("铂匠装饰") == "org"
    assert not [k for k in names if k.startswith("叫")]


# --- English -----------------------------------------------------------------------------------


def test_an_at_mention_is_a_person(nlp):
    names = _en(nlp, 'the boss just posted in the channel: "@Carys you own the agency lot on nights"')
    assert names.get("Carys") == "person"
    assert "@Carys" not in names


def test_what_everyone_calls_someone_is_a_person(nlp):
    assert (
        _en(nlp, "director's a guy everyone calls Big Taz. never heard his real name").get("Big Taz")
        == "person"
    )


def test_the_name_a_role_is_is_a_person(nlp):
    assert _en(nlp, "the Holloway account guy is Fintan. nice bloke").get("Fintan") == "person"


def test_an_agent_noun_in_apposition_makes_a_person(nlp):
    assert (
        _en(nlp, "day to day is Sorcha, building manager onsite. super organised").get("Sorcha") == "person"
    )


def test_a_signature_line_names_a_person(nlp):
    names = _en(nlp, "fwd from their accounts: > PO 88 raised > Priyesh | Accounts Payable | KWL")
    assert names.get("Priyesh") == "person"


def test_a_plus_sign_and_a_possessive_are_not_part_of_a_name(nlp):
    assert not [k for k in _en(nlp, "emailed Sorcha + Tam the controller logs") if "+" in k]
    names = _en(nlp, "Fintan's 'looking into it'. reckons it's user error")
    assert all(not k.endswith(("'s", "'", " ")) for k in names)


def test_weekday_plurals_meetings_and_pronouns_are_no_names(nlp):
    assert "Fridays" not in _en(nlp, "Priyesh wants invoices weekly, Fridays, PO number at the top")
    assert "AGM" not in _en(nlp, "Sorcha says the AGM got brought forward")
    assert "We" not in _en(nlp, "Noted: handed over Wed 25 Nov; Sorcha signed the checklist.")


def test_a_name_ending_in_an_activity_noun_is_a_firm_and_a_street_a_place(nlp):
    names = _en(nlp, "new job 🎉 Hallam Facilities Management, full redo at the 3-block on Copse Rd")
    assert names.get("Hallam Facilities Management") == "org"
    assert names.get("Copse Rd") == "place"


def _kinds(events, name: str) -> set[str]:
    return {a.kind for e in events for a in e.atoms if a.surface == name}


def test_a_name_the_batch_shows_is_a_person_is_one_where_ner_guessed_otherwise(make_turn):
    turns = [
        make_turn(
            "handover done, walked Sorcha round the whole site, she signed the checklist", turn_id="s1:1"
        ),
        make_turn("Sorcha says council wants to inspect the drainage first", turn_id="s1:2"),
    ]
    assert _kinds(compress(turns), "Sorcha") == {"person"}


def test_a_name_that_modifies_a_noun_is_not_made_a_person_by_the_batch(make_turn):
    # "confirmed" alone makes a one-word name a person in its own sentence; the batch also shows
    # the word modifying a noun ("the Brindlecote export"), so no other turn is retyped by it
    turns = [
        make_turn("Brindlecote confirmed its firmware update dropped the punches", turn_id="s1:1"),
        make_turn("the Brindlecote account guy is Fintan, he sent a pdf", turn_id="s1:2"),
        make_turn("Priyesh says the Brindlecote export only shows 1,788 hrs", turn_id="s1:3"),
    ]
    events = compress(turns)
    later = [e for e in events if "s1:1" not in e.source_ids]
    assert "person" not in _kinds(later, "Brindlecote")
    assert _kinds(later, "Fintan") == {"person"}


def test_the_short_form_of_a_called_name_opening_a_sentence_is_a_person(make_turn):
    turns = [
        make_turn("director's a guy everyone calls Big Taz. never heard his real name", turn_id="s1:1"),
        make_turn("Taz signed the variation. 53,150 all in", turn_id="s1:2"),
        make_turn("Taz: handover 27th", turn_id="s1:3"),
    ]
    events = compress(turns)
    assert _kinds(events, "Taz") == {"person"}
    assert _kinds([e for e in events if "s1:3" in e.source_ids], "Taz") == {"person"}


def test_a_sentence_opening_word_the_batch_never_shows_as_a_person_stays_unnamed(make_turn):
    turns = [make_turn("Taz signed the variation. 53,150 all in", turn_id="s1:2")]
    assert "person" not in _kinds(compress(turns), "Taz")


def test_a_batch_person_opening_a_later_sentence_does_not_break_other_names(make_turn):
    turns = [
        make_turn("the Holloway account guy is Fintan. nice bloke", turn_id="s1:1"),
        make_turn("Fintan was on site all day. Fintan came back with the logs", turn_id="s1:2"),
    ]
    later = [e for e in compress(turns) if "s1:2" in e.source_ids]
    assert _kinds(later, "Fintan") == {"person"}


def test_initials_in_capitals_are_no_person(nlp):
    assert (
        _en(nlp, "Updated: KWM contract $48,600 → $53,150 (variation: planter boxes)").get("KWM") != "person"
    )


def test_a_holiday_ner_reads_as_a_date_is_no_person(nlp):
    names = _en(nlp, "Brackenfold Garden Centre want 10 people for the Christmas grotto season")
    assert "Christmas" not in names
    assert _en(nlp, "Loop in Priya Nair on the March invoice").get("Priya Nair") == "person"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("雅岚说地下车库也要一起做", "雅岚"),  # jieba cuts 雅|岚说
        ("刚进群，「@沁禾 进场的事你跟他们对接」", "沁禾"),
        ("沁禾是他们客服部主管，现场找她", "沁禾"),
    ],
)
def test_a_given_name_jieba_cut_into_the_verb_is_read_by_characters(text, name):
    assert _zh(text).get(name) == "person"


@pytest.mark.parametrize("text", ["我们说好了", "他们说不行", "群里说了"])
def test_a_common_word_before_a_verb_of_speech_is_no_name(text):
    assert not any(kind == "person" for kind in _zh(text).values())


def test_a_trade_name_before_a_rare_four_character_line_of_business_is_a_firm():
    assert _zh("新客户签了！澜岐医疗器械，做个进销存系统").get("澜岐医疗器械") == "org"
    assert not any(kind == "org" for kind in _zh("小周工作人员说了").values())  # a common word: speech


def test_a_nickname_after_a_preposition_jieba_glued_to_it_is_the_nickname():
    found = _zh("俊熙平时向铁姐汇报")
    assert found.get("铁姐") == "person" and "向铁姐" not in found
