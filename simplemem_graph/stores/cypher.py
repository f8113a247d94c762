"""Cypher queries live in `cypher/<name>.cypher`, one statement per file, loaded here by name.

A source checkout keeps them in the top-level `cypher/` folder (where people read them and paste
them into Neo4j Browser); the wheel carries the same folder as `simplemem_graph/cypher`.
"""

from __future__ import annotations

import functools
from pathlib import Path

from simplemem_graph.errors import UnknownQueryError

_PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _find_cypher_dir() -> Path:
    """The installed copy inside the package wins; a source checkout falls back to the repo root."""
    for candidate in (_PACKAGE_DIR / "cypher", _PACKAGE_DIR.parent / "cypher"):
        if candidate.is_dir():
            return candidate
    # Point at the checkout location so the error below names a real place to look.
    return _PACKAGE_DIR.parent / "cypher"


CYPHER_DIR = _find_cypher_dir()


def query_names() -> list[str]:
    """Names of every query shipped in `cypher/` (browser queries excluded), sorted."""
    return sorted(path.stem for path in CYPHER_DIR.glob("*.cypher"))


@functools.cache
def load_query(name: str) -> str:
    """The text of `cypher/<name>.cypher`.

    Args:
        name: the query name, i.e. the file name without `.cypher`.

    Returns:
        The Cypher statement, header comments included.

    Raises:
        UnknownQueryError: no such file; the message lists the available names.

    Example:
        >>> "UNWIND $rows" in load_query("upsert_events")
        True
    """
    path = CYPHER_DIR / f"{name}.cypher"
    if "/" in name or "\\" in name or not path.is_file():
        raise UnknownQueryError(f"No Cypher query {name!r} in {CYPHER_DIR}. Available: {query_names()}")
    return path.read_text(encoding="utf-8")
