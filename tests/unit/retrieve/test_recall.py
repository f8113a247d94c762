"""Each recall channel on the hand-built graph, and reciprocal rank fusion."""

from datetime import UTC, date, datetime

import pytest

from simplemem_graph.models import DEFAULT_STATUSES, Event, Link, LinkKind, Turn
from simplemem_graph.retrieve.recall import (
    RecallFilter,
    fuse_rrf,
    recall_candidates,
    recall_entities,
    recall_fulltext,
    recall_turns,
    recall_vector,
)
from tests.store_writes import write

from .conftest import ENTITIES, NS, make_events

DEFAULT = RecallFilter(DEFAULT_STATUSES)


def entity(name):
    return next(e for e in ENTITIES if e.name == name)


def test_vector_channel_finds_paraphrases(store, embedder):
    vector = embedder.encode(["Which day was the project start meeting postponed to?"])[0]
    assert recall_vector(store, NS, vector, 2, DEFAULT)[0] == "kickoff"


def test_fulltext_channel_finds_exact_codes(store):
    assert recall_fulltext(store, NS, "INV-4471", 3, DEFAULT) == ["invoice"]
    assert recall_fulltext(store, NS, "锐拓的报价是多少", 3, DEFAULT)[0] == "ruituo"


def test_channels_respect_status_and_time_filters(store, embedder):
    vector = embedder.encode(["Globex bracket price"])[0]
    assert "price_old" not in recall_vector(store, NS, vector, 9, DEFAULT)
    assert "price_old" in recall_vector(store, NS, vector, 9, RecallFilter(None))

    february = RecallFilter(DEFAULT_STATUSES, date(2026, 2, 1), date(2026, 2, 28))
    assert set(recall_fulltext(store, NS, "Globex", 9, february)) == {"invoice", "price_new"}


def test_entity_channel_returns_the_storyline_ranked_by_the_query(store, embedder):
    vector = embedder.encode(["Who did Ana have lunch with?"])[0]
    found = recall_entities(store, NS, [entity("Ana")], vector, 10, DEFAULT)
    assert {event.id for event, _ in found} == {"kickoff", "lunch", "standup"}
    assert (found[0][0].id, found[0][1]) == ("lunch", "Ana")


def test_entity_channel_prefers_events_naming_more_query_entities(store, embedder):
    vector = embedder.encode(["weekly standup demo"])[0]
    found = recall_entities(store, NS, [entity("Ana"), entity("Acme Corp")], vector, 10, DEFAULT)
    # kickoff names both; standup matches the words better but names only Ana.
    assert found[0][0].id == "kickoff"


def test_fuse_rrf_rewards_agreement():
    fused = fuse_rrf({"vector": ["a", "b", "c"], "fulltext": ["c", "d"]}, k=60)
    assert [item for item, _ in fused] == ["c", "a", "b", "d"]
    assert fused[0][1] == pytest.approx(1 / 63 + 1 / 61)


def test_fuse_rrf_weights_and_constant():
    weighted = fuse_rrf({"vector": ["a"], "fulltext": ["b"]}, weights={"fulltext": 2.0})
    assert [item for item, _ in weighted] == ["b", "a"]
    # A small constant makes rank 1 matter more than agreement lower down.
    sharp = fuse_rrf({"vector": ["a", "b"], "fulltext": ["x", "b"]}, k=0)
    assert sharp[0][0] in {"a", "x"} and sharp[-1][0] != "b"


def test_recall_candidates_records_ranks_and_first_path(store, embedder):
    query = "What did Acme change about the kickoff?"
    vector = embedder.encode([query])[0]
    candidates = recall_candidates(
        store, NS, query=query, vector=vector, entities=[entity("Acme Corp")], k=5, where=DEFAULT
    )
    by_id = {c.event_id: c for c in candidates}
    assert candidates[0].event_id == "kickoff"
    assert set(by_id["kickoff"].ranks) == {"vector", "fulltext", "entity"}
    assert by_id["cto"].ranks.get("entity") is not None
    paths = {c.path[0] for c in candidates}
    assert paths <= {"vector", "fulltext", "entity Acme Corp"}
    entity_only = [c for c in candidates if set(c.ranks) == {"entity"}]
    assert all(c.path == ["entity Acme Corp"] for c in entity_only)


def _log_raw_turns(store, embedder, extra_words: dict[str, str]) -> None:
    """Log each event's source turn, its raw text carrying words stage 1 did not keep, and the FROM
    link consolidation writes from the event to it."""
    events = make_events(embedder)
    store.add_turns(
        [
            Turn(
                id=e.source_ids[0],
                namespace=NS,
                session=e.session,
                speaker="Ana",
                time=e.time,
                text=f"{e.text} {extra_words.get(e.id, '')}",
            )
            for e in events
        ]
    )
    write(
        store,
        links=[Link(kind=LinkKind.FROM, source=e.id, target=e.source_ids[0], namespace=NS) for e in events],
    )


def test_turn_channel_finds_events_through_words_only_their_raw_turn_has(store, embedder):
    _log_raw_turns(store, embedder, {"invoice": "reference PO-9913", "price_new": "reference 9913"})
    assert recall_fulltext(store, NS, "PO-9913", 3, DEFAULT) == []
    assert recall_turns(store, NS, "reference PO-9913", 3, DEFAULT) == ["invoice", "price_new"]
    assert recall_turns(store, NS, "zebra umbrella", 3, DEFAULT) == []


def test_turn_channel_respects_status_and_time_filters(store, embedder):
    _log_raw_turns(store, embedder, {"price_old": "bracket deal", "price_new": "bracket deal"})
    assert recall_turns(store, NS, "bracket deal", 5, DEFAULT) == ["price_new"]
    assert set(recall_turns(store, NS, "bracket deal", 5, RecallFilter(None))) == {"price_old", "price_new"}
    october = RecallFilter(None, date(2025, 10, 1), date(2025, 10, 31))
    assert recall_turns(store, NS, "bracket deal", 5, october) == ["price_old"]


def test_recall_candidates_labels_the_turn_channel(store, embedder):
    _log_raw_turns(store, embedder, {"invoice": "reference PO-9913"})
    query = "PO-9913"
    candidates = recall_candidates(
        store,
        NS,
        query=query,
        vector=embedder.encode([query])[0],
        entities=[],
        k=5,
        where=DEFAULT,
        channels=("fulltext", "turn-fulltext"),
    )
    invoice = next(c for c in candidates if c.event_id == "invoice")
    assert invoice.path == ["turn-fulltext"]
    assert invoice.ranks["turn-fulltext"] == 0


def test_turn_channel_puts_the_event_holding_the_query_first_within_its_turn(store, embedder):
    """A long turn made two events; the turn's rank goes to the one about what was asked, not to the
    one first in id order ("Seeing how passionate these pros were…" had taken the rank of the turn
    that named the counseling workshop asked about)."""
    texts = {
        "ev-a": "Seeing how passionate these pros were about a safe space was amazing.",
        "ev-b": "Last Friday Orla went to the Harrowgate counseling workshop; they talked about therapy.",
    }
    when = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    vectors = embedder.encode(list(texts.values()))
    events = [
        Event(id=i, namespace=NS, text=t, source_ids=["s9:1"], session="s9", time=when, embedding=v.tolist())
        for (i, t), v in zip(texts.items(), vectors, strict=True)
    ]
    turn_text = (
        "Last Friday I went to the Harrowgate counseling workshop; they talked about therapy. "
        + texts["ev-a"]
    )
    store.add_turns([Turn(id="s9:1", namespace=NS, session="s9", speaker="Orla", time=when, text=turn_text)])
    write(
        store,
        events=events,
        links=[Link(kind=LinkKind.FROM, source=e.id, target="s9:1", namespace=NS) for e in events],
    )
    ranked = recall_turns(store, NS, "What was discussed in the counseling workshop?", 3, DEFAULT)
    assert ranked[:2] == ["ev-b", "ev-a"]
