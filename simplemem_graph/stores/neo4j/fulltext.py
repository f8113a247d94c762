"""Fulltext: whitespace Lucene indexes over text pre-tokenised by `text.search_terms` (the terms
FTS5 sees in the embedded store), each row tagged with its namespace's token."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from simplemem_graph.models import DEFAULT_STATUSES, Event, ScoredId
from simplemem_graph.stores.neo4j.connection import _BATCH
from simplemem_graph.stores.neo4j.vectors import Vectors
from simplemem_graph.stores.neo4j_records import (
    event_from_props,
    lucene_query,
    namespace_token,
    recall_filters,
)
from simplemem_graph.text import SEARCH_TERMS_VERSION, search_terms

_TEXT_FETCH_MIN = 50  # fulltext rows Lucene returns at first: a margin over k for the status/date filters

# Bumped when the fulltext fields the store derives change (with text.SEARCH_TERMS_VERSION, which
# versions the terms themselves): "namespace-token" added `search_ns`, the namespace's token.
_SEARCH_FIELDS_VERSION = "namespace-token"


class Fulltext(Vectors):
    """Lexical search over events and turns, and the re-index of a database written with other terms."""

    def _reindex_search_terms(self) -> None:
        """Give every event and turn the fulltext fields of this version (the terms of
        `text.search_terms` and the namespace token) when the database was written with others, in
        batches by uid; the versions are recorded only at the end, so an interrupted run starts
        again on the next open (each batch sets, never appends)."""
        if (self.get_meta("search_terms"), self.get_meta("search_fields")) == (
            SEARCH_TERMS_VERSION,
            _SEARCH_FIELDS_VERSION,
        ):
            return

        def reindex(fetch: Callable[[str], list[dict[str, Any]]], store: Callable[[list], Any]) -> None:
            after = ""
            while rows := fetch(after):
                store(
                    [
                        {
                            "uid": r["uid"],
                            "search_text": " ".join(search_terms(r["text"])),
                            "search_ns": namespace_token(r["namespace"]),
                        }
                        for r in rows
                    ]
                )
                after = rows[-1]["uid"]

        reindex(
            lambda after: self._execute("search_text_batch_events", read=True, after=after, limit=_BATCH),
            lambda rows: self._execute("set_search_text_events", rows=rows),
        )
        reindex(
            lambda after: self._execute("search_text_batch_turns", read=True, after=after, limit=_BATCH),
            lambda rows: self._execute("set_search_text_turns", rows=rows),
        )
        self._execute("set_meta", key="search_terms", value=SEARCH_TERMS_VERSION)
        self._execute("set_meta", key="search_fields", value=_SEARCH_FIELDS_VERSION)

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
        lucene = lucene_query(query, namespace)
        if lucene is None or k <= 0:
            return []
        filters = {
            "query": lucene,
            "k": k,
            "namespace": namespace,
            **recall_filters(statuses, time_from, time_to),
        }
        fetch = max(4 * k, _TEXT_FETCH_MIN)
        while True:
            row = self._execute("fulltext_search", read=True, fetch=fetch, **filters)[0]
            if len(row["hits"]) >= k or row["fetched"] < fetch:
                break  # enough, or Lucene has nothing more to give
            fetch *= 8  # the status or date filters dropped too many: read further down the ranking
        return [ScoredId(id=h["id"], score=h["score"]) for h in row["hits"]]

    def _turn_search(self, namespace: str, query: str, k: int) -> list[ScoredId]:
        lucene = lucene_query(query, namespace)
        if lucene is None or k <= 0:
            return []
        fetch = max(4 * k, _TEXT_FETCH_MIN)
        rows = self._execute("turn_search", read=True, query=lucene, fetch=fetch, k=k, namespace=namespace)
        return [ScoredId(id=r["id"], score=r["score"]) for r in rows]

    def _turn_recall(
        self,
        namespace: str,
        query: str,
        k: int,
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
        bare_turns: bool = False,
    ) -> list[Event]:
        if bare_turns:
            # verbatim memories of hit turns without events: the generic three calls (one query
            # returning them too is not written yet)
            return super()._turn_recall(
                namespace, query, k, statuses=statuses, time_from=time_from, time_to=time_to, bare_turns=True
            )
        lucene = lucene_query(query, namespace)
        if lucene is None or k <= 0:
            return []
        rows = self._execute(
            "turn_recall",
            read=True,
            query=lucene,
            fetch=max(4 * k, _TEXT_FETCH_MIN),
            k=k,
            namespace=namespace,
            **recall_filters(statuses, time_from, time_to),
        )
        return [event_from_props(r["event"]) for r in rows]
