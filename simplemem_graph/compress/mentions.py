"""The span type every extractor returns, and the overlap rule that reconciles them.

Extractors work on the whole turn text and report character offsets, so a mention can be traced
back to its clause, replaced in the restatement and checked by the guard.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simplemem_graph.models import Atom

# When two mentions overlap, the kind listed first wins: "两周后" is a date, not a duration, and
# "$6,000" is money, not a bare number; "300台" is a quantity, not the number 300.
# Names, negations and conditions are compared separately.
KIND_PRIORITY: tuple[str, ...] = ("date", "time", "money", "duration", "quantity", "number")


@dataclass(frozen=True)
class Mention:
    """One detected detail: where it is, what kind it is, and its normalised value."""

    kind: str  # an Atom kind: date|time|money|quantity|number|duration|person|org|place|negation|condition
    start: int
    end: int
    surface: str
    value: str
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def overlaps(self, other: Mention) -> bool:
        return self.start < other.end and other.start < self.end

    def within(self, start: int, end: int) -> bool:
        return start <= self.start and self.end <= end

    def to_atom(self) -> Atom:
        return Atom(kind=self.kind, surface=self.surface, value=self.value)


def resolve_overlaps(mentions: list[Mention], priority: tuple[str, ...] = KIND_PRIORITY) -> list[Mention]:
    """Keep a non-overlapping subset: higher-priority kind first, then the longer span.

    Args:
        mentions: candidates from one or several extractors, any order.
        priority: kinds in order of precedence; unknown kinds rank last.

    Returns:
        The kept mentions sorted by start offset.
    """
    rank = {kind: i for i, kind in enumerate(priority)}
    ordered = sorted(mentions, key=lambda m: (rank.get(m.kind, len(rank)), -(m.end - m.start), m.start))
    kept: list[Mention] = []
    for m in ordered:
        if not any(m.overlaps(k) for k in kept):
            kept.append(m)
    return sorted(kept, key=lambda m: m.start)
