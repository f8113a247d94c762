"""The phatic test: a clause is dropped only when it positively says nothing (every content word is
greeting, thanks, affect, encouragement or talk about the talk, and it names no thing); anything
naming a thing, a name or a number, the speaker's own state, and a question about a named thing
are kept. English by spaCy's parse, Chinese by jieba's tags."""

from __future__ import annotations

import random

import pytest

from simplemem_graph.compress import compress

_EN_NAMES = ["Nadia", "Tobias", "Ingrid", "Rafael", "Keiko", "Marek"]
_EN_PETS = [("hamster", "Biscuit"), ("parrot", "Mango"), ("tortoise", "Pebble"), ("ferret", "Ziggy")]
_EN_ACTIVITIES = ["climbing", "rowing", "knitting", "fencing", "surfing"]
_EN_THINGS = ["quartet", "bakery", "exhibit", "ferry", "mural"]
_ZH_NAMES = ["小岚", "阿澜", "小榕", "阿汐"]
_ZH_FOODS = ["香菜", "羊肉", "榴莲", "苦瓜"]
_ZH_PLACES = ["西宁", "大理", "泉州", "洛阳"]


def _session(make_turn, text: str, speaker: str, listener: str, *, when: str = "2026-03-10T20:00:00+08:00"):
    """One turn in a session of two speakers, so a vocative and "you" resolve as in a chat."""
    turn = make_turn(text, speaker=speaker, time=when)
    return [turn], {(turn.namespace, turn.session): [speaker, listener]}


def _events(make_turn, nlp, text: str, speaker: str = "Dev", listener: str = "Priya"):
    turns, speakers = _session(make_turn, text, speaker, listener)
    return compress(turns, nlp=nlp, speakers=speakers)


@pytest.mark.parametrize("seed", range(3))
def test_english_reactions_and_encouragement_make_no_event(make_turn, nlp, seed):
    name = random.Random(seed).choice(_EN_NAMES)
    for line in [
        "Keep going!",
        f"Wow, {name}. That must've been breathtaking!",
        "Can't wait to hear about it!",
        "What gave you the idea?",
        f"Thanks, {name}! Your kind words mean a lot.",
        f"See you tomorrow, {name}. Bye!",
        f"Go {name}!",
        "I can't wait!",  # a set negative phrase reacts
        "I don't know.",
        f"Morning {name}! Hope you slept well.",  # a wish for the listener
        "Night night, sleep tight 😴",  # an imperative of well-being
        "Cheers mate, talk soon!",
        "Sounds like a plan!",  # a verdict on what was said, its subject left out
    ]:
        assert _events(make_turn, nlp, line, listener=name) == [], line


@pytest.mark.parametrize("seed", range(3))
def test_english_fragments_questions_and_states_about_a_thing_are_kept(make_turn, nlp, seed):
    rng = random.Random(seed)
    kind, pet = rng.choice(_EN_PETS)
    activity, thing = rng.choice(_EN_ACTIVITIES), rng.choice(_EN_THINGS)
    listener = rng.choice(_EN_NAMES)
    cases = {
        # an appositive fragment is a fact: the pet, its kind
        f"Thanks! And yup, I do- {pet}, my {kind}. He's been great.": [pet, kind],
        f"Wow! Did you see that {thing}?": [thing],  # a question naming a thing
        f"Love that color! For walking or {activity}?": [activity],
        f"Thanks, {listener}. Still working on opening a {thing}.": [thing],
        "Thanks! I'm excited!": ["excited"],  # the speaker's own state
        f"I won't quit {activity}.": [activity, "won't"],  # a negation about a thing
        # what the speaker will not do is a fact about them, with or without a thing
        f"Thanks, {listener}! I won't quit.": ["won't quit"],
        "Sure thing! I'm not giving up.": ["not giving up"],
        f"Hope you get the job at the {thing}!": ["job", thing],  # a wish that names a thing
        f"Honestly I hate {activity}.": [activity],  # a taste, however the tagger reads the thing
        f"Love the {thing}, did you just get it?": [thing],  # a taste with its "I" left out
        f"Here's a {thing} I did recently.": [thing],  # a presentation is no verdict
        f"Sounds like the {thing} was a blast!": [thing],  # a verdict stating something of its own
    }
    for line, kept in cases.items():
        texts = " ".join(e.text for e in _events(make_turn, nlp, line, listener=listener))
        assert all(k in texts for k in kept), (line, texts)


def test_a_day_word_dates_an_action_not_a_farewell(make_turn, nlp):
    assert _events(make_turn, nlp, "See you tomorrow!") == []
    [event] = _events(make_turn, nlp, "Can we meet tomorrow?")
    assert event.dates and "meet" in event.text


def test_a_negation_qualifying_a_kept_sentence_keeps_its_atom(make_turn, nlp):
    line = "Book me a table near the harbour office, nothing too fancy."
    [event] = _events(make_turn, nlp, line)
    assert "nothing too fancy" in event.text


@pytest.mark.parametrize("seed", range(3))
def test_chinese_thanks_and_farewells_make_no_event(make_turn, nlp, seed):
    listener = random.Random(seed).choice(_ZH_NAMES)
    for line in [
        "谢谢你的建议，我会尝试的。",
        "好的，非常感谢你的建议，我会认真考虑的。时间不早了，我们下次再聊吧。再见！",
        "明天见！",
        "这个方法听起来不错，我想试试看。",
        f"晚安啦{listener}",
        "没问题，随时找我。",  # formulas are one word, not 没 + the noun 问题
        "晚安，好梦！",
        "嗯嗯，我懂你的意思。",  # talk about the talk
        "不客气",  # a negated formula
        "没事没事",
    ]:
        assert _events(make_turn, nlp, line, speaker="user", listener=listener) == [], line


@pytest.mark.parametrize("seed", range(3))
def test_chinese_names_states_and_questions_about_things_are_kept(make_turn, nlp, seed):
    rng = random.Random(seed)
    name, food, place = rng.choice(_ZH_NAMES), rng.choice(_ZH_FOODS), rng.choice(_ZH_PLACES)
    cases = {
        f"嗯，我觉得你可以叫我{name}吧。": [name],  # the name the speaker gives
        "我今天好累啊。": ["累"],  # the speaker's own state
        f"我不吃{food}。": [food, "不"],  # a negation about a thing
        f"你去过{place}吗？": [place],  # a question naming a place
        "绝不原谅他": ["绝不原谅"],  # what someone will not do, whatever tag jieba gives the verb
    }
    for line, kept in cases.items():
        texts = " ".join(e.text for e in _events(make_turn, nlp, line, speaker="user", listener="AI伴侣"))
        assert all(k in texts for k in kept), (line, texts)


def test_the_listeners_name_is_no_thing_but_another_persons_is(make_turn, nlp):
    assert _events(make_turn, nlp, "Go Priya!", listener="Priya") == []
    events = _events(make_turn, nlp, "Go Priya! Tobias called me.", listener="Priya")
    assert [e.text for e in events] == ["Tobias called Dev."]


@pytest.mark.parametrize("seed", range(3))
def test_what_the_listener_did_for_the_speaker_is_kept_but_praise_is_not(make_turn, nlp, seed):
    """A past or perfect act of the listener on the speaker is shared history; a verdict on the
    listener in the present ("you make me laugh", "You've got guts") is praise."""
    rng = random.Random(seed)
    listener, activity = rng.choice(_EN_NAMES), rng.choice(_EN_ACTIVITIES)
    kept = {
        f"I appreciate it, {listener}. You've always been there for me.": ["always been there"],
        f"You taught me {activity} last summer.": [activity, "taught"],
        "You helped us move house.": ["helped", "move house"],
    }
    for line, words in kept.items():
        texts = " ".join(e.text for e in _events(make_turn, nlp, line, listener=listener))
        assert all(w in texts for w in words), (line, texts)
    for line in ["You've got guts.", "You make me laugh!", f"You rock, {listener}!", "You've made my day!"]:
        assert _events(make_turn, nlp, line, listener=listener) == [], line


def test_that_and_a_present_verb_alone_is_a_verdict_but_what_happened_is_kept(make_turn, nlp):
    for line in ["that sucks", "aw that sucks, sorry", "Ugh, that hurts.", "This rocks!"]:
        assert _events(make_turn, nlp, line) == [], line
    # a past act, a negation, a date, the speaker's part, a pronoun that is a thing: facts
    for line, word in [
        ("This broke again.", "broke"),
        ("That doesn't work.", "doesn't"),
        ("That happened yesterday.", "happened"),
        ("That works for me.", "works"),
        ("It works now.", "works"),
    ]:
        texts = " ".join(e.text for e in _events(make_turn, nlp, line))
        assert word in texts, (line, texts)


@pytest.mark.parametrize("seed", range(3))
def test_a_particle_glued_to_a_farewell_does_not_make_it_a_place(make_turn, nlp, seed):
    """jieba reads "聊哈" as a place name; the dictionary word before the particle keeps its tag."""
    place = random.Random(seed).choice(_ZH_PLACES)
    assert _events(make_turn, nlp, "下次聊哈", speaker="林夏", listener="周野") == []
    texts = " ".join(
        e.text for e in _events(make_turn, nlp, f"我下周去{place}哈", speaker="林夏", listener="周野")
    )
    assert place in texts, texts


def test_advice_to_the_listener_is_kept_and_praise_is_not(make_turn, nlp):
    """What the listener could or should do is what the speaker recommends (asked later: "what did
    you suggest?"); a verdict on the listener, or advice that names nothing, says nothing."""
    for line, kept in {
        "当然，你可以利用番茄钟的技巧。": "番茄钟",
        "你还可以尝试与朋友聊天或者去散步，这样也会减轻压力。": "散步",
        "You can also try yoga or meditation.": "yoga or meditation",
        "You might want to try journaling before bed.": "journaling",
    }.items():
        texts = " ".join(e.text for e in _events(make_turn, nlp, line, speaker="assistant", listener="user"))
        assert kept in texts, (line, texts)
    for line in ["你说得对。", "你也可以考虑尝试一下。", "You must be so proud!", "You can do it!"]:
        assert _events(make_turn, nlp, line, speaker="assistant", listener="user") == [], line


def test_how_a_generic_thing_is_going_is_kept_but_a_bare_verdict_is_not(make_turn, nlp):
    line = "我在写一篇小说，但是感觉自己的创作力有些不足，进展缓慢。"
    [event] = _events(make_turn, nlp, line, speaker="user", listener="AI伴侣")
    assert "进展缓慢" in event.text
    assert _events(make_turn, nlp, "进展不错！", speaker="user", listener="AI伴侣") == []


def test_what_someone_has_done_and_a_but_clause_qualifying_it_are_kept(make_turn, nlp):
    for line, kept in {
        "有考虑过，不过总觉得还差了些什么。": "不过总觉得还差了些什么",  # an answer to "有没有想过…？"
        "我感觉我们之间的友谊在逐渐疏远。": "逐渐疏远",  # jieba's dictionary files 友谊 as a name
        "It was a long process, but now they're super happy with their new kid.": "super happy",
    }.items():
        texts = " ".join(e.text for e in _events(make_turn, nlp, line, speaker="user", listener="AI伴侣"))
        assert kept in texts, (line, texts)
    assert _events(make_turn, nlp, "太棒了！", speaker="user", listener="AI伴侣") == []
