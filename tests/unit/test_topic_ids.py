"""Topic ids after re-clustering: one distinct id per community, whatever the ingest history."""

from simplemem_graph.consolidate.communities import topic_ids
from simplemem_graph.models import Event, stable_id


def _events(*ids: str) -> list[Event]:
    return [Event.model_construct(id=i) for i in ids]


def test_a_group_is_named_after_its_oldest_member():
    a, b, c, d = _events("a", "b", "c", "d")
    assert topic_ids([[a, b, c], [d]], "ns") == [stable_id("tp", "ns", "a"), stable_id("tp", "ns", "d")]


def test_every_group_gets_a_distinct_id_even_when_its_members_ids_are_taken():
    a, b = _events("a", "b")
    ids = topic_ids([[a, b], [a]], "ns")  # the second group's only member names the first group
    assert len(set(ids)) == 2 and ids[0] == stable_id("tp", "ns", "a")
