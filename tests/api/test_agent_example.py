"""examples/agent_loop.py runs end to end with the stub LLM, and its last prompt carries the memories."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "agent_loop.py"


def test_agent_loop_recalls_earlier_turns_into_the_prompt():
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}  # force the stub LLM
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stderr
    last_answer = done.stdout.rsplit("Who is my contact at Northwind", 1)[1]
    assert "(stub LLM) I would answer from:" in last_answer
    assert "Priya Shah" in last_answer and "18,200" in last_answer
