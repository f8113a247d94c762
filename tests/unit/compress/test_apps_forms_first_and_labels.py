"""Names as held-out stories wrote them (stop 54), each written here with made-up names: a chat app
is no party ("Wiebke on WhatsApp"); a firm's first word before a legal form is its trade name
("Skarvik wants a sample" after "Skarvik Marine AS"); a full stop after a legal form written
without a dot ends the sentence, not the name; a name in apposition to "the <kind of firm>" is a
firm even when the parser hangs the article on a compound; Indonesia's PT and CV before a name make
it a firm; weekdays and months of other languages and Indonesian / Malay honorifics; a lower-case
word NER ran into before a name is no part of it; a name before ", <post>" is talked about, not
called; a word that opens two turns as a label ("Dicatat: …", noted) is no party; "Jl." and "No. 41" end
no sentence; "Director of Operations" is a post, not two people. Each case failed on the code
before; the guards pass on both."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.names_zh import find_names_zh
from simplemem_graph.compress.segment import split_sentences
from simplemem_graph.models import Turn

WIB = timezone(timedelta(hours=7))


def _turns(*texts: str, speaker: str = "user") -> list[Turn]:
    start = datetime(2026, 8, 3, 9, tzinfo=WIB)
    return [
        Turn(id=f"s1:{i}", session="s1", speaker=speaker, time=start + timedelta(minutes=i), text=text)
        for i, text in enumerate(texts, start=1)
    ]


def _participants(*texts: str, speaker: str = "user") -> dict[str, str]:
    return {p.name: p.type for e in compress(_turns(*texts, speaker=speaker)) for p in e.participants}


@pytest.mark.parametrize(
    "text",
    [
        "Wiebke on WhatsApp this morning: they want a 4th colour",
        "Answers around 3pm our time. WhatsApp ok, no Zalo obviously",
        "sent it to Jorunn on Slack, she'll check after lunch",
    ],
)
def test_a_chat_app_is_no_party(text):
    found = _participants(text)
    assert not {"WhatsApp", "Zalo", "Slack"} & set(found)


def test_a_firms_first_word_before_its_legal_form_is_the_firm_alone():
    found = _participants(
        "a Faroese brand emailed today, Skarvik Marine AS. oilskins, want a quote",
        "Skarvik wants a counter sample in grey before they place the PO",
    )
    assert found.get("Skarvik") == "org"
    assert found.get("Skarvik Marine AS") == "org"  # the sentence's full stop is no part of it
    assert "Skarvik Marine AS." not in found


def test_a_legal_form_written_with_its_own_dot_keeps_it():
    found = _participants("We signed with Halden Widgets Inc. Then we left.")
    assert found.get("Halden Widgets Inc.") == "org"


def test_a_name_in_apposition_to_a_kind_of_firm_is_a_firm():
    found = _participants("Hanami Zakka (the Osaka homeware shop) wants 500 canvas totes with a print.")
    assert found.get("Hanami Zakka") == "org"


@pytest.mark.parametrize(
    ("text", "firm"),
    [
        ("klien baru nih, lumayan gede 🔥 PT Kopi Lereng Merapi, coffee chain.", "Kopi Lereng Merapi"),
        ("mereka punya kontraktor sendiri, CV Sinar Baja Utama, yg pasang rangka.", "Sinar Baja Utama"),
    ],
)
def test_a_name_after_pt_or_cv_is_a_firm(text, firm):
    found = _participants(text)
    assert found.get(firm) == "org"
    assert not [name for name in found if name.startswith(("PT ", "CV "))]


def test_other_languages_calendar_words_and_honorifics():
    found = _participants(
        "Stiker 2000 pcs vinyl glossy, diambil Jumat",
        "Kang Ujang cc-in Mbak Ratih dr finance, invoice hrs ke dia",
    )
    assert "Jumat" not in found
    assert found.get("Mbak Ratih") == "person"


def test_a_lower_case_word_before_a_name_is_no_part_of_it_and_a_post_after_it_is_no_vocative():
    events = compress(_turns("Wulan pindah tim. penggantinya Laras, brand executive. nomornya udah gue save"))
    texts = " ".join(e.text for e in events)
    assert "penggantinya Laras, brand executive" in texts  # the clause is kept, not read as a call
    names = {p.name for e in events for p in e.participants}
    assert "Laras" in names and "penggantinya Laras" not in names


def test_a_word_that_opens_notes_as_a_label_is_no_party():
    found = _participants(
        "Dicatat: 24 paket siap kirim Selasa ke gudang",
        "Dicatat: pelunasan Rp37,8 jt diterima penuh, tanpa potongan.",
        speaker="assistant",
    )
    assert "Dicatat" not in found and "Selasa" not in found


def test_a_name_that_opens_pasted_lines_and_is_named_elsewhere_stays_a_name():
    found = _participants("Ratna: ok sent the file", "Ratna: and the invoice", "call Ratna tomorrow about it")
    assert "Ratna" in found


def test_an_address_with_jl_and_no_is_one_sentence_and_is_kept():
    text = "Jl. Kenari Raya No. 17, Menteng, Jakarta Pusat"
    assert [p.text for p in split_sentences(text)] == [text]
    kept = " ".join(e.text for e in compress(_turns(f"alamat kantornya:\n{text}")))
    assert "Kenari Raya No. 17" in kept
    assert [p.text for p in split_sentences("I was born in 1990. 2000 was fun.")] == [
        "I was born in 1990.",
        "2000 was fun.",
    ]


def test_a_post_of_a_department_is_no_person():
    found = _participants("> Odalys Brenner\n> Director of Operations\n> Lindenhall Dental Partners, LLC")
    assert found.get("Odalys Brenner") == "person"
    assert not {"Director", "Operations"} & set(found)
    assert _participants("Marta is Director of Quillbright now.").get("Quillbright") == "org"  # a firm


def test_a_verb_of_speech_after_a_name_is_no_part_of_a_trade_name():
    found = {m.surface: m.kind for m in find_names_zh("婉怡讲样品下礼拜一从工厂直接寄过来")}
    assert "婉怡讲样品" not in found
    assert {m.surface for m in find_names_zh("鑫钰物流说明天到")} == {"鑫钰物流"}  # a trade name stays


def test_a_coffee_shop_named_by_its_trade_is_a_firm():
    assert _participants("Kopi Senja Coffee jadi order sticker, 2000 pcs").get("Kopi Senja Coffee") == "org"


def test_a_client_introduced_then_a_trade_name_and_its_business_is_a_firm():
    said = "又来个新客户 宁波北仑的 小海豚玩具 做遥控船的 要五千套"
    found = {m.surface: m.kind for m in find_names_zh(said)}
    assert found.get("小海豚玩具") == "org"
    assert not find_names_zh("来了个新客户 做玩具的 要木玩彩盒")  # what the client does, no name
    assert not [m for m in find_names_zh("客户的 儿童玩具 要加急") if m.kind == "org"]
