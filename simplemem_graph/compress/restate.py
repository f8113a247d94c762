"""The lossless restatement: the clause as said, with "I/you/we/我/你/我们" and dates made explicit.

The edits, all reversible by a reader: first/second-person pronouns become the speaker's (or the
known addressee's) name, and the present-tense verb right after agrees with it ("you agree" ->
"Caroline agrees", "I don't" -> "Mel doesn't"); a date keeps its words and gains its ISO date
("下周二(2026-03-17)之前", "by next Tuesday (2026-03-17)"; see compress/daterules.py); a vocative (the
listener's name used to address them, kept as a participant of the event) is left out, so
"You're right, Caroline" reads "Caroline is right". Negations, conditions, numbers and names stay
word for word.

"We" names the people it stands for when the turn itself says who they are, because a reader of
one event has no other way to know, and "Melanie et al." reads like a citation, not a person:
- a conjoined first person earlier in the turn is the group ("Jon and I went hiking, we loved it"
  -> "... Caroline and Jon loved it"; "我和老王…我们" -> "陈晓雯和老王"). The partner is the
  conjunct phrase itself (a spaCy noun chunk, a detected person, a jieba noun), restated like the
  rest ("my wife" -> "Caroline's wife", "you" -> the known addressee), never looked up in a list;
- with a known addressee (a two-speaker session), an inclusive suggestion ("shall we", "why don't
  we", "how about we") and Chinese 咱们 (the inclusive "we" by grammar) name both speakers;
- otherwise the group is unknown and keeps its plurality in the words a person would use:
  "Caroline and others" (the verb stays plural: "we're" -> "Caroline and others are"), "陈晓雯等".
"Our" is the group's when the group is known ("Caroline and Jon's"), else the speaker's, as people
write it ("our kids" -> "Caroline's kids"); "ourselves" after a "we" of the same clause reads
"themselves".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from simplemem_graph.compress.mentions import Mention
from simplemem_graph.compress.names_zh import zh_posseg_default
from simplemem_graph.text import is_common_zh_word

_APOS = "['’]"
# (pattern, replacement template); {s} is the speaker, {g} the group "we" stands for (see
# `Group`), {gp} its possessive: the group's when known, else the speaker's.
_EN_FIRST_PERSON = [
    (rf"\bI{_APOS}m\b", "{s} is"),
    (rf"\bI{_APOS}ve\b", "{s} has"),
    (rf"\bI{_APOS}ll\b", "{s} will"),
    (rf"\bI{_APOS}d\b", "{s} would"),
    (r"\bI am\b", "{s} is"),
    (r"\bI have\b", "{s} has"),
    (r"\bI\b", "{s}"),
    (r"\b[Mm]yself\b", "{s}"),
    (r"\b[Mm]y\b", "{s}'s"),
    (r"\b[Mm]ine\b", "{s}'s"),
    (r"\b[Mm]e\b", "{s}"),
    (rf"\b[Ww]e{_APOS}re\b", "{g} are"),
    (rf"\b[Ww]e{_APOS}ve\b", "{g} have"),
    (rf"\b[Ww]e{_APOS}ll\b", "{g} will"),
    (rf"\b[Ww]e{_APOS}d\b", "{g} would"),
    (r"\b[Ww]e\b", "{g}"),
    (r"\b[Uu]s\b", "{g}"),
    (r"\b[Oo]urs\b", "{gp}"),
    (r"\b[Oo]urselves\b", "{gx}"),
    (r"\b[Oo]ur\b", "{gp}"),
]
_EN_SECOND_PERSON = [
    (rf"\b[Yy]ou{_APOS}re\b", "{a} is"),
    (rf"\b[Yy]ou{_APOS}ve\b", "{a} has"),
    (rf"\b[Yy]ou{_APOS}ll\b", "{a} will"),
    (rf"\b[Yy]ou{_APOS}d\b", "{a} would"),
    (r"\b[Yy]ourself\b", "{a}"),
    (r"\b[Yy]ours\b", "{a}'s"),
    (r"\b[Yy]our\b", "{a}'s"),
    (r"\b[Yy]ou\b", "{a}"),
]
_ZH_FIRST_PERSON = [(r"我们|咱们", "{g}"), (r"(?<!自)我", "{s}")]
_ZH_SECOND_PERSON = [(r"你们", "{a}等"), (r"你|您", "{a}")]


_BARE_SUBJECT = re.compile(r"^(?:I|[Yy]ou)$")  # the pronouns whose verb changes with a name
_IRREGULAR = {"am": "is", "are": "is", "were": "was", "have": "has", "do": "does", "go": "goes"}


def third_person(verb: str) -> str:
    """The third-person singular present of an English verb ("agree" -> "agrees", "do" -> "does")."""
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


_EN_WE = re.compile(rf"\b(?:[Ww]e(?:{_APOS}(?:re|ve|ll|d))?|[Uu]s|[Oo]urs|[Oo]urselves|[Oo]ur)\b")
_EN_WE_SUBJECT = re.compile(r"\b(?:[Ww]e|[Uu]s)\b")  # what "ourselves" then refers back to
# Suggestions that can only include the listener; "we should ..." may not ("we should have left").
_EN_INCLUSIVE = re.compile(rf"\b(?:[Ss]hall|[Ww]hy don{_APOS}t|[Hh]ow about) we\b")
_EN_SINGULAR = frozenset({"i", "me"})
_ZH_AND = frozenset("和跟与同")
_ZH_INCLUSIVE = "咱们"  # the inclusive "we" by grammar: the speaker and the listener


@dataclass(frozen=True)
class Group:
    """Who a "we" said after turn offset `after` stands for: the speaker and `partner`, the conjunct
    as written ("Jon", "my wife", "you", "老王", "我老婆"); `name` is the partner when it is a name."""

    after: int
    partner: str
    name: str | None = None


def _propn_runs(doc) -> list:
    """Runs of proper nouns: a name the parser did not make a noun chunk ("Lutifo and I went":
    the small model reads an unknown first word as an adverbial)."""
    runs, start = [], None
    for t in doc:
        if t.pos_ == "PROPN" and start is None:
            start = t.i
        elif t.pos_ != "PROPN" and start is not None:
            runs.append(doc[start : t.i])
            start = None
    return runs + ([doc[start:]] if start is not None else [])


def _en_groups(doc) -> list[Group]:
    """ "Jon and I", "me and my sister", "you and I": a noun chunk (or a name) joined by "and" to
    I/me."""
    chunks = list(doc.noun_chunks)
    text = doc.text
    partners = [c for c in chunks if c.text.lower() not in _EN_SINGULAR and not _EN_WE.search(c.text)]
    partners += [r for r in _propn_runs(doc) if not any(c.start <= r.start < c.end for c in partners)]
    found = []
    for me in (t for t in doc if t.lower_ in _EN_SINGULAR):
        me_end = me.idx + len(me.text)
        for c in partners:
            if text[c.end_char : me.idx] == " and " or text[me_end : c.start_char] == " and ":
                name = c.text if all(t.pos_ == "PROPN" for t in c) else None
                found.append(Group(max(c.end_char, me_end), c.text, name))
    return found


def _zh_partner_after(text: str, at: int, people: dict, starts: dict) -> Group | None:
    own = re.match(r"我的?(?!们)", text[at:])  # "我和我老婆": the partner is the speaker's own
    p = at + (own.end() if own else 0)
    if p in people:
        return Group(people[p].end, text[at : people[p].end], None if own else people[p].surface)
    if text[p : p + 1] in ("你", "您") and text[p + 1 : p + 2] != "们":
        return Group(p + 1, text[at : p + 1])
    word, tag = starts.get(p, ("", ""))
    if not tag.startswith("n"):
        return None
    end = p + len(word) + (1 if text[p + len(word) : p + len(word) + 1] == "们" else 0)
    return Group(end, text[at:end], word if tag == "nr" and not own and end == p + len(word) else None)


def _zh_partner_before(text: str, at: int, people: dict, ends: dict) -> Group | None:
    if at in people:
        return Group(at + 2, people[at].surface, people[at].surface)
    if text[at - 1 : at] in ("你", "您"):
        return Group(at + 2, text[at - 1 : at])
    word, tag = ends.get(at, ("", ""))
    if tag == "nr":
        return Group(at + 2, word, word)
    # A name opening the sentence has no cue before it for the detector; the conjunct itself is
    # one when it is a whole two- or three-character phrase in the shape of a name.
    from simplemem_graph.compress.names_zh import _SURNAME

    whole = re.search(rf"(?:^|[^\u4e00-\u9fff])({_SURNAME}[\u4e00-\u9fff]{{1,2}})$", text[:at])
    if whole and not is_common_zh_word(whole.group(1)):
        return Group(at + 2, whole.group(1), whole.group(1))
    if not tag.startswith("n"):
        return None
    own = re.search(r"(?<![你他她它])我的?$", text[: at - len(word)])  # "我老婆和我": the speaker's own
    return Group(at + 2, (own.group(0) if own else "") + word)


def _zh_groups(text: str) -> list[Group]:
    """ "我和老王", "我跟小李", "老王和我", "我和我老婆": a conjunction word joining 我 and a partner."""
    if not re.search("我们|咱们", text) or not re.search("我[和跟与同]|[和跟与同]我", text):
        return []
    from simplemem_graph.compress.names_zh import _zh_tokens, find_names_zh

    tokens = _zh_tokens(text)
    starts = {o: (w, t) for w, t, o in tokens}
    ends = {o + len(w): (w, t) for w, t, o in tokens}
    found_people = [m for m in find_names_zh(text) if m.kind == "person"]
    people_from = {m.start: m for m in found_people}
    people_to = {m.end: m for m in found_people}
    found = []
    for word, _tag, o in tokens:
        if word not in _ZH_AND:  # a word of its own: the 同 of 同意 joins nothing
            continue
        if ends.get(o, ("",))[0] == "我":
            group = _zh_partner_after(text, o + 1, people_from, starts)
        elif starts.get(o + 1, ("",))[0] == "我":
            group = _zh_partner_before(text, o, people_to, ends)
        else:
            group = None
        if group is not None:
            found.append(group)
    return found


def we_groups(text: str, lang: str, doc=None) -> list[Group]:
    """The conjoined first persons of a turn ("Jon and I", "我和老王"), in turn order: the people a
    later "we" of the same turn stands for. English needs the turn's spaCy Doc; without one, none."""
    if lang == "zh":
        return _zh_groups(text)
    if doc is None or not _EN_WE.search(text):
        return []
    return sorted(_en_groups(doc), key=lambda g: g.after)


def _group_at(groups: Sequence[Group], offset: int) -> Group | None:
    """The latest conjoined first person said before `offset`."""
    before = [g for g in groups if g.after <= offset]
    return max(before, key=lambda g: g.after) if before else None


def _inclusive(found: str, span: str, addressee: str | None) -> bool:
    """The "we" `found` in `span` includes the known listener: 咱们, or an English suggestion."""
    if not addressee:
        return False
    return found == _ZH_INCLUSIVE if not found.isascii() else bool(_EN_INCLUSIVE.search(span))


def we_names(
    text: str, start: int, end: int, addressee: str | None, groups: Sequence[Group] = ()
) -> list[str]:
    """The named people the "we" of text[start:end] stands for (see `restate`), in order: who acts
    with the speaker, so they are not what the event is about."""
    span = text[start:end]
    names: list[str] = []
    for m in [*_EN_WE.finditer(span), *re.finditer("我们|咱们", span)]:
        group = _group_at(groups, start + m.start())
        if group is not None:
            you = group.partner.lower() in ("you", "你", "您")
            name = addressee if you else group.name
        elif _inclusive(m.group(0), span, addressee):
            name = addressee
        else:
            name = None
        if name and name not in names:
            names.append(name)
    return names


def _we_text(
    template: str, found: str, at: int, span: str, offset: int, names: tuple[str, str | None], groups
) -> str:
    """The replacement of a first-person plural `found` at span offset `at` (see the module doc)."""
    speaker, addressee = names
    zh = not found.isascii()
    group = _group_at(groups, offset + at)
    if group is not None:
        partner = _restate_words(group.partner, speaker, addressee)
        members = [speaker, "you" if partner == "You" else partner]
    elif _inclusive(found, span, addressee):
        members = [speaker, addressee]
    else:
        members = []
    if zh:
        return "和".join(members) if members else f"{speaker}等"
    words = " and ".join(members) if members else f"{speaker} and others"
    if "{gx}" in template and _EN_WE_SUBJECT.search(span[:at]):
        return "themselves"  # "we did it ourselves": the group is already the subject
    if "{gp}" in template:
        return f"{words}'s" if members else f"{speaker}'s"
    return template.replace("{g}", words).replace("{gx}", words)


def _restate_words(words: str, speaker: str, addressee: str | None) -> str:
    """A partner phrase with its own pronouns made explicit ("my wife" -> "Caroline's wife")."""
    for s, e, new in sorted(_pronoun_edits(words, speaker, addressee, {}), reverse=True):
        words = words[:s] + new + words[e:]
    return words


def _conjoined(span: str, s: int, e: int) -> bool:
    """ "Jon and I go": the verb agrees with the whole plural subject, not with the name."""
    return span[:s].endswith(" and ") or span[e:].startswith(" and ")


def _zh_owned_noun_after(text: str, at: int) -> bool:
    """我 directly before a noun owns it ("我妈", "我同事", "我手机"): said of a name, the 的 that
    spoken Chinese leaves out is needed, or the two read as one name ("卓小川弟")."""
    following = text[at : at + 6]
    if not following or not re.match(r"[\u4e00-\u9fff]", following):
        return False
    first = next(iter(zh_posseg_default().cut(following)), None)
    if first is None or first.flag not in ("n", "nr") or len(first.word) > 3:
        return False
    # A verb with its potential complement ("晒得我睁不开眼", "吵得我睡不着") is no noun, whatever
    # jieba's tag says: V不V / V得V never names a thing the speaker owns.
    return not (len(first.word) == 3 and first.word[1] in "不得")


def _pronoun_edits(
    text: str,
    speaker: str,
    addressee: str | None,
    verbs: dict[int, str],
    groups: Sequence[Group] = (),
    offset: int = 0,
) -> list[tuple[int, int, str]]:
    # No name for the speaker (a role label nobody named): "I/我" stays as said.
    rules = list(_EN_FIRST_PERSON) + list(_ZH_FIRST_PERSON) if speaker else []
    if addressee:
        rules += _EN_SECOND_PERSON + _ZH_SECOND_PERSON
    edits: list[tuple[int, int, str]] = []
    for pattern, template in rules:
        for m in re.finditer(pattern, text):
            if any(s < m.end() and m.start() < e for s, e, _ in edits):
                continue
            if "{g" in template:
                new = _we_text(template, m.group(0), m.start(), text, offset, (speaker, addressee), groups)
            else:
                new = template.format(s=speaker, a=addressee)
                if m.group(0) == "我" and _zh_owned_noun_after(text, m.end()):
                    new += "的"  # "我妈是老师" -> "林晓棠的妈是老师", not the name "林晓棠妈"
            edits.append((m.start(), m.end(), new))
            if _BARE_SUBJECT.match(m.group(0)) and not _conjoined(text, m.start(), m.end()):
                verb_at = m.end() + 1
                verb = verbs.get(verb_at)
                if verb is not None and text[m.end() : verb_at] == " ":
                    edits.append((verb_at, verb_at + len(verb), third_person(verb)))
    return edits


# A self-introduction: "我叫陈阳", "我是郑思雨", "my name is Dana Whitfield", "call me Dana".
_EN_INTRODUCTION = re.compile(r"\b(?:[Mm]y name is|[Cc]all me)\s+(?P<n>[A-Z][a-z]+(?: [A-Z][a-z]+){0,2})\b")


def _zh_introduction():
    from simplemem_graph.compress.names_zh import _SURNAME

    return re.compile(rf"我(?:叫|是|名叫)(?P<n>{_SURNAME}[\u4e00-\u9fff]{{1,2}})(?=[，。,.！!；;\s]|$)")


def introduced_name(text: str) -> str | None:
    """The name a speaker gives themself in `text` ("你好，我叫曹志强" -> 曹志强), or None.

    Only in the speaker's own voice at the opening of the turn: on its first line, outside
    quotation marks, and in English opening its clause ("Hi, my name is Dana"). An assistant's
    story ('"My name is Benny," said the rabbit'), a letter it drafts after a blank line, a
    quoted saying ('"You call me Teacher"') or a premise ("Assume that my name is Juan Perez")
    names someone else: taken as the speaker's name, every later "you" of the user read "Benny"
    (5 of 48 LongMemEval dev haystacks had such a name, none a real one)."""
    m = _EN_INTRODUCTION.search(text)
    if m is not None and not _opens_clause(text[: m.start()]):
        m = None
    m = m or _zh_introduction().search(text)
    if m is None or is_common_zh_word(m.group("n")) or not _own_opening_words(text[: m.start()]):
        return None
    return m.group("n")


def _own_opening_words(before: str) -> bool:
    """Text before a self-introduction that leaves it on the turn's first line, outside quotes."""
    if "\n" in before or before.count('"') % 2:
        return False
    return all(before.count(o) == before.count(c) for o, c in ("“”", "「」", "『』"))


def _opens_clause(before: str) -> bool:
    """An English clause starts here: nothing before it, or a pause ("Hi, ", "Hello! ")."""
    head = before.rstrip()
    return not head or head[-1] in ",.!?;:-—…~)"


def is_speaker_label(speaker: str | None) -> bool:
    """A role label ("user", "assistant") rather than a name: it names no one in a restatement."""
    from simplemem_graph.consolidate.name_matching import GENERIC_SPEAKERS

    return speaker is not None and speaker.strip().lower() in GENERIC_SPEAKERS


def spoken_as(speaker: str | None, introduced: dict[str, str]) -> str | None:
    """What "I/我" of `speaker` restates to: the speaker's name, or for a role label the name the
    speaker gave in the text (`introduced`: label -> name), else None (the pronoun stays)."""
    if not is_speaker_label(speaker):
        return speaker
    return introduced.get(speaker)


def agreed_negation(surface: str) -> str:
    """A negation as it reads after its subject became a name ("don't" -> "doesn't"); the guard
    accepts either form."""
    match = re.match(r"^(do|have|are|were)(n['’]t)$", surface, re.IGNORECASE)
    return third_person(match.group(1)) + match.group(2) if match else surface


def _vocative_cut(text: str, start: int, end: int, s: int, e: int) -> tuple[int, int]:
    """The characters to remove for a vocative at [s, e): the name and the pause joining it."""
    before = text[start:s]
    lead = re.search(r"[,，]?\s*$", before)
    if lead and lead.group(0) and before[: lead.start()].strip() != "":
        return s - len(lead.group(0)), e  # "..., Caroline!" -> "...!"
    tail = re.match(r"\s*[,，:：]?\s*", text[e:end])
    return s, e + (len(tail.group(0)) if tail else 0)  # "Caroline, ..." -> "..."


def restate(
    text: str,
    start: int,
    end: int,
    dates: list[Mention],
    speaker: str | None,
    addressee: str | None,
    *,
    vocatives: list[Mention] = (),
    verbs: dict[int, str] | None = None,
    groups: Sequence[Group] = (),
) -> str:
    """Rewrite text[start:end] with pronouns and dates made explicit.

    Args:
        text: the whole turn text (mention offsets refer to it).
        start: first character of the kept span.
        end: end of the kept span.
        dates: date mentions inside the span; `extra["replacement"]` is their annotated form.
        speaker: who said the turn ("I", "我"); None keeps the first person as written (`spoken_as`).
        addressee: who "you" is, or None to keep "you" as written.
        vocatives: names in the span used to address the listener; left out of the text.
        verbs: present-tense verbs not in the third person (spaCy tag VBP), by turn offset.
        groups: the turn's conjoined first persons (`we_groups`): who a "we" stands for.

    Returns:
        The restatement.

    Example:
        >>> restate("我下周二去", 0, 5, [], "陈晓雯", None)
        '陈晓雯下周二去'
    """
    edits = [
        (m.start - start, m.end - start, m.extra["replacement"])
        for m in dates
        if m.extra.get("replacement") not in (None, m.surface)
    ]
    for m in vocatives:
        cut_start, cut_end = _vocative_cut(text, start, end, m.start, m.end)
        edits.append((cut_start - start, cut_end - start, ""))
    span = text[start:end]
    local_verbs = {o - start: v for o, v in (verbs or {}).items() if start <= o < end}
    for s, e, new in _pronoun_edits(span, speaker, addressee, local_verbs, groups, start):
        if not any(ds < e and s < de for ds, de, _ in edits):
            edits.append((s, e, new))
    for s, e, new in sorted(edits, reverse=True):
        span = span[:s] + new + span[e:]
    return span
