"""Entity resolution: canonical Entity nodes, aliases, MENTIONS, WORKS_AT and candidate aliases.

Every name an event brings (its speaker, its stage-1 participants, known names and nickname forms
found in its text) is resolved to one canonical entity (id = stable_id("en", namespace, normalised
name)). A different form of a known name becomes an alias (an alias Entity node, an ALIAS_OF link to
the canonical one, the form added to `Entity.aliases`) only on strong evidence:

- an explicit statement in the text ("X（简称Y）", "X（Y总）", "X，大家都叫他Y", "Y总X");
- a distinctive short form of exactly one known name ("Kingsway" of "Kingsway Fasteners", "Emma" of
  "Emma Hale", 锐丰 of 东莞锐丰塑胶制品有限公司);
- a nickname form (老黄, 罗总) whose surname matches exactly one known person, who is also mentioned in
  the same session or works at an organisation the event mentions.

Weaker evidence (a fuzzy spelling, close name embeddings, a surname shared by several people or with
nothing else to back it) never merges: the form stays its own entity with a CANDIDATE_ALIAS link.
"""

from __future__ import annotations

import itertools
import math
import re
import threading
import weakref
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import ahocorasick
import numpy as np
from rapidfuzz import fuzz, process

from simplemem_graph.consolidate.aliases import (
    EN_TITLED_IN_TEXT,
    GENERIC_ORG_WORDS,
    NICKNAME_IN_TEXT,
    ORG_SUFFIX,
    DescriptiveReference,
    ampersand_names,
    brand_shaped,
    find_descriptive_references,
    find_explicit_aliases,
    guess_type,
    initials,
    initials_form,
    introduced_as_org,
    is_abbreviation,
    is_chinese_full_name,
    nickname_surname,
    normalise_name,
    short_forms,
    titled_surname_en,
)
from simplemem_graph.consolidate.calibration import calibration
from simplemem_graph.embedding import Embedder
from simplemem_graph.models import Entity, Event, Link, LinkKind, stable_id
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EntityQuery

# Speakers every namespace has; they are entities, but their names are ordinary words in text.
GENERIC_SPEAKERS = frozenset({"user", "assistant", "system", "agent", "bot", "ai"})
FUZZY_MIN_RATIO = 88.0  # rapidfuzz ratio for a candidate alias (typos, transliterations)
_CLAUSE_STOP = "，,。；;！!？?\n"


def entity_id(namespace: str, name: str) -> str:
    """The id of the entity named `name` (any spelling that normalises the same)."""
    return stable_id("en", namespace, normalise_name(name))


def _compatible(type_a: str, type_b: str) -> bool:
    return type_a == type_b or "other" in (type_a, type_b)


@dataclass
class EntityIndex:
    """The entities of a namespace, by name, with their ALIAS_OF and WORKS_AT links.

    Besides names, `put` files every entity under the keys the resolver's rules look it up by
    (surname, first / last word, character pair...), so a rule reads the few entities its key
    names instead of looping over every entity: resolving a batch costs the same with 100 or 100k
    entities stored (issue 11). A key's bucket may hold more than the rule wants (keys are never
    taken back, a type may change): every caller re-checks its own rule on what a bucket returns.
    Buckets come back ordered by entity id, so a look-up answers the same whatever order the
    entities were added in (a fresh load and a long-lived index agree).
    """

    namespace: str
    entities: dict[str, Entity] = field(default_factory=dict)
    canonical_of: dict[str, str] = field(default_factory=dict)  # alias entity id -> canonical id
    works_at: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    candidate_pairs: set[tuple[str, str]] = field(default_factory=set)
    _by_name: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    _by_key: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    _longest: int = 0  # the longest normalised canonical name: bounds the substrings worth looking up
    # Bumped by every `put` (make_alias re-puts both entities): caches of derived name lists key on it.
    version: int = 0
    _known: tuple[int, list[tuple[str, str, str]]] = (-1, [])
    _names: GrowingAutomaton = field(default_factory=lambda: GrowingAutomaton())
    _shorts: GrowingAutomaton = field(default_factory=lambda: GrowingAutomaton())
    _look_alikes: LookAlikes | None = None
    # The store's entity revision this index is current at (None: unknown, never kept).
    revision: int | None = None

    @classmethod
    def load(cls, store: GraphStore, namespace: str) -> EntityIndex:
        """Read every entity and its alias / employer / candidate links from the store."""
        index = cls(namespace)
        for entity in store.entities(namespace, EntityQuery()):
            index.put(entity)
        kinds = [LinkKind.ALIAS_OF, LinkKind.WORKS_AT, LinkKind.CANDIDATE_ALIAS]
        for link in store.links(namespace, kinds=kinds):
            if link.kind == LinkKind.ALIAS_OF:
                index.canonical_of[link.source] = link.target
            elif link.kind == LinkKind.WORKS_AT:
                index.works_at[link.source].add(link.target)
            else:
                index.candidate_pairs.add((link.source, link.target))
        # A tie made while a form was its own entity holds for the entity it turned out to be.
        for source in [s for s in index.works_at if s in index.canonical_of]:
            index.works_at[index.canonical(source)] |= index.works_at[source]
        return index

    def put(self, entity: Entity) -> None:
        self.version += 1
        self.entities[entity.id] = entity
        for name in (entity.name, *entity.aliases):
            self._by_name[normalise_name(name)].add(entity.id)
            self._names.add(name.lower(), (name, entity.id))
        for key in _lookup_keys(entity.name):
            self._by_key[key].add(entity.id)
        self._longest = max(self._longest, len(normalise_name(entity.name)))
        # Short forms by shape depend on the type, which may still change (an "other" becomes a
        # person): filed under both types that have short forms; `short_forms_in` re-checks.
        for short in {*short_forms(entity.name, "org"), *short_forms(entity.name, "person")}:
            self._shorts.add(short.lower(), (short, entity.id))

    def canonical(self, entity_id_: str) -> str:
        seen = set()
        while entity_id_ in self.canonical_of and entity_id_ not in seen:
            seen.add(entity_id_)
            entity_id_ = self.canonical_of[entity_id_]
        return entity_id_

    def lookup(self, name: str) -> list[str]:
        """Canonical ids of the entities called `name` (by canonical name or alias)."""
        return sorted({self.canonical(i) for i in self._by_name.get(normalise_name(name), ())})

    def canonical_entities(self) -> list[Entity]:
        return [e for i, e in self.entities.items() if i not in self.canonical_of]

    def filed_under(self, *keys: str) -> list[Entity]:
        """Canonical entities filed under any of `keys` (see `_lookup_keys`), by id."""
        ids = set().union(*(self._by_key.get(key, ()) for key in keys))
        return [self.entities[i] for i in sorted(ids) if i not in self.canonical_of]

    def named(self, normalised: str) -> list[Entity]:
        """Canonical entities whose own (canonical) name normalises to `normalised`, by id."""
        return [
            self.entities[i]
            for i in sorted(self._by_name.get(normalised, ()))
            if i not in self.canonical_of and normalise_name(self.entities[i].name) == normalised
        ]

    def persons_with_surname(self, surname: str) -> list[Entity]:
        return [
            e
            for e in self.filed_under(f"surname:{surname}")
            if e.type == "person" and is_chinese_full_name(e.name) and e.name[0] == surname
        ]

    def containing(self, fragment: str) -> list[Entity]:
        """Canonical entities whose normalised name may contain the normalised `fragment`: a
        superset (by its first character pair, or its first word for one Latin word)."""
        key = normalise_name(fragment)
        if len(key) < 2:
            return self.canonical_entities()
        return self.filed_under(f"pair:{key[:2]}")

    def abbreviations_of(self, name: str) -> list[Entity]:
        """Canonical entities whose name `is_abbreviation` may hold of `name`: its initial words,
        or (Chinese) any run of its characters, found by looking the runs up by name."""
        key = normalise_name(name)
        runs = {
            key[start:end]
            for start in range(len(key))
            for end in range(start + 2, min(len(key), start + self._longest) + 1)
        }
        words = key.split()
        runs |= {" ".join(words[:n]) for n in range(1, len(words))}
        found = {e.id: e for run in runs for e in self.named(run)}
        return [found[i] for i in sorted(found)]

    def longer_names_of(self, short: str) -> list[Entity]:
        """Canonical entities `short` may be an abbreviation of (a superset; see `is_abbreviation`)."""
        key = normalise_name(short)
        if initials_form(short):
            return self.filed_under(f"first:{key}", f"initials:{initials_form(short)}")
        if key.isascii() and key:
            return self.filed_under(f"first:{key.split()[0]}")
        return self.containing(key)

    def initials_in(self, text: str) -> list[tuple[str, str]]:
        """(form, owner id) for every word of `text` written as initials (HDG) that are the
        capitals of exactly one known organisation's name and name nothing else. A person's
        initials are not read this way: two capitals match too many people."""
        found = []
        for form in dict.fromkeys(_CAPITALS_WORD.findall(text)):
            letters = initials_form(form)
            owners = [e for e in self.filed_under(f"initials:{letters}") if e.type in ("org", "other")]
            if letters and len(owners) == 1 and not self.lookup(form):
                found.append((form, owners[0].id))
        return found

    def known_names(self) -> list[tuple[str, str, str]]:
        """(name, type, canonical id) for every canonical name and alias, generic speakers left out."""
        if self._known[0] == self.version:
            return self._known[1]
        rows = []
        for entity in self.canonical_entities():
            for name in (entity.name, *entity.aliases):
                if _is_known_name(name):
                    rows.append((name, entity.type, entity.id))
        self._known = (self.version, rows)
        return rows

    def names_in(self, text: str) -> list[tuple[str, str]]:
        """(name, canonical id) of every known name (as `known_names`) occurring in `text`
        (`name_occurs`), in `known_names` order, by one pass of an automaton that grows with the
        index instead of being rebuilt for every new name."""
        hits = set()
        for name, entity_id in self._names.candidates(text):
            entity = self.entities[entity_id]
            if entity_id in self.canonical_of or name not in (entity.name, *entity.aliases):
                continue  # an alias entity's names are found through its canonical entity
            if _is_known_name(name) and name_occurs(name, text):
                hits.add((entity_id, (entity.name, *entity.aliases).index(name), name))
        return [(name, entity_id) for entity_id, _position, name in sorted(hits)]

    def look_alikes(self) -> LookAlikes:
        """The fuzzy / embedding matcher over this index's names (grows with the index)."""
        if self._look_alikes is None:
            self._look_alikes = LookAlikes(self)
        return self._look_alikes

    def org_names_in(self, text: str) -> list[tuple[str, str]]:
        """(name, canonical id) of organisations named in `text` by a known name or alias or by any
        of their short forms (恒通 of 苏州市恒通…有限公司), shared or not."""
        found = [(name, i) for name, i in self.names_in(text) if self.entities[i].type == "org"]
        for short, entity_id in self._shorts.candidates(text):
            entity = self.entities[entity_id]
            if (
                entity_id not in self.canonical_of
                and entity.type == "org"
                and short in short_forms(entity.name, "org")
                and name_occurs(short, text)
            ):
                found.append((short, entity_id))
        return found

    def short_forms_in(self, text: str) -> list[tuple[str, str]]:
        """(short form, owner id) for every short form whose letters occur in `text` and that
        belongs to exactly one canonical entity and names nothing else (see `short_forms`)."""
        owners: dict[str, set[str]] = defaultdict(set)
        for short, entity_id in self._shorts.candidates(text):
            entity = self.entities[entity_id]
            if entity_id not in self.canonical_of and short in short_forms(entity.name, entity.type):
                owners[short].add(entity_id)
        return sorted(
            (short, next(iter(ids)))
            for short, ids in owners.items()
            if len(ids) == 1 and not self.lookup(short)
        )


# A word in capitals only, standing alone ("HDG pulled go-live", "at H.D.G."), not inside a word.
_CAPITALS_WORD = re.compile(r"(?<![\w.&])[A-Z](?:\.?[A-Z]){1,5}\.?(?![\w&])")


def _is_known_name(name: str) -> bool:
    return normalise_name(name) not in GENERIC_SPEAKERS and len(name.strip()) >= 2


def _lookup_keys(name: str) -> set[str]:
    """The keys an entity is filed under by its (canonical) name, one per look-up rule: Chinese
    surname and nickname surname, raw first / last word and 3-letter prefix of Latin names, the
    normalised first word, and every character pair of the normalised name."""
    name = name.strip()
    key = normalise_name(name)
    keys = {f"pair:{key[i : i + 2]}" for i in range(len(key) - 1)}
    if key:
        keys.add(f"first:{key.split()[0]}")
    if is_chinese_full_name(name):
        keys.add(f"surname:{name[0]}")
    surname = nickname_surname(name)
    if surname:
        keys.add(f"nick:{surname}")
    words = name.split()
    if initials(name):
        keys.add(f"initials:{initials(name)}")
    if name.isascii() and len(words) >= 2:
        keys |= {f"word0:{words[0]}", f"word-1:{words[-1]}", f"prefix:{words[0][:3]}"}
    elif name.isascii() and len(words) == 1:
        keys.add(f"prefix:{name[:3]}")
    return keys


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
            self._built = _automaton(self._payloads)
            self._built_keys = len(self._payloads)
            self._recent = set()
            self._recent_automaton = None
        if self._recent and self._recent_automaton is None:
            self._recent_automaton = _automaton(self._recent)
        lowered = text.lower()
        keys = {
            key
            for automaton in (self._built, self._recent_automaton)
            if automaton is not None
            for _end, key in automaton.iter(lowered)
        }
        return [payload for key in sorted(keys) for payload in self._payloads[key]]


def _automaton(keys) -> ahocorasick.Automaton | None:
    if not keys:
        return None
    automaton = ahocorasick.Automaton()
    for key in keys:
        automaton.add_word(key, key)
    automaton.make_automaton()
    return automaton


# Indexes kept between batches, per store and namespace (see `entity_index`); a few namespaces per
# store, so a server with many tenants keeps the busiest ones, not all.
_KEPT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()
KEPT_NAMESPACES = 16


def entity_index(store: GraphStore, namespace: str) -> EntityIndex:
    """The namespace's EntityIndex: the one kept from the last batch while the store's entity
    revision says nothing changed since (any writer, any path), else read from the store.

    The kept index is handed out once: a caller that fails, or computes without writing, simply
    does not give it back (`keep_entity_index`), and the next batch reads the store."""
    revision = store.entity_revision(namespace)  # read before loading: a later change shows
    with _KEPT_LOCK:
        kept = _KEPT.get(store, {}).pop(namespace, None)
    if revision is not None and kept is not None and kept.revision == revision:
        return kept
    index = EntityIndex.load(store, namespace)
    index.revision = revision
    return index


def keep_entity_index(store: GraphStore, index: EntityIndex, revision: int | None) -> None:
    """Keep `index` for the next batch: `revision` is what `apply_delta` returned, the store's
    revision after writing the delta computed with this index (None: someone else wrote too)."""
    if revision is None:
        return
    index.revision = revision
    with _KEPT_LOCK:
        kept = _KEPT.setdefault(store, {})
        kept.pop(index.namespace, None)
        kept[index.namespace] = index
        while len(kept) > KEPT_NAMESPACES:
            kept.pop(next(iter(kept)))


@dataclass
class EntityResolution:
    """What resolving one batch produced, for the caller to write."""

    mentions: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)  # event -> entity -> props
    changed: dict[str, Entity] = field(default_factory=dict)  # entities to upsert
    links: list[Link] = field(default_factory=list)
    repoint: list[tuple[str, str]] = field(default_factory=list)  # (old entity, canonical): move MENTIONS
    counts: Counter = field(default_factory=Counter)


class EntityResolver:
    """Resolves the names of a batch of events against an EntityIndex (updated as it goes).

    Args:
        index: the namespace's entities (EntityIndex.load).
        session_entities: canonical entity ids already mentioned per session (evidence for nicknames).
        embedder: embeds new entity names (for Entity.embedding and candidate matching); optional.
        name_vectors: a cache of names already embedded (by the same model): names found there
            are not encoded again; the ones this resolver encodes are added to it.
        profiles: texts of recent events that mention each organisation, besides the batch's own
            (what it makes or does); default: the batch's only.
    """

    def __init__(
        self,
        index: EntityIndex,
        *,
        session_entities: dict[str, set[str]] | None = None,
        embedder: Embedder | None = None,
        name_vectors: dict[str, list[float]] | None = None,
        profiles: dict[str, list[str]] | None = None,
    ):
        self.index = index
        self.session_entities: dict[str, set[str]] = defaultdict(set, session_entities or {})
        self.embedder = embedder
        self.result = EntityResolution()
        self._vector_cache: dict[str, list[float]] = name_vectors if name_vectors is not None else {}
        self._name_vectors: dict[str, list[float]] = {}  # the batch's new participant names
        # Texts of the events that mention each organisation (this batch): what it makes or does,
        # for descriptions such as "那个做紧固件的客户".
        self._profiles: dict[str, list[str]] = defaultdict(
            list, {k: list(v) for k, v in (profiles or {}).items()}
        )

    # ---- public ---------------------------------------------------------------------------------
    def resolve(self, events: Sequence[Event], turn_texts: dict[str, str]) -> EntityResolution:
        """Resolve every name of `events`; `turn_texts` maps source turn ids to their raw text."""
        self._embed_new_names(events)
        for event in events:
            self._resolve_event(event, turn_texts)
        return self.result

    def make_alias(
        self, alias_name: str, canonical_id: str, reason: str, *, confidence: float = 1.0, evidence: str = ""
    ) -> bool:
        """Record `alias_name` as an alias of `canonical_id`; False when it names another entity.

        The ALIAS_OF link keeps `reason`, a `confidence` (1.0: the text states it; lower: inferred
        from structure) and the `evidence` (the words that support it)."""
        canonical = self.index.entities[canonical_id]
        alias_id = entity_id(self.index.namespace, alias_name)
        if self.index.canonical(alias_id) == canonical_id:
            return True
        if any(owner not in (alias_id, canonical_id) for owner in self.index.lookup(alias_name)):
            return False  # the form already names someone else: never steal it
        if alias_id in self.index.entities:  # the form was its own entity: its events move over
            self.result.repoint.append((alias_id, canonical_id))
            # ...and so does where it works (Fi tied to A&R before Fi was known as Fiona Aldous).
            for employer in self.index.works_at.get(alias_id, set()):
                self.index.works_at[canonical_id].add(employer)
            for extra in self.index.entities[alias_id].aliases:
                if extra not in canonical.aliases:
                    canonical.aliases.append(extra)
        alias_entity = Entity(
            id=alias_id, namespace=self.index.namespace, name=alias_name, type=canonical.type
        )
        if alias_name not in canonical.aliases and normalise_name(alias_name) != normalise_name(
            canonical.name
        ):
            canonical.aliases.append(alias_name)
        self.index.canonical_of[alias_id] = canonical_id
        self.index.put(alias_entity)
        self.index.put(canonical)
        self.result.changed[alias_id] = alias_entity
        self.result.changed[canonical_id] = canonical
        self.result.links.append(
            self._link(
                LinkKind.ALIAS_OF,
                alias_id,
                canonical_id,
                reason=reason,
                confidence=confidence,
                evidence=evidence or f"{alias_name} -> {canonical.name}",
            )
        )
        self.result.counts["aliases"] += 1
        return True

    # ---- one event --------------------------------------------------------------------------------
    def _resolve_event(self, event: Event, turn_texts: dict[str, str]) -> None:
        texts = [event.text, *(turn_texts[s] for s in event.source_ids if s in turn_texts)]
        participants = [(p.name, p.type) for p in event.participants]
        for text in dict.fromkeys(texts):
            # Only the known names that occur in this text can stand before an alias statement:
            # found by the automaton, not by trying every name of the store against the text.
            here = [(n, self.index.entities[i].type) for n, i in self.index.names_in(text)]
            for evidence in find_explicit_aliases(text, here + participants):
                full_id = self._ensure(evidence.full, evidence.type)
                self.make_alias(evidence.alias, full_id, evidence.reason)
            self._ampersand_firms(text)

        mentions: dict[str, dict[str, str]] = {}
        surfaces: dict[str, set[str]] = defaultdict(set)

        def mention(canonical_id: str, role: str, surface: str) -> None:
            if canonical_id not in mentions or mentions[canonical_id]["role"] == "mention":
                mentions[canonical_id] = {"role": role, "surface": surface}
            surfaces[canonical_id].add(surface)

        if normalise_name(event.speaker) not in GENERIC_SPEAKERS:  # a role label ("user") names no one
            mention(self._ensure(event.speaker, "person"), "speaker", event.speaker)
        orgs_here = set()
        found_here = self.index.names_in(event.text)
        for name, type_, role in _joined_participants(event):
            name = _known_extension(name, type_, event.text, found_here, self.index)
            if type_ == "person" and (brand_shaped(name) or any(introduced_as_org(name, t) for t in texts)):
                type_ = "org"  # stage 1 read a firm's name as a person's (麦 is a surname too)
            mention(self._resolve_name(name, type_, event, orgs_here), role, name)
        for name, canonical_id in found_here:
            mention(canonical_id, "mention", name)
        for short, canonical_id in self._short_forms_in(event.text):
            if self.make_alias(
                short, canonical_id, "short-name", confidence=0.9, evidence=f"short form used: {event.text}"
            ):
                mention(canonical_id, "mention", short)
        for form, canonical_id in self.index.initials_in(event.text):
            if self.make_alias(
                form, canonical_id, "initials", confidence=0.8, evidence=f"initials used: {event.text}"
            ):
                mention(canonical_id, "mention", form)
        for reference in find_descriptive_references(event.text):
            resolved = self._resolve_reference(reference)
            if resolved is not None:
                mention(resolved, "reference", reference.surface)
        orgs_here |= {i for i in mentions if self.index.entities[i].type == "org"}
        for match in NICKNAME_IN_TEXT.finditer(event.text):
            surname = nickname_surname(match.group())
            if surname and not self.index.lookup(match.group()) and self.index.persons_with_surname(surname):
                mention(
                    self._resolve_name(match.group(), "person", event, orgs_here), "mention", match.group()
                )
        for match in EN_TITLED_IN_TEXT.finditer(event.text):
            if self._persons_with_last_name(titled_surname_en(match.group()) or ""):
                mention(
                    self._resolve_name(match.group(), "person", event, orgs_here), "mention", match.group()
                )
        for canonical_id in mentions:
            if self.index.entities[canonical_id].type == "org":
                self._profiles[canonical_id].append(event.text)
        self._link_employers(event.text, mentions, surfaces)
        self.result.mentions[event.id] = mentions
        self.session_entities[event.session].update(mentions)

    def _ampersand_firms(self, text: str) -> None:
        """A firm written with "&" is an organisation with its initials and its two joined words
        as aliases, even when stage 1 kept only its initials ("A&R") or dropped the clause: the
        raw turn names it, and later turns use any of the forms."""
        for full, forms in ampersand_names(text):
            hits = [h for h in self.index.lookup(full) if self.index.entities[h].type in ("org", "other")]
            full_id = hits[0] if hits else self._ensure(full, "org")
            entity = self.index.entities[full_id]
            if entity.type != "org":
                entity.type = "org"
                self.result.changed[full_id] = entity
            for form in forms:
                self.make_alias(form, full_id, "initials", confidence=0.9, evidence=f"{form} of {full}")

    def _resolve_name(self, name: str, type_: str, event: Event, orgs_here: set[str]) -> str:
        """The canonical id for a name found in `event`, creating entities and aliases as evidence allows."""
        type_ = type_ if type_ in ("person", "org", "place", "product") else guess_type(name)
        hits = self.index.lookup(name)
        if hits:
            typed = [h for h in hits if self.index.entities[h].type == type_]
            return (typed or hits)[0]
        surname = nickname_surname(name)
        if surname and type_ in ("person", "other"):
            people = self.index.persons_with_surname(surname)
            return self._by_surname(name, surname, people, event, orgs_here)
        last = titled_surname_en(name)
        if last and type_ in ("person", "other"):
            return self._by_surname(name, last, self._persons_with_last_name(last), event, orgs_here)
        words = name.split()
        if type_ == "person" and name.isascii() and len(words) == 2:
            # "Bye Caroline", "Yep Jon": a word stuck to a known one-word name is not a new person
            # (a known first name is not anyone's surname here); the mention is the known person.
            known = [e.id for e in self.index.named(normalise_name(words[1])) if e.type == "person"]
            known = [i for i in known if self.index.entities[i].name == words[1]]
            if len(known) == 1:
                return known[0]
        if name.isascii() and " " not in name.strip():
            # One capitalised word: stage 1's type is a guess ("Marrian says..." looks like a
            # person), so the word is matched against every known name's first and last word.
            owners = self._single_word_owners(name)
            if len(owners) == 1:
                owner = self.index.entities[owners[0]]
                if owner.type == "org":
                    reason, confidence = "short-name", 0.8
                elif " " in owner.name:
                    reason, confidence = "surname" if owner.name.split()[-1] == name else "first-name", 0.8
                else:
                    reason, confidence = "nickname", 0.6  # a prefix: the weakest structural evidence
                self.make_alias(
                    name, owner.id, reason, confidence=confidence, evidence=f"{name} in: {event.text}"
                )
                return owner.id
            if owners:
                return self._new_with_candidates(name, type_, owners, "short-name")
        if type_ == "org" and not name.isascii():
            trade_owner = self._trade_name_owner(name)
            if trade_owner is not None:
                return trade_owner
        if type_ == "person" and not name.isascii():
            new_id = self._ensure(name, type_)  # 邱敏 is not a short form of 邱敏刚: only nicknames are
            self._adopt_earlier_nicknames(name, new_id, event)
            return new_id
        shorter_of = [
            e
            for e in self.index.longer_names_of(name)
            if _compatible(e.type, type_) and is_abbreviation(name, e.name)
        ]
        if len(shorter_of) == 1:
            self.make_alias(name, shorter_of[0].id, "short-name")
            return shorter_of[0].id
        if shorter_of:
            return self._new_with_candidates(name, type_, [e.id for e in shorter_of], "short-name")
        longer_of = [
            e
            for e in self.index.abbreviations_of(name)
            if _compatible(e.type, type_) and is_abbreviation(e.name, name)
        ]
        new_id = self._ensure(name, type_)
        if len(longer_of) == 1:  # "Acme" was known, now "Acme Corp": the short one becomes the alias
            self.make_alias(longer_of[0].name, new_id, "short-name")
        weak = self.index.look_alikes().find(normalise_name(name), type_, self._name_vectors.get(name))
        self._candidates(new_id, [i for i in weak if i != new_id], "fuzzy")
        return new_id

    def _by_surname(
        self, name: str, surname: str, people: list[Entity], event: Event, orgs_here: set[str]
    ) -> str:
        """A surname form (罗总, 老黄, Ms. Rivera) is the one known person with that surname.

        Backed by the session or an employer: confidence 0.9; the only such person in the namespace,
        nothing else: 0.7. Several people share it: never guessed, a candidate to each.
        """
        if len(people) == 1:
            backed = self._backs_nickname(people[0].id, event, orgs_here)
            self.make_alias(
                name,
                people[0].id,
                "surname+context" if backed else "surname-unique",
                confidence=0.9 if backed else 0.7,
                evidence=f"only known person named {surname}: {people[0].name}",
            )
            return people[0].id
        return self._new_with_candidates(name, "person", [p.id for p in people], "surname")

    def _adopt_earlier_nicknames(self, name: str, person_id: str, event: Event) -> None:
        """叶主任 was met before 叶广: once 叶广 is the only person with surname 叶, the earlier
        nickname entity becomes his alias (its events move over): confidence 0.9 when the session
        mentioned the nickname too, 0.7 on the surname alone."""
        if not is_chinese_full_name(name) or len(self.index.persons_with_surname(name[0])) != 1:
            return
        session = self.session_entities.get(event.session, set())
        for e in self.index.filed_under(f"nick:{name[0]}"):
            if e.id != person_id and e.type in ("person", "other") and nickname_surname(e.name) == name[0]:
                backed = e.id in session
                self.make_alias(
                    e.name,
                    person_id,
                    "surname+context" if backed else "surname-unique",
                    confidence=0.9 if backed else 0.7,
                    evidence=f"only known person named {name[0]}: {name}",
                )

    def _persons_with_last_name(self, last: str) -> list[Entity]:
        """Multi-word names ending in `last`; NER may have typed "Quinn Talrian" a place or "Ravi
        Peldor" an organisation, so a place, an untyped name or an organisation whose name holds no
        organisation word counts too (a title such as "Ms." says it is a person)."""
        found = [
            e
            for e in self.index.filed_under(f"word-1:{last}")
            if (e.type in ("person", "place", "other") or (e.type == "org" and not ORG_SUFFIX.search(e.name)))
            and len(e.name.split()) >= 2
            and e.name.isascii()
            and e.name.split()[-1] == last
        ]
        for e in found:
            if e.type != "person":
                e.type = "person"
                self.result.changed[e.id] = e
        return found

    def _single_word_owners(self, word: str) -> list[str]:
        """Canonical ids a one-word name may stand for: a multi-word name opening with it (orgs,
        people), a person's name ending with it (a surname), or a person's one-word name it
        shortens (Mel, Mell and Caro of Melanie and Caroline: a nickname is a prefix of 3+ letters,
        a doubled last letter allowed)."""
        owners = []
        clipped = re.sub(r"(\w)\1$", r"\1", word)
        keys = (f"word0:{word}", f"word-1:{word}", f"prefix:{clipped[:3]}")
        for e in self.index.filed_under(*keys):
            parts = e.name.split()
            if not e.name.isascii() or not parts:
                continue
            if len(parts) == 1:
                name = parts[0]
                if (
                    e.type == "person"
                    and len(clipped) >= 3
                    and len(name) >= len(clipped) + 2
                    and name.startswith(clipped)
                ):
                    owners.append(e.id)
                continue
            # "Dec" of "Declan Rourke": a clipped first name, as for one-word names above.
            clipped_first = (
                word[:1].isupper()
                and len(clipped) >= 3
                and len(parts[0]) >= len(clipped) + 2
                and parts[0].startswith(clipped)
            )
            if (parts[0] == word and e.type in ("org", "person")) or (
                e.type == "person" and (parts[-1] == word or clipped_first)
            ):
                owners.append(e.id)
        return owners

    def _trade_name_owner(self, name: str) -> str | None:
        """The known organisation a new Chinese name stands for when it is a known trade name and
        a common noun that names no kind of firm ("恒筑项目" once 恒筑建设 is known: the firm's
        project, not a second firm); None when the trade name is another firm's too, or the rest
        is an organisation word of the lexicon (恒达物流 beside 恒达建设 may be a second firm)."""
        if ORG_SUFFIX.search(name):
            return None
        for short in short_forms(name, "org"):
            rest = name[name.find(short) + len(short) :]
            if not name.startswith(short) or not rest or rest in GENERIC_ORG_WORDS:
                continue
            # Once used alone the trade name is an alias of its firm (`lookup`); before, a short form.
            named = self.index.lookup(short) or [o for f, o in self.index.short_forms_in(short) if f == short]
            owners = {o for o in named if self.index.entities[o].type == "org"}
            if len(owners) == 1 and len(named) == 1:
                return owners.pop()
        return None

    def _short_forms_in(self, text: str) -> list[tuple[str, str]]:
        """(short form, canonical id) for trade names / first names of known entities used in `text`.

        A short form counts only when it belongs to exactly one known entity and names nothing else.
        """
        found = []
        for short, owner_id in self.index.short_forms_in(text):
            owner = self.index.entities[owner_id]
            rest = text.replace(owner.name, " ")  # 恒通 inside the full name is not a use of the short form
            if _short_form_occurs(short, rest):
                found.append((short, owner.id))
        return found

    def _resolve_reference(self, reference: DescriptiveReference) -> str | None:
        """The organisation a description points at: the one known org whose name holds its place
        (and its kind words). Several fit: a candidate entity for the description, linked to each."""
        known = self.index.lookup(reference.surface)
        if known:
            return known[0]
        if reference.activity:
            fits = self._orgs_doing(reference.activity)
        else:
            fits = [
                e.id
                for e in self.index.containing(reference.place)
                if e.type == "org"
                and reference.place.casefold() in e.name.casefold()
                and all(word in e.name for word in reference.kind_words.split() if not word.isascii())
            ] or self._orgs_doing(reference.place, by_name=False)
        if len(fits) == 1:
            evidence = reference.place or reference.activity
            made = self.make_alias(
                reference.surface,
                fits[0],
                "description",
                confidence=0.8,
                evidence=f"only organisation known for {evidence!r}",
            )
            return fits[0] if made else None
        if fits:
            self._new_with_candidates(reference.surface, "org", fits, "description")
        return None

    def _orgs_doing(self, activity: str, *, by_name: bool = True) -> list[str]:
        """Organisations whose name names `activity` (紧固件, "castings"); when no name does, those
        whose earlier events name it. A name is the stronger evidence: "Stenmont Cables LLC" makes
        cables, while an event about it may also mention the city it is based in. (by_name=False:
        only the events, for a place no name holds: "麦野烘焙，苏州十一家店" -> "苏州那家".)"""
        key = activity.casefold().rstrip("s")
        named = [e.id for e in self.index.containing(key) if e.type == "org" and key in e.name.casefold()]
        if named and by_name:
            return named
        # Profiles are this batch's texts: only organisations the batch mentioned have one.
        profiled = sorted(i for i in self._profiles if i not in self.index.canonical_of)
        return [
            i
            for i in profiled
            if self.index.entities[i].type == "org"
            and any(key in t.casefold() for t in self._profiles[i])
        ]

    def _backs_nickname(self, person_id: str, event: Event, orgs_here: set[str]) -> bool:
        """Evidence beyond the surname: same session, or an employer the event (or session) mentions."""
        session = self.session_entities.get(event.session, set())
        return person_id in session or bool(self.index.works_at.get(person_id, set()) & (orgs_here | session))

    def _new_with_candidates(self, name: str, type_: str, targets: list[str], reason: str) -> str:
        new_id = self._ensure(name, type_)
        self._candidates(new_id, targets, reason)
        return new_id

    def _candidates(self, source: str, targets: list[str], reason: str) -> None:
        for target in targets:
            if target != source and (source, target) not in self.index.candidate_pairs:
                self.index.candidate_pairs.add((source, target))
                self.result.links.append(self._link(LinkKind.CANDIDATE_ALIAS, source, target, reason=reason))
                self.result.counts["candidate_aliases"] += 1

    def _ensure(self, name: str, type_: str) -> str:
        """The canonical id for an exact (normalised) name, creating the entity if it is new."""
        hits = self.index.lookup(name)
        if hits:
            existing = self.index.entities[hits[0]]
            if existing.type in ("other", "person") and type_ == "org" and existing.type != type_:
                existing.type = type_  # the text showed it is a firm (see _resolve_event)
                self.result.changed[existing.id] = existing
            elif existing.type == "other" and type_ not in ("other", ""):
                existing.type = type_
                self.result.changed[existing.id] = existing
            return hits[0]
        entity = Entity(
            id=entity_id(self.index.namespace, name),
            namespace=self.index.namespace,
            name=name.strip(),
            type=type_ or "other",
            embedding=self._name_vectors.get(name),
        )
        self.index.put(entity)
        self.result.changed[entity.id] = entity
        self.result.counts["entities_new"] += 1
        return entity.id

    def _link_employers(self, text: str, mentions: dict, surfaces: dict[str, set[str]]) -> None:
        """WORKS_AT when the text ties a person to an organisation ("宏达五金的罗志强", "Emma of Acme")."""
        people = [i for i in mentions if self.index.entities[i].type == "person"]
        orgs = [i for i in mentions if self.index.entities[i].type == "org"]
        for person in people:
            for org in orgs:
                if org in self.index.works_at.get(person, set()):
                    continue
                if any(_works_at_phrase(text, o, p) for o in surfaces[org] for p in surfaces[person]):
                    self.index.works_at[person].add(org)
                    self.result.links.append(self._link(LinkKind.WORKS_AT, person, org))
                    self.result.counts["works_at"] += 1

    def _embed_new_names(self, events: Sequence[Event]) -> None:
        names = sorted({p.name for e in events for p in e.participants if not self.index.lookup(p.name)})
        missing = [name for name in names if name not in self._vector_cache]
        if missing and self.embedder is not None:
            self._vector_cache.update(zip(missing, self.embedder.encode(missing).tolist(), strict=True))
        cache = self._vector_cache
        self._name_vectors.update((name, cache[name]) for name in names if name in cache)

    def _link(self, kind: LinkKind, source: str, target: str, **props) -> Link:
        return Link(kind=kind, source=source, target=target, namespace=self.index.namespace, props=props)


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
            and _compatible(type_, self.index.entities[self._ids[i]].type)
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


def _joined_participants(event: Event) -> list[tuple[str, str, str]]:
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


def _known_extension(
    name: str, type_: str, text: str, found: list[tuple[str, str]], index: EntityIndex
) -> str:
    """A name stage 1 cut out of a longer known name is that name: 沈利 of "沈利明说" (明说 read as a
    word) is 沈利明, "Cormar" of "Olive Cormar said" is Olive Cormar, when that known name occurs in
    the text and every occurrence of the cut name lies inside it."""
    if index.lookup(name) or not name.strip():
        return name
    longer = {known for known, _canonical_id in found if len(known) > len(name) and _inside(name, known)}
    if len(longer) != 1:
        return name
    full = next(iter(longer))
    inner = len(re.findall(re.escape(name), full))
    return full if len(re.findall(re.escape(name), text)) == inner * text.count(full) else name


def _inside(name: str, known: str) -> bool:
    """`name` is part of `known`: a run of characters (Chinese) or of whole words (Latin)."""
    if name.isascii():
        return re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", known) is not None
    return name in known


def _short_form_occurs(short: str, text: str) -> bool:
    """A short form in text: Latin ones as a capitalised whole word (Emma, not "emma" or Emmanuel)."""
    if short.isascii():
        return re.search(rf"(?<![A-Za-z0-9]){re.escape(short)}(?![A-Za-z0-9])", text) is not None
    return short in text


class NameFinder:
    """Which of many names occur in a text, by one Aho-Corasick automaton (pyahocorasick) instead of
    one regex per name: the cost of a look-up grows with the text, not with the names known.

    The automaton finds candidates case-insensitively; `name_occurs` (whole words for Latin names)
    decides. Results come in the order of `names`, so callers see what a loop over them would see.
    """

    def __init__(self, names: Sequence[tuple[str, str, str]]):
        self._owners: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
        for position, (name, _type, canonical_id) in enumerate(names):
            self._owners[name.lower()].append((position, name, canonical_id))
        self._automaton = _automaton(self._owners)

    def find(self, text: str) -> list[tuple[str, str]]:
        """(name, canonical id) of every name that occurs in `text` (by `name_occurs`)."""
        return [
            (name, canonical_id) for name, canonical_id in self.candidates(text) if name_occurs(name, text)
        ]

    def candidates(self, text: str) -> list[tuple[str, str]]:
        """(name, canonical id) of every name whose letters occur in `text`, case-insensitively, for
        the caller's own rule to confirm."""
        if not self._owners:
            return []
        hits = {owner for _end, key in self._automaton.iter(text.lower()) for owner in self._owners[key]}
        return [(name, canonical_id) for _position, name, canonical_id in sorted(hits)]


def name_occurs(name: str, text: str) -> bool:
    """`name` appears in `text`; ASCII names only as whole words, in any case (Emma, not Emmanuel;
    Emma说 counts). Plain string search, not one regex per name: with thousands of names known,
    per-name patterns overflow Python's regex cache and every call recompiled its pattern."""
    if not name.isascii():
        return name in text
    key, lowered = name.lower(), text.lower()
    start = lowered.find(key)
    while start >= 0:
        end = start + len(key)
        if not _latin_or_digit(lowered[start - 1 : start]) and not _latin_or_digit(lowered[end : end + 1]):
            return True
        start = lowered.find(key, start + 1)
    return False


def _latin_or_digit(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _works_at_phrase(text: str, org: str, person: str) -> bool:
    org_re, person_re = re.escape(org), re.escape(person)
    chinese = (
        rf"{org_re}(?:那边|这边|方面)?的?[^{_CLAUSE_STOP}\s]{{0,6}}?{person_re}"
        # "锐拓定金已付，他们的跟单钱莉确认了": their <role> <name>, the org named earlier in the sentence
        rf"|{org_re}[^。；;！!？?\n]{{0,30}}?(?:他们|她们|对方)的[^{_CLAUSE_STOP}\s]{{0,4}}?{person_re}"
    )
    english = (
        rf"{person_re},? (?:\w+ ){{0,3}}(?:of|at|from) (?:the )?{org_re}"
        rf"|{org_re}(?:'s|’s) (?:\w+ ){{0,2}}{person_re}"
    )
    return re.search(chinese, text) is not None or re.search(english, text, re.IGNORECASE) is not None
