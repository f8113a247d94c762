"""How alike two events are: word overlap (robust for Chinese) and embedding cosine (robust for English).

Every rule in this package that needs "same subject" asks for either enough shared words or a high
cosine (the threshold of the model in use, `calibration.py`), never a cosine alone at a mid threshold.
An English-only model (all-MiniLM-L6-v2) scores two unrelated Chinese sentences 0.6+, so with it
only shared words count on Chinese text.
"""

from __future__ import annotations

import functools
import re

from simplemem_graph.consolidate.calibration import calibration
from simplemem_graph.models import Event
from simplemem_graph.text import search_terms
from simplemem_graph.vectors import cosine

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
_NUMERIC = re.compile(r"^[\d.,:%/\-]+$")


@functools.lru_cache(maxsize=65536)  # an event's text is compared with many others
def content_terms(text: str) -> frozenset[str]:
    """The fulltext terms of `text` (`text.search_terms`: words plus Chinese character pairs) without
    numbers (values are compared elsewhere) and without the single characters jieba splits off an
    unknown name: 璐榕 is one word in "去璐榕" and 璐 / 榕 in "璐榕改到…", and only the pair is in both.
    """
    terms = {t for t in search_terms(text) if not _NUMERIC.match(t)}
    pairs = {t for t in terms if len(t) == 2 and _CJK_RUN.fullmatch(t)}
    return frozenset(
        t for t in terms if not (len(t) == 1 and _CJK_RUN.match(t) and any(t in p for p in pairs))
    )


def overlap(a: str, b: str) -> float:
    """Jaccard overlap of the content terms of two texts, 0..1."""
    ta, tb = content_terms(a), content_terms(b)
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)


def same_subject(a: Event, b: Event, *, min_overlap: float, min_cosine: float) -> float:
    """A similarity score when `a` and `b` talk about the same thing, else 0.0.

    Same thing: the same non-empty (action, object), enough shared words, or a high cosine.
    """
    same_object = bool(a.object and b.object) and a.object.strip().lower() == b.object.strip().lower()
    same_action = not (a.action and b.action) or a.action.strip().lower() == b.action.strip().lower()
    if same_object and same_action:
        return 1.0
    score_words = overlap(a.text, b.text)
    # An English-only model scores unrelated Chinese sentences ~0.85: with it only shared words
    # count as evidence of the same subject there.
    chinese = "zh" in (a.lang, b.lang)
    use_cosine = not chinese or calibration().cosine_in_chinese
    score_vectors = cosine(a.embedding, b.embedding) if use_cosine else 0.0
    if score_words >= min_overlap or score_vectors >= min_cosine:
        return max(score_words, score_vectors)
    return 0.0
