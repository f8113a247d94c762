"""Query analysis: which entities, which time range and which earlier referent a question names.

A Chinese question is also reduced to its content words (`content_words`): "我那台笔记本用着怎么样来着？"
asks about 笔记本 用; its pronouns, question words, particles and the "…来着" of recall are grammar,
and chat that shares only those ("我不知道该怎么办") is no answer. A first-person question without a
"you" (`asks_about_self`) asks what the asker said about themself, not what an agent replied.

Entities are found three ways, cheapest first: exact name/alias lookups (`EntitiesNamed`)
for candidate spans (word n-grams, capitalised spans, jieba words); Chinese names contained in
the query (no spaces to split on); fuzzy matches of capitalised spans against every name and alias
(typos, possessives). References ("that client", "he", 上次那个方案) are resolved against the
namespace's recent focus: the entities of the most recent events, the session's first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from rapidfuzz import fuzz, process

from simplemem_graph.dates import event_days, named_days
from simplemem_graph.models import DEFAULT_STATUSES, Entity, Event, LinkKind
from simplemem_graph.retrieve.timerange import TimeRange, parse_time_range
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EntitiesNamed, EntityQuery, EventQuery, RecallFilter
from simplemem_graph.text import STOPWORDS, detect_lang, tokenize

# Entity types that make a lower-case single word in a query worth treating as a name.
_NAMED_TYPES = frozenset({"person", "org", "place", "product"})
_SPAN_WORD = re.compile(r"[^\W_]+(?:[.\-&][^\W_]+)*", re.UNICODE)
_CJK_NAME = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_MAX_NGRAM = 4
_FUZZY_MIN_SCORE = 90.0
_FOCUS_DAYS = 30  # how far back the "recent focus" looks for referents
_FOCUS_EVENTS = 20

# Reference phrases and the entity type they point at ("thing" = a plan, project, product).
_REFERENCES: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            r"\b(?:that|the same|this)\s+(?:client|customer|company|supplier|vendor|firm|partner)\b", re.I
        ),
        "org",
    ),
    (re.compile(r"\b(?:that|this)\s+(?:guy|person|man|woman|contact)\b", re.I), "person"),
    (re.compile(r"\b(?:he|him|his|she|her|hers)\b", re.I), "person"),
    (re.compile(r"\b(?:that|this|the same)\s+(?:plan|project|proposal|product|idea|deal)\b", re.I), "thing"),
    (re.compile(r"(?:那|这)(?:个|家)?(?:客户|公司|供应商|厂商|厂家|厂|合作方)|那家|这家"), "org"),
    (re.compile(r"那(?:个|位)(?:人|联系人)|他|她"), "person"),
    (re.compile(r"(?:上次)?那个(?:方案|项目|产品|计划|想法)|上次那个"), "thing"),
]
_TYPE_FOR_REFERENCE = {"org": {"org"}, "person": {"person"}, "thing": {"product", "other"}}
# The role an organisation reference names: "that client" is a party we deal with, never the
# supplier or system consolidation tied to one (WORKS_AT props.as "supplier"); "the supplier" is
# one of those first.
_CLIENT_WORDS = re.compile(r"客户|client|customer", re.I)
_SUPPLIER_WORDS = re.compile(r"供应商|厂商|厂家|厂|supplier|vendor", re.I)


@dataclass
class QueryAnalysis:
    """What a question names, for recall filters and rerank features.

    Attributes:
        query: the question as asked.
        lang: "zh" or "en".
        tokens: content tokens (stopwords dropped), as the lexical channels see them.
        entities: entities named in the query (by name, alias or a close spelling).
        references: entities that reference phrases ("that client", 他) were resolved to.
        time_range: the dates the question is about, or None.
        surfaces: for each entity id, the words of the query (or the reference) that matched.
        about_self: the asker asks what they said of themself (`asks_about_self`).
        about_listener: the asker asks what they were told (`asks_about_listener`).
        asks_when: the question asks for a day or a time (`asks_when`).
    """

    query: str
    lang: str
    tokens: list[str]
    entities: list[Entity] = field(default_factory=list)
    references: list[Entity] = field(default_factory=list)
    time_range: TimeRange | None = None
    surfaces: dict[str, str] = field(default_factory=dict)
    content: str = ""
    about_self: bool = False
    about_listener: bool = False
    asks_when: bool = False

    @property
    def all_entities(self) -> list[Entity]:
        """Named entities, then resolved references."""
        return [*self.entities, *self.references]

    def as_dict(self) -> dict:
        tr = self.time_range
        return {
            "lang": self.lang,
            "entities": [e.name for e in self.entities],
            "references": [e.name for e in self.references],
            "asks_when": self.asks_when,
            "time_range": None
            if tr is None
            else {
                "from": tr.start and tr.start.isoformat(),
                "to": tr.end and tr.end.isoformat(),
                "surface": tr.surface,
            },
        }


def _strip_possessive(word: str) -> str:
    return re.sub(r"['’]s$", "", word)


def _candidate_spans(query: str) -> list[str]:
    """Word n-grams (up to 4 words) that could be a name; all-stopword spans are left out."""
    words = [_strip_possessive(m.group(0)) for m in _SPAN_WORD.finditer(query)]
    spans: list[str] = []
    for n in range(_MAX_NGRAM, 0, -1):
        for i in range(len(words) - n + 1):
            gram = words[i : i + n]
            if all(w.lower() in STOPWORDS for w in gram) or (n == 1 and len(gram[0]) < 2):
                continue
            spans.append(" ".join(gram))
    return list(dict.fromkeys(spans))


def _capitalised_spans(query: str) -> list[str]:
    """Runs of capitalised words ("Acme Corp", "Door Dash"), a name's usual shape in English."""
    words = [_strip_possessive(m.group(0)) for m in _SPAN_WORD.finditer(query)]
    spans, run = [], []
    for word in [*words, ""]:
        if word[:1].isupper() and word.lower() not in STOPWORDS:
            run.append(word)
        elif run:
            spans.append(" ".join(run))
            run = []
    return spans


_MAX_NAME_CHARS = 16  # longest name looked up inside a Chinese query


def _cjk_substrings(query: str) -> list[str]:
    """Every substring of 2.._MAX_NAME_CHARS characters that holds a Chinese character."""
    found = dict.fromkeys(
        query[i : i + n]
        for i in range(len(query))
        for n in range(2, _MAX_NAME_CHARS + 1)
        if i + n <= len(query)
    )
    return [s for s in found if _CJK_NAME.search(s) and s.strip() == s]


# How much of a name a short form keeps: two of 肖玉嘉's three characters, three of 乐光跑鞋's four.
_SHORT_NAME_SHARE = 2 / 3


def _ordered_prefix(text: str, name: str) -> int:
    """How many leading characters of `text` appear in `name` in order (name characters may be
    skipped, text characters may not): ("野吹风机多少钱", "野熊吹风机") -> 4 (野吹风机)."""
    at, length = 0, 0
    for char in text:
        found = name.find(char, at)
        if found < 0:
            break
        at, length = found + 1, length + 1
    return length


def _is_name_like(span: str, entity: Entity) -> bool:
    """Accept a lower-case single word only when the entity is a real named thing."""
    return " " in span or not span.islower() or bool(_CJK_NAME.search(span)) or entity.type in _NAMED_TYPES


class _EntityFinder:
    """Finds the entities a query names, through the store's name indexes: no step reads every
    entity of the namespace (a search costs the same beside 100 entities or 100,000)."""

    def __init__(self, store: GraphStore, namespace: str):
        self._store = store
        self._namespace = namespace

    def find(self, query: str, lang: str) -> tuple[list[Entity], dict[str, str]]:
        found: dict[str, Entity] = {}
        surfaces: dict[str, str] = {}
        covered: list[str] = []  # spans already matched, so "Acme" inside "Acme Corp" is not re-read

        def add(entity: Entity, surface: str) -> None:
            if entity.id not in found:
                found[entity.id] = entity
                surfaces[entity.id] = surface

        spans = _candidate_spans(query)
        if lang == "zh":
            spans += [w for w in tokenize(query) if len(w) >= 2]
        contained = _cjk_substrings(query) if _CJK_NAME.search(query) else []
        # One store call for every span (and every Chinese substring) instead of one per span.
        known = self._store.entities(self._namespace, EntitiesNamed([*spans, *contained]))
        for span in spans:
            if any(span.lower() in c.lower() for c in covered):
                continue
            matches = [e for e in known.get(span, []) if _is_name_like(span, e)]
            for entity in matches:
                add(entity, span)
            if matches:
                covered.append(span)
        if contained:
            self._find_contained(query, contained, known, add)
        self._find_fuzzy(query, covered, add)
        if lang == "zh" and not found:
            self._find_shortened(query, add)
        return list(found.values()), surfaces

    def _find_shortened(self, query: str, add) -> None:
        """Chinese names written short, as people do when they ask in a hurry: 肖玉 for 肖玉嘉, 乐光鞋
        for 乐光跑鞋. A run of the query that starts with a name's first character, keeps the
        name's order (skipping some of its characters, adding none) and has at least
        _SHORT_NAME_SHARE of it names that entity, when it names no other. Read only when nothing
        matched exactly. Only the entities named from one of the query's characters are read
        (`EntityQuery(starting=...)`, the store's name index), not the whole namespace."""
        firsts = sorted({c for c in query if _CJK_NAME.match(c)})
        by_first: dict[str, list[tuple[str, Entity]]] = {}
        for entity in self._store.entities(self._namespace, EntityQuery(starting=firsts)) if firsts else ():
            for name in (entity.name, *entity.aliases):
                if len(name) >= 3 and _CJK_NAME.match(name):
                    by_first.setdefault(name[0], []).append((name, entity))
        for i, char in enumerate(query):
            owners = {}
            for name, entity in by_first.get(char, ()):
                length = _ordered_prefix(query[i:], name)
                if length < len(name) and length >= _SHORT_NAME_SHARE * len(name):
                    owners.setdefault(entity.id, (entity, query[i : i + length]))
            if len(owners) == 1:
                entity, surface = next(iter(owners.values()))
                add(entity, surface)

    def _find_contained(self, query: str, substrings: list[str], known: dict, add) -> None:
        """Chinese names and aliases written inside the query (no word boundaries to rely on): the
        query's substrings looked up by name, not every entity of the namespace compared."""
        hits = {}
        for surface in substrings:
            for entity in known.get(surface, []):
                if _CJK_NAME.search(surface):
                    hits.setdefault(entity.id, (entity, []))[1].append(surface)
        for entity, surfaces in hits.values():
            names = [
                n for n in (entity.name, *entity.aliases) if n.casefold() in {s.casefold() for s in surfaces}
            ]
            add(entity, names[0] if names else surfaces[0])

    def _find_fuzzy(self, query: str, covered: Sequence[str], add) -> None:
        """Capitalised spans that spell a known name closely (typos, missing accents)."""
        spans = [s for s in _capitalised_spans(query) if len(s) >= 4 and not any(s in c for c in covered)]
        if not spans:
            return
        choices: list[str] = []
        owners: list[Entity] = []
        # Only names starting with a span's first letter are compared: a misspelt name keeps its
        # first letter far more often than not, and the store reads those through its name index.
        firsts = sorted({span[0] for span in spans})
        for entity in self._store.entities(self._namespace, EntityQuery(starting=firsts)):
            for name in (entity.name, *entity.aliases):
                choices.append(name)
                owners.append(entity)
        if not choices:
            return
        for span in spans:
            best = process.extractOne(span, choices, scorer=fuzz.ratio, score_cutoff=_FUZZY_MIN_SCORE)
            if best is not None:
                add(owners[best[2]], span)


def _recent_focus(store: GraphStore, namespace: str, at: datetime, session: str | None) -> list[Entity]:
    """Entities of the most recent events before `at`, newest first, the session's events first."""
    recent = store.events(
        namespace,
        EventQuery(
            filter=RecallFilter(
                statuses=DEFAULT_STATUSES,
                time_from=at.date() - timedelta(days=_FOCUS_DAYS),
                time_to=at.date(),
            )
        ),
    )
    recent = [e for e in recent if e.time <= at]
    recent.sort(key=lambda e: (session is not None and e.session == session, e.time), reverse=True)
    focus: dict[str, Entity] = {}
    names = [p.name for event in recent[:_FOCUS_EVENTS] for p in event.participants]
    known = store.entities(namespace, EntitiesNamed(names))
    for name in names:
        for entity in known.get(name, []):
            focus.setdefault(entity.id, entity)
    return list(focus.values())


def _suppliers(store: GraphStore, namespace: str, org_ids: list[str]) -> set[str]:
    """Which of `org_ids` consolidation tied to a client as its supplier or system (one store call)."""
    if not org_ids:
        return set()
    links = store.links(namespace, kinds=[LinkKind.WORKS_AT], node_ids=org_ids)
    # A client's site is no client either ("that client" is never the place the work is at).
    return {lk.source for lk in links if lk.source in org_ids and lk.props.get("as") in ("supplier", "site")}


def _resolve_references(
    query: str, named: Sequence[Entity], focus_loader, surfaces: dict[str, str], suppliers_loader=None
) -> list[Entity]:
    """Each reference phrase resolves to the most recent focus entity of its type (and role: a client
    is no one's supplier, a supplier someone's first), unless the query already names an entity of
    that type (then "he" is that person)."""
    resolved: dict[str, Entity] = {}
    focus: list[Entity] | None = None
    for pattern, kind in _REFERENCES:
        match = pattern.search(query)
        if not match:
            continue
        wanted = _TYPE_FOR_REFERENCE[kind]
        if any(e.type in wanted for e in named):
            continue
        if focus is None:
            focus = focus_loader()
        candidates = focus
        if kind == "org" and suppliers_loader is not None:
            suppliers = suppliers_loader([e.id for e in focus if e.type == "org"])
            if _CLIENT_WORDS.search(match.group(0)):
                candidates = [e for e in focus if e.id not in suppliers]
            elif _SUPPLIER_WORDS.search(match.group(0)):
                candidates = sorted(focus, key=lambda e: e.id not in suppliers)  # stable: recency kept
        for entity in candidates:
            if entity.type in wanted and entity.id not in resolved:
                resolved[entity.id] = entity
                surfaces[entity.id] = match.group(0)
                break
    return list(resolved.values())


# jieba tags of grammar, not content: pronouns and question words (r: 我, 那, 什么, 哪些, 怎么样),
# particles (u: 的, 着; y: 吗, 呢), interjections, punctuation.
_GRAMMAR_TAGS = ("r", "u", "y", "e", "x", "w")
# jieba's tag of a Latin word ("淘CD" -> CD/eng) shares the interjection tag's first letter: content.
_LATIN_WORD_TAG = "eng"
_DEMONSTRATIVES = ("那", "这", "哪")  # the measure word after one is grammar too (那|台, 那|部)
# "…来着" closes a question about something the asker once knew ("叫什么来着"): a particle of
# recall that jieba cuts into 来 (come) + 着.
_RECALL_PARTICLE = re.compile(r"来着[？?。！!\s]*$")
_ZH_YOU = re.compile(r"[你您]")
_EN_ME = re.compile(r"\b(?:I|me|my|mine|myself)\b")
_EN_YOU = re.compile(r"\byou(?:r|rs|rself)?\b", re.I)


_FIRST_PERSON = ("我", "我们", "咱", "咱们")


def _first_person_key(word: str, following_tag: str) -> bool:
    """A first person that is part of what is asked: bound to a noun with no 的 between ("我爸",
    "我表姐": the way the asker said it, "我爸退休前…"), or a pronoun jieba fused with the next
    word ("我家", "我报": 报 is the verb asked about)."""
    if not word.startswith(_FIRST_PERSON[0]) and not word.startswith(_FIRST_PERSON[2]):
        return False
    if word not in _FIRST_PERSON:
        return True
    return following_tag.startswith("n") and following_tag != "nr"


def content_text(query: str) -> str:
    """A Chinese question with its grammar blanked out (the question itself otherwise): pronouns and
    question words, particles, the measure word after a demonstrative (那台, 那部), the "…来着" of
    recall, by jieba's part-of-speech tags. Content words next to each other stay joined, so the
    character pairs of a name jieba cut in two (湘|黛) still meet the memory's.

    Example:
        >>> content_text("我那台笔记本用着怎么样来着？")
        ' 笔记本用 '
    """
    if detect_lang(query) != "zh":
        return query
    from simplemem_graph.compress.names_zh import _zh_tokens

    pieces: list[str] = []
    previous = ""
    tokens = _zh_tokens(_RECALL_PARTICLE.sub("", query))
    for i, (word, tag, _start) in enumerate(tokens):
        following = tokens[i + 1][1] if i + 1 < len(tokens) else ""
        grammar = (
            (tag != _LATIN_WORD_TAG and tag.startswith(_GRAMMAR_TAGS))
            or (len(word) == 1 and previous in _DEMONSTRATIVES)
        ) and not _first_person_key(word, following)
        previous = word
        if grammar or not word.strip():
            if not pieces or pieces[-1] != " ":
                pieces.append(" ")  # one pause for a run of grammar: no character pair spans it
        else:
            pieces.append(word)
    return "".join(pieces)


def content_words(query: str) -> list[str]:
    """The content words of a question: `tokenize` of its `content_text`.

    Example:
        >>> content_words("我那台笔记本用着怎么样来着？")
        ['笔记本', '用']
    """
    return tokenize(content_text(query))


# "What did you recommend…", 你上次给我推荐过哪些…: a question about what the listener said before, not a
# request to say something now ("Can you recommend a show for tonight?", 你能给我推荐几部电影吗): its
# answer is in an agent's reply. English: "you" then a verb of telling or advising in the past
# ("you mentioned", "did you suggest", "you'd recommended"). Chinese: 你 then such a verb, marked
# past by a time word before it (上次, 之前), 过 / 了 / 的 after it, or the recalling 来着; 你 after
# a preposition or a verb is the one told (我跟你说, 我告诉你), not the teller.
_EN_YOU_SAID = re.compile(
    r"\b(?:did\s+you\s+(?:\w+\s+)?(?:suggest|recommend|say|tell|mention|advise|give|teach|share|list|"
    r"propose|offer|explain)"
    r"|you(?:\s+had|'d)?\s+(?:just\s+|also\s+)?(?:suggested|recommended|said|told|mentioned|advised|gave|"
    r"given|taught|shared|listed|proposed|offered|explained|came\s+up\s+with))\b",
    re.I,
)
_ZH_TELL = r"(?:推荐|建议|说|提|教|让|出|告诉|介绍|讲|分享|提醒|安利|支招|劝|列|讲解|解释)"
_ZH_YOU_TELL = re.compile(
    r"(?<![跟和对给向同问诉])[你您](?:都|还|也|又|是|最近|之前|以前|上次|上回|那次|那回|那天|那时|当时|曾经|刚才|刚刚)*"
    rf"(?:给我|跟我|对我|帮我|为我|和我|向我)?{_ZH_TELL}([^，。？！?!,]{{0,10}})"
)
# What marks the telling as past: a time word or clause anywhere in the question ("上次…", "…那回，",
# "…的时候，"), or 过 / 了 / 的 after the verb ("你推荐过", "你推荐我去看的那几个地方").
_ZH_PAST = re.compile(r"之前|以前|上次|上回|那次|那回|那阵|那天|那时|当时|曾经|刚才|刚刚|的时候|来着")


def asks_about_listener(query: str) -> bool:
    """A question about what the one asked said before ("你上次给我推荐过哪些电影？", "What did you
    suggest for my trip?"): its answer is in an agent's reply, not in what the asker said of
    themself."""
    if detect_lang(query) != "zh":
        return bool(_EN_YOU_SAID.search(query))
    told = _ZH_YOU_TELL.search(query)
    if not told:
        return False
    after = told.group(1)
    request = query.rstrip("？?！!。 ").endswith(("吧", "吗", "呗"))  # "你给我推荐几部好看的电影吧"
    return bool(_ZH_PAST.search(query) or re.match(r".?[过了]", after) or ("的" in after[:6] and not request))


def asks_about_self(query: str) -> bool:
    """A question in the first person (or one asking to be reminded: "…来着") that does not ask about
    "you": what the asker said of themself ("我喜欢听什么音乐？"), not what they were told
    ("你给我推荐过哪些电影？")."""
    if detect_lang(query) == "zh":
        # "…来着" asks to be reminded of something from one's own past ("那部电影叫什么来着？")
        recalled = "我" in query or bool(_RECALL_PARTICLE.search(query))
        return recalled and not _ZH_YOU.search(query)
    return bool(_EN_ME.search(query)) and not _EN_YOU.search(query)


# A question about when something was (done, said, due): the answer is a day, and a memory's own
# day is the answer whether or not its text names it ("我一个人逛古城是哪天来着？"). English: "when"
# opening the question ("so when did…"; "what did I buy when I was in Paris" asks something else),
# "what / which day|date|year|month", the count of days between two things ("how many days passed
# between…", "how long before…": the days of both are what it is counted from; not "how many days a
# week"). Chinese: the question words for a day or a time.
_EN_WHEN = re.compile(
    r"^\W*(?:(?:and|so|but|ok|okay|hey|also)\W+)?when\b"
    r"|\b(?:what|which)\s+(?:day|date|year|month|week|weekend)\b"
    r"|\bhow\s+long\s+(?:ago|before|after|since|between)\b"
    r"|\bhow\s+many\s+(?:days|weeks|months|years)\s+(?:had\s+|have\s+)?"
    r"(?:ago|passed|elapsed|before|after|since|between)\b"
    r"|\bwhat\s+time\s+(?:did|was|were|is|do)\b",
    re.I,
)
_ZH_WHEN = re.compile(
    r"哪天|哪一天|哪日|什么时候|啥时候|什么时间|何时|几时|几号|几月|哪年|哪一年|哪个月|多久以前|多久前|什么日子"
    r"|(?:隔|过|差|相隔|相差)了?(?:多少|几)(?:天|周|个星期|个月|年)"
)


def asks_when(query: str) -> bool:
    """True when the question asks for a day or a time ("When did I…", "我是哪天说…的？"): then each
    memory shown carries the day it was said (`retrieve`), since that day is often the answer."""
    return bool(_ZH_WHEN.search(query) if detect_lang(query) == "zh" else _EN_WHEN.search(query))


def analyze_query(
    query: str,
    store: GraphStore,
    *,
    namespace: str,
    at: datetime,
    session: str | None = None,
    anchor_lookup=None,
) -> QueryAnalysis:
    """Entities, time range and resolved references of a question.

    Args:
        query: the question.
        store: the graph store to look names up in.
        namespace: the tenant.
        at: when the question is asked; anchors "last week", 上周 and the recent focus.
        session: the conversation the question belongs to; its recent entities resolve
            references first.
        anchor_lookup: optional `phrase -> date` used for "before the launch"; see
            `parse_time_range`.

    Returns:
        A `QueryAnalysis`.

    Example:
        >>> analysis = analyze_query("what did Acme say last week?", store, namespace="demo", at=now)
        >>> [e.name for e in analysis.entities], analysis.time_range.start
    """
    lang = detect_lang(query)
    finder = _EntityFinder(store, namespace)
    entities, surfaces = finder.find(query, lang)
    references = _resolve_references(
        query,
        entities,
        lambda: _recent_focus(store, namespace, at, session),
        surfaces,
        lambda ids: _suppliers(store, namespace, ids),
    )
    content = content_text(query)
    tokens = tokenize(content)
    return QueryAnalysis(
        query=query,
        lang=lang,
        tokens=tokens or tokenize(query),
        content=content if tokens else query,
        about_self=asks_about_self(query),
        about_listener=asks_about_listener(query),
        asks_when=asks_when(query),
        entities=entities,
        references=references,
        time_range=parse_time_range(query, at, find_anchor=anchor_lookup),
        surfaces=surfaces,
    )


def event_in_range(event: Event, time_range: TimeRange | None) -> bool:
    """True when any of the event's dates falls in the range (False when there is no range); with a
    `named_only` range, any date it names (not the day it was said)."""
    if time_range is None:
        return False
    days = named_days(event) if time_range.named_only else event_days(event)
    return any(time_range.contains(d) for d in days)
