"""Stage 1 names typed by the shape of the sentence where NER guesses wrong (compress/names.py,
compress/names_zh.py): a name described as a body is an organisation, a bare word that speaks is a
person, a name with a trade acronym for a tail is one firm, a tax or trade acronym alone is no
firm, a firm introduced by its role noun in Chinese, a kinship word closing a nickname. Made-up
names; the cases that must keep their reading are beside each rule."""

from __future__ import annotations

from simplemem_graph.compress.mentions import resolve_overlaps
from simplemem_graph.compress.names import find_latin_names_in_zh, find_names_en
from simplemem_graph.compress.names_zh import find_names_zh


def _en(nlp, text: str) -> dict[str, str]:
    doc = nlp(text)
    return {m.surface: m.kind for m in resolve_overlaps(find_names_en(doc, 0, len(text)), ())}


def test_a_name_in_apposition_to_a_body_is_an_organisation(nlp):
    assert _en(nlp, "ok new one, Thornbury Mutual, the credit union down in Geelong.").get(
        "Thornbury Mutual"
    ) == "org"


def test_a_name_in_apposition_to_a_job_stays_a_person(nlp):
    names = _en(nlp, "I met Dana Whitlock, the operations manager, at the depot.")
    assert names.get("Dana Whitlock") == "person"


def test_a_bare_word_that_speaks_is_a_person(nlp):
    names = _en(nlp, "Quang says 50% deposit paid, $21k")
    assert names.get("Quang") == "person"


def test_a_sentence_opening_word_from_their_side_is_a_person(nlp):
    names = _en(nlp, "Bev from their accounts queried the March invoice")
    assert names.get("Bev") == "person"


def test_a_sentence_opening_firm_that_acts_is_not_made_a_person(nlp):
    # "sent" is no verb of speech: nothing says the opening word is someone
    assert _en(nlp, "Halloran sent a rate notice this morning.").get("Halloran") != "person"


def test_a_name_with_a_trade_acronym_for_a_tail_is_one_firm(nlp):
    names = _en(nlp, "they've got a sponsor deal w/ Quillon AV (does all their branch screens)")
    assert names.get("Quillon AV") == "org"
    assert "AV" not in names


def test_a_device_acronym_after_a_name_is_not_joined_into_a_firm(nlp):
    # NER reads "Fernway" alone here; a device (NAS) is no trade, so no firm "Fernway NAS" is made
    names = _en(nlp, "we back up to the Fernway NAS every night")
    assert "Fernway NAS" not in names


def test_a_tax_acronym_alone_is_no_organisation(nlp):
    assert "GST" not in _en(nlp, "quote went out at $38,500 inc GST, venue and catering")


def test_a_latin_word_called_she_in_chinese_text_is_a_person():
    kinds = {m.surface: m.kind for m in find_latin_names_in_zh("日常都找Ysolde，她是office manager")}
    assert kinds.get("Ysolde") == "person"


def test_a_latin_word_without_such_a_cue_stays_a_product():
    kinds = {m.surface: m.kind for m in find_latin_names_in_zh("日常都用Ysolde，很好用")}
    assert kinds.get("Ysolde") == "product"


def _zh(text: str) -> dict[str, str]:
    return {m.surface: m.kind for m in resolve_overlaps(find_names_zh(text), ())}


def test_a_chinese_firm_right_after_its_role_noun_is_an_organisation():
    assert _zh("合同已签；型材供应商银箔，第一批4月10日前进场。").get("银箔") == "org"


def test_an_ordinary_word_after_a_role_noun_is_no_firm():
    assert _zh("我们的供应商不少，第一批4月10日前进场。") == {}


def test_a_kinship_word_closes_a_nickname():
    names = _zh("进度款到了，他们财务冯姐打的")
    assert names.get("冯姐") == "person" and "冯姐打" not in names
