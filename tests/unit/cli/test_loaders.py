"""Reading turn files: FORMATS.md shapes, defaults, and clear errors for bad input."""

import json
from datetime import UTC, datetime

import pytest

from simplemem_graph.errors import InputError
from simplemem_graph.loaders import MAX_TURN_CHARS, detect_format, load_jsonl, load_locomo, load_turns
from tests.shared_data import LOCOMO_DEV as LOCOMO


def write(tmp_path, name, content, mode="w"):
    path = tmp_path / name
    if mode == "wb":
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_jsonl_defaults_follow_formats_md(tmp_path):
    path = write(tmp_path, "chat.jsonl", '{"text": "hello"}\n\n{"text": "下周二开会", "speaker": "李雷"}\n')
    now = datetime(2026, 3, 2, tzinfo=UTC)
    turns = load_jsonl(path, now=now, namespace="acme")
    assert [(t.id, t.session, t.speaker, t.namespace, t.time) for t in turns] == [
        ("chat:1", "chat", "user", "acme", now),
        ("chat:2", "chat", "李雷", "acme", now),
    ]


def test_json_array_and_explicit_fields(tmp_path):
    record = {
        "id": "s1:3",
        "session": "s1",
        "time": "2026-03-02T10:15:00+08:00",
        "speaker": "user",
        "text": "hi",
    }
    turns = load_turns(write(tmp_path, "a.json", json.dumps([record])))
    assert turns[0].id == "s1:3" and turns[0].time.utcoffset().total_seconds() == 8 * 3600


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"text": "ok"}\n{"text": broken}\n', "bad.jsonl:2: invalid JSON"),
        ('{"speaker": "x"}\n', "bad.jsonl:1: missing required field `text`"),
        ('{"text": 42}\n', "bad.jsonl:1: `text` must be a string, got int"),
        ('{"text": "x", "time": "next tuesday"}\n', "bad.jsonl:1: `time` 'next tuesday' is not an ISO 8601"),
        ('{"text": "x", "time": 5}\n', "bad.jsonl:1: `time` must be an ISO 8601 string"),
        ("[1, 2]", "bad.jsonl: record 1: expected a JSON object"),
        ('{"text": "   "}\n', "bad.jsonl:1: `text` is empty"),
        ('{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n', "turn id 'a' repeats record 1"),
        ("   \n", "file is empty"),
    ],
)
def test_bad_input_names_file_line_and_problem(tmp_path, content, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_jsonl(write(tmp_path, "bad.jsonl", content))


def test_binary_and_missing_and_oversized(tmp_path):
    with pytest.raises(InputError, match="binary"):
        load_jsonl(write(tmp_path, "b.jsonl", b"\x89PNG\x00\x00\x01", mode="wb"))
    with pytest.raises(InputError, match="no such file"):
        load_jsonl(tmp_path / "missing.jsonl")
    huge = json.dumps({"text": "x" * (10 * 1024 * 1024)})
    with pytest.raises(InputError, match=f"at most {MAX_TURN_CHARS:,}"):
        load_jsonl(write(tmp_path, "huge.jsonl", huge))


def test_locomo_loader_uses_dia_ids_session_dates_and_captions():
    conversations = load_locomo(LOCOMO)
    assert sorted(conversations) == ["conv-26", "conv-30"]
    turns = conversations["conv-26"]
    assert turns[0].id == "D1:1" and turns[0].speaker == "Caroline"
    assert turns[0].time == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # "1:56 pm on 8 May, 2023"
    assert any("[shares an image:" in t.text for t in turns)
    assert len({t.id for t in turns}) == len(turns)
    times = [t.time for t in turns]
    assert times == sorted(times)
    assert detect_format(LOCOMO) == "locomo"


def test_locomo_unknown_sample_lists_available():
    with pytest.raises(InputError, match="available: \\['conv-26', 'conv-30'\\]"):
        load_locomo(LOCOMO, sample="conv-99")
