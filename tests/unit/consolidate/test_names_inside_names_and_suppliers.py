"""A known name inside a longer name of another firm names the longer firm (Harrier of Harrier
Parcels inside Harrier Plant Hire), and suppliers and their people tied by the shapes real messages
use: a supplier named in a bracket as theirs, "<client> signed direct with … X", "X，<client>自己
签的", a two-line or a quoted signature (consolidate/name_matching.py, consolidate/entities.py,
consolidate/focus.py). Made-up names; the cases that must not change are beside each rule."""

from __future__ import annotations

import pytest

from simplemem_graph.consolidate.focus import _possessed
from simplemem_graph.consolidate.name_matching import outside_longer_names

from .conftest import NS, mentioned, run_session

CLIENT = "Kittiwake Parcels"


_run = run_session


def test_a_short_name_inside_a_look_alike_firm_names_the_look_alike():
    types = {"a": "org", "b": "org", "c": "person"}.__getitem__
    found = [("Kittiwake", "a"), ("Kittiwake Plant Hire", "b")]
    assert outside_longer_names(found, "Kittiwake Plant Hire rang today", types) == [
        ("Kittiwake Plant Hire", "b")
    ]
    # named on its own as well: both are there
    both = "Kittiwake said no, Kittiwake Plant Hire said yes"
    assert outside_longer_names(found, both, types) == found
    # a person inside a misread firm, or a firm inside a phrase in lower case, keeps its mention
    assert outside_longer_names([("Kit", "c"), ("Kit ok'd", "b")], "Kit ok'd it", types) == [
        ("Kit", "c"),
        ("Kit ok'd", "b"),
    ]
    phrase = [("KP", "a"), ("KP setup fee", "b")]
    assert outside_longer_names(phrase, "KP setup fee is due", types) == phrase


def test_the_look_alike_named_in_full_is_no_mention_of_the_client(store, make_event, embedder):
    _run(
        store,
        make_event,
        embedder,
        (f"new client {CLIENT}, on the system as Kittiwake", {"orgs": (CLIENT,)}),
        ("Kittiwake Plant Hire pickups both passed", {"orgs": ("Kittiwake Plant Hire",)}),
    )
    assert CLIENT not in mentioned(store, "e2")
    assert "Kittiwake Plant Hire" in mentioned(store, "e2")


def test_a_supplier_in_a_bracket_as_theirs_is_the_clients(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (
            f"{CLIENT} rotas all live in Shiftwell (rota app, their own subscription, not ours)",
            {"orgs": (CLIENT, "Shiftwell")},
        ),
    )
    assert ("Shiftwell", CLIENT) in ties


def test_a_bracket_that_says_ours_ties_nothing(store, make_event, embedder):
    ties = _run(
        store,
        make_event,
        embedder,
        (
            f"{CLIENT} rotas go into Shiftwell (rota app, our own subscription)",
            {"orgs": (CLIENT, "Shiftwell")},
        ),
    )
    assert ("Shiftwell", CLIENT) not in ties


def test_the_client_signing_direct_with_a_firm_makes_it_their_supplier():
    text = f"not our job, {CLIENT} signed direct with a tracker company, Beaconly"
    assert _possessed(text, "Beaconly", [CLIENT])
    assert not _possessed(
        "not our job, we signed direct with a tracker company, Beaconly", "Beaconly", [CLIENT]
    )


@pytest.mark.parametrize(("who_signed", "supplier"), [("澄禾", True), ("我们", False)])
def test_a_factory_the_client_signed_itself_is_its_supplier(
    store, make_event, embedder, who_signed, supplier
):
    """ "…叫岱纬制衣，澄禾自己签的" ties the factory to the client; "我们自己签的" (we did) does not."""
    client = "澄禾服饰"
    ties = _run(
        store,
        make_event,
        embedder,
        (f"新客户：{client}，店铺都交给我们代运营", {"orgs": (client,)}),
        (f"对了 衣服不是他们做的 是织里一个代工厂叫岱纬制衣，{who_signed}自己签的", {"orgs": ("岱纬制衣",)}),
    )
    assert (("岱纬制衣", client) in ties) is supplier


def test_a_two_line_signature_ties_the_person_to_the_firm(store, make_event, embedder):
    text = "Fwd:\n> Sorry, our error.\n>\n> Tobias\n> Integration Consultant, Shiftwell Ltd"
    ties = _run(store, make_event, embedder, (text, {"orgs": ("Shiftwell Ltd",), "people": ("Tobias",)}))
    assert ("Tobias", "Shiftwell Ltd") in ties


def test_a_quoted_signature_ties_the_person_to_the_firm(store, make_event, embedder):
    text = "符师傅发来出货单，末尾落款「岱纬制衣 生产部 老简」，1200件今天发空运"
    ties = _run(store, make_event, embedder, (text, {"orgs": ("岱纬制衣",), "people": ("老简",)}))
    assert ("老简", "岱纬制衣") in ties


__all__ = ["NS"]


def test_the_answer_names_the_people_of_the_firm_asked_about(store, make_event, embedder):
    client = "Wexbury Homes"
    ties = _run(
        store,
        make_event,
        embedder,
        (
            f"signed: {client} — launch campaign on Meta, Google, landing copy",
            {"orgs": (client, "Meta", "Google")},
        ),
        (
            f"Noted: {client} — launch (Meta, Google, landing page copy). Who's the decision-maker?",
            {"orgs": (client, "Meta", "Google")},
        ),
        ("their MD. everyone just says Datuk", {"people": ("Datuk",)}),
    )
    assert ("Datuk", client) in ties
    assert not {("Datuk", "Meta"), ("Datuk", "Google")} & ties


def test_a_known_person_and_what_they_do_is_no_firm(store, make_event, embedder):
    _run(
        store,
        make_event,
        embedder,
        ("拉了个项目群，@婉琪 产品经理，需求排期都走她", {"people": ("婉琪",)}),
        ("婉琪传话 老板说尾款先压着", {"orgs": ("婉琪传话",)}),
    )
    assert "婉琪" in mentioned(store, "e2")
    assert "婉琪传话" not in mentioned(store, "e2")
