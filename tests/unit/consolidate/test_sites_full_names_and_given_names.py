"""Sites, registered names and given names (stop 51), each found reading a held-out story and written
here with made-up names: a client's site written in lower case in the sentence that names the client
past its legal form ("… Pvt. Ltd. has given us … at their main hospital") is its site, never a bare
acronym's ("AHU cleaning"); "天猫店叫X，公司全称Y" makes X an alias of Y; initials with an
organisation word in brackets after a firm ("(SMH Group)") are its alias; 婉宁 is 周婉宁 once she is
known (never 建国 of 王建国, a word of its own); "不走X那边" gives no supplier; "X…他们财务" ties X to
the client in focus. Each case failed on the code before; guards pass on both."""

from __future__ import annotations

from simplemem_graph.consolidate.aliases import find_explicit_aliases
from simplemem_graph.consolidate.focus import _possessed, _their_person

from .conftest import entity_named, mentioned, run_session

HOSPITAL = "Kaveri Multispeciality Healthcare Pvt. Ltd."


def test_a_site_in_lower_case_after_a_legal_form_is_the_clients(store, make_event, embedder):
    ties = run_session(
        store,
        make_event,
        embedder,
        (f"{HOSPITAL} has given us AHU cleaning at their main hospital.", {"orgs": (HOSPITAL, "AHU")}),
        (f"WO\nIssued by: {HOSPITAL}\nSite: Main Hospital, Ring Road", {"orgs": ("Main Hospital",)}),
        ("Hospital has their own contractor, Varuna Power Systems.", {"orgs": ("Varuna Power Systems",)}),
    )
    assert ("Main Hospital", HOSPITAL) in ties
    assert not any(client == "AHU" for _, client in ties)  # a bare acronym mid-sentence is a thing


def test_a_site_with_a_legal_form_is_no_site(store, make_event, embedder):
    """Guard: "Head of Channels at Osun Microfinance Bank Limited" names a firm, not a place of work."""
    ties = run_session(
        store,
        make_event,
        embedder,
        (
            "Halden Digital Ltd, app redesign at Osun Microfinance Bank Limited",
            {"orgs": ("Halden Digital Ltd", "Osun Microfinance Bank Limited")},
        ),
    )
    assert not ties


def test_a_registered_name_given_after_a_shop_name_is_the_same_firm():
    text = "新客户！做茶具的 天猫店叫云岫茶器旗舰店，公司全称杭州云岫文化创意有限公司。要拍主图"
    known = [("云岫茶器旗舰店", "org"), ("杭州云岫文化创意有限公司", "org")]
    found = find_explicit_aliases(text, known)
    assert [(e.full, e.alias) for e in found] == [("杭州云岫文化创意有限公司", "云岫茶器旗舰店")]
    # guard: two firms before 全称, nobody knows which one
    two = [("甲乙商贸", "org"), ("丙丁物流", "org"), ("杭州云岫文化创意有限公司", "org")]
    said = find_explicit_aliases("甲乙商贸和丙丁物流，全称杭州云岫文化创意有限公司", two)
    assert not [e for e in said if e.reason == "full-name"]


def test_initials_with_an_organisation_word_in_brackets_are_an_alias():
    text = f"Issued by: {HOSPITAL} (KMH Group)\nTo: M/s Nandi Aircon"
    found = find_explicit_aliases(text, [(HOSPITAL, "org"), ("KMH Group", "org")])
    assert [(e.full, e.alias) for e in found] == [(HOSPITAL, "KMH Group")]
    assert not find_explicit_aliases(f"{HOSPITAL} (XYZ Group)", [(HOSPITAL, "org")])  # not its initials


def test_a_given_name_is_the_known_person(store, make_event, embedder):
    firm = "杭州云岫文化创意有限公司"
    run_session(
        store,
        make_event,
        embedder,
        (f"对接的是{firm}的周婉宁，视觉运营", {"orgs": (firm,), "people": ("周婉宁",)}),
        ("婉宁发了brief过来 要宋式极简", {"people": ("婉宁",)}),
    )
    assert "周婉宁" in mentioned(store, "e2")
    assert "婉宁" in entity_named(store, "周婉宁").aliases


def test_a_given_name_that_is_a_word_is_not_an_alias(store, make_event, embedder):
    """Guard: 建国 (a word, "founding a state") is not 王建国 by itself."""
    run_session(
        store,
        make_event,
        embedder,
        ("对接人王建国，财务", {"people": ("王建国",)}),
        ("建国说明天来", {"people": ("建国",)}),
    )
    assert "王建国" not in mentioned(store, "e2")


def test_what_a_party_does_not_go_through_is_not_its_supplier():
    text = "样品让窑厂直接寄我们棚里 不走云岫那边"
    assert not _possessed(text, "云岫", ["景德镇瓷合窑业"])
    assert _possessed("型材走华铝", "华铝", ["云岫"])  # guard: what it goes through is


def test_their_job_said_after_a_name_puts_the_person_on_their_side():
    assert _their_person("林珂加我了 他们财务 说要开专票", "林珂")
    assert not _their_person("林珂加我了 我们财务说要开专票", "林珂")


def test_names_in_a_pasted_form_are_no_contact_answer(store, make_event, embedder):
    """ "Who is the contact?" then a pasted work order: "(a) Overhaul of Chiller-2 (Carrier …)" and
    "Site: …, Bengaluru" hold no contact; a line that names one ("Contact: …") still does."""
    order = (
        "Pasting the WO they sent\nTo: M/s Nandi Aircon, #42, 3rd Cross\n"
        "(a) Overhaul of Chiller-2 (Carrier 300 TR screw)\nSite: Main Hospital, Bengaluru\n"
        "Contact: Ravi Menon"
    )
    ties = run_session(
        store,
        make_event,
        embedder,
        (f"New job from {HOSPITAL}, chiller overhaul", {"orgs": (HOSPITAL,)}),
        ("Noted. Who is the contact on their side?", {}),
        (order, {"people": ("Carrier", "Cross", "Ravi Menon")}),
    )
    assert ("Ravi Menon", HOSPITAL) in ties
    assert not {("Carrier", HOSPITAL), ("Cross", HOSPITAL)} & ties


def test_an_english_post_after_a_name_is_a_job():
    from simplemem_graph.consolidate.aliases import job_before

    assert job_before("Manjunath", "Day to day it is Manjunath, facility manager at the main branch.")
    assert job_before("Shalini", "Shalini will be facility manager here going forward")
    assert not job_before("Raghu", "Raghu, our site supervisor, came late")  # ours
    assert not job_before("Emma", "Emma, sales manager at Acme Freight, rang")  # that firm's, not the focus's


def test_spanish_su_gives_the_firm_as_theirs():
    text = "el simulador lo está importando su agencia aduanal, Agencia Aduanal Quiroga. ya llegó"
    assert _possessed(text, "Agencia Aduanal Quiroga", ["Importadora Nogal Azul"])
    sent = "le mandé la factura a Agencia Aduanal Quiroga"
    assert not _possessed(sent, "Agencia Aduanal Quiroga", ["Importadora Nogal Azul"])


def test_a_legal_form_of_several_words_comes_off_a_name():
    from simplemem_graph.consolidate.aliases import without_legal_form

    assert without_legal_form("Importadora Nogal Azul, S.A. de C.V.") == "Importadora Nogal Azul"
    assert without_legal_form("Kessler Vaughn Ostrander LLP") == "Kessler Vaughn Ostrander"
    assert without_legal_form("Nogal, S.A. de C.V.") is None  # one word alone is too easily another thing
