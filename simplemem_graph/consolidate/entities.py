"""Entity resolution: canonical Entity nodes, aliases, MENTIONS, WORKS_AT and candidate aliases.

Every name an event brings (its speaker, its stage-1 participants, known names and nickname forms
found in its text) is resolved to one canonical entity (id = stable_id("en", namespace, normalised
name)). A different form of a known name becomes an alias (an alias Entity node, an ALIAS_OF link to
the canonical one, the form added to `Entity.aliases`) only on strong evidence:

- an explicit statement in the text ("X（简称Y）", "X（Y总）", "X，大家都叫他Y", "Y总X");
- a distinctive short form of exactly one known name ("Kingsway" of "Kingsway Fasteners", "Emma" of
  "Emma Hale", 锐丰 of 东莞锐丰塑胶制品有限公司);
- a nickname form (老黄, 罗总) whose surname matches exactly one known person, who is also mentioned in
  the same session or works at an organisation the event mentions;
- an abbreviation that fits one known organisation best (aliases.best_abbreviated): capitals whose
  letters occur in its name in order, most of them on word starts (PWL of Pellworth Logistics, not
  of Pelworth Removals), the pinyin initials of a Chinese name (CXW of 澄溪外国语学校), a Chinese
  short form in order (澄外); a tie is nobody's;
- a naming statement ("gonna call them RSM", "群里以后就写JC"): the form, and an alternative the
  statement offers ("or the Quarry Rd people"), for the organisation it abbreviates among those the
  turn names, else among those its session named (this settles a tie);
- a description set beside an organisation's name ("X, the cold store out at Daventry", "X，开发区
  那家4S店").

Weaker evidence (a fuzzy spelling, close name embeddings, a surname shared by several people or with
nothing else to back it) never merges: the form stays its own entity with a CANDIDATE_ALIAS link.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from simplemem_graph.consolidate.aliases import (
    EN_TITLED_IN_TEXT,
    GENERIC_ORG_WORDS,
    NICKNAME_IN_TEXT,
    ORG_SUFFIX,
    ZH_THEM,
    DescriptiveReference,
    abbreviation_score,
    ampersand_names,
    appositive_descriptions,
    brand_shaped,
    chinese_name_of_latin_firm,
    find_descriptive_references,
    find_explicit_aliases,
    guess_type,
    initials_form,
    introduced_as_org,
    introduced_forms,
    is_abbreviation,
    is_chinese_full_name,
    is_zh_short_form,
    nickname_surname,
    normalise_name,
    opens_with_initials,
    same_firm_by_legal_form,
    short_forms,
    titled_surname_en,
    without_legal_form,
)
from simplemem_graph.consolidate.entity_index import EntityIndex
from simplemem_graph.consolidate.name_matching import (
    GENERIC_SPEAKERS,
    contrasted,
    entity_id,
    firm_of_branch,
    joined_participants,
    known_extension,
    outside_longer_names,
    short_form_occurs,
    types_compatible,
    works_at_phrase,
)
from simplemem_graph.consolidate.romanisation import romanised_firm_name, surname_spelt
from simplemem_graph.embedding import Embedder
from simplemem_graph.gazetteer import EN_PLACES
from simplemem_graph.lexicon import (
    CONTRAST_ROLE,
    EN_ORG_SUFFIXES,
    EN_STREET_WORDS,
    ZH_DEPARTMENT_WORDS,
    ZH_INDUSTRY_WORDS,
    ZH_ORG_SUFFIXES,
    ZH_SURNAMES,
)
from simplemem_graph.models import Entity, Event, Link, LinkKind
from simplemem_graph.text import is_latin, zh_dictionary_tag

_CJK_NAME = re.compile(r"[\u4e00-\u9fff]+")
# A line of business and a firm's head (药企, 药厂, 车企): a kind of firm, no firm's name
_KIND_OF_FIRM = re.compile(r"[\u4e00-\u9fff][企厂店商]")
_ONE_CHARACTER_SURNAMES = sorted(s for s in ZH_SURNAMES if len(s) == 1)


# "Cheryl Tsang 曾詠琪", "Ken Lo (盧家健)", "沈佳怡 Jiayi Shen": a Latin full name and a Chinese one
# right beside it
_LATIN_NAME = r"[A-Z][a-z]+(?: [A-Z][a-z]+)+"
_ZH_NAME = r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff]{2,3}(?![\u4e00-\u9fff])"
_BILINGUAL_NAME = re.compile(
    rf"(?P<latin>{_LATIN_NAME})\s*[（(]?\s*(?P<zh>{_ZH_NAME})"
    rf"|(?P<zh_first>{_ZH_NAME})\s*[（(]?\s*(?P<latin_after>{_LATIN_NAME})"
)


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
        last_org: dict[str, str] | None = None,
    ):
        self.index = index
        self.session_entities: dict[str, set[str]] = defaultdict(set, session_entities or {})
        # the organisation each session named last: whom "call them the …" names; shared by the
        # resolvers of one pass over the log (`last_org`)
        self._last_org: dict[str, str] = last_org if last_org is not None else {}
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
            self.appositions(text, here + participants)
            self._bilingual_person_names(text, participants)
            self._introduced_forms(text, event)

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
        named: list[tuple[str, str]] = []
        for name, type_, role in joined_participants(event):
            name = known_extension(name, type_, event.text, found_here, self.index)
            name = firm_of_branch(name, event.text, self.index)
            if type_ == "person" and (
                brand_shaped(name)
                or (" " in name and ORG_SUFFIX.search(name))  # "Ribeira Nova Produções"
                or any(introduced_as_org(name, t) for t in texts)
            ):
                type_ = "org"  # stage 1 read a firm's name as a person's (麦 is a surname too)
            elif type_ == "place" and brand_shaped(name) and name not in EN_PLACES:
                type_ = "org"  # "their firewall is NetAsia": a coined word is a brand, not a town
            elif type_ == "org" and (person := self._known_person_before_a_word(name)):
                name, type_ = person, "person"  # 婉婷|传话: someone known, and what they do
            resolved_id = self._resolve_name(name, type_, event, orgs_here)
            mention(resolved_id, role, name)
            named.append((name, resolved_id))
        # A known name inside a new one ("Harrier" of Harrier Parcels inside Harrier Plant Hire,
        # first named here) is a use of the new one, not of the name it contains.
        for name, canonical_id in outside_longer_names([*found_here, *named], event.text, self.index.type_of):
            if (name, canonical_id) in found_here:
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
        self._mark_contrasts(event.text, mentions)
        for turn_text in texts[1:]:
            # "Hanratty's Tavern rang. one pub, nothing to do with HT": the look-alike is named in
            # the turn's clause before this one
            self._mark_contrasts(turn_text, mentions, others=self.index.names_in(turn_text))
        self.result.mentions[event.id] = mentions
        self.session_entities[event.session].update(mentions)
        named_orgs = [i for i, p in mentions.items() if p["role"] != CONTRAST_ROLE and self._named_in_full(i)]
        if len(named_orgs) == 1:
            self._last_org[event.session] = named_orgs[0]

    def _known_person_before_a_word(self, name: str) -> str | None:
        """A Chinese "firm" that is a known person's name and one ordinary two-character word, no
        line of business (婉婷传话, 可欣签字): the person, read as a firm by the trade-name rule."""
        if is_latin(name) or len(name) not in (4, 5):
            return None
        head, tail = name[:-2], name[-2:]
        if tail in ZH_INDUSTRY_WORDS or tail in ZH_ORG_SUFFIXES or not zh_dictionary_tag(tail):
            return None
        known = [self.index.entities[i] for i in self.index.lookup(head)]
        return head if known and all(e.type == "person" for e in known) else None

    def _mark_contrasts(
        self, text: str, mentions: dict[str, dict[str, str]], others: Sequence[tuple[str, str]] = ()
    ) -> None:
        """Firms named only as what another is not get the role "contrast" (`contrasted`). `others`:
        (name, id) of the other names `text` holds, when it is the whole turn of a clause's event."""
        at = {
            canonical_id: text.find(props["surface"])
            for canonical_id, props in mentions.items()
            if props.get("surface") and props["role"] not in ("speaker", "implied")
        }
        for name, other in others:
            if other not in at:
                at[other] = text.find(name)
        for canonical_id in contrasted(text, at, self.index.type_of) & set(mentions):
            mentions[canonical_id] = {**mentions[canonical_id], "role": CONTRAST_ROLE}

    def appositions(self, text: str, names: list[tuple[str, str]]) -> None:
        """A description set beside an organisation's name ("Pellworth Logistics, the cold store
        out at Daventry", "锦骋汽车，开发区那家4S店") is an alias of it: later turns use it.
        `names`: the (name, type) pairs the text may hold."""
        for name, type_ in dict.fromkeys(names):
            if type_ != "org" and not ORG_SUFFIX.search(name):
                continue
            for description in appositive_descriptions(text, name):
                self.make_alias(
                    description, self._ensure(name, "org"), "apposition", confidence=0.9, evidence=text
                )

    def _introduced_forms(self, text: str, event: Event) -> None:
        """A naming statement ("gonna call them RSM", "群里以后就写CXW 或者澄外", "paperwork says PWL
        so that's what I'm calling them"): its forms become aliases of the organisation they
        abbreviate among those the turn names, else among those its session named before. The
        statement settles what a short form alone leaves open (JC: 锦骋汽车 or 锦程租车)."""
        forms = introduced_forms(text)
        if not forms:
            return
        named = {i for _name, i in self.index.names_in(text)} | {
            i for _name, i in self.index.org_names_in(text)
        }
        pools = [named, set(self.session_entities.get(event.session, set()))]
        target = None
        for form in forms:
            if not (initials_form(form) or not is_latin(form)):
                continue  # a description or a word: it follows the target the short forms find
            # the form's own entity (stage 1 read "BSA" as a firm) is no target: it is what gets named
            own = entity_id(self.index.namespace, form)
            known = [k for k in self.index.lookup(form) if k != own]
            if len(known) == 1:  # already an alias ("call them RSM" after RSM was resolved)
                target = known[0]
                break
            for pool in pools:
                among = {self.index.canonical(i) for i in pool}
                target = self.index.abbreviated_org(form, among=among, backed=True)
                if target is None and not is_latin(form):
                    # "全称太长了，群里以后就叫瑞通达(吧)": a statement naming a firm by characters its
                    # name holds in a row is that firm's, wherever in the name they stand
                    target = self._one_org_holding(form, among)
                if target is None and initials_form(form):
                    # "gonnae call them DM": the one firm in view whose first words these open
                    opened = [
                        i
                        for i in sorted(among)
                        if self.index.entities[i].type in ("org", "other")
                        and opens_with_initials(form, self.index.entities[i].name)
                    ]
                    target = opened[0] if len(opened) == 1 else None
                if target is not None:
                    break
            if target is not None:
                break
        if target is None:
            # "公司名 Aurelia Tanjong Hospitality Sdn. Bhd.，…我们华人叫他们奥丽雅": "them" named, then
            # the Chinese name it goes by: the one firm the turn names in full
            orgs = sorted({self.index.canonical(i) for i in named if self._named_in_full(i)})
            called = [f for f in forms if re.search(rf"(?:叫|称){ZH_THEM}\s*{re.escape(f)}", text)]
            if called and not orgs:  # the firm is first named in this very turn
                firms = {p.name for p in event.participants if p.type == "org"}
                orgs = sorted({self._ensure(n, "org") for n in firms if ORG_SUFFIX.search(n)})
            full_names = [self.index.entities[o].name for o in orgs]
            if len(orgs) == 1 and called and chinese_name_of_latin_firm(called[0], full_names[0]):
                self.make_alias(called[0], orgs[0], "introduced", confidence=0.9, evidence=text)
                return
        if target is None and any(f.startswith("the ") for f in forms):
            # "everyone calls them the sunset cruise mob": the one firm the text names, else the
            # firm the session named last ("them")
            orgs = sorted({self.index.canonical(i) for i in named if self._named_in_full(i)})
            # (only this session's: at a session's start "them" may be anyone talked of days ago)
            last = self._last_org.get(event.session)
            target = orgs[0] if len(orgs) == 1 else last if not orgs else None
        if target is None:
            return
        full = self.index.entities[target].name
        made: list[str] = []
        # Initials last: forms introduced together are names of one firm, so "就叫知竹 或者ZZ" makes
        # ZZ the initials of 知竹 even where they are not those of its full name (杭州知竹茶事…).
        for form in sorted(forms, key=lambda f: bool(initials_form(f))):
            alias = _introduced_alias(form, full) or next(
                (a for a in (_introduced_alias(form, other) for other in made) if a), None
            )
            own_entity = entity_id(self.index.namespace, alias) if alias else ""
            if alias and all(owner in (target, own_entity) for owner in self.index.lookup(alias)):
                self.make_alias(alias, target, "introduced", confidence=0.9, evidence=text)
                made.append(alias)

    def _one_org_holding(self, form: str, among: set[str]) -> str | None:
        """The one organisation among `among` whose name holds the longest opening (two characters
        or more) of the Chinese `form` in a row, else None."""
        for n in range(len(form), 1, -1):
            holding = [
                i
                for i in sorted(among)
                if self.index.entities[i].type in ("org", "other") and form[:n] in self.index.entities[i].name
            ]
            if holding:
                return holding[0] if len(holding) == 1 else None
        return None

    def _named_in_full(self, entity_id: str) -> bool:
        """An organisation with a name of two words or more, or a legal form: not a word stage 1
        took for a firm ("Figma", "LinkedIn")."""
        entity = self.index.entities[self.index.canonical(entity_id)]
        names = (entity.name, *entity.aliases)
        full = any(" " in n.strip() or ORG_SUFFIX.search(n) or not is_latin(n) for n in names)
        return entity.type == "org" and full

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

    def _given_name_owner(self, name: str) -> str | None:
        """The one known person whose three-character name is a surname and `name` (婉宁 of 周婉宁:
        colleagues call each other by the given name). Not a given name that is a word of its own
        (建国, 国庆): the dictionary tags it as something other than a name."""
        if len(name) != 2 or not _CJK_NAME.fullmatch(name):
            return None
        tag = zh_dictionary_tag(name)
        if tag and not tag.startswith("nr"):
            return None
        owners = {
            hit
            for surname in _ONE_CHARACTER_SURNAMES
            for hit in self.index.lookup(surname + name)
            if self.index.entities[hit].type == "person"
        }
        return owners.pop() if len(owners) == 1 else None

    def _resolve_name(self, name: str, type_: str, event: Event, orgs_here: set[str]) -> str:
        """The canonical id for a name found in `event`, creating entities and aliases as evidence allows."""
        type_ = type_ if type_ in ("person", "org", "place", "product") else guess_type(name)
        hits = self.index.lookup(name)
        if hits:
            typed = [h for h in hits if self.index.entities[h].type == type_]
            return (typed or hits)[0]
        bare = without_legal_form(name) if type_ in ("org", "other") and is_latin(name) else None
        if bare:
            # "Crestfield Medical Services Ltd" on a signature: the "… Limited" known already
            # (known by the bare name, or by a name opening with it: "… Foods Private Limited")
            known = [*self.index.lookup(bare), *(e.id for e in self.index.longer_names_of(bare))]
            spelt_otherwise = sorted(
                {h for h in known if same_firm_by_legal_form(name, self.index.entities[h].name)}
            )
            if len(spelt_otherwise) == 1 and self.make_alias(
                name, spelt_otherwise[0], "legal-form", confidence=0.95, evidence=f"{name} in: {event.text}"
            ):
                return spelt_otherwise[0]
        if type_ in ("org", "other"):
            # "Kam Mun Lau Catering Group Limited" on the signature of someone at 金滿樓飲食集團有限公司
            spelt = self._romanised_firm(name, event, orgs_here)
            if spelt is not None and self.make_alias(
                name, spelt, "romanised", confidence=0.9, evidence=f"{name} in: {event.text}"
            ):
                return spelt
        surname = nickname_surname(name)
        if surname and type_ in ("person", "other"):
            people = self.index.persons_with_surname(surname)
            return self._by_surname(name, surname, people, event, orgs_here)
        last = titled_surname_en(name)
        if last and type_ in ("person", "other"):
            return self._by_surname(name, last, self._persons_with_last_name(last), event, orgs_here)
        words = name.split()
        if type_ == "person" and is_latin(name) and len(words) == 2:
            # "Bye Caroline", "Yep Jon": a word stuck to a known one-word name is not a new person
            # (a known first name is not anyone's surname here); the mention is the known person.
            known = [e.id for e in self.index.named(normalise_name(words[1])) if e.type == "person"]
            known = [i for i in known if self.index.entities[i].name == words[1]]
            if len(known) == 1:
                return known[0]
        if is_latin(name) and " " not in name.strip():
            # One capitalised word: stage 1's type is a guess ("Marrian says..." looks like a
            # person), so the word is matched against every known name's first and last word.
            # and the short form of a firm named kind first ("Desrochers" of "Gestion Immobilière
            # Desrochers-Bélanger inc.": see aliases.short_forms)
            owners = self._single_word_owners(name) or [
                owner for form, owner in self.index.short_forms_in(name) if form == name
            ]
            if len(owners) == 1:
                owner = self.index.entities[owners[0]]
                if owner.type in ("org", "place"):
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
        if type_ == "org" and not is_latin(name):
            trade_owner = self._trade_name_owner(name)
            if trade_owner is not None:
                return trade_owner
        if type_ == "person" and not is_latin(name):
            # 麦野 once 麦野烘焙 is known: stage 1 took the bare trade name for a given name, but the
            # one firm it is the trade name of is what the text means (麦 is a surname too).
            shorts = self.index.short_forms_in(name)
            firms = [o for f, o in shorts if f == name and self.index.type_of(o) == "org"]
            if len(firms) == 1 and self.make_alias(
                name, firms[0], "short-name", confidence=0.9, evidence=f"{name} in: {event.text}"
            ):
                return firms[0]
            given_of = self._given_name_owner(name)
            if given_of is not None and self.make_alias(
                name, given_of, "given-name", confidence=0.8, evidence=f"{name} in: {event.text}"
            ):
                return given_of
            new_id = self._ensure(name, type_)  # 邱敏 is not a short form of 邱敏刚: only nicknames are
            self._adopt_earlier_nicknames(name, new_id, event)
            return new_id
        if type_ != "person" and (initials_form(name) or (type_ in ("org", "other") and not is_latin(name))):
            # PWL of Pellworth Logistics, 澄外 of 澄溪外国语学校, CXW of it by pinyin: the one
            # organisation the form abbreviates best; a look-alike scores lower, a tie is nobody's.
            abbreviated = self.index.abbreviated_org(name)
            if abbreviated is not None and self.make_alias(
                name, abbreviated, "abbreviation", confidence=0.8, evidence=f"{name} in: {event.text}"
            ):
                return abbreviated
        shorter_of = [
            e
            for e in self.index.longer_names_of(name)
            if (types_compatible(e.type, type_) or _opening_words_of_a_firm(name, type_, e.type))
            and is_abbreviation(name, e.name)
        ]
        if len(shorter_of) == 1:
            self.make_alias(name, shorter_of[0].id, "short-name")
            return shorter_of[0].id
        if shorter_of:
            return self._new_with_candidates(name, type_, [e.id for e in shorter_of], "short-name")
        longer_of = [
            e
            for e in self.index.abbreviations_of(name)
            # "Little Acorn, 5 childcare centres" before "Little Acorn Learning Hub Pte. Ltd.": the
            # opening words of a firm stage 1 read as a person first are that firm all the same
            if (
                types_compatible(e.type, type_)
                or _opening_words_of_a_firm(e.name, e.type, type_)
            )
            and is_abbreviation(e.name, name)
        ]
        new_id = self._ensure(name, type_)
        if len(longer_of) == 1:  # "Acme" was known, now "Acme Corp": the short one becomes the alias
            short = longer_of[0]
            # ...unless it was already the short form of another firm ("Crestfield" of "Crestfield
            # Medical Services Limited" before "Crestfield Diagnostic Services Limited" came up)
            rivals = [
                e.id
                for e in self.index.longer_names_of(short.name)
                if e.id not in (new_id, short.id) and is_abbreviation(short.name, e.name)
            ]
            if rivals:
                self._candidates(short.id, [new_id], "short-name")
            else:
                self.make_alias(short.name, new_id, "short-name")
        weak = self.index.look_alikes().find(normalise_name(name), type_, self._name_vectors.get(name))
        self._candidates(new_id, [i for i in weak if i != new_id], "fuzzy")
        return new_id

    def _romanised_firm(self, name: str, event: Event, orgs_here: set[str]) -> str | None:
        """The one Chinese organisation in view (named in this session or turn) whose trade name
        the Latin `name` spells (`romanisation.romanised_firm_name`): Hong Kong and mainland firms
        carry both names, and a signature gives the English one beside the Chinese of the chat.
        Only firms in view: the readings of a name are many, the firms of a session few. Never
        the other way (a new Chinese name spelt by a known Latin one): Chinese look-alikes are
        often homophones (明瑞 beside 明睿, both Ming Rui), which letters cannot tell apart."""
        if not is_latin(name) or len(name.split()) < 2:
            return None
        in_view = (*self.session_entities.get(event.session, ()), *orgs_here)
        owners = []
        for owner in sorted({self.index.canonical(i) for i in in_view}):
            entity = self.index.entities[owner]
            if entity.type not in ("org", "other"):
                continue
            chinese = [n for n in (entity.name, *entity.aliases) if not is_latin(n) and len(n) >= 4]
            if any(romanised_firm_name(name, n, short_forms(n, "org")) for n in chinese):
                owners.append(owner)
        return owners[0] if len(owners) == 1 else None

    def _bilingual_person_names(self, text: str, names: list[tuple[str, str]]) -> None:
        """A signature's "Cheryl Tsang 曾詠琪" or "沈佳怡 Jiayi Shen": one person written in both
        scripts, the Latin surname spelling the Chinese one (Tsang: 曾 in Cantonese). The Chinese
        name becomes an alias of the Latin one."""
        people = {n for n, t in names if t == "person"}
        for match in _BILINGUAL_NAME.finditer(text):
            latin = match.group("latin") or match.group("latin_after")
            chinese = match.group("zh") or match.group("zh_first")
            words = latin.split()
            # the surname last (Cheryl Tsang) or first, as Chinese writes it (Shen Jiayi)
            spelt = surname_spelt(words[-1], chinese) or surname_spelt(words[0], chinese)
            if latin in people and chinese in people and spelt:
                person = self._ensure(latin, "person")
                self.make_alias(chinese, person, "romanised", confidence=0.9, evidence=match.group())

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
            and is_latin(e.name)
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
            if not is_latin(e.name) or not parts:
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
            # "Tanglewood" of the site "Tanglewood Crossing", as of a firm's or a person's name
            site = e.type == "place" and parts[-1] in EN_STREET_WORDS
            if (parts[0] == word and (e.type in ("org", "person") or site)) or (
                e.type == "person" and (parts[-1] == word or clipped_first)
            ):
                owners.append(e.id)
        return owners

    def _trade_name_owner(self, name: str) -> str | None:
        """The known organisation a new Chinese name stands for when it is a known trade name and
        a common noun that names no kind of firm ("恒筑项目" once 恒筑建设 is known: the firm's
        project, not a second firm); None when the trade name is another firm's too, or the rest
        is an organisation word of the lexicon (恒达物流 beside 恒达建设 may be a second firm)."""
        for short in short_forms(name, "org"):
            rest = name[name.find(short) + len(short) :]
            department = rest in ZH_DEPARTMENT_WORDS  # 声衍技术: 声衍's technical side, no second firm
            if not name.startswith(short) or not rest or (rest in GENERIC_ORG_WORDS and not department):
                continue
            if ORG_SUFFIX.search(name) and not department:
                continue  # 恒达物流 beside 恒达建设 may be a second firm
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
        # 恒通 inside the full name is not a use of the short form, nor "Ribeira" (of Ribeira Nova
        # Produções) inside another known name, "Não confundir com a Ribeira Negra"
        known_here = sorted({n for n, _ in self.index.names_in(text)}, key=len, reverse=True)
        for short, owner_id in self.index.short_forms_in(text):
            owner = self.index.entities[owner_id]
            rest = text
            for full in sorted((owner.name, *owner.aliases), key=len, reverse=True):
                if len(full) > len(short):  # 婉清 inside 周婉清, the alias it is the short form of
                    rest = rest.replace(full, " ")
            for name in known_here:  # another name that opens with the same word
                if len(name) > len(short) and name.startswith(short):
                    rest = rest.replace(name, " ")
            if short_form_occurs(short, rest, given_name=owner.type == "person"):
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
        elif reference.located:
            fits = self._orgs_located_in(reference.place)
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
            if self.index.entities[i].type == "org" and any(key in t.casefold() for t in self._profiles[i])
        ]

    def _orgs_located_in(self, place: str) -> list[str]:
        """Organisations this batch's texts put in `place` by name ("青瓯公司在良渚", "良渚的青瓯")."""
        located = []
        for i in sorted(i for i in self._profiles if i not in self.index.canonical_of):
            entity = self.index.entities[i]
            if entity.type != "org" or _KIND_OF_FIRM.fullmatch(entity.name) or entity.name in EN_ORG_SUFFIXES:
                continue  # "光谷的药企", "KZR Pharma": a kind of firm stage 1 took for one, no firm
            names = "|".join(re.escape(n) for n in (entity.name, *entity.aliases) if n)
            where = re.escape(place)
            # or an address on the lines right after the name, as a signature or a contract's
            # heading gives it ("湖北康泽瑞药业股份有限公司\nKZR Pharma\n…光谷生物城C区")
            said = re.compile(
                rf"(?:{names})[^，,。；;！!？?\s]{{0,4}}?在{where}|{where}的(?:{names})"
                rf"|(?:{names})[^\n]{{0,40}}\n(?:[^\n]{{0,40}}\n){{0,2}}[^\n]{{0,40}}?{where}"
            )
            if any(said.search(t) for t in self._profiles[i]):
                located.append(i)
        return located

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
        bare = without_legal_form(entity.name) if entity.type == "org" else None
        if bare:  # "Kessler Vaughn Ostrander LLP" is asked about as "the Kessler Vaughn Ostrander job"
            self.make_alias(bare, entity.id, "legal-form", confidence=0.95, evidence=entity.name)
        return entity.id

    def _link_employers(self, text: str, mentions: dict, surfaces: dict[str, set[str]]) -> None:
        """WORKS_AT when the text ties a person to an organisation ("宏达五金的罗志强", "Emma of Acme")."""
        people = [i for i in mentions if self.index.entities[i].type == "person"]
        orgs = [i for i in mentions if self.index.entities[i].type == "org"]
        for person in people:
            for org in orgs:
                if org in self.index.works_at.get(person, set()):
                    continue
                if any(works_at_phrase(text, o, p) for o in surfaces[org] for p in surfaces[person]):
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


def _introduced_alias(form: str, full: str) -> str | None:
    """The alias a naming statement's `form` makes for the organisation `full`: capitals that
    abbreviate it (two letters on word starts), the longest opening of a Chinese run that is its
    short form ("澄外" of "澄外吧"), a description ("the Quarry Rd people"), or a word that is its
    short form; None when the form does not fit `full`."""
    if initials_form(form):
        return form if abbreviation_score(form, full) >= 2 or opens_with_initials(form, full) else None
    if not is_latin(form):
        return next(
            (
                form[:n]
                for n in range(len(form), 1, -1)
                if is_zh_short_form(form[:n], full) or is_abbreviation(form[:n], full) or form[:n] in full
            ),
            None,
        )
    if form.split()[0].lower() in ("the", "that"):
        return form
    return form if is_abbreviation(form, full) else None


def _opening_words_of_a_firm(name: str, type_: str, firm_type: str) -> bool:
    """Two or more Latin words that open a known firm's name are that firm, whatever stage 1 typed
    them ("Kim Soon sign with them direct" once "Kim Soon Freight Logistics Pte. Ltd." is known: NER
    reads a Hokkien trade name as a person's)."""
    return type_ == "person" and firm_type == "org" and is_latin(name) and len(name.split()) >= 2
