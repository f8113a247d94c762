"""Names in other languages and firms stage 1 made up (stop 50): a name with diacritics is matched
word by word as an English one is; a Chinese naming statement may name a firm by any characters
its name holds in a row; a one-word "firm" in the middle of a sentence (a tool, a regulator, an ID)
does not end a client's thread; a department is no employer; a firm's kind ("the bank") refers to
the client in focus. Names are made up; each case failed on the code before (guards pass on both)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from simplemem_graph.consolidate.aliases import ORG_SUFFIX, find_explicit_aliases, introduced_forms
from simplemem_graph.consolidate.name_matching import works_at_phrase
from simplemem_graph.models import Event
from simplemem_graph.text import is_latin

from .conftest import entity_named, mentioned, run_session

BANK = "Oyelaran Trust Microfinance Bank Limited"


def test_latin_script_allows_diacritics_and_nothing_else():
    assert is_latin("Völlmer Gerätebau") and is_latin("Kōtare") and is_latin("O’Brien")
    assert not is_latin("瑞通达") and not is_latin("Völlmer 瑞通")


def test_a_first_word_with_diacritics_is_the_firm_it_opens(store, make_event, embedder):
    """ "Noted for Völlmer": stage 1 reads a person; the one firm whose name opens with the word is
    meant (the rule skipped every name that was not ASCII)."""
    firm = "Völlmer Gerätebau GmbH"
    run_session(
        store,
        make_event,
        embedder,
        (f"signed a new one: {firm} from Ulm, ERP migration", {"orgs": (firm,)}),
        ("Noted for Völlmer: 32 person-days, go-live 19.10.", {"people": ("Völlmer",)}),
    )
    assert firm in mentioned(store, "e2")
    assert "Völlmer" not in mentioned(store, "e2")  # no person of that name: an alias of the firm


def test_a_chinese_naming_statement_names_the_firm_by_characters_inside_its_name(store, make_event, embedder):
    """ "就叫瑞通达": 瑞通达 stands inside 北京京瑞通达汽车销售服务有限公司, not at the start of what the
    trade-name rule reads (京瑞); the statement settles it. 全称 ("full name") is no naming verb."""
    assert introduced_forms("全称太长了，群里以后就叫瑞通达") == ["瑞通达"]
    firm = "北京卓瑞通达汽车销售服务有限公司"
    run_session(
        store,
        make_event,
        embedder,
        (f"新客户：{firm}，车展展台", {"orgs": (firm,)}),
        ("全称太长了，群里以后就叫瑞通达", {"people": ("瑞通达",)}),
        ("瑞通达合同签了", {"people": ("瑞通达",)}),
    )
    assert firm in mentioned(store, "e3")


def test_a_bare_word_firm_mid_sentence_does_not_end_the_thread(store, make_event, embedder):
    """ "reached out to me on LinkedIn": stage 1's "firm" is a tool; the client's thread goes on."""
    run_session(
        store,
        make_event,
        embedder,
        (f"New client {BANK}, full redesign of their mobile banking app", {"orgs": (BANK,)}),
        ("Project lead is Tunde, he reached out to me on LinkedIn about the app", {"orgs": ("LinkedIn",)}),
        ("Scope: 38 screens for the banking app, 2,400,000 total", {}),
    )
    assert BANK in mentioned(store, "e2")
    assert BANK in mentioned(store, "e3")


def test_a_bare_word_firm_opening_a_sentence_is_a_party_of_its_own(store, make_event, embedder):
    """Guard: "Copperleaf want a quote": a sentence that opens with a firm is about that firm."""
    run_session(
        store,
        make_event,
        embedder,
        (f"New client {BANK}, full redesign of their mobile banking app", {"orgs": (BANK,)}),
        ("Copperleaf want a quote for their app too, 40 screens", {"orgs": ("Copperleaf",)}),
    )
    assert BANK not in mentioned(store, "e2")


def test_a_bare_word_firm_opening_a_sentence_with_its_possessive_is_a_party(store, make_event, embedder):
    """ "Tregarth's box got pulled for an exam too" (dev2) is Tregarth's, whatever words it shares."""
    run_session(
        store,
        make_event,
        embedder,
        (f"New client {BANK}, full redesign of their mobile banking app", {"orgs": (BANK,)}),
        ("Tregarth's mobile banking app redesign got pulled too", {"orgs": ("Tregarth",)}),
    )
    assert BANK not in mentioned(store, "e2")


def test_a_department_before_its_firm_is_no_employer():
    """ "Head of Digital Channels at ITMFB": the department, then the firm."""
    text = "Noted: Funmilayo Adebanjo, Head of Digital Channels at ITMFB"
    assert not works_at_phrase(text, "Digital Channels", "Funmilayo Adebanjo")
    # guards
    assert works_at_phrase("Emma, sales rep at Acme Freight, rang", "Acme Freight", "Emma")
    assert works_at_phrase("Emma, head of sales at Acme Freight", "Acme Freight", "Emma")


def test_a_kind_of_company_in_another_language_makes_a_firm(store, make_event, embedder):
    """ "Ribeira Nova Produções" read as a person by an English NER is a firm (Produções), as a name
    ending in a legal form of another country is (Lda., AG)."""
    assert ORG_SUFFIX.search("Quinta Negra Filmes, Lda.") and ORG_SUFFIX.search("Brenner Maschinen AG")
    name = "Quinta Nova Produções"
    run_session(store, make_event, embedder, (f"também nos escreveu a {name}, curta", {"people": (name,)}))
    assert entity_named(store, name).type == "org"


def test_the_kind_of_the_firm_in_focus_refers_to_it(store, make_event, embedder):
    """ "The bank don contract one dev company, Kodewell Technologies": whom the client hired."""
    vendor = "Kodewell Technologies"
    ties = run_session(
        store,
        make_event,
        embedder,
        (f"New client {BANK}, full redesign of their mobile banking app", {"orgs": (BANK,)}),
        (f"The bank don contract one dev company, {vendor}, to code the app", {"orgs": (vendor,)}),
    )
    assert (vendor, BANK) in ties


def test_the_answer_about_contacts_ties_people_to_the_firm_asked_about(store, make_event, embedder):
    """ "Super organised" (a bare word stage 1 took for a firm) in the answer to "who's your contact
    there?" does not take the people the answer names."""
    client = "Bergvale Wine Estates (Pty) Ltd"
    ties = run_session(
        store,
        make_event,
        embedder,
        (f"Noted: {client} — year-end function. Who's your contact there?", {"orgs": (client,)}),
        ("Their events coordinator Lindiwe runs it day to day. Super organised", {"orgs": ("Super",)}),
        ("Big boss is the MD, everyone calls him JP. He signs off anything over R20k", {"people": ("JP",)}),
    )
    assert ("JP", client) in ties
    assert not any(org == "Super" for _, org in ties)


def test_events_sort_in_the_order_stage_one_wrote_their_clauses():
    """A re-read sorted by id put a turn's second clause before its first."""
    when = datetime(2026, 3, 2, 9, 0, tzinfo=timezone(timedelta(hours=1)))
    first = Event(id="zz", text="Project lead is Tunde", source_ids=["s1:3"], time=when, clause=0)
    second = Event(id="aa", text="he reached out on LinkedIn", source_ids=["s1:3"], time=when, clause=1)
    assert sorted([second, first], key=Event.log_order) == [first, second]


def test_a_description_in_lower_case_after_a_naming_verb_is_an_alias(store, make_event, embedder):
    """ "everyone on the marina calls them the sunset cruise mob cos …": the description (cut where
    the sentence goes on) is an alias of the firm the session named last; "I called them the day
    before" names nothing."""
    said = "everyone on the marina calls them the sunset cruise mob cos that's all they do"
    assert introduced_forms(said) == ["the sunset cruise mob"]
    assert introduced_forms("I called them the day before about the deposit") == []
    firm = "Tauranga Blue Charters Limited"
    run_session(
        store,
        make_event,
        embedder,
        (f"new job: {firm}, rewiring four catamarans", {"orgs": (firm,)}),
        ("everyone on the marina calls them the sunset cruise mob cos that's all they do lol", {}),
    )
    assert "the sunset cruise mob" in entity_named(store, firm).aliases


def test_the_chinese_name_of_a_latin_firm_is_its_alias(store, make_event, embedder):
    """ "Aurelia Tanjong Hospitality Sdn. Bhd.（奥丽雅）" and "我们华人叫他们奥丽雅": a coined Chinese
    name beside a Latin firm's name (known or not yet) is the name it goes by; a place in brackets
    ("（深圳）") or a phrase after 叫他们 ("明天来") is not."""
    bracketed = find_explicit_aliases("记下了：新客户 Kestrel Bay Hospitality Sdn. Bhd.（凯湾），新加坡酒店")
    assert [e.alias for e in bracketed] == ["凯湾"]
    assert find_explicit_aliases("Acme Widgets Ltd（深圳）的样品到了") == []
    firm = "Kestrel Bay Hospitality Sdn. Bhd."
    run_session(
        store,
        make_event,
        embedder,
        (f"new order 公司名 {firm}，我们华人叫他们凯湾", {"orgs": (firm,)}),
        ("凯湾的订金到了", {"orgs": ("凯湾",)}),
        ("叫他们明天来拿样品", {}),
    )
    assert "凯湾" in entity_named(store, firm).aliases
    assert "明天来" not in entity_named(store, firm).aliases
