"""`timeline NAME` for a name as the user types it, when no entity has it exactly: the entity a part
of it names, the entity whose name it opens, or else the turns that say it (the raw log is the
source of truth) and the thread they lead to. Never a look-alike, never a name nothing says.

Small conversations written for these tests; events are built by hand as stage 1 would hand them
over (here: a stage 1 that found no name at all), the raw turns are logged for the lexical index.
"""

from __future__ import annotations

import pytest

from simplemem_graph.errors import NotFoundError
from simplemem_graph.retrieve.story import FOUND_BY_NAME, FOUND_BY_PART, FOUND_BY_TEXT, entity_story
from simplemem_graph.retrieve.typed_names import _parts_of
from simplemem_graph.stores.queries import EntityQuery

from .conftest import NS, ingest_turns

ALL = None  # every status


def _turns(story) -> list[str]:
    return [h.event.source_ids[0] for h in story.hits]


LOWERCASE_CLIENT = [
    ("s1:1", "2026-03-02T09:00:00", "new one: harbour st bakery wants a full van wrap, quote $4,800"),
    ("s1:2", "2026-03-02T09:02:00", "wrap goes on the two delivery vans, vinyl from our usual roll stock"),
    ("s1:3", "2026-03-02T09:10:00", "coffee machine died again lol"),
    ("s2:1", "2026-03-09T10:00:00", "harbour st bakery paid the $2,400 deposit"),
    ("s2:2", "2026-03-09T10:30:00", "bramble cafe wants menu boards, $900"),
]


def test_a_name_no_entity_has_is_read_from_the_turns_that_say_it(store, make_event, embedder):
    ingest_turns(store, make_event, embedder, LOWERCASE_CLIENT)
    assert store.entities(NS, EntityQuery(name="harbour st bakery")) == []  # stage 1 found no name
    story = entity_story(store, NS, "Harbour St Bakery", statuses=ALL)
    assert story.found_by == FOUND_BY_TEXT
    said = [h for h in story.hits if h.path == ["SAYS 'Harbour St Bakery'"]]
    assert [h.event.source_ids[0] for h in said] == ["s1:1", "s2:1"]
    # the session goes on about its vans without the name; chit-chat and the other job stay out
    assert "s1:2" in _turns(story)
    assert "s1:3" not in _turns(story) and "s2:2" not in _turns(story)


def test_a_name_nothing_says_is_still_a_clear_error(store, make_event, embedder):
    ingest_turns(store, make_event, embedder, LOWERCASE_CLIENT)
    with pytest.raises(NotFoundError, match="no entity named 'harbour street bakehouse'"):
        entity_story(store, NS, "harbour street bakehouse", statuses=ALL)


def test_a_part_of_the_typed_name_that_is_an_entity_tells_whose_story(store, make_event, embedder):
    turns = [
        ("s1:1", "2026-03-02T09:00:00", "Moccia signed for 12 van wraps, $37,800"),
        ("s1:2", "2026-03-02T09:05:00", "Moccio Paving want a quote for their trucks too"),
    ]
    ingest_turns(store, make_event, embedder, turns, {"s1:1": ["Moccia"], "s1:2": ["Moccio Paving"]})
    story = entity_story(store, NS, "Moccia Brothers Plumbing", statuses=ALL)
    assert story.found_by == f"{FOUND_BY_PART} 'Moccia'" and story.entity.name == "Moccia"
    assert _turns(story) == ["s1:1"]  # not the look-alike Moccio


def test_a_typed_short_form_finds_the_name_it_opens(store, make_event, embedder):
    turns = [("s1:1", "2026-03-02T09:00:00", "Stroomhuis Wonen Group confirmed 5,000 smart plugs")]
    ingest_turns(store, make_event, embedder, turns, {"s1:1": ["Stroomhuis Wonen Group"]})
    story = entity_story(store, NS, "Stroomhuis Wonen", statuses=ALL)
    assert story.entity.name == "Stroomhuis Wonen Group" and _turns(story) == ["s1:1"]
    assert entity_story(store, NS, "Stroomhuis Wonen Group", statuses=ALL).found_by == FOUND_BY_NAME


def test_a_look_alike_word_is_no_part_of_a_name(store, make_event, embedder):
    turns = [("s1:1", "2026-03-02T09:00:00", "Lamplight rooms go live 13/3")]
    ingest_turns(store, make_event, embedder, turns, {"s1:1": ["Lamplight"]})
    with pytest.raises(NotFoundError):  # whole words only: Lamplighter is another name
        entity_story(store, NS, "Lamplighter Early Learning", statuses=ALL)


def test_the_parts_of_a_typed_name_longest_first():
    assert _parts_of("the Lamplight Regional Library Corporation") == [
        "Lamplight Regional Library",
        "Lamplight Regional",
        "Lamplight",
    ]
    assert _parts_of("苏州好好练体育科技有限公司") == ["好好练"]
    assert _parts_of("Blue Door Hotels") == ["Blue Door", "Blue"]
    assert _parts_of("MBP") == [] and _parts_of("Acme Ltd") == ["Acme"]  # one word has no part
