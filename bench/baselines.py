"""Raw-turn baselines, shared by every retrieval benchmark: what an agent gets by dumping turns.

Four systems over the raw turns of one haystack ("Speaker: text"), each returning a ranking of
`Item`s (the turn ids an item shows and its text, so that token budgets count what is returned):

- `bm25`: BM25 (rank-bm25) over words, Chinese as character unigrams + bigrams;
- `bm25+-1`: the BM25 ranking, each turn shown with the turn before and after it in its session;
- `dense`: cosine over the turn embeddings, with the same embedder as ours (query prefix for e5);
- `hybrid`: reciprocal-rank fusion (k=60) of the bm25 and dense rankings;
- `bm25-sent`, `dense-sent`, `hybrid-sent`: the same over the *sentences* of the raw turns
  ("Speaker: sentence"), a raw baseline as compact as a memory: what a sceptic compares a
  compressed memory with at a small token budget.

Every token count in bench/ is `simplemem_graph.text.count_tokens` (one per CJK character, word
or punctuation mark), for ours and the baselines alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rank_bm25 import BM25Okapi

from simplemem_graph.compress.segment import split_sentences
from simplemem_graph.embedding import Embedder, encode_query
from simplemem_graph.text import STOPWORDS

CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
RRF_K = 60
BASELINES = ("bm25", "bm25+-1", "dense", "hybrid", "bm25-sent", "dense-sent", "hybrid-sent")


@dataclass(frozen=True)
class Item:
    """One returned unit: the source turn ids it shows and the text an agent would read."""

    ids: tuple[str, ...]
    text: str


def bm25_tokens(text: str) -> list[str]:
    """Lower-cased words; each CJK run as its characters and character bigrams (the usual
    segmentation-free Chinese baseline: no dictionary to disagree with)."""
    tokens: list[str] = []
    for run in CJK_RUN.finditer(text):
        chars = run.group(0)
        tokens.extend(chars)
        tokens.extend(chars[i : i + 2] for i in range(len(chars) - 1))
    latin = CJK_RUN.sub(" ", text)
    tokens.extend(w for w in (m.group(0).lower() for m in _WORD.finditer(latin)) if w not in STOPWORDS)
    return tokens


class RawTurnIndex:
    """The baselines over one haystack's turns.

    Args:
        ids: turn ids, in conversation order.
        texts: what each turn shows ("Speaker: text").
        sessions: each turn's session; +-1 neighbours never cross a session.
        embedder: the dense model (the same one ours uses).
    """

    def __init__(self, ids: Sequence[str], texts: Sequence[str], sessions: Sequence[str], embedder: Embedder):
        self.ids = list(ids)
        self.texts = list(texts)
        self.sessions = list(sessions)
        self.embedder = embedder
        self.turns = _Units(self.ids, self.texts, embedder)
        sentence_ids, sentence_texts = [], []
        for turn_id, text in zip(self.ids, self.texts, strict=True):
            for sentence in turn_sentences(text):
                sentence_ids.append(turn_id)
                sentence_texts.append(sentence)
        self.sentences = _Units(sentence_ids, sentence_texts, embedder)

    def rank(self, system: str, query: str, n: int = 30) -> list[Item]:
        units = self.sentences if system.endswith("-sent") else self.turns
        base = system.removesuffix("-sent")
        if base == "bm25":
            return units.items(units.bm25_order(query, n))
        if system == "bm25+-1":
            return [self._with_neighbours(i) for i in units.bm25_order(query, n)]
        if base == "dense":
            return units.items(units.dense_order(query, n))
        if base == "hybrid":
            return units.items(rrf([units.bm25_order(query, 3 * n), units.dense_order(query, 3 * n)])[:n])
        raise ValueError(f"baselines: unknown system {system!r}; use one of {BASELINES}")

    def _with_neighbours(self, i: int) -> Item:
        span = [
            j for j in (i - 1, i, i + 1) if 0 <= j < len(self.ids) and self.sessions[j] == self.sessions[i]
        ]
        return Item(tuple(self.ids[j] for j in span), "\n".join(self.texts[j] for j in span))


class _Units:
    """One ranking space: BM25 and dense vectors (when an embedder is given) over a list of texts."""

    def __init__(self, ids: Sequence[str], texts: Sequence[str], embedder: Embedder | None):
        self.ids = list(ids)
        self.texts = list(texts)
        self.embedder = embedder
        self.bm25 = BM25Okapi([bm25_tokens(t) or ["_"] for t in self.texts])
        self.matrix = embedder.encode(self.texts) if embedder is not None and self.texts else None

    def items(self, order: Sequence[int]) -> list[Item]:
        return [Item((self.ids[i],), self.texts[i]) for i in order]

    def bm25_order(self, query: str, n: int) -> list[int]:
        scores = np.asarray(self.bm25.get_scores(bm25_tokens(query)))
        return list(np.argsort(-scores, kind="stable")[:n])

    def dense_order(self, query: str, n: int) -> list[int]:
        scores = self.matrix @ encode_query(self.embedder, [query])[0]
        return list(np.argsort(-scores, kind="stable")[:n])


def turn_sentences(text: str) -> list[str]:
    """The sentences of one raw turn, each as "Speaker: sentence" when the turn reads "Speaker: ..."."""
    speaker, sep, said = text.partition(": ")
    if not sep:
        speaker, said = "", text
    sentences = [piece.text for piece in split_sentences(said)] or [said]
    return [f"{speaker}: {sentence}" if speaker else sentence for sentence in sentences]


def rrf(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[int]:
    """Reciprocal-rank fusion of several rankings of the same items."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank + 1)
    return sorted(scores, key=lambda i: -scores[i])
