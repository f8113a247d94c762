"""The frameworks are extras: the core install pulls none of them, and importing the package (the
integrations package included) imports none of them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]
FRAMEWORKS = {
    "langgraph": "langgraph",
    "openai-agents": "agents",
    "autogen-core": "autogen_core",
    "autogen-agentchat": "autogen_agentchat",
    "autogen-ext": "autogen_ext",
    "llama-index-core": "llama_index",
}


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", Requirement(requirement).name).lower()


def _closure(requirements: list[str]) -> set[str]:
    """Every installed distribution the requirements pull, through their own (non-extra) requirements."""
    seen: set[str] = set()
    todo = [_name(r) for r in requirements]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo += [_name(r) for r in requires if "extra ==" not in str(Requirement(r).marker or "")]
    return seen


def test_the_core_dependencies_pull_no_framework():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pulled = _closure(project["dependencies"])
    assert len(pulled) > len(project["dependencies"])  # the walk did follow requirements
    assert not pulled & set(FRAMEWORKS)
    extras = project["optional-dependencies"]
    for extra, framework in [
        ("langgraph", "langgraph"),
        ("openai-agents", "openai-agents"),
        ("autogen", "autogen-core"),
        ("llama-index", "llama-index-core"),
    ]:
        assert framework in [_name(r) for r in extras[extra]]
    assert Requirement(extras["integrations"][0]).extras == {
        "langgraph",
        "openai-agents",
        "autogen",
        "llama-index",
    }


def test_importing_the_package_imports_no_framework():
    code = (
        "import sys, simplemem_graph, simplemem_graph.memory, simplemem_graph.integrations; "
        f"print(sorted(m for m in {sorted(FRAMEWORKS.values())!r} if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "[]"
