"""An entity's story read through the store contract, the same on both stores: aliases, people and
suppliers (WORKS_AT, props.as), another party's events kept out, SUPERSEDES chains marked."""

from __future__ import annotations

from simplemem_graph.models import EventStatus, LinkKind
from simplemem_graph.retrieve.story import entity_story
from tests.contract.contract_data import link, make_entity, make_event
from tests.store_writes import write


def _client_graph(store, ns):
    write(
        store,
        entities=[
            make_entity(ns, "ar", "Ashby & Rourke Homewares", "A&R"),
            make_entity(ns, "ar-initials", "A&R"),
            make_entity(ns, "fi", "Fiona Aldous", type="person"),
            make_entity(ns, "jinhe", "Jinhe Kitchenware"),
            make_entity(ns, "ash", "Ashworth Home Supplies"),
            make_entity(ns, "bethan", "Bethan Coyle", type="person"),
        ],
    )
    write(
        store,
        events=[
            make_event(ns, "e1", "A&R rate is 2350 per box", minutes=0),
            make_event(ns, "e2", "Fi sent the VAT numbers", minutes=1),
            make_event(ns, "e3", "Jinhe reissued the packing list", minutes=2),
            make_event(ns, "e4", "A&R rate goes to 2780", minutes=3),
            make_event(ns, "e5", "Bethan and Fi met at the fair", minutes=4),
            make_event(ns, "e6", "did Fi call back?", minutes=5),
            make_event(
                ns, "e1-old", "A&R rate was 2200 in the draft", minutes=-1, status=EventStatus.SUPERSEDED
            ),
        ],
    )
    write(
        store,
        links=[
            link(ns, LinkKind.ALIAS_OF, "ar-initials", "ar", reason="initials"),
            link(ns, LinkKind.WORKS_AT, "fi", "ar", via="contact-answer"),
            link(ns, LinkKind.WORKS_AT, "jinhe", "ar", via="possessive", **{"as": "supplier"}),
            link(ns, LinkKind.WORKS_AT, "bethan", "ash", via="possessive"),
            link(ns, LinkKind.MENTIONS, "e1", "ar-initials", role="mention"),
            link(ns, LinkKind.MENTIONS, "e1-old", "ar", role="mention"),
            link(ns, LinkKind.MENTIONS, "e2", "fi", role="agent", surface="Fi"),
            link(ns, LinkKind.MENTIONS, "e3", "jinhe", role="agent", surface="Jinhe"),
            link(ns, LinkKind.MENTIONS, "e4", "ar", role="implied", via="session"),
            link(ns, LinkKind.MENTIONS, "e5", "fi", role="mention", surface="Fi"),
            link(ns, LinkKind.MENTIONS, "e5", "ash", role="implied", via="employer"),
            link(ns, LinkKind.MENTIONS, "e6", "fi", role="target", surface="Fi"),
            link(ns, LinkKind.SUPERSEDES, "e1", "e1-old", attribute="money"),
            link(ns, LinkKind.SUPERSEDES, "e4", "e1", attribute="money"),
        ],
    )


def test_a_story_groups_people_and_suppliers_and_marks_the_current_value(store, ns):
    _client_graph(store, ns)
    story = entity_story(store, ns, "A&R", statuses=None)
    assert story.entity.id == "ar"
    # e5 belongs to Ashworth's story (implied there), e6 is a bare question
    assert [h.event.id for h in story.hits] == ["e1-old", "e1", "e2", "e3", "e4"]
    paths = {h.event.id: h.path for h in story.hits}
    assert paths["e2"] == ["MENTIONS Fi", "WORKS_AT Ashby & Rourke Homewares"]
    assert paths["e3"][-1] == "SUPPLIER OF Ashby & Rourke Homewares"
    assert paths["e4"][0] == "MENTIONS Ashby & Rourke Homewares (implied: session)"
    assert story.chains == [["e1-old", "e1", "e4"]]
    assert paths["e4"][-1] == "CURRENT" and paths["e1-old"][-1] == "SUPERSEDED BY e1"
    assert story.people == ["Fi"] and story.suppliers == ["Jinhe"]


def test_a_story_keeps_to_its_statuses(store, ns):
    _client_graph(store, ns)
    story = entity_story(store, ns, "Ashby & Rourke Homewares", statuses=[EventStatus.ACTIVE])
    assert "e1-old" not in [h.event.id for h in story.hits]
