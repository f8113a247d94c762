"""Each framework example runs end to end with its scripted model (no LLM), and the last answer
carries memories from an earlier conversation. Run in this process, so the models load once."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def run_example(monkeypatch, capsys):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)  # force the scripted model
    monkeypatch.syspath_prepend(str(EXAMPLES))

    def run(name: str) -> str:
        spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main([])
        return capsys.readouterr().out

    return run


def _last_answer(out: str) -> str:
    return out.strip().rsplit("assistant: ", 1)[1]


def test_langgraph_example(run_example):
    out = run_example("langgraph_store")
    assert "[friday] user: Where is the offsite" in out
    answer = _last_answer(out)
    assert "From memory" in answer and "Porto" in answer and "12,000" in answer


def test_openai_agents_example(run_example):
    out = run_example("openai_agents_session")
    answer = out.split("[thursday] assistant: ", 1)[1].split("\n", 1)[0]
    assert "From memory" in answer and "18,500" in answer
    assert "[thursday] items kept: 2" in out  # the other session's items are not in this one


def test_autogen_example(run_example):
    answer = _last_answer(run_example("autogen_memory"))
    assert "Priya Shah" in answer and "18,200" in answer


def test_llama_index_example(run_example):
    answer = _last_answer(run_example("llama_index_memory"))
    assert "Lyon" in answer and "2026-09-12" in answer
