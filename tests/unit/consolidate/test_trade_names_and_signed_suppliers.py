"""A coined trade name said alone after its firm is known is that firm, whatever stage 1 typed it
(麦 is a surname too), and the shapes that make a firm the client's own supplier in Chinese chat:
"物业自己跟X签的年框", and a space for a comma in voice-to-text ("灯是X的 他们酒店自己签的")
(consolidate/entities.py, consolidate/focus.py). A told-then-asked event stays in the story
(retrieve/story.py). Made-up names; the cases that must not change are beside each rule."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from simplemem_graph.consolidate.focus import _possessed
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.lexicon import CONTRAST_ROLE
from simplemem_graph.models import Event, LinkKind
from simplemem_graph.retrieve.story import _bare_question

from .conftest import NS, log_turns, mentioned, run_session


def test_a_trade_name_alone_is_its_known_firm(store, make_event, embedder):
    run_session(
        store,
        make_event,
        embedder,
        ("新客户签了 麦岚烘焙，苏州的面包连锁", {"orgs": ("麦岚烘焙",)}),
        ("麦岚项目总价8.8万", {"people": ("麦岚",), "money": (88000.0,)}),
    )
    assert mentioned(store, "e2") == {"麦岚烘焙"}


@pytest.mark.parametrize(
    ("text", "supplier", "theirs"),
    [
        ("吊篮不是我们租的，物业自己跟攀峦高空签的年框", "攀峦高空", True),
        ("吊篮是我们自己跟攀峦高空签的", "攀峦高空", False),
        ("意思就是灯是晓堂堂的 他们酒店自己签的 不归我们管", "晓堂堂", True),
        ("意思就是灯是晓堂堂的 我们自己签的", "晓堂堂", False),
    ],
)
def test_whom_the_client_itself_signed_with_is_its_supplier(text, supplier, theirs):
    assert _possessed(text, supplier, []) is theirs


def test_a_traditional_possessive_reads_as_simplified():
    assert _possessed("溫度計係佢哋自己請 Coldly 裝嘅", "Coldly", [])


def _event(text: str) -> Event:
    when = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    return Event(id="e1", namespace="n", text=text, time=when, source_ids=["s1:1"])


def test_what_was_told_before_a_closing_question_is_no_bare_question():
    assert not _bare_question(_event("记下了：晓堂堂，运河边新开的。他们那边谁拍板？"))
    assert _bare_question(_event("他们那边谁拍板？"))
    assert not _bare_question(_event("Noted: Quillmark, payroll for six sites. Who signs off?"))
    assert _bare_question(_event("Who signs off?"))


def test_a_look_alike_named_in_the_clause_before_makes_the_client_a_contrast(store, make_event, embedder):
    """ "Harrowby's Tavern rang. one pub, nothing to do with HT.": stage 1 cut the turn into two
    events; the client in the second is named only as what the look-alike is not."""
    turn = "Harrowby's Tavern in Kilbrin rang. one pub, nothing to do with HT. want an EV charger"
    run_session(
        store,
        make_event,
        embedder,
        ("new client Hallorans Taverns, on the sheet as HT", {"orgs": ("Hallorans Taverns", "HT")}),
    )
    when = "2026-03-02T10:00:00"
    log_turns(store, ("s1:9", when, turn))
    look_alike = ("Harrowby's Tavern",)
    first = make_event("e2", "Harrowby's Tavern in Kilbrin rang.", when, turn="s1:9", orgs=look_alike)
    second = make_event("e3", "one pub, nothing to do with HT.", when, turn="s1:9", orgs=("HT",))
    consolidate_batch([first, second], store, embedder=embedder)
    roles = {lk.props.get("role") for lk in store.links(NS, kinds=[LinkKind.MENTIONS], node_ids=["e3"])}
    assert CONTRAST_ROLE in roles


def test_a_known_firm_then_a_place_then_branch_is_the_firm(store, make_event, embedder):
    run_session(
        store,
        make_event,
        embedder,
        ("new client Sprigley Family Health, SFH for short", {"orgs": ("Sprigley Family Health", "SFH")}),
        ("Noted: SFH Taikoo branch alarm showed 11°C", {"orgs": ("SFH Taikoo",)}),
    )
    assert mentioned(store, "e2") == {"Sprigley Family Health"}


def test_a_sentences_closing_dot_is_no_part_of_a_short_form():
    from simplemem_graph.consolidate.aliases import capitals_words

    assert capitals_words("so that's what they are in Xero now, FTQ. easier") == ["FTQ"]
    assert capitals_words("met them at H.D.G. today") == ["H.D.G."]


def test_the_contact_and_an_address_at_the_firms_domain_tie_a_person():
    from simplemem_graph.consolidate.focus import _named_the_contact, _role_is

    assert _named_the_contact("Renata (controller) is the contact; payroll is outside", "Renata")
    assert _named_the_contact("晓岚是他们的对接人", "晓岚")
    assert not _named_the_contact("Renata said to contact them", "Renata")
    email = "From: Renata <renata@ninebirchrg.com>\nTo: Corliss <corliss@radburn.com>"
    assert _role_is(email, "Renata", ["Ninebirch Restaurant Group", "Ninebirch"])
    assert not _role_is(email, "Corliss", ["Ninebirch Restaurant Group", "Ninebirch"])
