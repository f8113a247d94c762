"""Names as held-out stories wrote them (stop 53), each written here with made-up names: a job
title on a signature's line ("Finance & Admin Supervisor") is neither a firm nor a person; a
kinship honorific names a person ("Tita Mayet"); a Tagalog person article is no part of the name
("si Arnel"); a lower-case word inside a run NER read as one name ends it ("Tita Mayet yung Feb");
Malaysia's Berhad and Quebec's lower-case "inc." close a firm's name; a firm whose name opens with
its kind ("Tadika Mentari", "Bank Kenanga") is a firm; a -house trade ("Maharlika Bakehouse") and a
plural ("Kagumo Greenhouse Growers") end one; a listed Taiwanese city is no person (高雄); 超市 closes
a firm's name and its 市 opens no place in a registered name; a short month is no one's name (Feb,
Oct). A year-less date takes last year when that is less than a quarter ago ("Dec 26" said in
February). Each case failed on the code before; a few guards ("Umhlanga Prep") pass on both."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.names import is_job_title
from simplemem_graph.compress.names_zh import find_names_zh
from simplemem_graph.models import Turn

MANILA = timezone(timedelta(hours=8))


def _participants(text: str, when: datetime = datetime(2026, 2, 20, 10, tzinfo=MANILA)) -> dict[str, str]:
    turn = Turn(id="t", session="s", speaker="user", time=when, text=text)
    return {p.name: p.type for e in compress([turn]) for p in e.participants}


def test_a_job_title_on_a_signature_line_is_no_party():
    found = _participants(
        "eto sig:\n\nMaricel D. Navarro\nFinance & Admin Supervisor\nLiwayway Noodle House Corporation\n"
        "Tel 8123 4567"
    )
    assert found.get("Liwayway Noodle House Corporation") == "org"
    assert not [name for name in found if "Supervisor" in name]
    assert is_job_title("Weddings & Events Manager") and is_job_title("IT Manager")
    assert not is_job_title("Tom Head") and not is_job_title("Bob Engineer")  # a surname, a name


@pytest.mark.parametrize(
    ("text", "person"),
    [
        ("Yung may-ari, Tita Mayet tawag sa kanya ng lahat", "Tita Mayet"),
        ("hold daw muna ni Tita Mayet yung Feb retainer", "Tita Mayet"),
        ("Nag-email na ko kay Arnel, cc Rowela", "Arnel"),
    ],
)
def test_an_honorific_makes_a_person_and_tagalog_grammar_is_no_part_of_a_name(text, person):
    found = _participants(text)
    assert found.get(person) == "person"
    assert not [name for name in found if " yung " in name or name.startswith(("kay ", "ni ", "si "))]
    assert "Feb" not in found


@pytest.mark.parametrize(
    ("text", "firm"),
    [
        (
            "Eh got new job!! Bank Kenanga Berhad, their Central Region office want us to cater",
            "Bank Kenanga Berhad",
        ),
        ("Signed a new one 🙌 Gestion Immobilière Ouellet-Papineau inc. Seasonal snow removal", None),
        (
            "Tadika Mentari Ceria in Setapak book 120 packed lunch for their sports day",
            "Tadika Mentari Ceria",
        ),
        ("Heads up, Maharlika Bakehouse — ibang client yan ha", "Maharlika Bakehouse"),
        ("New one: Umhlanga Prep in Harties. Different school.", "Umhlanga Prep"),
    ],
)
def test_firms_by_legal_forms_and_kinds_of_other_languages(text, firm):
    found = _participants(text)
    if firm is None:  # the Quebec form: one firm up to "inc."
        firm = next(name for name in found if name.startswith("Gestion"))
        assert firm.endswith("inc.")
    assert found.get(firm) == "org"


def test_a_run_ending_in_a_plural_trade_is_a_firm():
    """NER missed "Kagumo Greenhouse Growers": the run of proper nouns ends in a plural, which no
    person's name does."""
    found = _participants(
        "Inquiry from Kagumo Greenhouse Growers, Murang'a — Kagumo with a G, completely different group, "
        "a self-help group doing tomatoes."
    )
    assert found.get("Kagumo Greenhouse Growers") == "org"


def test_a_supermarket_opens_no_place_in_a_registered_name():
    """超市 ends in 市 (a city): 生活超市股份有限公司 had lost its trade name to a "place" 生活超市."""
    found = [(m.surface, m.kind) for m in find_names_zh("抬頭要寫全名 佳蔚生活超市股份有限公司 統編晚點傳")]
    assert ("佳蔚生活超市股份有限公司", "org") in found
    assert ("昌平市铭隆塑胶有限公司", "org") in [
        (m.surface, m.kind) for m in find_names_zh("新客户昌平市铭隆塑胶有限公司")
    ]


def test_a_listed_city_is_no_person_and_a_supermarket_is_a_firm():
    found = [(m.surface, m.kind) for m in find_names_zh("高雄今天是在熱什麼啦 才四月就34度")]
    assert found == [("高雄", "place")]
    assert ("佳蔚超市", "org") in [
        (m.surface, m.kind) for m in find_names_zh("欸接到大咖了 佳蔚超市要跟我們簽一整年")
    ]


@pytest.mark.parametrize(
    ("said", "text", "day"),
    [
        ("2026-02-20", "Nag-migrate sila ng server nung Dec 26, hanggang Jan 2 hindi nag-sync", "2025-12-26"),
        ("2026-01-05", "Invoice dated Dec 20 still unpaid", "2025-12-20"),
        ("2026-01-05", "发票是12月20日开的", "2025-12-20"),
        ("2026-07-05", "Deadline is March 5", "2027-03-05"),  # more than a quarter ago: next year's
        ("2026-11-20", "Kickoff Jan 8", "2027-01-08"),
    ],
)
def test_a_year_less_date_is_the_one_nearest_within_a_quarter_behind(said, text, day):
    turn = Turn(
        id="t", session="s", speaker="user", time=datetime.fromisoformat(said + "T10:00:00+08:00"), text=text
    )
    (event,) = compress([turn])
    assert day in [d.isoformat() for d in event.dates]
