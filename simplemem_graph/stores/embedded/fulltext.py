"""Fulltext: FTS5 tables of pre-tokenised text (`text.search_terms`), every term prefixed with
its namespace's key, so a query reads only its own namespace's postings."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from datetime import date

from simplemem_graph.models import DEFAULT_STATUSES, ScoredId
from simplemem_graph.stores.embedded.vectors import Vectors
from simplemem_graph.text import SEARCH_TERMS_VERSION, query_terms, search_terms

# What the fulltext tables hold beyond `text.SEARCH_TERMS_VERSION`; a file written with another
# layout is re-indexed once when opened (`_reindex_search_terms`).
_FULLTEXT_LAYOUT = "namespace-prefixed terms"

_TERM_PIECE = re.compile(r"[^\W_]+")  # what FTS5's unicode61 tokeniser keeps together: letters, digits


def _namespace_key(namespace: str) -> str:
    """16 hex digits naming a namespace inside the fulltext tables (a hash: namespaces are any text)."""
    return hashlib.blake2b(namespace.encode("utf-8"), digest_size=8).hexdigest()


def _namespaced_pieces(key: str, term: str) -> str:
    """A search term as the FTS5 tokens it is stored as: each letter-and-digit piece ("qm-220" is
    "qm", "220", as unicode61 splits it) prefixed with the namespace key."""
    return " ".join(key + piece for piece in _TERM_PIECE.findall(term))


def _indexed_terms(namespace: str, text: str) -> str:
    """The fulltext tokens of a text in a namespace. Every term carries the namespace key, so the
    postings of one term are split by tenant: a query reads only its own namespace's postings
    (and term statistics), however big the other namespaces in the file are."""
    key = _namespace_key(namespace)
    return " ".join(filter(None, (_namespaced_pieces(key, term) for term in search_terms(text))))


def _match_expression(namespace: str, query: str) -> str:
    """The FTS5 MATCH expression of a query in a namespace: any of its terms, each a quoted phrase
    of its namespaced pieces. Pieces are letters and digits only, so user text never becomes query
    syntax. Empty when the query has no terms."""
    key = _namespace_key(namespace)
    phrases = sorted({_namespaced_pieces(key, term) for term in query_terms(query)} - {""})
    return " OR ".join(f'"{phrase}"' for phrase in phrases)


class Fulltext(Vectors):
    """Lexical search over events and turns, and the one-off re-index of an older file."""

    def _reindex_search_terms(self) -> None:
        """Re-index both fulltext tables of a file written with other search terms (`text.
        search_terms`) or another layout of them (`_FULLTEXT_LAYOUT`), once, in one transaction: a
        crash leaves the old index and the old versions recorded, and the next open starts again.
        A new file only records the versions. (A file older than the turn index has neither.)"""
        if self._fulltext_current():
            return
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            if not self._fulltext_current():  # another process may have re-indexed meanwhile
                self._conn.execute("DELETE FROM events_fts")
                events = self._conn.execute("SELECT rid, namespace, data FROM events")
                self._conn.executemany(
                    "INSERT INTO events_fts (rowid, tokens) VALUES (?, ?)",
                    (
                        (rid, _indexed_terms(namespace, json.loads(data)["text"]))
                        for rid, namespace, data in events
                    ),
                )
                self._conn.execute("DELETE FROM turns_fts")
                turns = self._conn.execute("SELECT namespace, id, text FROM turns")
                self._conn.executemany(
                    "INSERT INTO turns_fts (tokens, namespace, turn_id) VALUES (?, ?, ?)",
                    (
                        (_indexed_terms(namespace, text), namespace, turn_id)
                        for namespace, turn_id, text in turns
                    ),
                )
                # One bulk insert leaves many small segments (2.8x the merged size at 100k rows,
                # and slower queries): merge them into one, as incremental writes are by automerge.
                self._conn.execute("INSERT INTO events_fts (events_fts) VALUES ('optimize')")
                self._conn.execute("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')")
                self._conn.executemany(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                    [("search_terms", SEARCH_TERMS_VERSION), ("fulltext_layout", _FULLTEXT_LAYOUT)],
                )
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def _fulltext_current(self) -> bool:
        recorded = dict(
            self._conn.execute("SELECT key, value FROM meta WHERE key IN ('search_terms', 'fulltext_layout')")
        )
        return recorded == {"search_terms": SEARCH_TERMS_VERSION, "fulltext_layout": _FULLTEXT_LAYOUT}

    def _fulltext_search(
        self,
        namespace: str,
        query: str,
        k: int,
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[ScoredId]:
        match = _match_expression(namespace, query)
        if not match or k <= 0:
            return []
        where, params = self._event_filter(namespace, statuses, time_from, time_to)
        rows = self._read(
            "SELECT e.id, bm25(events_fts) AS rank FROM events_fts "
            f"JOIN events e ON e.rid = events_fts.rowid WHERE events_fts MATCH ? AND {where} "
            "ORDER BY rank LIMIT ?",
            [match, *params, k],
        )
        return [ScoredId(id=event_id, score=-float(rank)) for event_id, rank in rows]

    def _turn_search(self, namespace: str, query: str, k: int) -> list[ScoredId]:
        match = _match_expression(namespace, query)
        if not match or k <= 0:
            return []
        rows = self._read(
            "SELECT turn_id, bm25(turns_fts) AS rank FROM turns_fts "
            "WHERE turns_fts MATCH ? AND namespace = ? ORDER BY rank, turn_id LIMIT ?",
            [match, namespace, k],
        )
        return [ScoredId(id=turn_id, score=-float(rank)) for turn_id, rank in rows]
