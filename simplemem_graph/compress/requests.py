"""Requests, promises and to-dos: the clauses that make an event a task."""

from __future__ import annotations

import re

_EN_TASK = re.compile(
    r"^\s*(?:please\s+)?(?:remind|book|send|call|email|tell|ask|schedule|make sure|don't forget|remember|"
    r"let's|loop in|cc|forward|prepare|draft|buy|order|pay|sign|submit|check|confirm|follow up|set up|"
    r"cancel|move|reschedule|note|write down|save)\b"
    r"|\b(?:need to|needs to|have to|has to|must|should|i'll|i will|we'll|we will|promise|going to|gonna|"
    r"remind me|todo|to-do|deadline|due)\b",
    re.IGNORECASE,
)
_ZH_TASK = re.compile(
    r"帮我|记得|请|要把|必须|得先|务必|一定要|提醒|安排|记一下|存一下|别忘|答应|负责|让.{1,4}(?:去|把|给)|"
    r"之前|截止|尽快|马上|记下"
)


def is_task(text: str) -> bool:
    """A request, promise or to-do ("Remind me…", "帮我记一下", "need to…", "下周二之前…")."""
    return bool(_EN_TASK.search(text) or _ZH_TASK.search(text))
