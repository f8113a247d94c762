"""A registered firm's name read whole to its legal form across "and" / "of" (NER cut "Kahuru Dairy
and Horticulture Farmers' Co-operative Society Ltd" into a person and two firms), a chat marker is
no part of the name after it ("Btw Splash Point"), and an amount written with any currency sign or
a currency code beyond the majors is money (₱26k was lost, KES 1,240,000 had no currency).
Made-up names; the cases that must not change are beside each rule."""

from __future__ import annotations

from datetime import datetime

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.amounts import find_amounts
from simplemem_graph.compress.mentions import resolve_overlaps
from simplemem_graph.models import Turn


def _participants(*texts: str) -> dict[str, str]:
    """Name -> type of every participant stage 1 reads in the turns (one session, minutes apart)."""
    turns = [
        Turn(id=f"t{i}", session="s1", speaker="user", text=text, time=datetime(2026, 3, 2, 9, i))
        for i, text in enumerate(texts)
    ]
    return {p.name: p.type for e in compress(turns) for p in e.participants}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "New job 🙌 Ndaragwa Tea and Dairy Growers' Co-operative Society Ltd, off the Nyahururu road",
            "Ndaragwa Tea and Dairy Growers' Co-operative Society Ltd",
        ),
        ("We signed with Pellow and Tregunna Holdings PLC yesterday.", "Pellow and Tregunna Holdings PLC"),
        ("Our account moved to Bank of Carrowmore Group PLC last week", "Bank of Carrowmore Group PLC"),
        # a comma before the legal form, and the legal forms of other countries
        ("fechámos o doc 🎉 Penedo Alto Filmes, Lda. — série documental", "Penedo Alto Filmes, Lda."),
        ("Brenner Talweg Logistik GmbH confirmed the slot", "Brenner Talweg Logistik GmbH"),
        # the full stop of "Pte." ends no sentence
        ("new client Tan Hock Seng Freight Pte. Ltd., reno at Kallang", "Tan Hock Seng Freight Pte. Ltd."),
    ],
)
def test_a_name_with_and_or_of_is_one_firm_up_to_its_legal_form(text, name):
    assert _participants(text).get(name) == "org"


def test_no_firm_swallows_a_word_or_a_person_before_and():
    assert "Thanks and Quorlane Widgets Ltd" not in _participants("Thanks and Quorlane Widgets Ltd sent it.")
    found = _participants("I met Tomasz and Quorlane Widgets Ltd today.")
    assert found.get("Quorlane Widgets Ltd") == "org"
    assert not any(" and " in name for name in found)


def test_a_chat_marker_is_no_part_of_the_name_after_it():
    found = _participants("Btw Brenlow Point Car Wash called again, they want a quote")
    assert not any(name.startswith("Btw") for name in found)
    assert any(name.startswith("Brenlow Point") for name in found)


def _money(text: str) -> list[tuple[str, str]]:
    return [(m.surface, m.value) for m in resolve_overlaps(find_amounts(text)) if m.kind == "money"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sahod for this ₱26k base", [("₱26k", "26000 PHP")]),
        ("Quote KES 1,240,000 signed", [("KES 1,240,000", "1240000 KES")]),
        ("Ksh 15,000 sent on M-Pesa", [("Ksh 15,000", "15000 KES")]),
        ("paid RM 4,500 yesterday", [("RM 4,500", "4500 MYR")]),
        ("₦50,000 transfer done", [("₦50,000", "50000 NGN")]),
        ("taxi was ₾120", [("₾120", "120 ₾")]),  # a sign with no code here is kept as written
        ("it is $300", [("$300", "300 USD")]),  # unchanged
    ],
)
def test_an_amount_with_any_currency_sign_or_code_is_money(text, expected):
    assert _money(text) == expected


@pytest.mark.parametrize("text", ["TOP 10 list", "the RMS 400 unit", "ALL 3 of them"])
def test_a_capital_word_that_is_no_currency_makes_no_money(text):
    assert _money(text) == []


def test_a_name_after_a_tagalog_person_article_is_a_person():
    kinds = _participants(
        "yung founder si Brannock, siya pumirma ng contract",
        "pinirmahan na ni Brannock yung addendum kahapon",
    )
    assert kinds.get("Brannock") == "person"


def test_a_legal_forms_dot_before_lower_case_ends_no_sentence():
    turn = Turn(
        id="t1",
        session="s1",
        speaker="user",
        text="We signed Quorlane Widgets, Inc. today",
        time=datetime(2026, 3, 2, 9, 0),
    )
    (event,) = compress([turn])  # "today" was a sentence of its own, and dropped
    assert "today (2026-03-02)" in event.text


@pytest.mark.parametrize(
    "name",
    [
        "Qasr Dune Retail Properties L.L.C.",  # the Gulf writes L.L.C. with dots (stop 51, a held-out story)
        "Noor Falcon Facilities FZE",
        "Importadora Nogal Azul, S.A. de C.V.",
    ],
)
def test_legal_forms_of_the_gulf_and_mexico_close_a_firm(name):
    said = _participants(f"Alhamdulillah finally got it, {name} gave us the washroom job. 6 blocks.")
    assert said.get(name) == "org", said


@pytest.mark.parametrize(
    "text", ["Jae-won (Kingsway GM) approves payroll", "describe it all to help a GM run the one shot"]
)
def test_a_post_written_as_an_acronym_is_no_organisation(text):
    """ "Kingsway GM", "a GM": a post (at a branch), not a firm; NER reads ORG."""
    assert not any(kind == "org" and name.split()[-1] == "GM" for name, kind in _participants(text).items())
