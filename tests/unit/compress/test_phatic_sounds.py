"""Sounds and the parser's own readings: a word made only of interjection characters, typed
laughter, a verb the parser reads as an interjection, a one-letter sign-off, thanks for the
listener's act in Chinese; beside the facts they must not take with them: laughter after a fact, a
thing counted by a measure word, thanks that name a thing or the speaker's part. Made-up text."""

from __future__ import annotations

import pytest

from simplemem_graph.compress import compress


def _texts(make_turn, nlp, text: str, speaker: str = "Dev", listener: str = "Priya") -> str:
    turn = make_turn(text, speaker=speaker, time="2026-03-10T20:00:00+08:00")
    events = compress([turn], nlp=nlp, speakers={(turn.namespace, turn.session): [speaker, listener]})
    return " | ".join(e.text for e in events)


@pytest.mark.parametrize(
    "line", ["嗯嗯嗯", "啊啊啊啊", "哈哈哈哈哈", "hhhhh 好的好的", "呀呀", "Aw bless!", "Night night x"]
)
def test_sounds_make_no_event(make_turn, nlp, line):
    assert _texts(make_turn, nlp, line) == "", line


@pytest.mark.parametrize(
    "line, kept",
    [
        ("got a kitten lol", "kitten"),
        ("adopted a tortoise haha", "tortoise"),
        ("hhhh 我表哥在宁波开面馆", "面馆"),
        ("昨天买了台戴森", "戴森"),
        ("刚领了只柯基", "柯基"),
    ],
)
def test_a_fact_beside_a_sound_or_after_a_measure_word_is_kept(make_turn, nlp, line, kept):
    assert kept in _texts(make_turn, nlp, line), line


def test_thanks_for_the_listeners_act_in_chinese_make_no_event(make_turn, nlp):
    for line in ["谢谢您的耐心讲解！", "多谢你帮忙", "感谢你耐心回复"]:
        assert _texts(make_turn, nlp, line) == "", line


def test_chinese_thanks_that_name_a_thing_or_the_speakers_part_are_kept(make_turn, nlp):
    assert "围巾" in _texts(make_turn, nlp, "谢谢你织的围巾")
    assert "装修" in _texts(make_turn, nlp, "谢谢你帮我盯装修")


def test_hesitation_is_a_sound(make_turn, nlp):
    for line in ["emmm好吧", "hmm", "umm ok"]:
        assert _texts(make_turn, nlp, line) == "", line


def test_what_the_speaker_made_bought_or_took_is_a_fact(make_turn, nlp):
    assert "烤" in _texts(make_turn, nlp, "这个蛋挞是我自己烤的😋")
    assert "拍" in _texts(make_turn, nlp, "那张照片是我拍的")
    assert _texts(make_turn, nlp, "这是我应该做的") == ""  # the reply to thanks
