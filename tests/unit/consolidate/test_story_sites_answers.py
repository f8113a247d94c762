"""Ties by sentence shape, continued (consolidate/focus.py): a client's site ("redo at <site>"), an
answer to "who decides there?" told over a few messages, a supplier the client has "of its own"
or runs, and "那边谁…" as a who-question. Made-up names; the cases that must not tie are beside
each rule."""

from __future__ import annotations

from simplemem_graph.compress.names import find_names_en, load_english_pipeline
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import Atom
from simplemem_graph.retrieve.story import entity_story

from .conftest import NS, log_turns, run_session, works_at_names

CLIENT = "Wexcombe Estates Management"


_run = run_session


def test_the_place_the_work_is_at_is_the_clients_site(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"new job: {CLIENT}, full repaint at Hollin Yard. two blocks", {"orgs": (CLIENT, "Hollin Yard")}),
    )
    assert ("Hollin Yard", CLIENT) in ties


def test_two_firms_side_by_side_are_no_site(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"{CLIENT} and Hollin Yard both want quotes", {"orgs": (CLIENT, "Hollin Yard")}),
    )
    assert not ties


def test_a_site_named_alone_later_keeps_the_clients_focus(store, make_event, embedder):
    """ "Ask Tomasz at Hollin Yard" after the site is known: Tomasz is the client's (the site stands
    for it), answering the who-question."""
    ties = _run(
        store,
        make_event,
        embedder,
        (f"new job: {CLIENT}, full repaint at Hollin Yard", {"orgs": (CLIENT, "Hollin Yard")}),
        ("Noted. Who makes the calls there?", {}),
        ("the estates lead, goes by Tomasz", {"people": ("Tomasz",)}),
    )
    assert ("Tomasz", CLIENT) in ties
    assert ("Tomasz", "Hollin Yard") not in ties


def test_an_answer_told_over_several_messages_ties_each_person(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"new client {CLIENT}", {"orgs": (CLIENT,)}),
        ("Noted. Who makes the decisions there?", {}),
        ("money goes through Odile", {"people": ("Odile",)}),
        ("day to day is Fenna, super organised", {"people": ("Fenna",)}),
    )
    assert {("Odile", CLIENT), ("Fenna", CLIENT)} <= ties


def test_the_answer_ends_when_the_asker_speaks_again(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"new client {CLIENT}", {"orgs": (CLIENT,)}),
        ("Noted. Who makes the decisions there?", {}),
        ("money goes through Odile", {"people": ("Odile",)}),
        ("Noted: Odile signs off spend.", {"people": ("Odile",)}),
        ("lunch with Bram later", {"people": ("Bram",)}),
    )
    assert ("Odile", CLIENT) in ties
    assert not any(person == "Bram" for person, _ in ties)


def test_a_zh_who_question_about_that_side_is_answered_by_the_next_turn(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        ("新客户 岚川物业", {"orgs": ("岚川物业",)}),
        ("Noted：岚川物业。那边谁拍板？", {}),
        ("拍板的是覃总 钱的事他说了算", {"people": ("覃总",)}),
    )
    assert ("覃总", "岚川物业") in ties


def test_their_own_contractor_named_after_a_comma_is_their_supplier(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"new client {CLIENT}", {"orgs": (CLIENT,)}),
        (
            "heads up, plumbing isn't ours. they have their own plumbing contractor on a retainer, Drayfield",
            {"orgs": ("Drayfield",)},
        ),
    )
    assert ("Drayfield", CLIENT) in ties


def test_our_own_contractor_is_no_supplier_of_theirs(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"new client {CLIENT}", {"orgs": (CLIENT,)}),
        ("we use our own plumbing contractor on a retainer, Drayfield", {"orgs": ("Drayfield",)}),
    )
    assert ("Drayfield", CLIENT) not in ties


def test_what_they_run_is_their_system(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"new client {CLIENT}", {"orgs": (CLIENT,)}),
        ("clocking isn't ours. they run Punchwell, terminals on every door", {"orgs": ("Punchwell",)}),
    )
    assert ("Punchwell", CLIENT) in ties


def test_a_contractor_they_found_themselves_named_in_the_next_clause(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        ("新客户 岚川物业", {"orgs": ("岚川物业",)}),
        ("外墙不归我们 施工队是他们自己找的，叫砺石建筑", {"orgs": ("砺石建筑",)}),
    )
    assert ("砺石建筑", "岚川物业") in ties


def test_a_contractor_they_found_themselves_said_the_north_eastern_way(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        ("新客户 岚川物业", {"orgs": ("岚川物业",)}),
        ("灯不归咱管 电路都是物业自个儿找的亮化公司，砺石亮化", {"orgs": ("砺石亮化",)}),
    )
    assert ("砺石亮化", "岚川物业") in ties


def test_its_own_contractor_is_its_supplier(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"new client {CLIENT}", {"orgs": (CLIENT,)}),
        (
            "catch is the borehole. the co-op has its own driller, Drayfield, signed direct",
            {"orgs": ("Drayfield",)},
        ),
    )
    assert ("Drayfield", CLIENT) in ties


def test_a_contractor_we_found_ourselves_is_not_theirs(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        ("新客户 岚川物业", {"orgs": ("岚川物业",)}),
        ("外墙归我们 施工队是我们自己找的，叫砺石建筑", {"orgs": ("砺石建筑",)}),
    )
    assert ("砺石建筑", "岚川物业") not in ties


def test_a_name_ending_in_an_abstract_noun_is_a_firm():
    nlp = load_english_pipeline()
    for text, name in [
        ("new job landed, Wexcombe Estates Management, repaint at the yard", "Wexcombe Estates Management"),
        ("signed with Brackenholt Solutions today", "Brackenholt Solutions"),
    ]:
        doc = nlp(text)
        kinds = {m.surface: m.kind for m in find_names_en(doc, 0, len(text))}
        assert kinds.get(name) == "org", (text, kinds)


def test_a_person_whose_surname_looks_like_a_noun_stays_a_person():
    nlp = load_english_pipeline()
    text = "Call Anna Clement about the invoice tomorrow"
    kinds = {m.surface: m.kind for m in find_names_en(nlp(text), 0, len(text))}
    assert kinds.get("Anna Clement") == "person", kinds


def _story_texts(store, name: str) -> dict[str, list[str]]:
    """Story events' text -> path."""
    return {h.event.text: h.path for h in entity_story(store, NS, name, statuses=None).hits}


def test_a_session_event_sharing_the_storys_noun_is_on_its_thread(store, make_event, embedder):
    _run(
        store,
        make_event,
        embedder,
        (f"{CLIENT}: new lawns at the front, 300 m2 of turf", {"orgs": (CLIENT,)}),
        ("Noted: new lawns at the front.", {}),
        ("Brookfarm Deli want menu boards by Friday", {"orgs": ("Brookfarm Deli",)}),
        ("lunch was average", {}),
    )
    # a later session: the turn names nobody, and the client is named after it
    later = [
        ("s2:1", "2026-03-05T08:00:00", "turf's down on the front lawn, looks mint"),
        ("s2:2", "2026-03-05T08:30:00", "dead tired again, need coffee"),
        ("s2:3", "2026-03-05T09:00:00", f"{CLIENT} paid the first invoice"),
        ("s2:4", "2026-03-05T09:10:00", "the menu boards are printed"),
    ]
    log_turns(store, *later)
    events = [
        make_event("f1", later[0][2], later[0][1], session="s2", turn="s2:1"),
        make_event("f2", later[1][2], later[1][1], session="s2", turn="s2:2"),
        make_event("f3", later[2][2], later[2][1], session="s2", turn="s2:3", orgs=(CLIENT,)),
        make_event("f4", later[3][2], later[3][1], session="s2", turn="s2:4"),
    ]
    consolidate_batch(events, store, embedder=embedder)
    story = _story_texts(store, CLIENT)
    assert any(p.startswith("ON THE THREAD") for p in story[later[0][2]])
    assert later[1][2] not in story  # shares no noun of the story
    assert later[3][2] not in story  # the menu boards are another client's


def test_a_word_another_client_uses_too_puts_nothing_on_the_thread(store, make_event, embedder):
    _run(
        store,
        make_event,
        embedder,
        (f"{CLIENT}: quote sent for the repaint", {"orgs": (CLIENT,)}),
        ("Brookfarm Deli want a quote too", {"orgs": ("Brookfarm Deli",)}),
        ("quote template needs a new logo", {}),
    )
    assert "quote template needs a new logo" not in _story_texts(store, CLIENT)


def _client_and_boss(boss_turn: tuple[str, dict]) -> list[tuple[str, dict]]:
    return [
        (f"new client {CLIENT}", {"orgs": (CLIENT,)}),
        ("Noted. Who makes the decisions there?", {}),
        boss_turn,
    ]


def test_someone_who_reports_to_their_person_works_there(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        *_client_and_boss(("ops director is Marguerite, signs off spend", {"people": ("Marguerite",)})),
        ("Noted: Marguerite signs off spend.", {"people": ("Marguerite",)}),
        ("so Oisin = night manager, reports to Marguerite", {"people": ("Oisin", "Marguerite")}),
    )
    assert ("Oisin", CLIENT) in ties


def test_someone_who_merely_talks_to_their_person_does_not(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        *_client_and_boss(("ops director is Marguerite, signs off spend", {"people": ("Marguerite",)})),
        ("Noted: Marguerite signs off spend.", {"people": ("Marguerite",)}),
        ("Oisin had a call with Marguerite about the rota", {"people": ("Oisin", "Marguerite")}),
    )
    assert not any(person == "Oisin" for person, _ in ties)


def test_zh_someone_reporting_to_their_boss_works_there(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        ("新客户 岚川物业", {"orgs": ("岚川物业",)}),
        ("Noted：岚川物业。那边谁拍板？", {}),
        ("拍板的是覃总 钱的事他说了算", {"people": ("覃总",)}),
        ("Noted：覃总审批费用。", {"people": ("覃总",)}),
        ("晓岚加我微信了，管采购的，直接跟覃总汇报", {"people": ("晓岚", "覃总")}),
    )
    assert ("晓岚", "岚川物业") in ties


def test_a_signature_line_ties_the_signer_to_the_firm(store, make_event, embedder):
    text = "fwd from their payables:\n> PO 5520 raised\n> Ikenna | Accounts Payable | " + CLIENT
    ties = _run(store, make_event, embedder, (text, {"orgs": (CLIENT,), "people": ("Ikenna",)}))
    assert ("Ikenna", CLIENT) in ties


def test_an_apposition_of_the_firm_and_a_job_ties_the_person(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"Noted: Oisin — {CLIENT} night shift manager.", {"orgs": (CLIENT,), "people": ("Oisin",)}),
    )
    assert ("Oisin", CLIENT) in ties


def test_a_person_named_beside_the_firm_is_no_apposition(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"ask Oisin to chase {CLIENT} about the PO", {"orgs": (CLIENT,), "people": ("Oisin",)}),
    )
    assert not any(person == "Oisin" for person, _ in ties)


def test_the_suppliers_own_people_are_in_the_clients_story(store, make_event, embedder):
    """Named before anyone said whose he is, tied later: his earlier event joins through the tie."""
    _run(
        store,
        make_event,
        embedder,
        ("新客户 岚川物业", {"orgs": ("岚川物业",)}),
        ("外墙不归我们 施工队是他们自己找的，叫砺石建筑", {"orgs": ("砺石建筑",)}),
    )
    later = [
        ("s2:1", "2026-03-09T10:00:00", "阿桐发来尺寸图了 宽5.2米"),
        ("s3:1", "2026-03-10T10:00:00", "砺石那边是个工头 叫阿桐 嗓门很大"),
    ]
    log_turns(store, *later)
    consolidate_batch(
        [make_event("g1", later[0][2], later[0][1], session="s2", turn="s2:1", people=("阿桐",))],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event(
                "g2",
                later[1][2],
                later[1][1],
                session="s3",
                turn="s3:1",
                orgs=("砺石建筑",),
                people=("阿桐",),
            )
        ],
        store,
        embedder=embedder,
    )
    assert ("阿桐", "砺石建筑") in works_at_names(store)
    story = _story_texts(store, "岚川物业")
    assert story[later[0][2]] == ["MENTIONS 阿桐", "WORKS_AT 砺石建筑", "SUPPLIER OF 岚川物业"]


def test_a_zh_estate_named_after_the_client_is_its_site(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        ("谈下来了！岚川物业，枫溪花园新盘的开荒保洁归我们了", {"orgs": ("岚川物业", "枫溪花园")}),
    )
    assert ("枫溪花园", "岚川物业") in ties


_TOMORROW = Atom(kind="date", surface="明天", value="2026-03-03")


def test_tomorrow_said_by_its_word_does_not_keep_small_talk_on_the_thread(store, make_event, embedder):
    _run(
        store,
        make_event,
        embedder,
        ("岚川物业 尾款45800到了", {"orgs": ("岚川物业",), "money": (45800.0,)}),
        ("累瘫 明天谁都别找我", {"dates": ("2026-03-03",), "atoms": [_TOMORROW]}),
        ("尾款发票明天寄出", {"dates": ("2026-03-03",), "atoms": [_TOMORROW]}),
    )
    story = _story_texts(store, "岚川物业")
    assert "累瘫 明天谁都别找我" not in story
    assert "尾款发票明天寄出" in story  # on the thread by what it is about


def test_called_so_inside_the_firm_is_a_person_not_the_firm():
    from simplemem_graph.consolidate.aliases import introduced_as_org

    assert not introduced_as_org("铁姐", "老板是个女的 公司里上上下下都叫她铁姐")
    assert introduced_as_org("麦野烘焙", "新客户签了 麦野烘焙，苏州十一家店")


def test_any_who_question_in_a_turn_naming_the_client_asks_for_its_people(store, make_event, embedder):
    """The question clause need not be an event (stage 1 may keep none of a bare question)."""
    opening = f"Noted: new client {CLIENT} — two rooftop units. Who signs off?"
    ties = _run(
        store,
        make_event,
        embedder,
        (opening, {"orgs": (CLIENT,)}),
        ("CEO is ex-navy, everyone there calls her the Commodore", {"people": ("Commodore",)}),
    )
    assert ("Commodore", CLIENT) in ties


def test_a_who_question_naming_no_firm_asks_for_nobody(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (f"new client {CLIENT}", {"orgs": (CLIENT,)}),
        ("who's grabbing coffee?", {}),
        ("Hollis is, he owes us", {"people": ("Hollis",)}),
    )
    assert not any(person == "Hollis" for person, _ in ties)


def test_whom_they_contract_with_is_their_supplier_even_past_an_acronym(store, make_event, embedder):
    text = "controls aren't ours. they have a BMS contract with Quillon Controls so they tie it in"
    ties = _run(
        store,
        make_event,
        embedder,
        (f"new client {CLIENT}", {"orgs": (CLIENT,)}),
        (text, {"orgs": ("BMS", "Quillon Controls")}),
    )
    assert ("Quillon Controls", CLIENT) in ties
