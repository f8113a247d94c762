"""Reactions told from statements by their structure: thanks for what is the listener's own, a
verdict whose subject is a demonstrative, advice handing on a general truth, a question about what
was just pointed at, a Chinese verb of the talk judged by its complement. Each rule beside the
near misses it must keep: a thing with a determiner, a name or a number, the speaker's own part,
an experience the speaker judges. Made-up text."""

from __future__ import annotations

import random

import pytest

from simplemem_graph.compress import compress

_NAMES = ["Nadia", "Tobias", "Ingrid", "Rafael", "Keiko"]
_PETS = ["hamster", "parrot", "tortoise", "ferret"]
_PLACES = ["bakery", "ferry terminal", "museum", "climbing gym"]
_CITIES = ["Porto", "Ghent", "Bergen", "Lyon"]


def _texts(make_turn, nlp, text: str, speaker: str = "Dev", listener: str = "Priya") -> str:
    turn = make_turn(text, speaker=speaker, time="2026-03-10T20:00:00+08:00")
    events = compress([turn], nlp=nlp, speakers={(turn.namespace, turn.session): [speaker, listener]})
    return " | ".join(e.text for e in events)


@pytest.mark.parametrize("seed", range(3))
def test_thanks_for_the_listeners_own_act_or_quality_make_no_event(make_turn, nlp, seed):
    name = random.Random(seed).choice(_NAMES)
    for line in [
        "Thank you so much for your patience!",
        f"Thanks for having my back, {name}.",
        "Really appreciate your kindness.",
    ]:
        assert _texts(make_turn, nlp, line, listener=name) == "", line


@pytest.mark.parametrize("seed", range(3))
def test_thanks_for_a_thing_or_a_done_act_is_kept(make_turn, nlp, seed):
    rng = random.Random(seed)
    pet, place, name = rng.choice(_PETS), rng.choice(_PLACES), rng.choice(_NAMES)
    cases = {
        f"Thanks for feeding my {pet}.": pet,  # a content verb: what the listener did
        "Thanks for my birthday card!": "birthday card",  # a compound names the thing
        f"Thanks for the map of the {place}!": place,  # an article names it
        "I appreciate my mom's help.": "mom",  # the owner is someone else
    }
    for line, kept in cases.items():
        assert kept in _texts(make_turn, nlp, line, listener=name), line


def test_a_verdict_with_a_demonstrative_subject_makes_no_event(make_turn, nlp):
    for line in ["That takes guts.", "That takes real courage!", "This means so much."]:
        assert _texts(make_turn, nlp, line) == "", line


@pytest.mark.parametrize("seed", range(3))
def test_a_demonstrative_subject_with_a_thing_or_the_speaker_is_kept(make_turn, nlp, seed):
    place = random.Random(seed).choice(_PLACES)
    cases = {
        "That took three hours.": "three hours",  # a number
        f"That made the {place} famous.": place,  # a noun with a determiner
        "That helps me plan my week.": "plan",  # the speaker's own part
        "It makes fresh bread.": "bread",  # "it" points at a thing, not at what was said
    }
    for line, kept in cases.items():
        assert kept in _texts(make_turn, nlp, line), line


def test_advice_of_a_general_truth_makes_no_event(make_turn, nlp):
    for line in [
        "Just remember that hard times make strong people.",
        "Remember that small steps add up. Keep going!",
    ]:
        assert _texts(make_turn, nlp, line) == "", line


@pytest.mark.parametrize("seed", range(3))
def test_a_reminder_about_someone_or_something_is_kept(make_turn, nlp, seed):
    rng = random.Random(seed)
    place, name = rng.choice(_PLACES), rng.choice(_NAMES)
    cases = {
        f"Remember that the {place} closes early.": place,
        "Remember that I'm allergic to nuts.": "allergic to nuts",
        f"Just remember that {name} hates surprises.": name,
        "Let's get dinner.": "dinner",  # a plan of ours, not advice
    }
    for line, kept in cases.items():
        assert kept in _texts(make_turn, nlp, line), line


def test_a_question_about_what_was_just_pointed_at_makes_no_event(make_turn, nlp):
    for line in [
        "Wow! What's the scariest moment you remember from that?",
        "What was the best part about it?",
    ]:
        assert _texts(make_turn, nlp, line) == "", line


@pytest.mark.parametrize("seed", range(3))
def test_a_question_about_a_named_thing_is_kept(make_turn, nlp, seed):
    place = random.Random(seed).choice(_PLACES)
    for line in [f"What's the best part of the {place}?", f"What's the name of the {place} you went to?"]:
        assert place in _texts(make_turn, nlp, line), line


@pytest.mark.parametrize("seed", range(3))
def test_an_experience_the_speaker_judges_is_kept_beside_dropped_thanks(make_turn, nlp, seed):
    city = random.Random(seed).choice(_CITIES)
    # the thanks at the end no longer carries the span: the experience holds on its own
    text = _texts(make_turn, nlp, "The bus was late, I had a wonderful time. But thank you for your concern!")
    assert "wonderful time" in text and "concern" not in text, text
    assert "lovely weekend" in _texts(make_turn, nlp, f"We had a lovely weekend in {city}.")
    # about the talk itself it is still a formula
    assert _texts(make_turn, nlp, "I had a great time chatting!") == ""


def test_a_chinese_verb_of_the_talk_judged_by_its_complement_makes_no_event(make_turn, nlp):
    for line in ["嗯，他说得对！", "讲得好！"]:
        assert _texts(make_turn, nlp, line) == "", line
    # a verb after 得 says what can be done: a fact about the people
    assert "谈得来" in _texts(make_turn, nlp, "我们谈得来")
    # another verb so judged says what someone did
    assert "做得" in _texts(make_turn, nlp, "他蛋糕做得好")


def test_near_misses_of_assistant_advice_and_reported_thanks_are_kept(make_turn, nlp):
    """Shapes of the rules above that state something: a verb of the thing's own, an imperative
    naming a thing, the one who will thank as subject, a thing compared to what was pointed at."""
    cases = {
        "This helps loosen your shoulders.": "loosen",
        "Call ahead: reach out to the bakery to confirm the opening hours.": "bakery",
        "I think my sister will appreciate that.": "sister",
        "What's the best way to clean a kettle like that?": "kettle",
        "Remember that auditions can be subjective.": "auditions",  # the topic of the last turns
        "Keep in mind that these are rough prices.": "rough prices",  # "these" points at a thing
        "Let cool and sprinkle with powdered sugar.": "sugar",  # instructions, not advice
        "This helps in cases where the signal is weak.": "signal",  # a noun with a relative clause
    }
    for line, kept in cases.items():
        speaker, listener = "Dev", "Priya"
        turns = [
            make_turn("I have an audition next week.", speaker=listener, turn_id="s1:0"),
            make_turn(line, speaker=speaker, turn_id="s1:1"),
        ]
        key = (turns[0].namespace, turns[0].session)
        events = compress(turns, nlp=nlp, speakers={key: [speaker, listener]})
        assert kept in " | ".join(e.text for e in events if "s1:1" in e.source_ids), line
