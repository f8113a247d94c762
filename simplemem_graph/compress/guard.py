"""The atom guard: every detail found in the source clause must be findable in its event.

Dates are checked by their ISO value in `event.dates` (the text has them restated); every other atom
by its exact surface in the restatement, amounts also by their value in the structured fields. A
name must be in the text itself (as written or by its value): the text is what search returns. An
event that fails falls back to the verbatim clause.
"""

from __future__ import annotations

from simplemem_graph.compress.numerals import format_number
from simplemem_graph.compress.restate import agreed_negation
from simplemem_graph.models import Atom, Event


def _quantity_values(event: Event) -> set[str]:
    values = set()
    for q in event.quantities:
        value = format_number(q.value) if isinstance(q.value, int | float) else str(q.value)
        values.add(f"{value} {q.unit}" if q.kind == "money" and q.unit else value)
    return values


def atom_survives(atom: Atom, event: Event) -> bool:
    """True when `atom` can be found in `event` (see the module docstring for the rules)."""
    if atom.kind == "date":
        return atom.value in {d.isoformat() for d in event.dates}
    if atom.surface in event.text:
        return True
    if atom.kind == "negation" and agreed_negation(atom.surface) in event.text:
        return True  # "I don't" restated "Mel doesn't": the same negation, agreeing with its subject
    if atom.kind in ("money", "quantity", "number", "duration"):
        return atom.value in _quantity_values(event)
    if atom.kind in ("person", "org", "place", "product"):
        # the text is what search returns: a name kept only in `participants` is lost to a reader
        return atom.value in event.text
    if atom.kind == "condition":
        return bool(event.condition) and atom.surface in event.condition
    return False


def missing_atoms(event: Event) -> list[Atom]:
    """The atoms of `event.atoms` that the event does not carry."""
    return [a for a in event.atoms if not atom_survives(a, event)]
