"""Short forms and ties as people write them in chat (consolidate/aliases.py, entities.py, focus.py,
compress/names.py): initials "from now on", initials that skip the word after "&" ("MBP" of "Moccia
Brothers Plumbing & Heating"), a legal form of two words ("Pvt Ltd"), initials introduced beside a
Chinese short form ("就叫知竹 或者ZZ"), the firm that makes a client's goods ("月饼是X代工的") named
in a session's first turn, a size word before a given name ("Big Sal") and an arrow between two
names ("Dana → Ray"). Made-up names; the cases that must not change are beside each rule."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.consolidate.aliases import (
    abbreviation_accepted,
    abbreviation_score,
    introduced_forms,
    without_legal_form,
)
from simplemem_graph.consolidate.focus import _possessed
from simplemem_graph.models import Turn

from .conftest import entity_named, run_session


def test_initials_may_leave_out_the_word_after_an_ampersand():
    assert abbreviation_score("MBP", "Moccia Brothers Plumbing & Heating") == 3
    assert abbreviation_score("MBPH", "Moccia Brothers Plumbing & Heating") == 4
    # every other capitalised word still needs its letter: BM is no form of Brackenfield Marine Services
    assert abbreviation_score("BM", "Brackenfield Marine Services") == 0
    assert not abbreviation_accepted("MP", "Moccia Brothers Plumbing & Heating")


def test_a_legal_form_of_two_words_is_no_part_of_what_is_abbreviated():
    assert (
        without_legal_form("Kshema Physiotherapy & Rehab Centres Pvt Ltd.")
        == "Kshema Physiotherapy & Rehab Centres"
    )
    assert without_legal_form("Vandermolen Wonen B.V.") == "Vandermolen Wonen"
    assert without_legal_form("Acme Ltd") is None  # one word alone is too easily another thing


@pytest.mark.parametrize(
    ("text", "forms"),
    [
        ("typing moccia brothers plumbing & heating every time is killing me, MBP from now on", ["MBP"]),
        ("KPRC for short", ["KPRC"]),
        ("the new van is ready from now on", []),  # no capitals, no name
    ],
)
def test_capitals_followed_by_from_now_on_are_a_naming(text, forms):
    assert introduced_forms(text) == forms


def test_initials_introduced_with_a_short_form_name_the_same_firm(store, make_event, embedder):
    run_session(
        store,
        make_event,
        embedder,
        ("新客户 杭州知岚茶事餐饮管理有限公司 做中秋礼盒", {"orgs": ("杭州知岚茶事餐饮管理有限公司",)}),
        ("名字太长了打字累 以后群里就叫知岚 或者ZL", {}),
        ("还有个 芝岚茶业也找来了 要国庆礼盒", {"orgs": ("芝岚茶业",)}),  # the look-alike, same initials
    )
    firm = entity_named(store, "杭州知岚茶事餐饮管理有限公司")
    assert {"知岚", "ZL"} <= set(firm.aliases)
    assert "ZL" not in entity_named(store, "芝岚茶业").aliases


@pytest.mark.parametrize(
    ("text", "theirs"),
    [
        ("月饼是禾岭食品代工的 灌装在他们厂", True),
        ("由禾岭食品代加工", True),
        ("我们是禾岭食品代工的", False),  # our own maker, not the client's
    ],
)
def test_who_makes_a_partys_goods_is_its_supplier(text, theirs):
    assert _possessed(text, "禾岭食品", []) is theirs


def test_a_maker_named_after_the_client_in_a_sessions_first_turn_is_its_supplier(store, make_event, embedder):
    ties = run_session(
        store,
        make_event,
        embedder,
        (
            "转一下她发的：我是知岚采购小柔 月饼是禾岭食品代工的 盒子直接送禾岭",
            {"orgs": ("知岚", "禾岭食品"), "people": ("小柔",)},
        ),
    )
    assert ("禾岭食品", "知岚") in ties


def _names(text: str) -> dict[str, str]:
    turn = Turn(id="t1", session="s1", speaker="user", text=text, time=datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    return {p.name: p.type for e in compress([turn]) for p in e.participants}


def test_a_size_word_before_a_given_name_is_a_nickname():
    assert _names("Big Sal approves money, Dana day to day.").get("Big Sal") == "person"


def test_an_arrow_between_two_names_joins_neither():
    found = _names("Noted: MBP day-to-day contact Dana → Ray (shop foreman) while Dana's on leave.")
    assert "Dana → Ray" not in found and found.get("Ray") == "person" and found.get("Dana") == "person"


@pytest.mark.parametrize(
    ("text", "name", "theirs"),
    [
        (
            "They already have contract with one messaging vendor, Pingstar Communications",
            "Pingstar Communications",
            True,
        ),
        ("their booking system Slotwise", "Slotwise", True),
        # a preposition between "their" and the name: the name is no thing of theirs
        ("Pls don't mix up their folder with KPRC, both say Kshema", "KPRC", False),
    ],
)
def test_what_they_contract_with_is_theirs_and_a_preposition_breaks_their(text, name, theirs):
    assert _possessed(text, name, []) is theirs


def test_a_currency_code_is_no_party():
    found = _names("Agreed at EUR 7.45, total EUR 59,600. Ex-works 29 May.")
    assert "EUR" not in found


def test_function_characters_are_no_thread_word():
    from simplemem_graph.retrieve.story import _zh_noun

    assert not _zh_noun("全是")  # "all" + "is": no subject a thread can share
    assert _zh_noun("专票") and _zh_noun("尾款")


def test_a_department_on_its_own_line_is_no_firm_a_pair_of_names_in_a_sentence_is():
    from simplemem_graph.consolidate.aliases import ampersand_names

    assert ampersand_names("Kind regards,\n> Femke\n> Sourcing & Operations\n> Vandermolen") == []
    assert ampersand_names("Marks & Spencer called") == [("Marks & Spencer", ["M&S"])]
    found = _names("Day to day is Femke (Sourcing & Operations), she sends the POs")
    assert "Sourcing & Operations" not in found


def test_what_someone_is_called_is_a_person_even_before_a_word_it_seems_to_modify():
    found = _names("owner's Salvo but nobody calls him that. even his kids call him the Gaffer lol")
    assert found.get("Gaffer") == "person" and "That" not in found


def test_a_plus_between_two_names_joins_neither():
    found = _names("Doc B + Mireille both signed off on the plan")
    assert "Doc B + Mireille" not in found and found.get("Mireille") == "person"


def test_verbs_alone_before_an_org_word_are_no_trade_name():
    from simplemem_graph.compress.names_zh import find_names_zh

    assert [m.value for m in find_names_zh("老板把我拉进企业微信群了")] == []
    assert [m.value for m in find_names_zh("钰琨货运那边回话了")] == [
        "钰琨货运"
    ]  # unknown characters still are


def test_singapore_and_malaysian_legal_forms_are_no_part_of_the_initials():
    assert without_legal_form("Halcyon Quay Developments Pte Ltd") == "Halcyon Quay Developments"
    assert abbreviation_accepted("HQD", without_legal_form("Halcyon Quay Developments Pte Ltd"))


@pytest.mark.parametrize(
    ("text", "name", "theirs"),
    [
        (
            "it's no ours, they're contracted wi Kelvinside Fire Protection",
            "Kelvinside Fire Protection",
            True,
        ),
        (
            "fit-out not done by them, they engage Lumos Build & Fitout as main con",
            "Lumos Build & Fitout",
            True,
        ),
        ("images all live in OptiGraph (their practice mgmt software)", "OptiGraph", True),
        ("they are happy with Acmeo so far", "Acmeo", False),  # being happy with someone hires no one
    ],
)
def test_whom_they_engage_or_are_contracted_with_is_theirs(text, name, theirs):
    assert _possessed(text, name, []) is theirs


def test_a_plural_common_noun_after_a_preposition_is_a_tool_not_a_person():
    found = _names("day to day is Genevieve, very quick on Teams, she runs the Laval clinic")
    assert "Teams" not in found and found.get("Genevieve") == "person"


def test_a_naming_statement_may_give_the_initials_of_the_first_words(store, make_event, embedder):
    from simplemem_graph.consolidate.aliases import opens_with_initials

    assert opens_with_initials("DM", "Di Mauro Family Restaurants Ltd.")
    assert not opens_with_initials("DMF", "Di Mauro")  # more letters than the name has words
    run_session(
        store,
        make_event,
        embedder,
        (
            "new one in, Di Mauro Family Restaurants Ltd. 3 sites",
            {"orgs": ("Di Mauro Family Restaurants Ltd.",)},
        ),
        ("gonnae call them DM in here, full name's a mouthful", {}),
    )
    assert "DM" in entity_named(store, "Di Mauro Family Restaurants Ltd.").aliases


def test_chats_n_between_two_names_joins_neither():
    found = _names("Darlene n Kendall both signed the contract")
    assert "Darlene n Kendall" not in found and found.get("Kendall") == "person"


def test_from_here_on_is_a_naming_too():
    assert introduced_forms("sick of typin all that out, its BSA from here on") == ["BSA"]


def test_a_latin_name_after_a_is_a_person_even_when_it_is_a_month():
    found = _names("日常对接搵阿May，佢系行政主管，报餐都系佢")
    assert found.get("May") == "person"
    assert "May" not in _names("May 5 is the date")


def test_initials_stage_1_read_as_a_firm_of_their_own_still_become_the_alias(store, make_event, embedder):
    run_session(
        store,
        make_event,
        embedder,
        ("new one: Bluegum Stor-All Self Storage, 3 sites", {"orgs": ("Bluegum Stor-All Self Storage",)}),
        ("sick of typin all that out, its BSA from here on", {"orgs": ("BSA",)}),
    )
    assert "BSA" in entity_named(store, "Bluegum Stor-All Self Storage").aliases


# ---- initials without the legal form; "from now" without "on"; contrast said as "not X" / "≠" ----
def test_initials_leave_the_legal_form_and_and_out():
    from simplemem_graph.consolidate.aliases import is_initials_of

    full = "Ndaragwa Tea and Dairy Growers' Co-operative Society Ltd"
    assert is_initials_of("NTDGCS", full)  # the capitals of the name, "and" and Ltd left out
    assert is_initials_of("PTHL", "Pellow Tregunna Holdings Ltd")  # with the legal form: unchanged
    assert is_initials_of("PTH", "Pellow Tregunna Holdings Ltd")
    assert not is_initials_of("NTDG", full)  # a prefix is no initials on its own


def test_a_form_used_from_now_is_introduced_with_or_without_on():
    from simplemem_graph.consolidate.aliases import introduced_forms

    assert introduced_forms("too long, I'll just write NTD from now") == ["NTD"]
    assert introduced_forms("NTD from now on") == ["NTD"]
    assert introduced_forms("see you from now") == []


@pytest.mark.parametrize(
    "text",
    [
        "Oakmere Living — separate prospect, not OHF.",
        "wag malito ha, Oakmere ≠ Oakhollow",
        "a separate client",
    ],
)
def test_a_contrast_said_with_a_sign_or_a_separate_noun_is_a_contrast(text):
    from simplemem_graph.lexicon import CONTRAST_MARKER

    assert CONTRAST_MARKER.search(text)


@pytest.mark.parametrize("text", ["not bad at all", "I am not the one who paid"])
def test_not_before_a_lower_case_word_is_no_contrast(text):
    from simplemem_graph.lexicon import CONTRAST_MARKER

    assert not CONTRAST_MARKER.search(text)
