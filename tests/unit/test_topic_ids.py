"""Topic ids after re-clustering: one distinct id per community, whatever the ingest history."""

from simplemem_graph.consolidate.global_pass import topic_ids
from simplemem_graph.models import Event, stable_id


def _events(*ids: str) -> list[Event]:
    return [Event.model_construct(id=i) for i in ids]


def test_a_group_keeps_the_old_topic_most_of_its_members_were_in():
    a, b, c, d = _events("a", "b", "c", "d")
    old = {"a": "tp-x", "b": "tp-x", "c": "tp-y", "d": "tp-y"}
    assert topic_ids([[a, b, c], [d]], old, "ns") == ["tp-x", "tp-y"]


def test_a_fresh_id_never_collides_with_a_topic_an_earlier_group_kept():
    # Ingest named a topic after the event that opened it (b); a earlier group keeps that topic, so
    # b's own group must not take the same id, or the two groups would merge into one topic.
    a, b, c = _events("a", "b", "c")
    opened_by_b = stable_id("tp", "ns", "b")
    ids = topic_ids([[a], [b, c]], {"a": opened_by_b, "b": opened_by_b}, "ns")
    assert ids == [opened_by_b, stable_id("tp", "ns", "c")]


def test_every_group_gets_a_distinct_id_even_when_all_member_ids_are_taken():
    a, b = _events("a", "b")
    taken = stable_id("tp", "ns", "b")
    ids = topic_ids([[a], [b]], {"a": taken, "b": taken}, "ns")
    assert len(set(ids)) == 2
