"""Counters a compression run fills in, so callers and benchmarks see what was dropped or kept verbatim."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field


@dataclass
class CompressStats:
    """What `compress` did: pass one in and read it afterwards (it accumulates over calls).

    Attributes:
        turns: turns seen.
        sentences: sentences seen.
        clauses: clauses (sentence parts) seen.
        events: events produced.
        dropped_chitchat: clauses dropped as carrying no information.
        turns_without_event: turns that produced no event at all.
        turns_alone: turns compressed on their own (dual trigger: information above the threshold).
        turns_accumulated: turns held in a same-topic window (dual trigger's second path).
        windows: events made from a window of several turns.
        guard_fallbacks: events whose restatement lost an atom and fell back to the verbatim clause.
        guard_misses: the atoms that caused those fallbacks, as "kind:surface".
        atoms_by_kind: atoms detected, by kind.
    """

    turns: int = 0
    sentences: int = 0
    clauses: int = 0
    events: int = 0
    dropped_chitchat: int = 0
    turns_without_event: int = 0
    turns_alone: int = 0
    turns_accumulated: int = 0
    windows: int = 0
    guard_fallbacks: int = 0
    guard_misses: list[str] = field(default_factory=list)
    atoms_by_kind: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict:
        """A JSON-ready copy."""
        data = asdict(self)
        data["atoms_by_kind"] = dict(self.atoms_by_kind)
        return data
