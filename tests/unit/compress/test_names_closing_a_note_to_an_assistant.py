"""A turn to an assistant calls no one by a name that closes what it said (stop 50): "Phone note,
11:05, Odalys." says whose call it was and "Sent the invoice today, Marco." whom it went to; before,
both names were read as vocatives and dropped. Between two people, and after thanks, a closing
name still addresses the listener. Made-up names."""

from __future__ import annotations

from datetime import UTC, datetime

from simplemem_graph.compress import compress
from simplemem_graph.models import Turn


def _names(text: str, listener: str) -> list[set[str]]:
    """The names of each event made of `text`, said by "user" (or "Ana") to `listener`."""
    speaker = "user" if listener == "assistant" else "Ana"
    at = datetime(2026, 8, 20, 11, 5, tzinfo=UTC)
    turns = [
        Turn(id="s1:1", session="s1", speaker=speaker, text=text, time=at),
        Turn(id="s1:2", session="s1", speaker=listener, text="Noted.", time=at.replace(minute=6)),
    ]
    return [{p.name for p in e.participants} for e in compress(turns) if e.source_ids == ["s1:1"]]


def test_a_name_closing_a_note_to_an_assistant_is_kept():
    note = "Phone note, 11:05, Odalys. Rotas all live in RotaHound."
    assert any("Odalys" in names for names in _names(note, "assistant"))
    assert any("Marco" in names for names in _names("Sent the invoice today, Marco.", "assistant"))


def test_thanks_to_a_name_still_says_nothing():
    assert _names("Thanks, Marco!", "assistant") == []


def test_between_two_people_a_closing_name_still_addresses_the_listener():
    assert not any("Marco" in names for names in _names("Sent the invoice today, Marco.", "Marco"))
