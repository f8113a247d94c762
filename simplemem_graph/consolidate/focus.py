"""Implied subjects: which organisation (or person) an event is about when its text does not say.

Stage 1 cuts turns into clause events, and people drop the subject once it is clear: "锐丰又发通知了，
从3月1日起外壳涨到1.32元" (the second clause is still 锐丰's), "他说最快下周二" (he = the person just
named), "Contract signed today" in a conversation about one supplier. Such an event gets an extra
MENTIONS link with `role: "implied"` and `via` saying where the subject came from, in this order:

1. `employer`: a person the event names works at an organisation (WORKS_AT) -> that organisation;
2. `turn`: the raw turn names exactly one known organisation (a clause stage 1 dropped may carry it),
   or the previous clause event of the same turn has one among those the turn names;
3. `session`: the organisation the session was last talking about (the focus), while it is fresh:
   at most MAX_INHERITED_IN_A_ROW events and FOCUS_MAX_AGE since it was last named;
4. `pronoun`: he/she/他/她 with exactly one person named by the previous event of the session;
5. `supplier`: the event names only organisations the text tied to the focus as its suppliers or
   systems ("shipper is their factory, Jinhe", "他们门店收银用的是PayNest"): the story stays the
   focus's, and the supplier does not take the focus over.

An event that names another organisation never inherits one; it sets the session's focus (another
client ends the thread). A session event that names nothing inherits the focus only when it is on
the thread: it shares a word with the focus's recent events or states a value (an amount, a
quantity, a date other than its own day); chit-chat ("kettle on 2nd floor is dead again") does not.

The focus also ties people to it (WORKS_AT, props.via) when the text does: a possessive ("their
operations manager Tom", "他们运营小陶", "Maggie in their accounts", "Niamh from their people & culture
team", "小陶那边财务梅姐") or the answer to a question about the contacts ("Who should I put down as
main contact?", "Who's running it on their side?"). Someone put on "their" side continues the
focus's thread. A supplier's own people are tied to the supplier ("Lumen guy is Rhys", "Ken is the
NetAsia engineer"). A supplier is the focus's when the text gives it as theirs ("w/ Lumen AV (does
all their branch screens)") or by its role ("型材供应商华铝", "型材走华铝"); "their" right after
another firm named in the sentence is that firm's. The first word of another known firm's name
("Copperleaf want a quote") ends the thread even when stage 1 read no name there, while a one-word
"firm" inside a sentence that goes on with the thread ("reached out to me on LinkedIn") does not:
stage 1 reads tools, regulators and IDs as firms. A speaker of the conversation is never tied:
speakers are our side.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from simplemem_graph.compress.segment import split_sentences
from simplemem_graph.consolidate.aliases import (
    ORG_SUFFIX,
    ZH_JOB_ALT,
    has_legal_form,
    job_before,
    normalise_name,
)
from simplemem_graph.consolidate.entity_index import EntityIndex
from simplemem_graph.consolidate.name_matching import GENERIC_SPEAKERS
from simplemem_graph.consolidate.similarity import content_terms
from simplemem_graph.consolidate.updates import HANDOVER
from simplemem_graph.gazetteer import EN_PLACES
from simplemem_graph.lexicon import (
    CONTRAST_ROLE,
    EN_ORG_SUFFIXES,
    LEGAL_FORMS_FIRST_ALT,
    ZH_SITE_SUFFIXES,
    ZH_TITLES,
)
from simplemem_graph.models import Event, Link, LinkKind
from simplemem_graph.text import is_latin, zh_simplified

MAX_INHERITED_IN_A_ROW = 8  # events in a row that may borrow the focus before it fades
FOCUS_MAX_AGE = timedelta(hours=4)  # a focus last named longer ago than this has faded
_PERSON_PRONOUN = re.compile(r"[他她](?![们們])|\b(?:he|she|him|her)\b", re.IGNORECASE)
_NEAR_DAY = re.compile(
    r"明天|后天|昨天|前天|明早|明晚|今晚|(?:这个?|这)?周末|tomorrow|yesterday|tonight|(?:this |the )?weekend",
    re.IGNORECASE,
)
THREAD_TERMS_KEPT = 6  # recent events of the focus whose words a continuation may share
ANSWER_TURNS = 3  # messages in a row of whoever answers "who are the contacts?" that answer it
# A question about who to deal with: the people named in the answer are the focus's contacts.
# 窗口: the contact person, in Taiwan
_CONTACT_QUESTION = re.compile(r"contact|对接|联系人|负责人|谁负责|跟谁|窗口", re.IGNORECASE)
# "Who's running it on their side?", "他们那边谁管这个？": a who-question about the other side.
_WHO_ON_THEIR_SIDE = re.compile(
    r"(?:\bwho(?:'s|’s|\s+is|\s+are|\s+will)?\b.*\b(?:their|they|them|there)\b)|(?:(?:他们|她们|对方|那边).*谁)|(?:谁.*(?:他们|她们|对方|那边))",
    re.IGNORECASE,
)
_QUESTION_MARK = re.compile(r"[?？]")
_WHO = re.compile(r"\bwho(?:'s|’s)?\b|谁", re.IGNORECASE)
_QUESTIONS = re.compile(r"[^.!?。！？\n]*[?？]")  # the sentences of a turn that ask
_THEIR_ZH = r"(?:他们|她们|对方|佢哋)"  # 佢哋: Cantonese "they"
_THEY = re.compile(rf"\b(?:their|they)\b|{_THEIR_ZH}", re.IGNORECASE)
# "拍板的是他们主任", "Bev from their accounts": a possessive pointing back at the party in focus
_POINTS_BACK = re.compile(rf"{_THEIR_ZH}|\btheir\b", re.IGNORECASE)
_SIDE = r"(?:那边|这边|方面)"  # "X那边": X's side, a party of its own
_SIGN_OFF = r"(?:regards|best|thanks|thank you|cheers|sincerely)"  # closes a letter before its signature
_ZH_SURNAME_TITLE = re.compile(
    "[\u4e00-\u9fff](?P<title>" + "|".join(t for t in ZH_TITLES if len(t) >= 2) + ")"
)
_SUPPLIER_ROLES = "供应商|厂家|厂商|承运商|物流商|服务商"
_SELF = "(?:自己|自个儿|自各儿|自个|自行)"  # "oneself", and how the north-east says it (滑雪场自个儿找的)
_PREPOSITIONS = "with|and|or|than|vs|versus"  # "their own from X" still names their source
SUPPLIER = "supplier"  # WORKS_AT props.as of an organisation tied to another as its supplier/system
SITE = "site"  # WORKS_AT props.as of a named place of work that is a client's ("redo at Larchmere Court")
# "<client>, full landscaping redo at <site>", "<client>在<site>的项目": the work's place, named after
# the client in one sentence.
_AT_SITE = r"(?:\b(?:at|in)\s+(?:the\s+|their\s+|its\s+)?|在)"

Mentions = dict[str, dict[str, dict[str, str]]]  # event id -> canonical entity id -> MENTIONS props


@dataclass
class SessionFocus:
    """What a session is currently about: organisations, when they were last named, people just named."""

    orgs: list[str] = field(default_factory=list)
    named_at: datetime | None = None
    inherited_in_row: int = 0
    last_people: list[str] = field(default_factory=list)
    thread: list[frozenset[str]] = field(default_factory=list)  # content terms of the focus's recent events
    contact_question: str = ""  # the turn that asked who the contacts are, until it is answered
    answer_turn: str = ""  # the answer's turn being read now
    answer_speaker: str = ""  # who answers: their next turns go on answering
    answer_turns_left: int = 0
    question_firm: str = ""  # the firm the who-question's turn named first: whose people the answer names

    def on_focus(self, orgs: list[str], at: datetime) -> None:
        if set(orgs) != set(self.orgs):
            self.thread = []
        self.orgs, self.named_at, self.inherited_in_row = orgs, at, 0

    def remember(self, text: str) -> None:
        self.thread = [*self.thread, content_terms(text)][-THREAD_TERMS_KEPT:]

    def on_thread(self, event: Event, answering: bool, by_value: bool = True) -> bool:
        """A continuation without an organisation: it answers the focus's question, states a value
        (unless not `by_value`), or shares a word with the thread's recent events (their raw turns)."""
        if answering or (by_value and states_value(event)) or _POINTS_BACK.search(event.text):
            return True
        terms = terms_without_time(event)
        return any(terms & earlier for earlier in self.thread)


def infer_subjects(
    events: Sequence[Event],
    mentions: Mentions,
    index: EntityIndex,
    *,
    turn_texts: dict[str, str],
    stored_focus: Callable[[str], SessionFocus],
    ties: list[Link] | None = None,
    speakers: Sequence[str] = (),
) -> Counter:
    """Add implied MENTIONS (role "implied", via employer/turn/session/pronoun/supplier) to
    `mentions` in place, and tie people and suppliers to the focus (WORKS_AT links appended to
    `ties` and filed in `index.works_at`).

    Args:
        events: the batch, in stage-1 order (clauses of one turn are consecutive).
        mentions: explicit mentions from entity resolution; updated in place.
        index: the namespace's entities with WORKS_AT links.
        turn_texts: raw text of the events' source turns.
        stored_focus: the focus a session had at the end of the stored events before this batch.
        ties: where new WORKS_AT links go (None: computed for this batch's inference only).
        speakers: normalised names of the conversation's speakers besides the batch's (never tied).

    Returns:
        Counts by `via` (implied_employer, implied_turn, implied_session, implied_pronoun).

    Example:
        >>> infer_subjects(events, resolution.mentions, index, turn_texts=texts, stored_focus=ctx.focus)
        Counter({'implied_session': 12, 'implied_turn': 3})
    """
    ties = [] if ties is None else ties
    counts: Counter = Counter()
    focus: dict[str, SessionFocus] = {}
    previous_in_turn: dict[str, list[str]] = {}
    speakers_seen = {normalise_name(e.speaker) for e in events} | set(speakers)

    @functools.cache  # the clauses of one turn share its text
    def orgs_in_turn(turn_id: str) -> list[str]:
        # Known names, and trade names a dropped clause may use before any event did (恒通 of
        # 苏州市恒通…有限公司), through the index's automata: not a list of every org per batch.
        return sorted({i for _, i in index.org_names_in(turn_texts.get(turn_id, ""))})

    for _, event in sorted(enumerate(events), key=lambda pair: (pair[1].time, pair[0])):
        state = focus.setdefault(event.session, stored_focus(event.session))
        named_here: list[str] = []  # the supplier named, when the event is about its client
        mentioned = mentions.setdefault(event.id, {})
        people = [i for i, p in mentioned.items() if _kind(index, i) == "person" and p["role"] != "speaker"]
        # A system or product tied to a client as its own (PayNest, "their POS") speaks for the
        # client as a supplier firm does; an untied product is a thing, not a party.
        # a firm named only as what the other is not ("跟JL不是一家") takes no part in the focus
        orgs = [
            i
            for i in mentioned
            if (_kind(index, i) == "org" or _tied_system(index, i)) and mentioned[i]["role"] != CONTRAST_ROLE
        ]
        turn_id = event.source_ids[0] if event.source_ids else ""
        turn_text = turn_texts.get(turn_id, event.text)
        firms_here = orgs_in_turn(turn_id)
        # "na him reach out to me on LinkedIn", "BVN/NIN verification", "wahala small: CBN examiners
        # dey come": a one-word name stage 1 read as a firm (a tool, a regulator, an ID) does not
        # end the thread of an event that continues it; it is passed over as if unnamed.
        passed_over = _bare_words_on_thread(orgs, firms_here, state, event, index, turn_text)
        if passed_over:
            # "ClinixCloud, that's their practice management system": a tie makes it the focus's
            _tie_suppliers(event, sorted(passed_over), mentioned, state, index, turn_text, ties)
            passed_over = _bare_words_on_thread(orgs, firms_here, state, event, index, turn_text)
        if passed_over:
            orgs = [o for o in orgs if o not in passed_over]
        _track_contact_question(state, event, turn_id, turn_text, names_a_firm=bool(firms_here))
        if state.contact_question == turn_id and firms_here:
            # "Serambi Jaya Development — launch (Meta, Google, …). Who's the decision-maker?"
            where = {o: _first_at(turn_text, _names_of(index, o)) for o in firms_here}
            state.question_firm = min(firms_here, key=lambda o: (where[o] < 0, where[o]))
        systems = [i for i in mentioned if _kind(index, i) == "product" and i not in orgs]
        if systems and not orgs and _fresh(state, event):
            # "他们门店收银用的是PayNest": a product the text gives the focus as its own is its system.
            _tie_suppliers(event, systems, mentioned, state, index, turn_text, ties)
        places = [i for i in mentioned if _kind(index, i) == "place"]
        if len(places) >= 2:
            _tie_listed_sites(places, firms_here, index, event.text, ties)
        if orgs:
            # Also the orgs of the raw turn: the clause that ties one may be one stage 1 dropped.
            named = list(dict.fromkeys([*orgs, *orgs_in_turn(turn_id)]))
            _tie_sites(named, index, turn_text, ties)
            _tie_suppliers(event, named, mentioned, state, index, turn_text, ties)
            named_here = orgs
            orgs = _clients_of_named(orgs, state if _fresh(state, event) else None, index)
            for org in orgs:
                if org not in mentioned:
                    mentioned[org] = {"role": "implied", "via": SUPPLIER, "surface": ""}
                    counts[f"implied_{SUPPLIER}"] += 1
            state.on_focus(orgs, event.time)
        elif party := _speaks_for_a_party(event, people, mentioned, index, speakers_seen):
            # "麦田那边首页稿过了": someone on their own side, tied to no organisation we know, is
            # another party (stage 1 may have read a firm as a person): the focus moves to them.
            state.on_focus(party, event.time)
        else:
            answering = bool(state.answer_turn) and turn_id == state.answer_turn
            # "日常对接找若溪，项目助理": someone introduced by a job continues the thread
            staffed = any(job_before(_surface(index, mentioned, p), event.text) for p in people)
            # "Niamh from their people & culture team": someone of "their" side is on the focus's thread.
            theirs = any(
                _their_person(t, _surface(index, mentioned, p))
                for p in people
                for t in dict.fromkeys((event.text, turn_text))
            )
            via, implied = _implied_orgs(
                event,
                people,
                index,
                state,
                orgs_in_turn,
                previous_in_turn,
                answering or staffed,
                theirs=theirs,
                named=list(mentioned),
                passed_over=passed_over,
            )
            if via == "turn" and implied and _fresh(state, event):
                # The turn names a supplier of the focus ("他们门店收银用的是PayNest"): still the focus's.
                _tie_suppliers(event, implied, mentioned, state, index, turn_text, ties)
                clients = _clients_of_named(implied, state, index)
                if clients != implied:
                    named_here, via, implied = implied, SUPPLIER, clients
            elif via == "employer" and implied:
                # Someone at a supplier ("Keys finally came through from Marco"): the supplier
                # stands for its client, as when the supplier itself is named.
                clients = _clients_of_named(implied, state if _fresh(state, event) else None, index)
                if clients != implied:
                    named_here, via, implied = implied, SUPPLIER, clients
            for org in implied:
                mentioned[org] = {"role": "implied", "via": via, "surface": ""}
            if implied:
                counts[f"implied_{via}"] += len(implied)
                orgs = implied
                if via == "session":
                    state.inherited_in_row += 1
                else:
                    state.on_focus(implied, event.time)
        tied_via = mentioned[orgs[0]].get("via") if len(orgs) == 1 else None
        answers_contacts = bool(state.answer_turn) and turn_id == state.answer_turn
        if len(orgs) == 1 and (
            tied_via not in ("employer", SUPPLIER) or (tied_via == "employer" and answers_contacts)
        ):
            # Not through someone's employer or a supplier: "Dec says their guy" is not Dec's own
            # firm's guy, "PayNest's support guy Leo" is not the client's. The answer to "who are
            # the contacts?" names the organisation's people, whoever of them was tied already:
            # the firm asked about, not a bare word the answer named ("Super organised").
            employer = orgs[0]
            if answers_contacts and state.question_firm and _bare_word_firm(index, employer):
                employer = state.question_firm
            _tie_people(event, people, employer, mentioned, state, index, turn_text, speakers_seen, ties)
        elif len(orgs) == 1 and tied_via == "employer":
            # Through a colleague only: "Bronagh = night shift manager, reports to the Gaffer".
            _tie_people(
                event,
                people,
                orgs[0],
                mentioned,
                state,
                index,
                turn_text,
                speakers_seen,
                ties,
                colleagues_only=True,
            )
        elif len(orgs) > 1 and answers_contacts and state.question_firm in orgs:
            # the focus holds the firm asked about and what its turn listed beside it
            _tie_people(
                event, people, state.question_firm, mentioned, state, index, turn_text, speakers_seen, ties
            )
        elif len(named_here) == 1 and orgs and orgs != named_here and tied_via in (SUPPLIER, None):
            # A supplier's own people ("PayNest ... their guy Leo") work at the supplier.
            _tie_people(event, people, named_here[0], mentioned, state, index, turn_text, speakers_seen, ties)
        if orgs:
            state.remember(turn_text)
        if not people and len(state.last_people) == 1 and _PERSON_PRONOUN.search(event.text):
            person = state.last_people[0]
            mentioned.setdefault(person, {"role": "implied", "via": "pronoun", "surface": ""})
            counts["implied_pronoun"] += 1
            people = [person]
        state.last_people = people
        previous_in_turn[turn_id] = orgs
    return counts


def _implied_orgs(
    event: Event,
    people: list[str],
    index: EntityIndex,
    state: SessionFocus,
    orgs_in_turn: Callable[[str], list[str]],
    previous_in_turn: dict[str, list[str]],
    answering: bool,
    theirs: bool = False,
    named: Sequence[str] = (),
    passed_over: Collection[str] = frozenset(),
) -> tuple[str, list[str]]:
    """(via, organisation ids) the event is implicitly about; (via, []) when nothing is clear.
    `theirs`: the event puts someone on "their" side, which is the focus's ("他们财务王姐打的")
    even when a look-alike name ties them elsewhere, unless the turn names a firm "their" may be."""
    fresh = _fresh(state, event) and state.inherited_in_row < MAX_INHERITED_IN_A_ROW
    turn_id = event.source_ids[0] if event.source_ids else ""
    in_turn = [o for o in orgs_in_turn(turn_id) if o not in passed_over]
    if theirs and fresh and not in_turn:
        return "session", list(state.orgs)
    employers = sorted({org for person in people for org in index.works_at.get(person, set())})
    if employers:
        return "employer", [index.canonical(o) for o in employers]
    if len(in_turn) == 1:
        return "turn", in_turn
    if in_turn:
        earlier = [o for o in previous_in_turn.get(turn_id, []) if o in in_turn]
        if earlier:
            return "turn", earlier
        return "turn", [o for o in state.orgs if o in in_turn]
    if fresh and _first_word_of_another_firm(event.text, index, state, named):
        return "session", []
    # An event passed over for its bare-word firm keeps the focus but joins its thread by its words,
    # not by a value alone: "NEPA took light since 6am" is no step of the job.
    on_thread = state.on_thread(event, answering or theirs, by_value=not passed_over)
    return "session", list(state.orgs) if fresh and on_thread else []


_CAPITALISED_WORD = re.compile(r"(?<![\w'’-])[A-Z][a-z]{3,}(?![\w'’-])")


def _first_word_of_another_firm(
    text: str, index: EntityIndex, state: SessionFocus, named: Sequence[str]
) -> bool:
    """ "Copperleaf want a quote...": the first word of another firm's known name, which stage 1 did
    not read as a name, still names that firm; the event is not the focus's continuation. A word
    of a name the event does mention ("Halvard" of "Halvard Europa") or a name of its own is read
    as such."""
    named_words = {w for i in named for n in _names_of(index, i) for w in n.split()}
    for word in dict.fromkeys(_CAPITALISED_WORD.findall(text)):
        if word in named_words or index.lookup(word):
            continue
        for entity in index.filed_under(f"word0:{word}"):
            firm = index.canonical(entity.id)
            if (
                entity.type == "org"
                and " " in entity.name
                and entity.name.split()[0] == word
                and firm not in state.orgs
                and not set(state.orgs) & _suppliers_of(index, firm)
            ):
                return True
    return False


def _bare_words_on_thread(
    orgs: list[str],
    firms_here: list[str],
    state: SessionFocus,
    event: Event,
    index: EntityIndex,
    turn_text: str,
) -> set[str]:
    """The firms named by `event` and its turn to pass over: every one is a bare word (`_bare_word_firm`)
    other than the fresh focus and its suppliers, none opens a sentence, and the event is on the
    focus's thread. Empty when any named firm has a fuller name: that one is a party; and a
    sentence that opens with a firm is about it ("Casa Lume quer o site", "NEPA took light")."""
    named = set(orgs) | set(firms_here)
    if not named or not _fresh(state, event) or named & set(state.orgs):
        return set()
    if not all(_bare_word_firm(index, o) for o in named):
        return set()
    texts = {event.text, turn_text}
    if any(_opens_a_sentence(t, n) for o in named for n in _names_of(index, o) for t in texts):
        return set()
    if any(set(state.orgs) & _suppliers_of(index, o) for o in named):
        return set()  # a supplier tied to the focus already speaks for it
    return named if state.on_thread(event, False) else set()


def _opens_a_sentence(text: str, name: str) -> bool:
    """`name` opens a sentence of `text`, after one capitalised word at most ("Casa Lume quer…")."""
    opening = r"(?:^|[.!?\n]\s*)(?:[A-Z][\w'’-]*\s+)?"
    return re.search(opening + re.escape(name) + r"(?![\w-])", text.strip()) is not None  # "Tregarth's box"


def _bare_word_firm(index: EntityIndex, entity_id: str) -> bool:
    """A firm known only by one Latin word with no company word in it ("LinkedIn", "BVN", "Figma",
    "Lager"), tied to no one: what stage 1 reads as an organisation in chat is as often a tool, a
    regulator or a foreign noun as a party of its own."""
    names = _names_of(index, entity_id)
    if not all(is_latin(n) and len(n.split()) == 1 and not ORG_SUFFIX.search(n) for n in names):
        return False
    # its ties and its aliases' (by name: `_ties_of` would walk every alias of the namespace)
    return not any(index.works_at.get(i) for n in names for i in {entity_id, *index.lookup(n)})


def _speaks_for_a_party(
    event: Event,
    people: list[str],
    mentioned: dict[str, dict[str, str]],
    index: EntityIndex,
    speakers: set[str],
) -> list[str]:
    """The untied people the event puts on a side of their own ("X那边", "X这边")."""
    return [
        p
        for p in people
        if not index.works_at.get(p)
        and normalise_name(index.entities[p].name) not in speakers
        and re.search(re.escape(mentioned[p].get("surface") or index.entities[p].name) + _SIDE, event.text)
    ]


def _tied_system(index: EntityIndex, entity_id: str) -> bool:
    return _kind(index, entity_id) == "product" and bool(_ties_of(index, entity_id))


def _ties_of(index: EntityIndex, entity_id: str) -> set[str]:
    """WORKS_AT targets of an entity and of its aliases: a tie made to "PayNest" before it became
    an alias of "PayNest API" holds for the canonical entity (the store merges them on load; this
    covers the batch that made both)."""
    ties = set(index.works_at.get(entity_id, ()))
    for alias, canonical in index.canonical_of.items():
        if canonical == entity_id:
            ties |= index.works_at.get(alias, set())
    return ties


def _surface(index: EntityIndex, mentioned: dict[str, dict[str, str]], entity_id: str) -> str:
    return mentioned.get(entity_id, {}).get("surface") or index.entities[entity_id].name


def _fresh(state: SessionFocus, event: Event) -> bool:
    return bool(state.orgs) and state.named_at is not None and event.time - state.named_at <= FOCUS_MAX_AGE


def terms_without_time(event: Event) -> frozenset[str]:
    """The event's content words without its date and time words: "累死 今天就到这" shares 今天 with
    "麦田官网今天也上线了" and nothing else; a shared "today" is no shared subject."""
    text = event.text
    for atom in event.atoms:
        if atom.kind in ("date", "time") and atom.surface:
            text = text.replace(atom.surface, " ")
    return content_terms(text)


def states_value(event: Event) -> bool:
    """An amount, a quantity, a duration, a time or a date other than the day it was said: a fact,
    where small talk states none ("kettle on 2nd floor is dead again", "下雨了 又没带伞") or only
    that day ("ok 今天就到这", "That's all for today, thanks!")."""
    if any(q.kind in ("money", "quantity", "duration", "percent") for q in event.quantities):
        return True
    own_day = event.time.date()
    # "累瘫 明天谁都别找我", "see you tomorrow": the day next to today said by its word is how small
    # talk places itself; a plan names its day ("Friday 12th") or says what it is about.
    near = near_days(event)
    if any(d != own_day and d.isoformat() not in near for d in event.dates):
        return True
    if event.deadline is not None and event.deadline != own_day:
        return True
    # a clock time ("3点", "下午三点", "at 10:30"), not a part of the day alone ("中午吃啥", "tonight")
    return any(a.kind == "time" and _CLOCK.search(a.surface) for a in event.atoms)


_CLOCK = re.compile(r"\d|[一二三四五六七八九十两半][点時时刻]|[点时]半")


def near_days(event: Event) -> set[str]:
    """The ISO dates the event gives only by a word for a day next to today (明天, "tomorrow")."""
    return {a.value for a in event.atoms if a.kind == "date" and _NEAR_DAY.fullmatch(a.surface.strip())}


def _track_contact_question(
    state: SessionFocus, event: Event, turn_id: str, turn_text: str, names_a_firm: bool = False
) -> None:
    """Remember a turn asking who the contacts are; the next turn of the session answers it. Any
    who-question in a turn that names a firm asks about that firm ("new client X — … Who signs off?").
    Read on the raw turn: stage 1 may keep no event of a bare question."""
    if state.contact_question and turn_id != state.contact_question and not state.answer_turn:
        state.answer_turn, state.answer_speaker = turn_id, event.speaker
        state.answer_turns_left = ANSWER_TURNS - 1
    elif state.answer_turn and turn_id != state.answer_turn:
        if event.speaker == state.answer_speaker and state.answer_turns_left > 0:
            # "director's a guy everyone calls Big Oz." then "day to day is Ingrid, building manager":
            # an answer told in a few messages in a row, until the asker speaks again.
            state.answer_turn = turn_id
            state.answer_turns_left -= 1
        else:
            state.contact_question = state.answer_turn = state.answer_speaker = ""
    question = " ".join(_QUESTIONS.findall(zh_simplified(turn_text or event.text)))  # 誰 is 谁
    if question and (
        _CONTACT_QUESTION.search(question)
        or _WHO_ON_THEIR_SIDE.search(question)
        or (names_a_firm and _WHO.search(question))
    ):
        state.contact_question, state.answer_turn = turn_id, ""


def _suppliers_of(index: EntityIndex, org: str) -> set[str]:
    """The organisations `org` is tied to as a supplier (WORKS_AT from one organisation to another)."""
    return {index.canonical(o) for o in _ties_of(index, org)}


def _clients_of_named(orgs: list[str], state: SessionFocus | None, index: EntityIndex) -> list[str]:
    """The organisations an event is about, given those it names: a supplier of the (fresh) focus,
    or of exactly one organisation, stands for that client; the others stand for themselves."""
    about: list[str] = []
    if any(not _suppliers_of(index, o) for o in orgs if state is None or o not in state.orgs):
        # Another organisation is named beside the supplier: the event is about that one.
        return [o for o in orgs if not _suppliers_of(index, o)]
    for org in orgs:
        clients = _suppliers_of(index, org)
        if state is not None and clients & set(state.orgs):
            about += sorted(clients & set(state.orgs))
        elif len(clients) == 1:
            about += sorted(clients)
        else:
            about.append(org)
    return list(dict.fromkeys(about))


def _tie(index: EntityIndex, ties: list[Link], source: str, target: str, **props) -> None:
    index.works_at[source].add(target)
    ties.append(
        Link(kind=LinkKind.WORKS_AT, source=source, target=target, namespace=index.namespace, props=props)
    )


def _tie_suppliers(
    event: Event,
    orgs: list[str],
    mentioned: dict[str, dict[str, str]],
    state: SessionFocus,
    index: EntityIndex,
    turn_text: str,
    ties: list[Link],
) -> None:
    """An organisation the text gives the focus as its own ("their factory, Jinhe", "他们…用的是
    PayNest", "A&R's carrier Halvard") is the focus's supplier: tied to it, once. With no one
    focus yet (a session's first turn), a turn that names two untied firms gives the second as the
    first's ("我是知竹采购小柔 … 月饼是禾丰食品代工的"). When the focus is no more than the firms
    named here ("是邹总自己找净烽环保装的" opening a session), the client is the employer of the
    one person the turn names with one."""
    in_focus = set(state.orgs)
    focus_alone = len(state.orgs) == 1 and _fresh(state, event)
    # (read only when the focus is the named firms themselves: a look-up per turn, not per firm)
    employers = _employers_named(index, turn_text, exclude=set(orgs)) if in_focus <= set(orgs) else set()
    if focus_alone and state.orgs[0] not in orgs:
        client = state.orgs[0]
    elif len(employers) == 1:
        client, in_focus = employers.pop(), set()
    elif focus_alone:
        client = state.orgs[0]
    else:
        untied = [o for o in dict.fromkeys(index.canonical(o) for o in orgs) if not index.works_at.get(o)]
        where = {o: _first_at(turn_text, _names_of(index, o)) for o in untied}
        if len(untied) != 2 or min(where.values()) < 0:
            return
        client = min(untied, key=where.__getitem__)
    client_names = [n for n in (index.entities[client].name, *index.entities[client].aliases) if n]
    client_names += _kind_references(index.entities[client].name)
    for org in orgs:
        if org == client or index.works_at.get(org) or org in in_focus:
            continue
        surfaces = [mentioned.get(org, {}).get("surface") or "", *_names_of(index, org)]
        texts = dict.fromkeys((event.text, turn_text))
        untied = [o for o in orgs if o not in (org, client) and not index.works_at.get(o)]
        others = [name for o in untied for name in _names_of(index, o)]
        if any(
            _possessed(t, surface, client_names, by_their=not _firm_before_in_sentence(t, surface, others))
            for t in texts
            for surface in surfaces
            if surface
        ):
            _tie(index, ties, org, client, via="possessive", **{"as": SUPPLIER})


def _employers_named(index: EntityIndex, text: str, exclude: set[str]) -> set[str]:
    """The employers (outside `exclude`) of the people `text` names."""
    return {
        index.canonical(firm)
        for _name, person in index.names_in(text)
        if index.entities[person].type == "person"
        for firm in index.works_at.get(person, ())
        if index.canonical(firm) not in exclude
    }


# Organisation words that say nothing of what a firm is ("the group", "the company" may be ours)
_NO_KIND = frozenset({"Group", "Company", "Corporation", "Holdings", "Limited", "Partners", "Associates"})


def _kind_references(name: str) -> list[str]:
    """How a chat refers to a firm in focus by what it is: "the bank" for "Ileri Trust Microfinance
    Bank Limited", "the hotel" for "… Hotel Group" (its organisation words, not its legal form)."""
    words = [w for w in name.split() if w.istitle() and w.isalpha() and len(w) >= 4]
    kinds = [w if w in EN_ORG_SUFFIXES else w[:-1] for w in words]  # Hotels: a hotel
    return [f"the {kind.lower()}" for kind in kinds if kind in EN_ORG_SUFFIXES and kind not in _NO_KIND]


def _tie_sites(named: list[str], index: EntityIndex, turn_text: str, ties: list[Link]) -> None:
    """A named place of work given after its client in one sentence ("Rotherfield Strata Management,
    full landscaping redo at Larchmere Court", "璟澜物业，枫渡花园新盘的开荒保洁": after at / in / 在,
    or named as a site is in Chinese, by its head) is the client's site: tied to it (WORKS_AT, as
    "site"), so that the site named alone later ("the new turf at Larchmere is dying") stands for
    the client as a supplier does, and never takes the session's focus from it. Only between two
    untied firms, and only when the sentence names no third."""
    if len(named) < 2:
        return
    for sentence in _sentences(turn_text):
        # "… Healthcare Pvt. Ltd. has given us chiller overhaul at their main hospital": a site
        # written in lower case is still that site ("Site: Main Hospital" in the work order).
        folded = sentence.casefold()
        present = {o: _first_at(folded, [n.casefold() for n in _names_of(index, o)]) for o in named}
        present = {o: at for o, at in present.items() if at >= 0}
        # "… chiller overhaul + AHU cleaning at their main hospital": a bare word mid-sentence is
        # a thing, not the client whose site this is
        present = {
            o: at
            for o, at in present.items()
            if not _bare_word_firm(index, o)
            or any(_opens_a_sentence(sentence, n) for n in _names_of(index, o))
        }
        if len(present) != 2:
            continue
        client, site = sorted(present, key=present.__getitem__)
        if index.works_at.get(site) or index.works_at.get(client):
            continue
        site_names = _names_of(index, site)
        if any(has_legal_form(n) if is_latin(n) else ORG_SUFFIX.search(n) for n in site_names):
            continue  # "Head of Digital Channels at ITMFB" (… Bank Limited): a firm is no place of work
        site_alt = "|".join(re.escape(n) for n in site_names if n)
        if index.entities[site].name.endswith(ZH_SITE_SUFFIXES) or re.search(
            rf"{_AT_SITE}(?:{site_alt})", sentence[present[client] :], re.IGNORECASE
        ):
            _tie(index, ties, site, client, via="site", **{"as": SITE})


# "3 locations (Kingsway, Robson, Richmond)", "clinics for Lekki, Yaba n Surulere", "their meeting
# rooms across Central, Eastbank, Lowther and Yallock": a noun for the places a client works from,
# then a list of names.
_SITE_NOUNS = (
    r"locations|stores|branches|clinics|campuses|sites|shops|outlets|offices|restaurants|hotels|"
    r"venues|centres|centers|schools|practices|warehouses|plants|factories|rooms|depots|kitchens"
)
_LISTED_SITES = re.compile(
    rf"\b(?:{_SITE_NOUNS})\b\s*[(:—-]?\s*(?:(?:in|at|across|for|on)\s+)?(?:the\s+)?"
    r"(?P<list>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?(?:\s*,\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)+"
    r"(?:,?\s+(?:and|n|&)\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)?"
    r"|[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?,?\s+(?:and|n|&)\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)"
)


def _tie_listed_sites(
    places: list[str], firms_here: list[str], index: EntityIndex, text: str, ties: list[Link]
) -> None:
    """Places listed after a noun for where a firm works ("3 locations (Kingsway, Robson,
    Richmond)") in a turn that names one firm, not yet tied to anyone, are that firm's sites:
    tied to it as `_tie_sites` ties a named place of work, so a branch named alone later
    ("Yaba commissioned today") stands for the client."""
    clients = [o for o in firms_here if _kind(index, o) == "org" and not index.works_at.get(o)]
    if len(clients) != 1:
        return
    for listed in _LISTED_SITES.finditer(text):
        for place in places:
            # a major city ("offices in London and Paris") stands for too much to be one client's
            if index.works_at.get(place) or index.entities[place].name in EN_PLACES:
                continue
            names = [n for n in _names_of(index, place) if n]
            if any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", listed.group("list")) for n in names):
                _tie(index, ties, place, clients[0], via="site", **{"as": SITE})


def _first_at(text: str, names: list[str]) -> int:
    """Where the first of `names` occurs in `text` (-1: none does)."""
    found = [text.find(n) for n in names if n and n in text]
    return min(found) if found else -1


def _sentences(text: str) -> list[str]:
    """The sentences as stage 1 cuts them: a legal form's dot ends none ("… Healthcare Pvt. Ltd. has
    given us …")."""
    return [piece.text for piece in split_sentences(text)]


def _names_of(index: EntityIndex, entity_id: str) -> list[str]:
    entity = index.entities[entity_id]
    return [entity.name, *entity.aliases]


def _firm_before_in_sentence(text: str, surface: str, firms: list[str]) -> bool:
    """ "Marlow Motors want ... for their Ballarat store": another firm named earlier in the same
    sentence is what "their" points at; only the client's own name then makes the firm the client's."""
    for sentence in _sentences(text):
        at = sentence.find(surface)
        # what the pronoun points back at is named before it ("they have a BAS contract with X":
        # a name between "they" and X is not who "they" are)
        pronouns = [m.start() for m in _THEY.finditer(sentence, 0, max(at, 0))]
        before = pronouns[-1] if pronouns else at
        if at >= 0 and any(0 <= sentence.find(f) < before for f in firms if f):
            return True
    return False


def _possessed(text: str, surface: str, owners: list[str], by_their: bool = True) -> bool:
    """`surface` is given as the owner's: "their <words> X", "他们…X", "<owner>'s X", "<owner>的X"
    (only the last two when `by_their` is False). Chinese is read in simplified characters (佢哋
    自己請 is 自己请)."""
    text, surface, owners = zh_simplified(text), zh_simplified(surface), [zh_simplified(o) for o in owners]
    if surface.lower() not in text.lower():  # every pattern names it: spare compiling them all
        return False
    name = re.escape(surface)
    owner = "|".join(re.escape(o) for o in owners)
    patterns = (
        []
        if not by_their
        else [
            # (a word that joins two things breaks it: "mix up their folder with KPRC": no KPRC of theirs)
            # (Spanish su / sus: "los está importando su agencia aduanal, Agencia Aduanal Zárate")
            rf"\b(?:their|su|sus)\s+(?:(?!(?:{_PREPOSITIONS})\b)[\w/+&-]+[\s,]+){{0,4}}{name}",
            # "ClinixCloud, that's their practice management system": named, then said to be theirs
            rf"(?<![\w-]){name}(?:,\s*|\s+)(?:that's|that’s|that is|which is|it's|it’s|is)\s+their\b",
            # "RotaHound (vet rota app, their own subscription)": theirs, in a bracket after the name
            rf"(?<![\w-]){name}\s*\([^()\n]{{0,40}}?\btheir\s+own\b",
            rf"{_THEIR_ZH}的?[^，,。；;！!？?\n]{{0,10}}?{name}",
            # "律所自己签了家扫描公司叫X", "扫描是所里自己签的X": the party's own, not ours (我们自己)
            rf"(?<!我们)(?<!咱们)(?<!我){_SELF}(?:长期)?(?:签|找|请|定|选|用|合作)[^，,。；;！!？?\n]{{0,10}}?{name}",
            # "物业自己跟攀达高空签的年框": whom the party itself signed with
            rf"(?<!我们)(?<!咱们)(?<!我){_SELF}(?:直接)?(?:跟|和|与|同){name}(?:签|合作|定)",
            # "装修队是他们自己找的，叫X": named in the clause right after; "一个代工厂叫X，栖岚自己
            # 签的": in the clause right before
            # "是他们自己长期合作的一家，楚光视讯": a partner of long standing is one they chose too
            rf"(?<!我们)(?<!咱们)(?<!我){_SELF}(?:长期)?(?:签|找|请|定|选|用|合作)的[\u4e00-\u9fff]{{0,6}}[，,]\s*(?:叫|是)?{name}",
            # (voice-to-text leaves a space where the comma was: "灯是亮堂堂的 他们酒店自己签的")
            rf"{name}的?(?:[，,]\s*|\s+)(?!我|咱)[\u4e00-\u9fffA-Za-z]{{0,8}}?(?<!我们)(?<!咱们){_SELF}(?:签|找|请|定|选|用)的",
            # "they have their own irrigation contractor on a maintenance contract, X"
            # "the co-op has its own driller, Mlima Deep Drilling"; as people type it ("there own
            # surveyors Keystone") or say it ("their ain florist n stylist for it. Thistle & Bloom,
            # oot of Galashiels"): the name may follow with no comma, or open the next sentence as
            # a fragment that only names it
            rf"\b(?:their|its|there)\s+(?:own|ain)\s+[^.;!?\n]{{0,60}}?[,:—-]\s*(?:called\s+|named\s+)?{name}",
            # Indonesian and Malay: "Seduh Rasa punya kontraktor sendiri, CV Cahaya Neon Abadi" (has its
            # own contractor), "mereka pakai vendor sendiri, X"
            rf"\b(?:punya|pakai|ada)\s+(?:[\w-]+\s+){{1,3}}?sendiri\s*[,:—-]?\s*"
            rf"(?:(?:{LEGAL_FORMS_FIRST_ALT})\s+)?(?:namanya\s+|yaitu\s+)?{name}",
            # Hinglish: "unka apna AV vendor hai, Glowtech AV Rentals" (their own AV vendor is X)
            rf"\b(?:unka|unki|unke|inka|inki|inke)\s+(?:apna|apni|apne)\s+(?:[\w-]+\s+){{1,3}}?"
            rf"(?:hai|hain|he)?\s*[,:—-]?\s*{name}",
            rf"\b(?:their|its|there)\s+(?:own|ain)\s+(?:(?!(?:{_PREPOSITIONS}|for|to|by|from|at|in)\b)[\w-]+\s+){{1,3}}"
            rf"{name}",
            rf"\b(?:their|its|there)\s+(?:own|ain)\s+[^.;!?\n]{{0,60}}?[.!]\s+{name}\s*(?:[,(—-]|$)",
            # "they run X, fingerprint terminals on every door": what they run or use is their system;
            # "they have a BAS contract with X": whom they contract with is their supplier
            # "they engage Lucent Build & Fitout as main con", "they're contracted wi Kelvin Fire"
            rf"\bthey(?:'re|’re|\s+are)?\s+(?:already\s+|also\s+)?(?:run|use|have|engage[sd]?|hire[sd]?|"
            rf"employ(?:s|ed)?|contract(?:s|ed)?(?:\s+(?:with|wi|w/))?|signed\s+(?:up\s+)?with|went\s+with)\s+{name}\b",
            # "OptiChart (their practice mgmt software)": a bracket after the name says whose it is
            rf"(?<![\w-]){name}\s*[(（]\s*their\s",
            # "go thru their upfitter first. turnpike fleet upfitters does the racks": the firm whose
            # name ends in the trade "their" was said of, in the same turn
            rf"\btheir\s+(?P<trade>[a-z]{{4,}})\b[^\n]{{0,80}}?{name}(?:\s+[\w&-]+){{0,2}}\s+(?P=trade)s?\b",
            # "They already have contract with one messaging vendor, Pingwave Communications"
            # ("they've got a supply agreement with Coastal Diesel Parts")
            rf"\bthey(?:\s+(?:already\s+)?(?:have|had|use|run)|(?:'ve|’ve|\s+have)\s+got)\s+(?:an?\s+)?[^.;!?\n]{{0,30}}?"
            rf"\b(?:contract|deal|agreement)"
            rf"\s+with\s+(?:[^.;!?\n,]{{0,40}},\s*)?{name}\b",
            # "a sponsor deal w/ Lumen AV (does all their branch screens)": a firm they deal with, said
            # in the same breath to work for them
            rf"(?:\bwith\b|\bw/)\s*{name}\s*(?:\(|,|—|-)\s*[^()\n]{{0,40}}?\btheir\b",
            # "型材供应商华铝", "供应商叫华睿声学", "型材走华铝" (goes through 华铝): the supplier of
            # the job in hand (not what it does not go through: "不走青瓯那边")
            rf"(?:{_SUPPLIER_ROLES})(?:是|为|叫)?{name}|[\u4e00-\u9fff](?<![不没别甭])走{name}",
            # "月饼是禾丰食品代工的": who makes the party's goods for it (not "我们的…")
            rf"(?<!我们)(?<!咱们)(?<!我)(?:是|由|找){name}(?:代工|代加工|贴牌|加工|生产|灌装)",
            # "产品全部外包给云和一个厂 叫森邦木制品厂", "they outsource production to X": whom the
            # party has make its goods (not what we outsource: 我们外包给…)
            # ("他们发货外包给了一家云仓，叫顺捷云仓": the firm named after a pause)
            rf"(?<!我们)(?<!咱们)(?<!我)(?:外包给|委托)[^，,。；;！!？?\n]{{0,10}}?(?:[，,]\s*)?(?:叫|是)?{name}",
            # "騰馳自己有配合的表面處理廠 叫宏亮…", "他们自己找的物流 是X": a firm the party works with
            # of its own (not ours: 我们自己的…)
            rf"(?<!我们)(?<!我們)(?<!咱们)(?<!咱們)(?<!我)自[己家](?:有|也有)?(?:配合|合作|指定|找|用|签)?的"
            rf"[^，,。；;！!？?\n]{{0,10}}?\s*(?:叫|是)\s*{name}",
            rf"\bthey\s+(?:\w+\s+)?outsourc(?:e|es|ed|ing)\s+[^.;!?\n]{{0,40}}?\bto\s+(?:[^.;!?\n,]{{0,30}},\s*)?{name}\b",
        ]
    )
    if owner:
        patterns += [
            # "Harrier signed direct with a telematics company, Orbitrack"
            rf"(?:{owner}|\bthey)\s+(?:signed|contracted)\s+(?:direct(?:ly)?\s+)?with\s+[^.;!?\n]{{0,40}}?{name}\b",
            # "The bank don contract one dev company, Kodewell Technologies": whom it hired
            rf"(?:{owner})\s+(?:[a-z]+\s+){{0,2}}?(?:contract(?:ed)?|hired?|engaged?|brought\s+in)\s+"
            rf"(?:[^.;!?\n]{{0,40}}?,\s*)?{name}\b",
            rf"(?:{owner})(?:'s|’s)\s+(?:[\w-]+\s+){{0,2}}{name}",
            # "Riverbrook's own asbestos surveyor, Keystone Environmental"; "TGHP's own booking
            # with Simba Tents", "TGHP wamebook Simba Tents directly" (Swahili: they have booked)
            rf"(?:{owner})(?:'s|’s)\s+own\s+[^.;!?\n]{{0,40}}?(?:,|:|—|-|\bwith\s+)\s*{name}",
            rf"(?:{owner})\s+\w*book(?:ed|s)?\s+{name}\s+direct(?:ly)?\b",
            # "Keystone is contracted by Riverbrook", "T&B are their contractor" is said above
            rf"(?<![\w-]){name}\s+(?:is|are|was|were)\s+(?:contracted|hired|engaged|employed|paid)\s+by\s+(?:{owner})",
            rf"(?<![\w-]){name}\s*\((?:{owner})(?:'s|’s)\s+own\b",
            rf"(?:{owner})的[\u4e00-\u9fff]{{0,4}}?{name}",
        ]
    return any(re.search(p, text, re.IGNORECASE) for p in patterns)


def _tie_people(
    event: Event,
    people: list[str],
    org: str,
    mentioned: dict[str, dict[str, str]],
    state: SessionFocus,
    index: EntityIndex,
    turn_text: str,
    speakers: set[str],
    ties: list[Link],
    *,
    colleagues_only: bool = False,
) -> None:
    """WORKS_AT for people the text ties to the event's one organisation: a possessive ("their ops
    manager Tom", "Tom, their...", "他们运营小陶"), someone of its own side ("小陶那边财务梅姐") or
    reporting to one of its people ("reports to the Gaffer", "跟炮哥汇报"), a signature or an
    apposition with its name ("Deepak | Accounts Payable | PWL", "Bronagh — PWL night shift
    manager"), or the answer to a question about the contacts. `colleagues_only`: the organisation
    is only the employer of someone named, so only a colleague's tie holds."""
    if index.entities[org].type != "org":
        return
    # Colleagues named in the same event ("小陶那边财务梅姐"), not every employee of the namespace.
    colleagues = [p for p in people if org in {index.canonical(e) for e in index.works_at.get(p, ())}]
    if colleagues_only and not colleagues:
        return
    turn_id = event.source_ids[0] if event.source_ids else ""
    answering = bool(state.answer_turn) and turn_id == state.answer_turn
    if answering:
        # The answer's raw turn: a name stage 1 left out of the clause events is still an answer.
        named = [i for _, i in index.names_in(turn_text) if index.entities[i].type == "person"]
        people = list(dict.fromkeys([*people, *named]))
    for person in people:
        entity = index.entities[person]
        if (
            index.works_at.get(person)
            or normalise_name(entity.name) in speakers
            or any(normalise_name(a) in speakers for a in entity.aliases)
        ):
            continue
        surface = _surface(index, mentioned, person)
        texts = dict.fromkeys((event.text, turn_text))
        colleague_names = [n for c in colleagues for n in _names_of(index, c)]
        if colleagues_only:
            if any(
                _side_of(t, surface, colleague_names) or _reports_to(t, surface, colleague_names)
                for t in texts
            ):
                _tie(index, ties, person, org, via="colleague")
            continue
        if answering and _only_in_form_lines(turn_text, surface):
            continue  # "(a) Overhaul of Chiller-2 (Carrier …)", "Site: …, Bengaluru": a pasted form's content
        if answering:
            via = "contact-answer"
        elif any(_their_person(t, surface) for t in texts):
            # "their" points back: a firm first named after it ("their treasurer walt. their books
            # are done by an outside firm, Kessler & Pham") is not whose person this is.
            if _their_points_before(texts, surface, _names_of(index, org)):
                continue
            via = "possessive"
        elif any(job_before(surface, t) for t in texts):
            via = "job"
        elif any(
            _side_of(t, surface, colleague_names) or _reports_to(t, surface, colleague_names) for t in texts
        ):
            via = "colleague"
        elif any(_role_is(t, surface, _names_of(index, org)) for t in texts):
            via = "role"
        elif any(_named_the_contact(t, surface) for t in texts):
            via = "contact"
        elif re.search(HANDOVER, event.text, re.IGNORECASE):
            # "Ollie Strand takes over their logistics", "接手的是阿珂": who takes over a post of the
            # event's one organisation works there; "dawn going on mat leave. Kelvin Osei taking
            # over hartley house": the one whose post it was says where (the job is no employer).
            before = _employers_named(index, turn_text, exclude=set())
            if len(before) == 1 and org not in before:
                _tie(index, ties, person, before.pop(), via="handover")
                continue
            via = "handover"
        else:
            # Named beside the organisation is no tie: "Ask Victor to have the Harmont contract
            # ready" names our own colleague.
            continue
        _tie(index, ties, person, org, via=via)


# A line of a pasted form or list: "Site: …", "(a) …", "1. …", "- …"; not a line that names a
# contact ("Contact: …", "联系人：…").
_FORM_LINE = re.compile(
    r"^\s*(?:\(?[a-z0-9]{1,2}[).]\s|[-•*]\s|"
    r"(?!(?:contact|attn|attention|name|signed|from|cc|联系人|对接人|负责人)\s*[:：])[^\s:：][^:：\n]{0,24}[:：])",
    re.IGNORECASE,
)


def _only_in_form_lines(text: str, surface: str) -> bool:
    """Every line of `text` that holds `surface` is a line of a pasted form or list (and there is one)."""
    if not surface:
        return False
    lines = [line for line in text.splitlines() if surface in line]
    return bool(lines) and "\n" in text and all(_FORM_LINE.match(line) for line in lines)


def _their_person(text: str, person: str) -> bool:
    return _their_person_at(text, person) >= 0


def _their_points_before(texts: Iterable[str], person: str, firm_names: list[str]) -> bool:
    """A text (the clause, or its whole turn) puts `person` on "their" side and names the firm
    only after that possessive."""
    folded = [n.lower() for n in firm_names]
    return any(0 <= _their_person_at(text, person) < _first_at(text.lower(), folded) for text in texts)


def _their_person_at(text: str, person: str) -> int:
    """Where `text` puts `person` on "their" side (the possessive's start), -1 when it does not."""
    name = re.escape(person)
    patterns = [
        # ("their Executive Head, Dr Mokoena": the post, a comma, its holder)
        rf"\btheir\s+(?:[\w/-]+,?\s+){{0,3}}{name}\b",
        rf"\b{name}(?:,|\s+is)\s+their\b",
        # "Niamh from their people & culture team", "Bev from their accounts", "Maggie in their accounts"
        # ("Bisi for their accounts": Nigerian Pidgin's "for" is "in")
        rf"\b{name}\s+(?:from|in|at|on|of|for)\s+their\b",
        # "a guy they all call Big Mike, runs maintenance for their whole portfolio": the name they
        # give someone, then what he does for them
        rf"\b(?:they|everyone|everybody)\s+(?:all\s+)?call\s+{name}\b[^.!?\n]{{0,60}}\btheir\b",
        rf"{_THEIR_ZH}的?[\u4e00-\u9fff]{{0,5}}?{name}",
        rf"{name}是{_THEIR_ZH}",
        # "林珂加我了 他们财务": the name, then "their <job>" said of it in the same breath
        rf"{name}[^。！？!?\n，,]{{0,4}}[，,\s]\s*{_THEIR_ZH}的?(?:{ZH_JOB_ALT})",
    ]
    title = _ZH_SURNAME_TITLE.fullmatch(person)
    if title:
        # "拍板的是他们主任，姓钱，…钱主任": their <title>, then the person by surname and that title
        patterns.append(rf"{_THEIR_ZH}的?{re.escape(title.group('title'))}")
    found = [m.start() for p in patterns if (m := re.search(p, text, re.IGNORECASE))]
    return min(found, default=-1)


def _role_is(text: str, person: str, org_names: list[str]) -> bool:
    """ "Lumen guy is Rhys", "Halvard's account manager: Ines", "Ken is the NetAsia engineer": a
    role of the named organisation and the person who fills it."""
    owners = "|".join(re.escape(o) for o in org_names if o)
    if not owners:
        return False
    # "PT Seduh Rasa Nusantara" on a signature's line: a legal form written first is no other name
    owners = rf"(?:(?:{LEGAL_FORMS_FIRST_ALT})\s+)?(?:{owners})"
    name = re.escape(person)
    patterns = (
        rf"\b(?:{owners})(?:'s|’s)?\s+(?:[a-z][\w-]*\s+){{0,2}}?[a-z][\w-]*\s*(?:\bis\b|:|=)\s*{name}\b",
        # "Ken is the NetAsia engineer"
        rf"\b{name}\s+is\s+(?:the|their|our|an?)\s+(?:{owners})\s+[a-z][\w-]*",
        # "鼎匠那边是个工头 叫阿彪", "亮屏派来对接的叫阿峰": the firm's side, then who it is
        rf"(?:{owners})(?:那边|这边|方面)?[^，,。；;！!？?\n]{{0,8}}?(?:叫|是){name}",
        # "Bronagh — PWL night shift manager", "振华——JC采购": an apposition of the firm and a job
        rf"(?<![\w]){name}\s*(?:—+|–|:|：|=|,|，)\s*(?:the\s+)?(?:{owners})(?:'s|’s|的)?\s*(?:[a-z][\w-]*|[\u4e00-\u9fff]{{2}})",
        # ...or in a bracket after the name: "Kiprono (TGHP accounts)", "阿珊（锦骋财务）"
        rf"(?<![\w]){name}\s*[(（]\s*(?:(?:{owners})(?:'s|’s|的)?\s*(?:[a-z][\w-]*|[\u4e00-\u9fff]{{2}}))",
        # a signature: "Deepak | Accounts Payable | PWL", "——锦骋汽车 市场部 雨萱"; also after a sign-off
        # and before the firm's legal form ("Regards, Tan Wei | Accounts Executive | Harlow Cargo Pte. Ltd.")
        rf"(?m)^[\s>]*{name}\s*[|/·]\s*[^|\n]{{1,40}}[|/·]\s*(?:{owners})\s*$",
        rf"(?im)(?:^[\s>]*|\b{_SIGN_OFF}\s*,?\s*){name}\s*[|/·]\s*[^|\n]{{1,40}}[|/·]\s*(?:{owners})(?![\w&])",
        rf"(?m)^[\s>]*(?:——|—|--)\s*(?:{owners})\s+\S{{1,8}}\s+{name}\s*$",
        # a signature on two lines: "Benedikt" / "Integration Consultant, RotaHound Ltd"
        rf"(?m)^[\s>]*{name}\s*\n[\s>]*[^\n]{{1,40}}?(?:,|\||·)\s*(?:{owners})\s*$",
        # on three: "Renata Okafor-Lund" / "Director of Programs" / "Kestrel Youth Trust, Inc." (the
        # name line may go on past the name stage 1 read: a second surname after a hyphen)
        # (or the name in the other script beside it: "沈佳怡 Jiayi Shen", "Cheryl Tsang 曾詠琪")
        rf"(?m)^[\s>]*(?:[^\n]{{1,12}}\s)?{name}[\w'’-]*(?:\s[^\n]{{1,12}})?\s*\n[\s>]*[^\n|]{{2,50}}\n"
        rf"[\s>]*(?:{owners})(?![\w&])",
        # quoted: 落款「盛纬制衣 生产部 老符」
        rf"[「『“\"]\s*(?:{owners})\s+(?:\S{{1,8}}\s+)?{name}\s*[」』”\"]",
    )
    if any(re.search(p, text) is not None for p in patterns):
        return True
    # an address at the firm's domain: "From: Renata <renata@ninebarkrg.com>" (Ninebark)
    domains = "|".join(
        re.escape(compact) for o in org_names if len(compact := re.sub(r"[^a-z0-9]", "", o.lower())) >= 4
    )
    return bool(domains) and re.search(rf"\b{name}\s*<[\w.+-]+@(?:{domains})[\w-]*\.", text, re.I) is not None


def _named_the_contact(text: str, person: str) -> bool:
    """ "Renata (controller) is the contact", "晓岚是他们的对接人": the event's organisation's contact,
    said of a person, not in answer to a question."""
    name = re.escape(person)
    patterns = (
        rf"\b{name}\b(?:\s*\([^()\n]{{0,40}}\))?\s+(?:is|'s|’s)\s+(?:the|their)\s+"
        rf"(?:main\s+|primary\s+|day[- ]to[- ]day\s+)?(?:contact|point of contact|poc)\b",
        rf"{name}(?:（[^（）\n]{{0,20}}）)?是{_THEIR_ZH}?的?(?:对接人|联系人|窗口)",
    )
    return any(re.search(p, text, re.IGNORECASE) for p in patterns)


def _reports_to(text: str, person: str, colleagues: list[str]) -> bool:
    """ "Bronagh = night shift manager, reports to the Gaffer", "振华…直接跟炮哥汇报": someone who
    reports to a known colleague works where the colleague does."""
    if not colleagues:
        return False
    others = "|".join(re.escape(c) for c in colleagues if c)
    name = re.escape(person)
    patterns = (
        rf"\b{name}\b[^.;!?\n]{{0,60}}?\breports?\s+(?:directly\s+)?(?:in\s+)?to\s+(?:the\s+)?(?:{others})",
        rf"{name}[^。；;！!？?\n]{{0,30}}?(?:向|跟|给)(?:{others})汇报",
    )
    return any(re.search(p, text, re.IGNORECASE) for p in patterns)


def _side_of(text: str, person: str, colleagues: list[str]) -> bool:
    """ "小陶那边财务梅姐": someone on a known colleague's side works where the colleague does."""
    if not colleagues:
        return False
    others = "|".join(re.escape(c) for c in colleagues if c)
    pattern = rf"(?:{others})(?:那边|这边)的?[\u4e00-\u9fff]{{0,4}}?{re.escape(person)}"
    return re.search(pattern, text) is not None


def focus_from_stored(events: Sequence[Event], mentions: Mentions, index: EntityIndex) -> SessionFocus:
    """The focus at the end of a session's stored events (oldest first), read from their MENTIONS."""
    state = SessionFocus()
    for event in events:
        mentioned = mentions.get(event.id, {})
        orgs = [i for i in mentioned if _kind(index, i) == "org"]
        if not orgs:
            continue
        if all(mentioned[o].get("via") == "session" for o in orgs):
            state.inherited_in_row += 1
        else:
            state.on_focus(orgs, event.time)
        state.remember(event.text)
    return state


def _kind(index: EntityIndex, entity_id: str) -> str:
    entity = index.entities.get(entity_id)
    if entity is None or normalise_name(entity.name) in GENERIC_SPEAKERS:
        return "speaker"
    return entity.type
