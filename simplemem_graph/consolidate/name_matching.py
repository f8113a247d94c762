"""Name matching shared by entity resolution and the entity index: stable entity ids, which of many
names occur in a text (Aho-Corasick automata), look-alike names (fuzzy spellings, close name
embeddings) and the small text tests resolution applies to a found name."""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import ahocorasick
import numpy as np
from rapidfuzz import fuzz, process

from simplemem_graph.consolidate.aliases import (
    ORG_SUFFIX,
    normalise_name,
)
from simplemem_graph.consolidate.calibration import calibration
from simplemem_graph.lexicon import CONTRAST_MARKER, GENERIC_SPEAKERS
from simplemem_graph.models import Event, stable_id
from simplemem_graph.text import is_common_zh_word, is_latin

if TYPE_CHECKING:  # the index uses these helpers; only its type is needed here
    from simplemem_graph.consolidate.entity_index import EntityIndex

FUZZY_MIN_RATIO = 88.0  # rapidfuzz ratio for a candidate alias (typos, transliterations)
_CLAUSE_STOP = "，,。；;！!？?\n"


def is_agent_reply(event: Event) -> bool:
    """An event said by an agent: its speaker is a role label other than "user" ("assistant",
    "bot"). `Event.agent` is not the test: it records which agent logged the turn, whoever spoke."""
    return event.speaker.strip().lower() in GENERIC_SPEAKERS - {"user"}


def entity_id(namespace: str, name: str) -> str:
    """The id of the entity named `name` (any spelling that normalises the same)."""
    return stable_id("en", namespace, normalise_name(name))


def types_compatible(type_a: str, type_b: str) -> bool:
    return type_a == type_b or "other" in (type_a, type_b)


class GrowingAutomaton:
    """Which of many keys occur in a text, for a key set that keeps growing: one Aho-Corasick
    automaton (pyahocorasick) over the keys it had when last built, plus a small one over the keys
    added since, rebuilt (in time proportional to those few) when asked after a change. The big
    one is rebuilt only when the added keys reach a quarter of it, so growing to N keys costs
    O(N log N) in all, not O(N) per new key."""

    def __init__(self):
        self._payloads: dict[str, list] = defaultdict(list)
        self._built: ahocorasick.Automaton | None = None
        self._built_keys = 0
        self._recent: set[str] = set()
        self._recent_automaton: ahocorasick.Automaton | None = None

    def add(self, key: str, payload) -> None:
        if payload in self._payloads[key]:
            return
        self._payloads[key].append(payload)
        if len(self._payloads[key]) == 1:
            self._recent.add(key)
            self._recent_automaton = None

    def candidates(self, text: str) -> list:
        """Payloads of every key that occurs in `text` (lower-cased), each once."""
        if len(self._recent) > max(256, self._built_keys // 4):
            self._built = name_automaton(self._payloads)
            self._built_keys = len(self._payloads)
            self._recent = set()
            self._recent_automaton = None
        if self._recent and self._recent_automaton is None:
            self._recent_automaton = name_automaton(self._recent)
        lowered = text.lower()
        keys = {
            key
            for automaton in (self._built, self._recent_automaton)
            if automaton is not None
            for _end, key in automaton.iter(lowered)
        }
        return [payload for key in sorted(keys) for payload in self._payloads[key]]


def name_automaton(keys) -> ahocorasick.Automaton | None:
    if not keys:
        return None
    automaton = ahocorasick.Automaton()
    for key in keys:
        automaton.add_word(key, key)
    automaton.make_automaton()
    return automaton


class LookAlikes:
    """Known entities a new name may be a weaker form of: a fuzzy spelling (rapidfuzz ratio) or a
    close name embedding: candidate aliases, never merges.

    One vectorised pass per new name (rapidfuzz's C scorer over the names of a length that can
    reach the ratio, one matrix product over every name vector) instead of a Python comparison
    with each entity; entities added while a batch is resolved are appended as they come (the
    index only grows during a batch).
    """

    def __init__(self, index: EntityIndex):
        self.index = index
        self._ids: list[str] = []
        self._names: list[str] = []  # normalised
        self._vectors = np.zeros((0, 0), dtype=np.float32)
        self._has_vector: list[bool] = []
        self._synced = 0
        self._by_length: dict[int, tuple[list[str], list[int]]] = defaultdict(lambda: ([], []))

    def find(self, name: str, type_: str, vector: Sequence[float] | None) -> list[str]:
        """Canonical ids of compatible entities like the normalised `name`, in index order."""
        self._sync()
        found: set[int] = set()
        if len(name) >= 4:
            # ratio = 1 - indel distance / (len a + len b) and the distance is at least the length
            # difference, so only lengths within these bounds can reach FUZZY_MIN_RATIO.
            slack = 1 - FUZZY_MIN_RATIO / 100
            shortest = max(4, math.floor(len(name) * (1 - slack) / (1 + slack)))
            longest = math.ceil(len(name) * (1 + slack) / (1 - slack))
            for length in range(shortest, longest + 1):
                names, rows = self._by_length.get(length, ((), ()))
                if names:
                    hits = process.extract(
                        name, names, scorer=fuzz.ratio, score_cutoff=FUZZY_MIN_RATIO, limit=None
                    )
                    found.update(rows[i] for _known, _score, i in hits)
        if vector is not None and self._synced:
            query = np.asarray(vector, dtype=np.float32)
            norm = float(np.linalg.norm(query))
            if norm and self._vectors.shape[1] == query.shape[0]:
                scores = self._vectors[: self._synced] @ (query / norm)
                found.update(
                    int(i)
                    for i in np.flatnonzero(scores >= calibration().alias_min_cosine)
                    if self._has_vector[i]
                )
        return [
            self._ids[i]
            for i in sorted(found)
            if self._ids[i] not in self.index.canonical_of
            and types_compatible(type_, self.index.entities[self._ids[i]].type)
            and self._names[i] not in GENERIC_SPEAKERS
        ]

    def _sync(self) -> None:
        added = list(itertools.islice(self.index.entities.values(), self._synced, None))
        if not added:
            return
        dimension = next((len(e.embedding) for e in added if e.embedding), self._vectors.shape[1])
        needed = self._synced + len(added)
        if self._vectors.shape[1] != dimension or self._vectors.shape[0] < needed:
            grown = np.zeros((max(needed, 2 * self._vectors.shape[0]), dimension), dtype=np.float32)
            if self._vectors.shape[1] == dimension:
                grown[: self._synced] = self._vectors[: self._synced]
            self._vectors = grown
        for row, entity in enumerate(added, start=self._synced):
            self._ids.append(entity.id)
            self._names.append(normalise_name(entity.name))
            bucket_names, bucket_rows = self._by_length[len(self._names[-1])]
            bucket_names.append(self._names[-1])
            bucket_rows.append(row)
            vector = np.asarray(entity.embedding or (), dtype=np.float32)
            norm = float(np.linalg.norm(vector)) if vector.size else 0.0
            usable = bool(norm) and vector.shape[0] == dimension
            self._has_vector.append(usable)
            if usable:
                self._vectors[row] = vector / norm
        self._synced = needed


def joined_participants(event: Event) -> list[tuple[str, str, str]]:
    """Participants as (name, type, role), with an organisation split by stage 1 joined back.

    "深圳市锐拓精密五金有限公司" may arrive as place 深圳市 and org 五金有限公司: a place, at most
    six characters of text, then the org fragment, form one organisation name.
    """
    people = [(p.name.strip(), p.type, p.role) for p in event.participants if p.name.strip()]
    joined, skip = [], set()
    for place, place_type, _ in people:
        if place_type != "place":
            continue
        for org, org_type, org_role in people:
            if org_type != "org":
                continue
            match = re.search(rf"{re.escape(place)}([\u4e00-\u9fff]{{0,6}}?){re.escape(org)}", event.text)
            if match and ORG_SUFFIX.search(org):
                joined.append((match.group(0), "org", org_role))
                skip.update({place, org})
    return joined + [p for p in people if p[0] not in skip]


def known_extension(
    name: str, type_: str, text: str, found: list[tuple[str, str]], index: EntityIndex
) -> str:
    """A name stage 1 cut out of a longer known name is that name: 沈利 of "沈利明说" (明说 read as a
    word) is 沈利明, "Cormar" of "Olive Cormar said" is Olive Cormar, when that known name occurs in
    the text and every occurrence of the cut name lies inside it."""
    if index.lookup(name) or not name.strip():
        return name
    longer = {known for known, _canonical_id in found if len(known) > len(name) and inside_name(name, known)}
    if len(longer) != 1:
        return name
    full = next(iter(longer))
    inner = len(re.findall(re.escape(name), full))
    return full if len(re.findall(re.escape(name), text)) == inner * text.count(full) else name


# What a firm's place is called after its name and the place's name ("SFH Taikoo branch").
_BRANCH_AFTER = re.compile(
    r"\s+(?:branch|store|shop|site|office|clinic|outlet|location|depot|warehouse)\b", re.IGNORECASE
)


def firm_of_branch(name: str, text: str, index: EntityIndex) -> str:
    """ "SFH Taikoo branch": a known firm's name, a place's name, then "branch" (store, site…) is the
    firm at one of its places; NER read the two names as one."""
    words = name.split()
    if len(words) < 2 or not is_latin(name):
        return name
    at = text.find(name)
    if at < 0 or not _BRANCH_AFTER.match(text, at + len(name)):
        return name
    for cut in range(len(words) - 1, 0, -1):
        firm = " ".join(words[:cut])
        if any(index.entities[i].type == "org" for i in index.lookup(firm)):
            return firm
    return name


def inside_name(name: str, known: str) -> bool:
    """`name` is part of `known`: a run of characters (Chinese) or of whole words (Latin)."""
    if is_latin(name):
        return re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", known) is not None
    return name in known


def short_form_occurs(short: str, text: str, *, given_name: bool = False) -> bool:
    """A short form in text: Latin ones as a capitalised whole word (Emma, not "emma" or Emmanuel);
    a Chinese given name (`given_name`) not as part of a word around it."""
    if is_latin(short):
        return re.search(rf"(?<![A-Za-z0-9]){re.escape(short)}(?![A-Za-z0-9])", text) is not None
    if not given_name:
        return short in text  # a trade name runs into its trade (耀光亮化: 光亮 is a word too)
    # 家明 of 付家明 is not in "大家明天": a character that makes a word with its neighbour outside
    # the given name belongs to that word
    return any(
        not is_common_zh_word(text[start - 1 : start + 1]) and not is_common_zh_word(text[end - 1 : end + 1])
        for start, end in ((m.start(), m.end()) for m in re.finditer(re.escape(short), text))
    )


class NameFinder:
    """Which of many names occur in a text, by one Aho-Corasick automaton (pyahocorasick) instead of
    one regex per name: the cost of a look-up grows with the text, not with the names known.

    The automaton finds candidates case-insensitively; `name_occurs` (whole words for Latin names)
    decides. Results come in the order of `names`, so callers see what a loop over them would see.
    """

    def __init__(self, names: Sequence[tuple[str, str, str]]):
        self._owners: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
        self._types: dict[str, str] = {}
        for position, (name, type_, canonical_id) in enumerate(names):
            self._owners[name.lower()].append((position, name, canonical_id))
            self._types.setdefault(canonical_id, type_)
        self._automaton = name_automaton(self._owners)

    def find(self, text: str) -> list[tuple[str, str]]:
        """(name, canonical id) of every name that occurs in `text` (by `name_occurs`)."""
        found = [(name, owner) for name, owner in self.candidates(text) if name_occurs(name, text)]
        return outside_longer_names(found, text, self._types.__getitem__)

    def candidates(self, text: str) -> list[tuple[str, str]]:
        """(name, canonical id) of every name whose letters occur in `text`, case-insensitively, for
        the caller's own rule to confirm."""
        if self._automaton is None:  # no names known
            return []
        hits = {owner for _end, key in self._automaton.iter(text.lower()) for owner in self._owners[key]}
        return [(name, canonical_id) for _position, name, canonical_id in sorted(hits)]


def name_occurs(name: str, text: str) -> bool:
    """`name` appears in `text`; ASCII names only as whole words, in any case (Emma, not Emmanuel;
    Emma说 counts). Plain string search, not one regex per name: with thousands of names known,
    per-name patterns overflow Python's regex cache and every call recompiled its pattern."""
    return next(name_spans(name, text), None) is not None


def name_spans(name: str, text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each occurrence of `name` in `text`, as `name_occurs` counts them."""
    key, lowered = (name.lower(), text.lower()) if is_latin(name) else (name, text)
    start = lowered.find(key) if key else -1
    while start >= 0:
        end = start + len(key)
        if not is_latin(name) or (
            not latin_or_digit(lowered[start - 1 : start]) and not latin_or_digit(lowered[end : end + 1])
        ):
            yield start, end
        start = lowered.find(key, start + 1)


def outside_longer_names(
    found: Sequence[tuple[str, str]], text: str, type_of: Callable[[str], str]
) -> list[tuple[str, str]]:
    """`found` (name, canonical id) without the names that occur only inside a longer name of
    another entity of the same type found in the same text: "Harrier" (short for Harrier Parcels)
    inside "Harrier Plant Hire", 恒远 inside 恒远物流, names the longer one's firm, never its
    look-alike. Across types it does not (a person "the Super" inside a misread firm "Super ok'd")."""
    spans = {(name, owner): list(name_spans(name, text)) for name, owner in found}
    # Only a name written as one ("Harrier Plant Hire"), not a phrase read as one ("CVP setup &
    # migration" of an "Updated: CVP setup & migration fee" line).
    longer = [
        (s, e, owner)
        for (name, owner), places in spans.items()
        if not is_latin(name) or all(w[:1].isupper() or not w[:1].isalpha() for w in name.split())
        for s, e in places
    ]

    def covered(start: int, end: int, owner: str) -> bool:
        return any(
            s <= start and end <= e and e - s > end - start and o != owner and type_of(o) == type_of(owner)
            for s, e, o in longer
        )

    return [
        (name, owner)
        for name, owner in found
        if not spans[(name, owner)] or not all(covered(s, e, owner) for s, e in spans[(name, owner)])
    ]


def contrasted(text: str, at: dict[str, int], type_of: Callable[[str], str]) -> set[str]:
    """The firms `text` names only to say another is not it ("锦澜物业也找我问价，跟JL不是一家", "a
    different Calderbrook rang", "Corwell Opticians … nothing to do w CP"): an organisation named
    after another name, near a contrast marker, or right after "a different". `at`: entity id ->
    where its name is in the text (-1: not found)."""
    marker = CONTRAST_MARKER.search(text)
    if marker is None:
        return set()
    found = set()
    for entity, position in at.items():
        if position < 0 or type_of(entity) != "org":
            continue
        before = [other for other, p in at.items() if 0 <= p < position and other != entity]
        different = re.search(r"\b(?:a|another)\s+different\s+$", text[:position], re.IGNORECASE)
        if different or (before and position > marker.start() - 40):
            found.add(entity)
    return found


def latin_or_digit(char: str) -> bool:
    return char.isascii() and char.isalnum()


def works_at_phrase(text: str, org: str, person: str) -> bool:
    org_re, person_re = re.escape(org), re.escape(person)
    chinese = (
        rf"{org_re}(?:那边|这边|方面)?的?[^{_CLAUSE_STOP}\s]{{0,6}}?{person_re}"
        # "锐拓定金已付，他们的跟单钱莉确认了": their <role> <name>, the org named earlier in the sentence
        rf"|{org_re}[^。；;！!？?\n]{{0,30}}?(?:他们|她们|对方)的[^{_CLAUSE_STOP}\s]{{0,4}}?{person_re}"
    )
    # "Tom from Acme", "Emma, sales rep at Acme", "Ravi who works at Acme"; not words without a
    # comma between ("Boss Lim claim from Brightway", "renata relayed from the ED": a verb, and
    # what comes from a firm is no employer).
    # "Funmilayo, Head of Digital Channels at ITMFB": a department, and the firm after it.
    english = (
        rf"{person_re}(?:, (?:\w+ ){{0,3}}(?:of|at|from)| (?:of|at|from)"
        rf"| (?:who )?(?:works|worked|working) (?:at|for)) (?:the )?{org_re}(?!,? (?:at|of) [A-Z])"
        rf"|{org_re}(?:'s|’s) (?:\w+ ){{0,2}}{person_re}"
    )
    return re.search(chinese, text) is not None or re.search(english, text, re.IGNORECASE) is not None
