"""我 said of a name: 的 goes in before a thing the speaker owns ("我妈" -> "<name>的妈"), never
before a verb with its potential complement, which jieba may tag as a noun ("晒得我睁不开眼" ->
"晒得<name>睁不开眼", not "<name>的睁不开眼"). Names are random (a surname from the lexicon plus
random characters) so no rule can lean on a list."""

from __future__ import annotations

import random

import pytest

from simplemem_graph.compress.restate import restate
from simplemem_graph.lexicon import ZH_SURNAMES

_RNG = random.Random(20261206)
NAMES = [
    _RNG.choice(sorted(s for s in ZH_SURNAMES if len(s) == 1))
    + "".join(chr(_RNG.randint(0x4E00, 0x9FA5)) for _ in range(2))
    for _ in range(4)
]


def _zh(text: str, speaker: str) -> str:
    return restate(text, 0, len(text), [], speaker, None)


@pytest.mark.parametrize("name", NAMES)
def test_a_potential_complement_after_me_takes_no_possessive(name):
    assert _zh("下午太阳晒得我睁不开眼", name) == f"下午太阳晒得{name}睁不开眼"
    assert _zh("楼上装修吵得我睡不着", name) == f"楼上装修吵得{name}睡不着"


@pytest.mark.parametrize("name", NAMES)
def test_a_thing_the_speaker_owns_still_takes_de(name):
    assert _zh("我妈是个老师", name) == f"{name}的妈是个老师"
    assert _zh("我手机坏了", name) == f"{name}的手机坏了"
