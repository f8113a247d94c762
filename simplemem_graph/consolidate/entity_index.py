"""The entity index: every known entity of a namespace by name, alias and look-up key, loaded from the
store once and kept between batches while the store's entity revision says nothing changed."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from simplemem_graph.consolidate.aliases import (
    abbreviation_letter_pairs,
    abbreviation_starts,
    best_abbreviated,
    capitals_words,
    initials,
    initials_form,
    is_chinese_full_name,
    nickname_surname,
    normalise_name,
    short_form_letter_pairs,
    short_forms,
    without_legal_form,
)
from simplemem_graph.consolidate.name_matching import (
    GENERIC_SPEAKERS,
    GrowingAutomaton,
    LookAlikes,
    name_occurs,
    outside_longer_names,
)
from simplemem_graph.models import Entity, LinkKind
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EntityQuery
from simplemem_graph.text import is_latin


@dataclass
class EntityIndex:
    """The entities of a namespace, by name, with their ALIAS_OF and WORKS_AT links.

    Besides names, `put` files every entity under the keys the resolver's rules look it up by
    (surname, first / last word, character pair...), so a rule reads the few entities its key
    names instead of looping over every entity: resolving a batch costs the same with 100 or 100k
    entities stored. A key's bucket may hold more than the rule wants (keys are never
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
            return self.filed_under(f"first:{key}", f"initials:{initials_form(short)}", *_abbr_keys(short))
        if is_latin(key) and key:
            return self.filed_under(f"first:{key.split()[0]}")
        return self.filed_under(f"pair:{key[:2]}", *_abbr_keys(short)) if len(key) >= 2 else []

    def abbreviation_candidates(self, short: str) -> list[Entity]:
        """Canonical entities a short form may stand for (`best_abbreviated`): for capitals, those
        filed under one of its letter pairs (PWL: a name opening with P with a later word opening
        with W or L; JC: 锦骋 by its pinyin); for a Chinese short form, those whose name or trade
        name opens with its first character (澄外: 澄...). A superset, by a few key look-ups."""
        keys = _abbr_keys(short)
        return self.filed_under(*keys) if keys else []

    def abbreviated_org(
        self, short: str, *, among: set[str] | None = None, backed: bool = False
    ) -> str | None:
        """The one organisation `short` abbreviates best (see `best_abbreviated`), else None;
        `among`: only these canonical ids count. `backed` (the text introduces the form for one
        of them): any type counts, since what stage 1 typed a person may be a firm, and a
        statement ("we call him JD") may name a person's initials too."""
        # Scored on the name without its legal form (KVO abbreviates Kessler Vaughn Ostrander LLP),
        # and for a Chinese organisation on its name in Latin letters too: KML abbreviates the
        # "Kam Mun Lau Catering Group Limited" of a signature, the English name of 金滿樓飲食集團
        # 有限公司. (Not on other aliases: "IT" is no abbreviation of the "Ileri Trust" of a bank.)
        keys = _abbr_keys(short)
        filed = set().union(*(self._by_key.get(key, ()) for key in keys)) if keys else set()
        candidates = []
        for entity_id_ in sorted(filed):
            owner = self.entities[self.canonical(entity_id_)]
            filed_name = self.entities[entity_id_].name
            if entity_id_ != owner.id and (is_latin(owner.name) or not is_latin(filed_name)):
                continue
            if (backed or owner.type in ("org", "other")) and (among is None or owner.id in among):
                for name in dict.fromkeys((filed_name, owner.name)):
                    candidates.append((without_legal_form(name) or name, owner.id))
        return best_abbreviated(short, candidates, backed=backed)

    def initials_in(self, text: str) -> list[tuple[str, str]]:
        """(form, owner id) for every word of `text` written as initials (HDG, PWL) that name no
        known entity and are the capitals of exactly one known organisation's name or, failing
        that, abbreviate one organisation best (`abbreviated_org`). A person's initials are not
        read this way: two capitals match too many people."""
        found = []
        for form in capitals_words(text):
            letters = initials_form(form)
            if not letters or self.lookup(form):
                continue
            owners = [e for e in self.filed_under(f"initials:{letters}") if e.type in ("org", "other")]
            if len(owners) == 1:
                found.append((form, owners[0].id))
            elif not owners:  # no name has exactly these capitals: the one it abbreviates best
                owner = self.abbreviated_org(form)
                if owner is not None:
                    found.append((form, owner))
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
        return outside_longer_names(
            [(name, entity_id) for entity_id, _position, name in sorted(hits)], text, self.type_of
        )

    def look_alikes(self) -> LookAlikes:
        """The fuzzy / embedding matcher over this index's names (grows with the index)."""
        if self._look_alikes is None:
            self._look_alikes = LookAlikes(self)
        return self._look_alikes

    def type_of(self, entity_id: str) -> str:
        return self.entities[entity_id].type

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
        return outside_longer_names(found, text, self.type_of)

    def short_forms_in(self, text: str) -> list[tuple[str, str]]:
        """(short form, owner id) for every short form whose letters occur in `text` and that
        belongs to exactly one canonical entity and names nothing else (see `short_forms`). The
        short forms of a person's alias are the person's: 以宁 of 周以宁, the Chinese name of a
        signature's "Yining Zhou". (Not an organisation's: its short names are aliases of their
        own, and "刚好" of an alias 刚好数控机床 would take every "刚好" (just) of the chat.)"""
        owners: dict[str, set[str]] = defaultdict(set)
        for short, entity_id in self._shorts.candidates(text):
            entity = self.entities[entity_id]
            if entity_id in self.canonical_of and entity.type != "person":
                continue
            if short in short_forms(entity.name, entity.type):
                owners[short].add(self.canonical(entity_id))
        return sorted(
            (short, next(iter(ids)))
            for short, ids in owners.items()
            if len(ids) == 1 and not self.lookup(short)
        )


def _abbr_keys(short: str) -> list[str]:
    """The keys `abbreviation_candidates` reads for a short form: its letter pairs (a Latin
    short form, see `abbreviation_letter_pairs`) or its first character (a Chinese one)."""
    if initials_form(short):
        return sorted(f"abbr:{pair}" for pair in short_form_letter_pairs(short))
    short = short.strip()
    return [f"abbr-zh:{short[0]}"] if short and "\u4e00" <= short[0] <= "\u9fff" else []


def _is_known_name(name: str) -> bool:
    return normalise_name(name) not in GENERIC_SPEAKERS and len(name.strip()) >= 2


def _lookup_keys(name: str) -> set[str]:
    """The keys an entity is filed under by its (canonical) name, one per look-up rule: Chinese
    surname and nickname surname, raw first / last word and 3-letter prefix of Latin names, the
    normalised first word, every character pair of the normalised name, and the letters and
    characters a short form of it may open with."""
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
    # "KVO" of Kessler Vaughn Ostrander LLP: initials leave the legal form out as often as not
    for form in (name, without_legal_form(name) or ""):
        if initials(form):
            keys.add(f"initials:{initials(form)}")
    # Where a short form of the name may open: its letter pairs (by pinyin for Chinese), and for a
    # Chinese name the characters that open it or its trade name.
    keys |= {f"abbr:{pair}" for pair in abbreviation_letter_pairs(name)}
    if name and "\u4e00" <= name[0] <= "\u9fff":
        keys |= {f"abbr-zh:{name[start]}" for start in abbreviation_starts(name)}
    if is_latin(name) and len(words) >= 2:
        keys |= {f"word0:{words[0]}", f"word-1:{words[-1]}", f"prefix:{words[0][:3]}"}
    elif is_latin(name) and len(words) == 1:
        keys.add(f"prefix:{name[:3]}")
    return keys
