"""Restoration coverage of stage 1: does every annotated detail survive compression?

Each line of a restoration file (restoration_dev.jsonl format: id, lang, time, speaker, text, atoms)
is compressed alone, as one Turn with its own time and speaker. Every annotated atom must then be
found in the events made from that line — checked against the event TEXT and STRUCTURED FIELDS, not
against the extractor's own atom list (that would be circular):

- date: the annotated ISO value is in some event's `dates` or `deadline`;
- money / quantity / number / duration: the surface is in an event text, or the normalised value
  is in an event's `quantities`;
- time, negation: the surface is in an event text (English: as a whole word);
- person / org / place: the surface is in an event text, or the name is a participant;
- condition: the surface is in an event text or in the event's `condition`.

Lines with no atoms are pure chit-chat and must yield no event ("chit-chat dropped").
A secondary, informational column gives the extractor's own atom recall (kind + value).

Run from the repo root:
    python bench/restoration.py                       # dev set + tests/data/restoration_extra.jsonl
    python bench/restoration.py --data FILE --json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from simplemem_graph.compress import CompressStats, compress  # noqa: E402
from simplemem_graph.compress.numerals import format_number  # noqa: E402
from simplemem_graph.models import Event, Turn  # noqa: E402

DEFAULT_FILES = [
    REPO.parent / "shared" / "data" / "restoration_dev.jsonl",
    REPO / "tests" / "data" / "restoration_extra.jsonl",
]
VALUE_KINDS = ("money", "quantity", "number", "duration")
NAME_KINDS = ("person", "org", "place", "product")


def load_lines(path: Path) -> list[dict]:
    """The annotated lines of a restoration file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def line_turn(line: dict) -> Turn:
    """The line as a Turn of its own (its own session, time and speaker)."""
    return Turn(
        id=line["id"],
        session=line["id"],
        speaker=line.get("speaker", "user"),
        time=datetime.fromisoformat(line["time"]),
        text=line["text"],
    )


def _in_text(surface: str, text: str) -> bool:
    if re.search(r"[\u4e00-\u9fff]", surface) or not re.match(r"\w", surface[-1:] or " "):
        return surface in text
    # English: a whole-word match, so "not" is not found inside "nothing".
    return re.search(rf"(?<!\w){re.escape(surface)}(?!\w)", text) is not None


def _quantity_values(events: list[Event]) -> set[str]:
    values = set()
    for e in events:
        for q in e.quantities:
            value = format_number(q.value) if isinstance(q.value, int | float) else str(q.value)
            values.add(f"{value} {q.unit}" if q.kind == "money" and q.unit else value)
    return values


def atom_found(atom: dict, events: list[Event]) -> str | None:
    """Where the annotated atom was found ("text" or "field"), or None when it was lost."""
    kind, surface, value = atom["kind"], atom["surface"], atom["value"]
    if kind == "date":
        named = {d.isoformat() for e in events for d in e.dates} | {
            e.deadline.isoformat() for e in events if e.deadline
        }
        return "field" if value in named else None
    if any(_in_text(surface, e.text) for e in events):
        return "text"
    if kind in VALUE_KINDS and value in _quantity_values(events):
        return "field"
    if kind in NAME_KINDS and value in {p.name for e in events for p in e.participants}:
        return "field"
    if kind == "condition" and any(e.condition and surface in e.condition for e in events):
        return "field"
    return None


def check_coverage(lines: list[dict]) -> dict:
    """Compress each line alone and check every annotated atom; returns the report dict."""
    by_kind: dict[str, dict[str, int]] = defaultdict(lambda: {"total": 0, "found": 0, "extractor_found": 0})
    lost, chitchat_total, chitchat_dropped, info_without_event = [], 0, 0, []
    stats = CompressStats()
    started = time.perf_counter()
    for line in lines:
        events = compress([line_turn(line)], stats=stats)
        if not line["atoms"]:
            chitchat_total += 1
            chitchat_dropped += not events
            continue
        if not events:
            info_without_event.append(line["id"])
        extracted = {(a.kind, a.value) for e in events for a in e.atoms}
        for atom in line["atoms"]:
            row = by_kind[atom["kind"]]
            row["total"] += 1
            where = atom_found(atom, events)
            row["found"] += where is not None
            row["extractor_found"] += (atom["kind"], atom["value"]) in extracted
            if where is None:
                lost.append({"id": line["id"], **atom, "events": [e.text for e in events]})
    total = sum(r["total"] for r in by_kind.values())
    found = sum(r["found"] for r in by_kind.values())
    return {
        "lines": len(lines),
        "atoms": total,
        "coverage": found / total if total else 1.0,
        "by_kind": {k: {**v, "coverage": v["found"] / v["total"]} for k, v in sorted(by_kind.items())},
        "chitchat_lines": chitchat_total,
        "chitchat_dropped": chitchat_dropped,
        "informative_lines_without_event": info_without_event,
        "lost": lost,
        "guard_fallbacks": stats.guard_fallbacks,
        "events": stats.events,
        "seconds": round(time.perf_counter() - started, 3),
    }


def _print_report(name: str, report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Restoration coverage — {name}")
    for column in ("kind", "atoms", "found (text/fields)", "coverage", "extractor recall (info)"):
        table.add_column(column, justify="right" if column != "kind" else "left")
    for kind, row in report["by_kind"].items():
        table.add_row(
            kind,
            str(row["total"]),
            str(row["found"]),
            f"{row['coverage']:.1%}",
            f"{row['extractor_found'] / row['total']:.1%}",
        )
    table.add_row(
        "ALL",
        str(report["atoms"]),
        str(sum(r["found"] for r in report["by_kind"].values())),
        f"{report['coverage']:.1%}",
        "",
    )
    console = Console()
    console.print(table)
    console.print(
        f"chit-chat dropped: {report['chitchat_dropped']}/{report['chitchat_lines']} · informative lines "
        f"without an event: {len(report['informative_lines_without_event'])} · events: {report['events']} · "
        f"guard fallbacks: {report['guard_fallbacks']} · {report['seconds']} s"
    )
    for miss in report["lost"]:
        console.print(
            f"  LOST {miss['id']} {miss['kind']} {miss['surface']!r} → {miss['value']}: {miss['events']}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="*", default=DEFAULT_FILES, help="restoration JSONL files")
    parser.add_argument("--json", action="store_true", help="print one JSON object per file")
    args = parser.parse_args(argv)
    for path in args.data:
        report = check_coverage(load_lines(path))
        if args.json:
            print(json.dumps({"file": str(path), **report}, ensure_ascii=False))
        else:
            _print_report(path.name, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
