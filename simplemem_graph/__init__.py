"""simplemem-graph: lifelong memory for LLM agents.

Stage 1 compresses turns into lossless structured events, stage 2 consolidates them into a graph
(entities, topics, days, temporal/causal/update links), stage 3 retrieves the few memories a
query needs, with the path that explains each. Stores: embedded SQLite (default) or Neo4j.

    from simplemem_graph import Memory
    memory = Memory.open("memory.db", namespace="alice")
"""

from typing import TYPE_CHECKING

from simplemem_graph.models import Entity, Event, Hit, Link, LinkKind, Topic, Turn

if TYPE_CHECKING:
    from simplemem_graph.memory import IngestReport, Memory, open_store

__all__ = [
    "Entity",
    "Event",
    "Hit",
    "IngestReport",
    "Link",
    "LinkKind",
    "Memory",
    "Topic",
    "Turn",
    "open_store",
]
__version__ = "0.1.0"


def __getattr__(name: str):
    # The facade pulls in spaCy, torch and the stores: load it on first use, not on every import.
    if name in ("Memory", "IngestReport", "open_store"):
        from simplemem_graph import memory

        return getattr(memory, name)
    raise AttributeError(f"module 'simplemem_graph' has no attribute {name!r}")
