"""The search table: asked "when", a memory's day shows once, in the time column."""

from rich.console import Console

from simplemem_graph.cli import common


def test_a_dated_memory_shows_its_day_once_in_the_table_and_as_returned_in_json(monkeypatch):
    monkeypatch.setattr(common, "out", Console(width=200, soft_wrap=True))
    payload = {
        "took_ms": 3.0,
        "results": [
            {
                "score": 0.5,
                "time": "2026-03-12T09:00:00+00:00",
                "text": "[2026-03-12] Maya sent Northwind the revised quote",
                "source_ids": ["en2:1"],
                "path": ["vector", "dated: the question asks when"],
            },
            {
                "score": 0.4,
                "time": "2026-03-03T09:00:00+00:00",
                "text": "[2026-03-12] is the day the quote was due",  # another day: the text's own
                "source_ids": ["en1:2"],
                "path": ["vector"],
            },
        ],
    }
    with common.out.capture() as captured:
        common.print_hits("When was the quote sent?", payload)
    shown = captured.get()
    assert shown.count("2026-03-12") == 2  # row 1's time column, row 2's own text
    assert "Maya sent" in shown and "2026-03-03" in shown
    assert payload["results"][0]["text"].startswith("[2026-03-12] ")  # the payload is untouched
