"""An entity's story: what `timeline` returns, grouped the way a person asks "what happened with
that client?".

The story of an entity E holds, oldest first, each with the path that says why it is there:
- the events that mention E or one of its aliases, explicitly or implied by consolidation (the
  thread of a session that goes on without naming it, its people's employer, its supplier);
- the events that mention one of its people (WORKS_AT E) or its suppliers and systems (WORKS_AT E
  with props.as "supplier"), unless the event belongs to another party: it carries an implied
  mention of another organisation, or names an organisation that has people of its own;
- the events of a person no text tied to anyone who is named mostly inside E's own events (two
  or more, at least half of theirs): E's staff called by a first name nobody introduced as theirs;
  not when the event names another organisation;
- the events said between two of its events in one session when nothing in between names another
  party (the thread goes on without a name: "Fixed fee is £36,000 for the whole thing.");
- never a bare question (it asks, it tells nothing: "did the rate sheet go to Dec on time?").

The changes among the story's events come as SUPERSEDES chains, oldest value first; the last of a
chain is current, the others are marked superseded in their path.

Reads through the store contract only: a bounded number of calls, each indexed on the entity or on
the story's events (never a scan of the namespace).
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from simplemem_graph.consolidate.focus import near_days, states_value, terms_without_time
from simplemem_graph.consolidate.updates import attribute_values
from simplemem_graph.errors import NotFoundError
from simplemem_graph.lexicon import CONTRAST_ROLE
from simplemem_graph.models import Entity, Event, EventStatus, Hit, LinkKind
from simplemem_graph.retrieve.typed_names import entities_for_typed_name, events_saying
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EntitiesNamed, EntityQuery, EventQuery, RecallFilter
from simplemem_graph.text import tokenize, zh_dictionary_tag

SUPPLIER = "supplier"  # WORKS_AT props.as of a supplier / system tied to a client (see focus.py)
FOUND_BY_NAME = "name"
FOUND_BY_PART = "part of the name"
FOUND_BY_TEXT = "the turns that say it (no entity has that name)"
SITE = "site"  # WORKS_AT props.as of a client's place of work (see focus.py)
_QUESTION_END = re.compile(r"[?？]\s*$")
_TOLD_SENTENCE_END = re.compile(r"(?<=[。！!；;])|(?<=\.)\s")
_CJK_WORD = re.compile(r"[\u4e00-\u9fff]+")
MAX_REVISION_HOPS = 4  # SUPERSEDES links followed out of the story (a value changed four times)
RESTATEMENT_WINDOW = timedelta(minutes=15)  # a turn and the reply that restates its value
# An untied person named in at least this share of their events inside an entity's own events is
# one of its people (a colleague of ours is named across every client's threads).
ASSOCIATE_MIN_SHARE = 0.5
ASSOCIATE_MIN_EVENTS = 2  # once beside the client is no pattern ("辛苦了阿凯" after its news)
# The path of an event said between two of the story's events with no other party in between.
BETWEEN_PATH = "BETWEEN two events of the story, no other party named in between"


@dataclass
class Story:
    """An entity's story: its names, people, suppliers, events (as hits) and value chains."""

    entity: Entity
    aliases: list[str] = field(default_factory=list)
    people: list[str] = field(default_factory=list)
    suppliers: list[str] = field(default_factory=list)
    sites: list[str] = field(default_factory=list)  # places of work named as the entity's
    hits: list[Hit] = field(default_factory=list)
    # SUPERSEDES chains among the story's events: event ids, oldest value first, the last current.
    chains: list[list[str]] = field(default_factory=list)
    # How the name asked for was read: an entity's name or alias, a part of the name that is one
    # ("part of the name 'Lamplight'"), or no entity at all (the turns that say it, and their threads).
    found_by: str = "name"

    def as_dict(self) -> dict[str, Any]:
        return {
            "entity": self.entity.name,
            "type": self.entity.type,
            "aliases": self.aliases,
            "people": self.people,
            "suppliers": self.suppliers,
            "sites": self.sites,
            "events": [h.public_dict() for h in self.hits],
            "chains": self.chains,
            "found_by": self.found_by,
        }


def entity_story(
    store: GraphStore,
    namespace: str,
    name: str,
    *,
    statuses: list[str] | None,
    date_from: date | None = None,
    date_to: date | None = None,
) -> Story:
    """The story of the entity called `name` (canonical name or any alias).

    Raises:
        NotFoundError: no entity has that name in the namespace.
    """
    name = name.strip()
    window = RecallFilter(statuses, date_from, date_to)
    matches = store.entities(namespace, EntityQuery(name=name))
    found_by = FOUND_BY_NAME
    said: dict[str, Event] = {}
    if not matches:
        # No entity has the name as typed: the entity a part of it names, and the turns that say it.
        matches, form = entities_for_typed_name(store, namespace, name)
        found_by = f"{FOUND_BY_PART} {form!r}" if matches else FOUND_BY_TEXT
        said = events_saying(store, namespace, name, window)
        if not matches and not said:
            raise NotFoundError(f"timeline: no entity named {name!r} in namespace {namespace!r}")
    if matches:
        entity = _canonical(store, namespace, matches[0])
        group = {entity.id} | {
            lk.source
            for lk in store.links(namespace, kinds=[LinkKind.ALIAS_OF], node_ids=[entity.id])
            if lk.target == entity.id
        }
    else:  # a name only the raw log holds: its story is what the turns that say it lead to
        entity, group = Entity(id="", namespace=namespace, name=name, type="other"), set()
    ties = [
        lk
        for lk in (store.links(namespace, kinds=[LinkKind.WORKS_AT], node_ids=sorted(group)) if group else [])
        if lk.target in group and lk.source not in group
    ]
    # A tie made to a form before it was known as someone's alias (Fi, Fiona) holds for that someone.
    sources = sorted({lk.source for lk in ties})
    canonical = {
        lk.source: lk.target
        for lk in store.links(namespace, kinds=[LinkKind.ALIAS_OF], node_ids=sources)
        if lk.source in sources
    }
    people = sorted(
        {canonical.get(lk.source, lk.source) for lk in ties if lk.props.get("as") not in (SUPPLIER, SITE)}
    )
    sites = sorted({canonical.get(lk.source, lk.source) for lk in ties if lk.props.get("as") == SITE})
    # A site stands for its client as a supplier does: its events are the client's unless they are
    # another party's.
    suppliers = sorted({canonical.get(lk.source, lk.source) for lk in ties if lk.props.get("as") == SUPPLIER})
    # A supplier's own people ("AquaTrace guy is Lachie"): what they do for the client is its story.
    at_supplier = {
        lk.source: lk.target
        for lk in store.links(namespace, kinds=[LinkKind.WORKS_AT], node_ids=suppliers)
        if lk.target in suppliers and lk.props.get("as") not in (SUPPLIER, SITE) and lk.source not in group
    }
    at_supplier = {p: s for p, s in at_supplier.items() if p not in people}
    suppliers += sites
    events = (
        {e.id: e for e in store.events(namespace, EventQuery(entity_ids=[entity.id], filter=window))}
        if group
        else {}
    )
    # An event that names the entity only as what another firm is not ("跟QL不是一家") is not its own.
    roles: dict[str, set[str]] = defaultdict(set)
    for link in store.links(namespace, kinds=[LinkKind.MENTIONS], node_ids=sorted(events)):
        if link.source in events and link.target in group:
            roles[link.source].add(link.props.get("role", ""))
    contrast_only = {i for i in events if roles.get(i) == {CONTRAST_ROLE}}
    events = {i: e for i, e in events.items() if i not in contrast_only}
    events.update({i: e for i, e in said.items() if i not in events})
    storylines = store.events(
        namespace, EventQuery(entity_ids=people + suppliers + sorted(at_supplier), filter=window)
    )
    related = [e for e in storylines if e.id not in events]
    every = {**events, **{e.id: e for e in related}}
    associates, associated = _associates(
        store, namespace, events, group, set(people) | set(suppliers), window
    )
    every.update({e.id: e for e in associated if e.id not in every})
    revisions = _revisions(store, namespace, set(events), statuses, date_from, date_to)
    every.update({e.id: e for e in revisions.values() if e.id not in every})
    in_sessions = _session_events(store, namespace, every, statuses, date_from, date_to)
    stated = _stated_before(in_sessions, every)
    every.update({e.id: e for e, _ in stated.values() if e.id not in every})
    # nor is it the story's by a value it shares or a place between two of its turns: it is the
    # other firm's ("蓝湾海鲜酒楼…每周一趟冻品，与澜湾无关" revises no count of 澜湾's)
    every = {i: e for i, e in every.items() if i not in contrast_only}
    mentions: dict[str, dict[str, dict]] = defaultdict(dict)
    for link in store.links(namespace, kinds=[LinkKind.MENTIONS], node_ids=sorted(every)):
        if link.source in every:
            mentions[link.source][link.target] = dict(link.props)
    others = {t for m in mentions.values() for t in m} - group - set(people) - set(suppliers)
    others -= set(at_supplier)
    parties = {  # organisations with people of their own: another client when named
        lk.target
        for lk in store.links(namespace, kinds=[LinkKind.WORKS_AT], node_ids=sorted(others))
        if lk.target in others and lk.props.get("as") != SUPPLIER
    }
    label = _labels(mentions)
    hits: list[Hit] = []
    client = entity.name
    for event in sorted(every.values(), key=lambda e: (e.time, e.source_ids[:1], e.clause, e.id)):
        if _bare_question(event):
            continue
        path = _path(event, mentions[event.id], entity, group, people, suppliers, parties, label, sites)
        if not path and event.id in said:
            path = [f"SAYS {name!r}"]
        if not path and not _belongs_elsewhere(mentions[event.id], group, suppliers, parties):
            path = next(
                (
                    [f"MENTIONS {label.get(p, p)}", f"WORKS_AT {label.get(f, f)}", f"SUPPLIER OF {client}"]
                    for p, f in at_supplier.items()
                    if p in mentions[event.id]
                ),
                [],
            )
        elsewhere = _belongs_elsewhere(mentions[event.id], group, suppliers, parties)
        if not path and not elsewhere and not _names_another_org(event, entity, suppliers, label):
            path = next(
                (
                    [f"MENTIONS {label.get(p, p)}", f"MOSTLY IN {entity.name}'s story ({share})"]
                    for p, share in associates.items()
                    if p in mentions[event.id]
                ),
                [],
            )
        if not path and not elsewhere:
            if event.id in revisions:
                path = [f"REVISES a value of {entity.name}'s story"]
            elif event.id in stated:
                path = [f"SAME VALUE AS {stated[event.id][1]}"]
        if path:
            hits.append(Hit(event=event, score=1.0, path=path))
    own = group | set(people) | set(suppliers) | set(at_supplier)
    hits += _on_the_thread(store, namespace, in_sessions, hits, set(every) | contrast_only, own)
    own_names = {n.casefold() for n in (entity.name, *entity.aliases)} | {
        label.get(i, i).casefold() for i in own - group
    }
    hits += _between_story_turns(in_sessions, hits, set(every) | contrast_only, own_names)
    hits.sort(key=lambda h: (h.event.time, h.event.source_ids[:1], h.event.clause, h.event.id))
    chains = _chains(store, namespace, [h.event for h in hits])
    _mark_chains(hits, chains)
    return Story(
        entity=entity,
        aliases=list(entity.aliases),
        people=[label.get(p, p) for p in people],
        suppliers=[label.get(s, s) for s in suppliers if s not in sites],
        sites=[label.get(s, s) for s in sites],
        hits=hits,
        chains=chains,
        found_by=found_by,
    )


def _associates(
    store: GraphStore,
    namespace: str,
    events: dict[str, Event],
    group: set[str],
    tied: set[str],
    window: RecallFilter,
) -> tuple[dict[str, str], list[Event]]:
    """People no text tied to anyone who are named mostly inside the entity's own events: the
    client's staff called by a first name that no "their…" introduced ("Bev", "思琪"). Such a
    person's other events join the story; our own colleagues, named in every client's thread, and
    anyone tied elsewhere do not. Person id -> "k of n events", and their events outside `events`."""
    names = sorted(
        {
            p.name
            for e in events.values()
            for p in e.participants
            if p.type == "person" and p.role != "speaker"
        }
    )
    if not names:
        return {}, []
    found = store.entities(namespace, EntitiesNamed(names=names))
    candidates = sorted({e.id for es in found.values() for e in es if e.type == "person"} - group - tied)
    if not candidates:
        return {}, []
    working = {lk.source for lk in store.links(namespace, kinds=[LinkKind.WORKS_AT], node_ids=candidates)}
    named_in: dict[str, set[str]] = defaultdict(set)
    for link in store.links(namespace, kinds=[LinkKind.MENTIONS], node_ids=candidates):
        if link.target in candidates and link.props.get("role") != "speaker":
            named_in[link.target].add(link.source)
    own_events = set(events)
    shares: dict[str, str] = {}
    outside: set[str] = set()
    for person, event_ids in named_in.items():
        inside = event_ids & own_events
        if (
            person in working
            or len(inside) < ASSOCIATE_MIN_EVENTS
            or len(inside) < ASSOCIATE_MIN_SHARE * len(event_ids)
        ):
            continue
        shares[person] = f"{len(inside)} of {len(event_ids)} events"
        outside |= event_ids - own_events
    more = store.events(namespace, EventQuery(ids=sorted(outside), filter=window)) if outside else []
    return shares, more


def _names_another_org(event: Event, entity: Entity, suppliers: list[str], label: dict[str, str]) -> bool:
    """The event names an organisation that is neither the entity nor one of its suppliers: someone
    named there speaks for that one ("Kingsway那边Emma回邮件了")."""
    own = {n.casefold() for n in (entity.name, *entity.aliases)} | {
        label.get(s, s).casefold() for s in suppliers
    }
    return any(p.type == "org" and p.name.casefold() not in own for p in event.participants)


def _canonical(store: GraphStore, namespace: str, entity: Entity) -> Entity:
    """The canonical entity behind an alias entity (ALIAS_OF), else the entity itself. An alias's
    name is filed under its canonical entity too (Entity.aliases), so the same look-up finds it."""
    for _ in range(8):  # alias chains are short; a cycle must not loop forever
        targets = [
            lk.target
            for lk in store.links(namespace, kinds=[LinkKind.ALIAS_OF], node_ids=[entity.id])
            if lk.source == entity.id
        ]
        found = [
            e
            for e in store.entities(namespace, EntityQuery(name=entity.name))
            if targets and e.id == targets[0]
        ]
        if not found:
            return entity
        entity = found[0]
    return entity


def _labels(mentions: dict[str, dict[str, dict]]) -> dict[str, str]:
    """A readable name per entity id, from the surfaces its mentions were written with."""
    labels: dict[str, str] = {}
    for mentioned in mentions.values():
        for target, props in mentioned.items():
            surface = str(props.get("surface") or "")
            if surface and len(surface) > len(labels.get(target, "")):
                labels[target] = surface
    return labels


def _bare_question(event: Event) -> bool:
    """A question that states no value: it asks, it does not tell what happened."""
    if not _QUESTION_END.search(event.text) or event.quantities or event.dates or event.deadline:
        return False
    # "记下了：X（…）——场地照。他们那边谁拍板？": what was told before the closing question stays told
    return len([s for s in _TOLD_SENTENCE_END.split(event.text) if s.strip()]) <= 1


def _path(
    event: Event,
    mentioned: dict[str, dict],
    entity: Entity,
    group: set[str],
    people: list[str],
    suppliers: list[str],
    parties: set[str],
    label: dict[str, str],
    sites: list[str],
) -> list[str]:
    """Why the event is in the story ([] when it belongs to another party's)."""
    own = [t for t in mentioned if t in group and mentioned[t].get("role") != CONTRAST_ROLE]
    if own:
        props = mentioned[own[0]]
        if props.get("role") == "implied":
            return [f"MENTIONS {entity.name} (implied: {props.get('via', '?')})"]
        return [f"MENTIONS {entity.name}"]
    if _belongs_elsewhere(mentioned, group, suppliers, parties):
        return []
    for person in people:
        if person in mentioned:
            return [f"MENTIONS {label.get(person, person)}", f"WORKS_AT {entity.name}"]
    for supplier in suppliers:
        if supplier in mentioned:
            tie = "SITE" if supplier in sites else "SUPPLIER"
            return [f"MENTIONS {label.get(supplier, supplier)}", f"{tie} OF {entity.name}"]
    return []


def _revisions(
    store: GraphStore,
    namespace: str,
    story: set[str],
    statuses: list[str] | None,
    date_from: date | None,
    date_to: date | None,
) -> dict[str, Event]:
    """Events that replace, or were replaced by, a value of the story (SUPERSEDES / CONTRADICTS,
    followed along the chain): a new date for the client's launch is the client's story even when
    the turn names nobody ("上线日期由5月9日提前到5月6日")."""
    found: dict[str, Event] = {}
    frontier = set(story)
    for _ in range(MAX_REVISION_HOPS):
        kinds = [LinkKind.SUPERSEDES, LinkKind.CONTRADICTS]
        links = store.links(namespace, kinds=kinds, node_ids=sorted(frontier)) if frontier else []
        ends = {end for lk in links for end in (lk.source, lk.target)} - story - set(found)
        if not ends:
            break
        fetched = [
            e
            for e in store.events(namespace, EventQuery(ids=sorted(ends)))
            if _in_window(e, statuses, date_from, date_to)
        ]
        found.update((e.id, e) for e in fetched)
        frontier = {e.id for e in fetched}
    return found


def _session_events(
    store: GraphStore,
    namespace: str,
    story: dict[str, Event],
    statuses: list[str] | None,
    date_from: date | None,
    date_to: date | None,
) -> list[Event]:
    """The events of the sessions the story's events are in, inside the window, in the order said
    (one store call, indexed on the sessions)."""
    sessions = sorted({e.session for e in story.values()})
    if not sessions:
        return []
    found = [
        e
        for e in store.events(namespace, EventQuery(sessions=sessions))
        if e.id in story or _in_window(e, statuses, date_from, date_to)
    ]
    return sorted(found, key=lambda e: (e.session, e.time, e.source_ids[:1], e.clause, e.id))


def _stated_before(in_sessions: list[Event], story: dict[str, Event]) -> dict[str, tuple[Event, str]]:
    """Events said just before a story event of the same session that state one of its values:
    "胖哥那边又改了…定5月9号" right before the assistant's "麦野小程序上线由4月25日改为5月9日" is the
    same fact, told first by a turn that names no one. Event id -> (event, the story event)."""
    found: dict[str, tuple[Event, str]] = {}
    for earlier, later in itertools.pairwise(in_sessions):
        if (
            earlier.session == later.session
            and earlier.id not in story
            and later.id in story
            and later.time - earlier.time <= RESTATEMENT_WINDOW
            and _shared_value(earlier, later)
        ):
            found[earlier.id] = (earlier, later.id)
    return found


_LATIN = re.compile(r"[A-Za-z]")


def _nouns(text: str) -> frozenset[str]:
    """The nouns of `text`, lower-cased: what a thread is about ("turf", "尾款", "校庆"), where a
    shared verb or adverb ("goes", "run", "重新") or a character pair is no subject at all. Chinese
    by jieba's dictionary tag (an unknown word of two characters or more is a term of its own: 专票);
    English by the parser, loaded only when a story has such events to read."""
    found = {w for w in tokenize(text) if _CJK_WORD.fullmatch(w) and _zh_noun(w)}
    if _LATIN.search(text):
        from simplemem_graph.compress.names import load_english_pipeline

        found |= {t.lower_ for t in load_english_pipeline()(text) if t.pos_ in ("NOUN", "PROPN")}
    return frozenset(_word_key(w) for w in found)


def _word_key(term: str) -> str:
    """One key for a word's forms a thread repeats: "turf's" and "turf", "lawns" and "lawn"."""
    term = re.sub(r"['’]s$", "", term)
    return term[:-1] if len(term) > 3 and term.endswith("s") and not term.endswith("ss") else term


def _thread_words(event: Event) -> frozenset[str]:
    return frozenset(_word_key(t) for t in terms_without_time(event))


def _zh_noun(word: str) -> bool:
    """A noun by jieba's dictionary; a word it does not list is a term of its own (专票) unless
    it is only listed characters that are no nouns (全是: "all" + "is")."""
    tag = zh_dictionary_tag(word)
    if tag:
        return tag.startswith("n")
    return len(word) >= 2 and not all((t := zh_dictionary_tag(c)) and not t.startswith("n") for c in word)


def _on_the_thread(
    store: GraphStore,
    namespace: str,
    in_sessions: list[Event],
    hits: list[Hit],
    considered: set[str],
    own: set[str],
) -> list[Hit]:
    """Events of the story's sessions that name no party and share a word with the story that no
    other party's event of those sessions uses: "turf's down on the main lawn, 420 m2" in a session
    about the client whose turf it is; "定金到了 20800" does not share one, "34 degrees today" neither.
    `own`: the entity, its aliases, people, suppliers and sites (naming them is no other party)."""
    rest = [e for e in in_sessions if e.id not in considered and not _bare_question(e)]
    if not rest or not hits:
        return []
    ids = sorted({e.id for e in in_sessions})
    named: dict[str, set[str]] = defaultdict(set)
    for link in store.links(namespace, kinds=[LinkKind.MENTIONS], node_ids=ids):
        if link.target not in own and link.props.get("role") != "speaker":
            named[link.source].add(link.target)
    story_ids = {h.event.id for h in hits}
    story_terms = frozenset().union(*(_thread_words(h.event) for h in hits))
    # A word another party's events use too ("quote", "invoice", "报价") tells nothing of whose it is.
    others_terms = frozenset().union(
        *(_thread_words(e) for e in in_sessions if e.id not in story_ids and named.get(e.id))
    )
    distinctive = story_terms - others_terms
    found = []
    for event in rest:
        if named.get(event.id):
            continue
        shared = _thread_words(event) & distinctive
        if shared:  # the parser only for the few events that share a word at all
            shared &= _nouns(event.text)
        if shared:
            path = [f"ON THE THREAD (shares {', '.join(sorted(shared)[:3])})"]
            found.append(Hit(event=event, score=1.0, path=path))
    return found


def _between_story_turns(
    in_sessions: list[Event],
    hits: list[Hit],
    considered: set[str],
    own_names: set[str],
) -> list[Hit]:
    """Events said between two of the story's events in one session, when nothing in between names
    another party: "Fixed fee is £36,000 for the whole thing." after the kickoff and before the
    client's name comes back. A turn that names another party, or one the story already weighed and
    left out as another's, ends the thread there; a bare question tells nothing, and small talk
    (`_about_someone_or_something`) is no part of the thread."""
    story = {h.event.id for h in hits}
    story_terms = frozenset().union(*(_thread_words(h.event) for h in hits))
    found: list[Hit] = []
    for _, events in itertools.groupby(in_sessions, key=lambda e: e.session):
        run: list[Event] = []
        after_story = False
        for event in events:
            if event.id in story:
                if after_story:
                    found += [
                        Hit(event=e, score=1.0, path=[BETWEEN_PATH])
                        for e in run
                        if not _bare_question(e) and _about_someone_or_something(e, story_terms)
                    ]
                run, after_story = [], True
            elif event.id in considered or _another_party(event, own_names):
                run, after_story = [], False
            else:
                run.append(event)
    return found


# Someone or something said before, pointed back at: "he came round later", "found it", "他说…".
_POINTS_AT_SOMEONE = re.compile(
    r"\b(?:he|she|they|them|him|her|his|their|it|its)\b|他|她|它|对方|人家|佢", re.IGNORECASE
)


def _about_someone_or_something(event: Event, story_terms: frozenset[str]) -> bool:
    """Not small talk: the event states a value, points back at someone or something ("he came
    round later, all sorted", "found it."), or shares a noun with the story. "dead tired again,
    need coffee" and "累瘫 明天谁都别找我" between two of the client's turns do none of these."""
    if states_value(event) or _POINTS_AT_SOMEONE.search(event.text):
        return True
    shared = _thread_words(event) & story_terms
    return bool(shared and shared & _nouns(event.text))


def _another_party(event: Event, own_names: set[str]) -> bool:
    """Stage 1 read an organisation or a person in the event that is not of the story. (Not the
    names consolidation linked: a place it took for a firm, "In Nyeri since yesterday", would end
    the client's own thread.)"""
    return any(p.type in ("org", "person") and p.name.casefold() not in own_names for p in event.participants)


def _in_window(
    event: Event, statuses: list[str] | None, date_from: date | None, date_to: date | None
) -> bool:
    day = event.time.date()
    return (
        (statuses is None or event.status in statuses)
        and (date_from is None or day >= date_from)
        and (date_to is None or day <= date_to)
    )


def _shared_value(a: Event, b: Event) -> bool:
    """Both state the same amount, quantity or date (a decision is no value)."""
    values_a, values_b = attribute_values(a), attribute_values(b)
    # a day said as "tomorrow" is no value two turns share ("累瘫 明天谁都别找我")
    values_a["date"] = values_a.get("date", set()) - near_days(a)
    values_b["date"] = values_b.get("date", set()) - near_days(b)
    return any(values_a.get(k, set()) & values_b.get(k, set()) for k in ("money", "quantity", "date"))


def _belongs_elsewhere(
    mentioned: dict[str, dict], group: set[str], suppliers: list[str], parties: set[str]
) -> bool:
    return any(
        (props.get("role") == "implied" and t not in suppliers and t not in group) or t in parties
        for t, props in mentioned.items()
    )


def _chains(store: GraphStore, namespace: str, events: list[Event]) -> list[list[str]]:
    """SUPERSEDES chains among `events`: each a list of event ids, oldest value first."""
    ids = {e.id for e in events}
    newer_of: dict[str, str] = {}
    for link in store.links(namespace, kinds=[LinkKind.SUPERSEDES], node_ids=sorted(ids)):
        if link.source in ids and link.target in ids:
            newer_of.setdefault(link.target, link.source)
    older = set(newer_of.values())
    chains = []
    for start in sorted(set(newer_of) - older, key=lambda i: next(e.time for e in events if e.id == i)):
        chain, seen = [start], {start}
        while chain[-1] in newer_of and newer_of[chain[-1]] not in seen:
            chain.append(newer_of[chain[-1]])
            seen.add(chain[-1])
        chains.append(chain)
    return chains


def _mark_chains(hits: list[Hit], chains: list[list[str]]) -> None:
    """Say in the path which value is current and which one replaced which."""
    by_id = {h.event.id: h for h in hits}
    for chain in chains:
        for older, newer in itertools.pairwise(chain):
            by_id[older].path.append(f"SUPERSEDED BY {newer}")
        last = by_id[chain[-1]]
        if last.event.status != EventStatus.SUPERSEDED:
            last.path.append("CURRENT")
