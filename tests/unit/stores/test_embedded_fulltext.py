"""The embedded fulltext index keeps each namespace's terms apart (issue 11): a query reads only
its own namespace's postings, and a file written before is re-indexed once when opened."""

from __future__ import annotations

from simplemem_graph.stores.embedded import EmbeddedStore, _match_expression
from simplemem_graph.stores.queries import TextQuery
from simplemem_graph.text import search_terms
from tests.contract.contract_data import make_event, make_turn
from tests.store_writes import write


def _matching_rows(store: EmbeddedStore, table: str, namespace: str, query: str) -> int:
    """Rows the FTS5 MATCH itself returns, before any SQL filter on the namespace."""
    sql = f"SELECT COUNT(*) FROM {table} WHERE {table} MATCH ?"
    return store._conn.execute(sql, (_match_expression(namespace, query),)).fetchone()[0]


def test_a_query_matches_only_its_namespace_rows_inside_the_index():
    store = EmbeddedStore(":memory:")
    for namespace in ("big", "small"):
        store.add_turns([make_turn(namespace, f"t{i}", f"contract renewal {i}") for i in range(3)])
        write(store, events=[make_event(namespace, f"e{i}", f"contract renewal {i}") for i in range(3)])
    write(store, events=[make_event("big", f"e{i}", f"contract {i}") for i in range(3, 40)])
    assert _matching_rows(store, "events_fts", "small", "contract") == 3
    assert _matching_rows(store, "events_fts", "big", "contract") == 40
    assert _matching_rows(store, "turns_fts", "small", "the contract") == 3
    assert [h.id for h in store.text_search("small", TextQuery("contract", 10))] == ["e0", "e1", "e2"]


def test_terms_with_inner_punctuation_still_match_as_phrases():
    store = EmbeddedStore(":memory:")
    write(store, events=[make_event("ns", "e1", "Ordered QM-220 brackets from O'Brien")])
    assert [h.id for h in store.text_search("ns", TextQuery("qm-220", 5))] == ["e1"]
    assert [h.id for h in store.text_search("ns", TextQuery("O'Brien", 5))] == ["e1"]
    assert store.text_search("other", TextQuery("qm-220", 5)) == []


def test_a_file_with_the_earlier_fulltext_layout_is_reindexed_once_when_opened(tmp_path):
    path = tmp_path / "memory.db"
    store = EmbeddedStore(path)
    store.add_turns([make_turn("ns", "t1", "the kickoff moved to Friday")])
    write(store, events=[make_event("ns", "e1", "the kickoff moved to Friday")])
    # As the previous release wrote them: plain terms, no namespace key, no layout recorded.
    with store._transaction() as conn:
        conn.execute("DELETE FROM events_fts")
        conn.execute("DELETE FROM turns_fts")
        plain = " ".join(search_terms("the kickoff moved to Friday"))
        conn.execute("INSERT INTO events_fts (rowid, tokens) SELECT rid, ? FROM events", (plain,))
        conn.execute("INSERT INTO turns_fts VALUES (?, 'ns', 't1')", (plain,))
        conn.execute("DELETE FROM meta WHERE key = 'fulltext_layout'")
    assert store.text_search("ns", TextQuery("kickoff", 5)) == []  # the new queries miss the old terms
    store.close()
    store = EmbeddedStore(path)
    assert [h.id for h in store.text_search("ns", TextQuery("kickoff", 5))] == ["e1"]
    assert [h.id for h in store.text_search("ns", TextQuery("kickoff", 5, target="turns"))] == ["t1"]
    assert store.get_meta("fulltext_layout") is not None
    store.close()
