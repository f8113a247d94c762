"""Read turns from files: JSON Lines, a JSON array, or the LoCoMo benchmark format.

Everything is read and validated before anything is written, so bad input never leaves a
half-ingested file behind. Errors name the file, the line (or record) and the problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import dateparser

from simplemem_graph.config import MAX_TURN_CHARS as MAX_TURN_CHARS  # the limit, re-exported
from simplemem_graph.config import check_turn_size
from simplemem_graph.errors import InputError
from simplemem_graph.models import DEFAULT_NAMESPACE, Turn

FORMATS = ("auto", "jsonl", "locomo")
_TURN_FIELDS = {"id", "session", "time", "speaker", "text", "agent"}


def _read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError as e:
        raise InputError(f"{path}: no such file") from e
    except IsADirectoryError as e:
        raise InputError(f"{path}: is a directory, expected a JSON or JSON Lines file") from e
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from e
    if b"\x00" in raw[:8192]:
        raise InputError(f"{path}: looks like binary data, expected UTF-8 JSON or JSON Lines")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 text (byte {e.start}); expected JSON or JSON Lines") from e
    if not text.strip():
        raise InputError(f"{path}: file is empty, expected at least one turn")
    return text


def parse_time(value: Any, where: str) -> datetime:
    """An ISO 8601 timestamp; a naive one is taken as UTC."""
    if not isinstance(value, str):
        raise InputError(f"{where}: `time` must be an ISO 8601 string, got {type(value).__name__}")
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as e:
        raise InputError(f"{where}: `time` {value!r} is not an ISO 8601 timestamp") from e
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def as_time(value: Any, where: str) -> datetime:
    """A time given as a datetime or an ISO 8601 string (what the CLI, REST and MCP take), as an
    aware datetime; a naive one is taken as UTC."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, str):
        return parse_time(value, where)
    raise InputError(f"{where}: expected a datetime or an ISO 8601 string, got {type(value).__name__}")


def turn_from_record(
    record: Any, *, where: str, default_session: str, index: int, now: datetime, namespace: str
) -> Turn:
    """Validate one FORMATS.md turn object; only `text` is required."""
    if not isinstance(record, dict):
        raise InputError(f"{where}: expected a JSON object with a `text` field, got {type(record).__name__}")
    if "text" not in record:
        raise InputError(f"{where}: missing required field `text`")
    text = record["text"]
    if not isinstance(text, str):
        raise InputError(f"{where}: `text` must be a string, got {type(text).__name__}")
    if not text.strip():
        raise InputError(f"{where}: `text` is empty")
    check_turn_size(text, where)
    for field in ("id", "session", "speaker", "agent"):
        if field in record and record[field] is not None and not isinstance(record[field], (str, int)):
            raise InputError(f"{where}: `{field}` must be a string, got {type(record[field]).__name__}")
    session = str(record.get("session") or default_session)
    time = parse_time(record["time"], where) if record.get("time") is not None else now
    return Turn(
        id=str(record.get("id") or f"{session}:{index}"),
        namespace=namespace,
        session=session,
        speaker=str(record.get("speaker") or "user"),
        time=time,
        text=text,
        agent=str(record["agent"]) if record.get("agent") not in (None, "") else None,
    )


def load_jsonl(
    path: str | Path,
    *,
    namespace: str = DEFAULT_NAMESPACE,
    now: datetime | None = None,
    skipped: list[tuple[str, str]] | None = None,
) -> list[Turn]:
    """Turns from JSON Lines (one object per line) or a JSON array of the same objects.

    All or nothing by default: the first bad record raises InputError. With a `skipped` list, a bad
    record (invalid JSON, a missing or empty `text`, a repeated id...) is left out instead, and
    (where, why) is appended to the list."""
    path = Path(path)
    text = _read_text(path)
    now = now or datetime.now(UTC)
    session = path.stem
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(f"{path}:{e.lineno}: invalid JSON: {e.msg}") from e
        located: Iterable[tuple[str, Any]] = ((f"{path}: record {i}", r) for i, r in enumerate(records, 1))
    else:
        located = _jsonl_records(path, text, skipped=skipped)
    if skipped is None:
        turns = [
            turn_from_record(r, where=where, default_session=session, index=i, now=now, namespace=namespace)
            for i, (where, r) in enumerate(located, 1)
        ]
        _check_unique_ids(path, turns)
        return turns
    kept: dict[str, Turn] = {}
    for i, (where, record) in enumerate(located, 1):
        try:
            turn = turn_from_record(
                record, where=where, default_session=session, index=i, now=now, namespace=namespace
            )
        except InputError as e:
            skipped.append((where, str(e).removeprefix(f"{where}: ")))
            continue
        if turn.id in kept:
            skipped.append((where, f"turn id {turn.id!r} repeats an earlier record"))
            continue
        kept[turn.id] = turn
    return list(kept.values())


def load_jsonl_records(path: str | Path) -> list[tuple[str, Any]]:
    """(`file:line`, parsed object) for each non-blank line of a JSON Lines file."""
    return _jsonl_records(Path(path), _read_text(Path(path)))


def _jsonl_records(
    path: Path, text: str, *, skipped: list[tuple[str, str]] | None = None
) -> list[tuple[str, Any]]:
    """(`file:line`, object) per non-blank line; an invalid line raises, or is appended to
    `skipped` when a list is given."""
    records = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append((f"{path}:{lineno}", json.loads(line)))
        except json.JSONDecodeError as e:
            if skipped is None:
                raise InputError(f"{path}:{lineno}: invalid JSON: {e.msg} (column {e.colno})") from e
            skipped.append((f"{path}:{lineno}", f"invalid JSON: {e.msg} (column {e.colno})"))
    return records


def _check_unique_ids(path: Path, turns: list[Turn]) -> None:
    seen: dict[str, int] = {}
    for i, turn in enumerate(turns, 1):
        if turn.id in seen:
            raise InputError(f"{path}: record {i}: turn id {turn.id!r} repeats record {seen[turn.id]}")
        seen[turn.id] = i


_SESSION_KEY = re.compile(r"^session_(\d+)$")


def parse_locomo_time(value: str) -> datetime:
    """LoCoMo session dates such as "1:56 pm on 8 May, 2023" (no zone given: taken as UTC)."""
    parsed = dateparser.parse(value.replace(" on ", " "), settings={"PREFER_DAY_OF_MONTH": "first"})
    if parsed is None:
        raise InputError(f"locomo: cannot parse session date {value!r}")
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed


def load_locomo(
    path: str | Path, *, sample: str | None = None, namespace: str = DEFAULT_NAMESPACE
) -> dict[str, list[Turn]]:
    """Turns of each LoCoMo conversation, by sample id: ids are the `dia_id`s, times the session
    dates (one second apart within a session, to keep order), image turns use their caption."""
    path = Path(path)
    try:
        data = json.loads(_read_text(path))
    except json.JSONDecodeError as e:
        raise InputError(f"{path}:{e.lineno}: invalid JSON: {e.msg}") from e
    if not isinstance(data, list) or not all(isinstance(s, dict) and "conversation" in s for s in data):
        raise InputError(f"{path}: not a LoCoMo file (expected a list of samples with `conversation`)")
    conversations: dict[str, list[Turn]] = {}
    for sample_data in data:
        sample_id = str(sample_data.get("sample_id"))
        if sample is not None and sample_id != sample:
            continue
        conversations[sample_id] = _locomo_turns(sample_data["conversation"], sample_id, namespace)
    if sample is not None and not conversations:
        available = [str(s.get("sample_id")) for s in data]
        raise InputError(f"{path}: no sample {sample!r}; available: {available}")
    return conversations


def _locomo_turns(conversation: dict[str, Any], sample_id: str, namespace: str) -> list[Turn]:
    turns: list[Turn] = []
    sessions = sorted(
        (int(m.group(1)), key)
        for key in conversation
        if (m := _SESSION_KEY.match(key)) and isinstance(conversation[key], list)
    )
    for number, key in sessions:
        start = parse_locomo_time(conversation[f"{key}_date_time"])
        for offset, raw in enumerate(conversation[key]):
            text = raw.get("text") or ""
            if raw.get("blip_caption"):
                text = f"{text} [shares an image: {raw['blip_caption']}]".strip()
            if not text.strip():
                continue
            turns.append(
                Turn(
                    id=raw["dia_id"],
                    namespace=namespace,
                    session=f"{sample_id}:session_{number}",
                    speaker=raw.get("speaker") or "user",
                    time=start + timedelta(seconds=offset),
                    text=text,
                )
            )
    return turns


# ---- question logs for replay: LoCoMo `qa`, LongMemEval records --------------------
_EVIDENCE_ID = re.compile(r"^D(\d+):(\d+)$")


def parse_locomo_evidence(raw: list[str], known: set[str]) -> tuple[list[str], int]:
    """Evidence ids, split on ; , and spaces, normalised (D30:05 -> D30:5, D:11:26 -> D11:26);
    returns the ids that name real turns and the count of those skipped."""
    ids, skipped = [], 0
    for item in raw:
        for piece in re.split(r"[;,\s]+", str(item)):
            if not piece:
                continue
            cleaned = re.sub(r"^D:", "D", piece.strip())
            match = _EVIDENCE_ID.match(cleaned)
            norm = f"D{int(match[1])}:{int(match[2])}" if match else None
            if norm in known:
                ids.append(norm)
            else:
                skipped += 1
    return list(dict.fromkeys(ids)), skipped


def load_locomo_questions(path: str | Path, sample: str, known: set[str]) -> list[dict[str, Any]]:
    """The `qa` of one LoCoMo conversation as replay queries: id, query, evidence (turn ids that
    exist), category, answer. Questions without usable evidence are left out."""
    data = json.loads(_read_text(Path(path)))
    record = next((s for s in data if str(s.get("sample_id")) == sample), None)
    if record is None:
        raise InputError(f"{path}: no sample {sample!r}")
    questions = []
    for n, qa in enumerate(record.get("qa", [])):
        evidence, _ = parse_locomo_evidence(qa.get("evidence", []), known)
        if evidence:
            questions.append(
                {
                    "id": f"{sample}:q{n}",
                    "query": qa["question"],
                    "evidence": evidence,
                    "category": qa.get("category"),
                    "answer": None if qa.get("answer") is None else str(qa["answer"]),
                }
            )
    return questions


def parse_longmemeval_date(value: str) -> datetime:
    """`2023/05/30 (Tue) 10:18` -> an aware datetime (the benchmark gives no zone: UTC)."""
    day, _, clock = value.partition(" (")
    clock = clock.split(") ")[-1]
    return datetime.strptime(f"{day} {clock}", "%Y/%m/%d %H:%M").replace(tzinfo=UTC)


def longmemeval_haystack(record: dict[str, Any], namespace: str) -> tuple[list[Turn], set[str]]:
    """A LongMemEval record's haystack turns (a minute apart within a session; ids
    `<session_id>:<index>`) and the ids of the evidence turns (`has_answer`)."""
    turns, gold = [], set()
    for sid, day, session in zip(
        record["haystack_session_ids"], record["haystack_dates"], record["haystack_sessions"], strict=True
    ):
        start = parse_longmemeval_date(day)
        for index, turn in enumerate(session):
            tid = f"{sid}:{index}"
            if not turn["content"].strip():
                continue
            turns.append(
                Turn(
                    id=tid,
                    namespace=namespace,
                    session=sid,
                    speaker=turn["role"],
                    time=start + timedelta(minutes=index),
                    text=turn["content"],
                )
            )
            if turn.get("has_answer"):
                gold.add(tid)
    return turns, gold


def is_longmemeval(data: Any) -> bool:
    return (
        isinstance(data, list) and bool(data) and isinstance(data[0], dict) and "haystack_sessions" in data[0]
    )


def detect_format(path: str | Path) -> str:
    """`locomo` when the file is a JSON list of samples with a `conversation`, else `jsonl`."""
    text = _read_text(Path(path))
    if not text.lstrip().startswith("["):
        return "jsonl"
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return "jsonl"  # the JSON Lines reader reports the exact line
    is_locomo = bool(data) and isinstance(data[0], dict) and "conversation" in data[0]
    return "locomo" if is_locomo else "jsonl"


def load_turns(
    path: str | Path,
    *,
    fmt: str = "auto",
    sample: str | None = None,
    namespace: str = DEFAULT_NAMESPACE,
    skipped: list[tuple[str, str]] | None = None,
) -> list[Turn]:
    """Turns from a file in any supported format (see FORMATS.md); with a `skipped` list, bad
    JSON Lines records are left out and listed there (see `load_jsonl`)."""
    if fmt not in FORMATS:
        raise InputError(f"--format {fmt!r} is not supported; use one of {list(FORMATS)}")
    if fmt == "auto":
        fmt = detect_format(path)
    if fmt == "locomo":
        return [t for turns in load_locomo(path, sample=sample, namespace=namespace).values() for t in turns]
    if sample is not None:
        raise InputError("--sample applies to --format locomo only")
    return load_jsonl(path, namespace=namespace, skipped=skipped)
