"""The driver under every part of the Neo4j store: queries by file name, managed transactions
(retried by the driver on transient errors), batched writes, and the rows every part reads back."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from neo4j import Driver, ManagedTransaction, RoutingControl
from neo4j.exceptions import AuthError, ServiceUnavailable, SessionExpired

from simplemem_graph.errors import InputError, StoreUnavailableError
from simplemem_graph.models import Link, LinkKind
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.cypher import load_query

T = TypeVar("T")

_BATCH = 500  # rows per UNWIND: big enough to amortise round trips, small enough for the heap

_DRIVER_ERRORS = (ServiceUnavailable, SessionExpired, AuthError)


class Neo4jConnection(GraphStore):
    """The driver, its database and the plumbing the store's parts share."""

    _driver: Driver
    database: str | None
    dimension: int
    uri: str

    def _execute(self, name: str, *, read: bool = False, **params: Any) -> list[dict[str, Any]]:
        """One query in its own managed transaction (retried on transient errors)."""
        routing = RoutingControl.READ if read else RoutingControl.WRITE
        try:
            result = self._driver.execute_query(
                load_query(name), params, database_=self.database, routing_=routing
            )
        except _DRIVER_ERRORS as e:
            raise StoreUnavailableError(
                f"neo4j store: {name} failed, server {self.uri or '?'} unavailable: {e}"
            ) from e
        # dict(record), not record.data(): data() walks every value, byte by byte through bytes.
        return [dict(record) for record in result.records]

    def _transaction(self, work: Callable[[ManagedTransaction], T], *, read: bool = False) -> T:
        """Several queries in one managed transaction; `work` may be re-run on transient errors."""
        try:
            with self._driver.session(database=self.database) as session:
                return session.execute_read(work) if read else session.execute_write(work)
        except _DRIVER_ERRORS as e:
            raise StoreUnavailableError(
                f"neo4j store: transaction failed, server {self.uri or '?'} unavailable: {e}"
            ) from e

    @staticmethod
    def _run(tx: ManagedTransaction, name: str, **params: Any) -> list[dict[str, Any]]:
        return [dict(record) for record in tx.run(load_query(name), params)]

    @classmethod
    def _run_batches(cls, tx: ManagedTransaction, name: str, rows: Sequence[dict[str, Any]]) -> None:
        for start in range(0, len(rows), _BATCH):
            tx.run(load_query(name), rows=list(rows[start : start + _BATCH])).consume()

    def _write_rows(self, name: str, rows: Sequence[dict[str, Any]]) -> None:
        if rows:
            self._transaction(lambda tx: self._run_batches(tx, name, rows))

    def _check_vector(self, vector: Sequence[float], what: str) -> list[float]:
        values = [float(v) for v in vector]
        if len(values) != self.dimension:
            raise InputError(
                f"neo4j store: {what} has {len(values)} dimensions; "
                f"the store holds {self.dimension}-d embeddings"
            )
        return values


def _link_from_row(namespace: str, source: str, row: dict[str, Any]) -> Link:
    """A link read back from a query row: kind, target, props (JSON text or null)."""
    return Link(
        kind=LinkKind(row["kind"]),
        source=source,
        target=row["target"],
        namespace=namespace,
        props=json.loads(row["props"]) if row["props"] else {},
    )
