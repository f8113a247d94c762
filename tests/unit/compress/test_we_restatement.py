"""Who "we" stands for in a restatement: the conjoined first person of the turn, both speakers of
an inclusive suggestion, else "<speaker> and others" / "<speaker>等".

Names are drawn from a seeded RNG (syllables; a surname from the lexicon plus random characters)
so the rules are tested on names no data set holds.
"""

from __future__ import annotations

import random

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.restate import restate, we_groups, we_names
from simplemem_graph.consolidate.updates import change_subject
from simplemem_graph.lexicon import ZH_SURNAMES

_RNG = random.Random(20261203)


def _en_name() -> str:
    return "".join(_RNG.choice("bdfklmnprstvz") + _RNG.choice("aeiou") for _ in range(3)).capitalize()


def _zh_name() -> str:
    surname = _RNG.choice(sorted(s for s in ZH_SURNAMES if len(s) == 1))
    return surname + "".join(chr(_RNG.randint(0x4E00, 0x9FA5)) for _ in range(_RNG.choice([1, 2])))


EN = [(_en_name(), _en_name(), _en_name()) for _ in range(3)]  # (speaker, partner, addressee)
ZH = [(_zh_name(), _zh_name(), _zh_name()) for _ in range(3)]


def _en(text: str, nlp, speaker: str, addressee: str | None = None) -> str:
    doc = nlp(text)
    verbs = {t.idx: t.text for t in doc if t.tag_ == "VBP"}
    return restate(text, 0, len(text), [], speaker, addressee, verbs=verbs, groups=we_groups(text, "en", doc))


def _zh(text: str, speaker: str, addressee: str | None = None) -> str:
    return restate(text, 0, len(text), [], speaker, addressee, groups=we_groups(text, "zh"))


@pytest.mark.parametrize(("s", "n", "a"), EN)
def test_english_we_names_the_conjoined_first_person(nlp, s, n, a):
    assert _en(f"Last week {n} and I cooked, we ate a lot.", nlp, s) == (
        f"Last week {n} and {s} cooked, {s} and {n} ate a lot."
    )
    assert _en(f"Me and {n} fixed the roof and we're proud of it.", nlp, s) == (
        f"{s} and {n} fixed the roof and {s} and {n} are proud of it."
    )
    assert _en("My wife and I think we should move.", nlp, s) == (
        f"{s}'s wife and {s} think {s} and {s}'s wife should move."  # "think": the subject is plural
    )
    assert _en("You and I agree, so we sign our lease today.", nlp, s, a) == (
        f"{a} and {s} agree, so {s} and {a} sign {s} and {a}'s lease today."
    )


@pytest.mark.parametrize(("s", "n", "a"), EN)
def test_english_we_of_an_unknown_group_reads_and_others(nlp, s, n, a):
    assert _en("We're moving the launch and we did it ourselves, our team is small.", nlp, s) == (
        f"{s} and others are moving the launch and {s} and others did it themselves, {s}'s team is small."
    )
    # A group said only after the "we" is not who the "we" was.
    assert _en(f"We left early. Then {n} and I stayed.", nlp, s) == (
        f"{s} and others left early. Then {n} and {s} stayed."
    )


@pytest.mark.parametrize(("s", "n", "a"), EN)
def test_english_inclusive_suggestion_names_both_speakers_only_when_known(nlp, s, n, a):
    assert _en("Shall we meet at the cafe?", nlp, s, a) == f"Shall {s} and {a} meet at the cafe?"
    assert _en("Why don't we call it a day?", nlp, s, a) == f"Why don't {s} and {a} call it a day?"
    assert _en("Shall we meet at the cafe?", nlp, s) == f"Shall {s} and others meet at the cafe?"
    # "we should" may leave the listener out ("we should have left earlier"): not named.
    assert _en("We should have left earlier.", nlp, s, a) == f"{s} and others should have left earlier."


@pytest.mark.parametrize(("s", "n", "a"), ZH)
def test_chinese_we_names_the_conjoined_first_person(s, n, a):
    assert _zh(f"我和{n}去了仓库，我们清点了库存。", s) == f"{s}和{n}去了仓库，{s}和{n}清点了库存。"
    assert _zh(f"{n}和我谈过，我们同意了。", s) == f"{n}和{s}谈过，{s}和{n}同意了。"
    assert _zh(f"我跟{n}说咱们下周见。", s, a) == f"{s}跟{n}说{s}和{n}下周见。"
    assert _zh("我和我老婆打算搬家，我们看了房子。", s) == f"{s}和{s}的老婆打算搬家，{s}和{s}的老婆看了房子。"
    assert _zh("我和你都去，咱们一起。", s, a) == f"{s}和{a}都去，{s}和{a}一起。"


@pytest.mark.parametrize(("s", "n", "a"), ZH)
def test_chinese_we_of_an_unknown_group_and_inclusive_zanmen(s, n, a):
    assert _zh("我同意，我们走吧。", s) == f"{s}同意，{s}等走吧。"  # 同意 joins no one
    assert _zh("我们的预算是两万。", s, a) == f"{s}等的预算是两万。"
    assert _zh("咱们周二开会吧。", s, a) == f"{s}和{a}周二开会吧。"  # 咱们 includes the listener
    assert _zh("咱们周二开会吧。", s) == f"{s}等周二开会吧。"


@pytest.mark.parametrize(("s", "n", "a"), EN)
def test_named_partners_act_with_the_speaker(nlp, s, n, a):
    text = f"{n} and I talked. We moved it, shall we?"
    groups = we_groups(text, "en", nlp(text))
    second = text.index("We")
    assert we_names(text, second, len(text), None, groups) == [n]
    assert we_names(text, 0, second, None, groups) == []  # no "we" in the first sentence
    assert we_names("Shall we go?", 0, 12, a, ()) == [a]
    assert we_names("We went.", 0, 8, a, ()) == []


@pytest.mark.parametrize(("s", "n", "a"), EN)
def test_who_we_stands_for_is_not_the_subject_of_a_change(make_turn, nlp, s, n, a):
    text = f"{n} and I met the vendor on Monday. We moved the budget review to Thursday."
    events = compress([make_turn(text, speaker=s)], nlp=nlp)
    assert [e.text for e in events] == [
        f"{n} and {s} met the vendor on Monday (2026-03-09).",
        # a moved date is where the thing now is: ahead, whatever the tense of "moved"
        f"{s} and {n} moved the budget review to Thursday (2026-03-12).",
    ]
    moved = events[1:]
    assert (n, "agent") in {(p.name, p.role) for p in moved[0].participants}
    assert "others" not in moved[0].keywords
    assert change_subject(moved[0]) == {"budget", "review"}
    [alone] = compress([make_turn("We moved the budget review to Thursday.", speaker=s)], nlp=nlp)
    assert alone.text == f"{s} and others moved the budget review to Thursday (2026-03-12)."
    assert "others" not in alone.keywords
    assert change_subject(alone) == {"budget", "review"}
