"""`Memory`: the one place that wires the stages to a store. Everything else calls this.

The class is stacked from parts, each a module, as the stores are: `ingest.Ingest` (the log, the
queue and its lease, stages 1 and 2, the global pass) < `reranking.Reranking` (feedback and the
namespace's reranker) < `erasure.Forgetting` (`forget`) < `Memory` (opening, search, questions,
patterns, context, timelines, stories, statistics, export and import). `stores.factory.open_store`
opens a store by URI.

>>> from simplemem_graph import Memory
>>> mem = Memory.open(":memory:", namespace="demo")
>>> mem.add("Acme moved the kickoff to 2026-03-12 because their CTO is travelling", speaker="Ana")
>>> [hit.event.text for hit in mem.search("when is the Acme kickoff?").results]
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from simplemem_graph.config import Settings, check_turn_size, validate_namespace
from simplemem_graph.consolidate import Conflict, list_conflicts
from simplemem_graph.consolidate.calibration import configured_calibration
from simplemem_graph.consolidate.global_pass import tier_pass_key
from simplemem_graph.consolidate.questions import build_questions
from simplemem_graph.consolidate.similarity import content_terms
from simplemem_graph.embedding import Embedder, make_embedder
from simplemem_graph.erasure import Erasure, Forgetting
from simplemem_graph.errors import (
    InputError,
    NotFoundError,
)
from simplemem_graph.ingest import CONSOLIDATION_LEASE, IngestReport, _time_or_now
from simplemem_graph.loaders import as_time
from simplemem_graph.models import (
    DEFAULT_STATUSES,
    Entity,
    Event,
    EventStatus,
    GraphDelta,
    Hit,
    LinkKind,
    Pattern,
    PatternStatus,
    Question,
)
from simplemem_graph.retrieve import RetrievalResult, build_context, fill_budget, retrieve
from simplemem_graph.retrieve.described import described_party
from simplemem_graph.retrieve.query import content_words
from simplemem_graph.retrieve.story import Story, entity_story
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.factory import open_store
from simplemem_graph.stores.queries import EventQuery, FailedTurns
from simplemem_graph.text import count_tokens

__all__ = ["CONSOLIDATION_LEASE", "SAMPLE_CONVERSATION", "Erasure", "IngestReport", "Memory", "open_store"]

SAMPLE_CONVERSATION = Path(__file__).parent / "data" / "sample_conversation.jsonl"
AGENT_FILTER_WIDENING = 4  # rank this many times k before keeping one agent's memories
DESCRIBED_HITS = 8  # memories read for the party a question describes (`Memory.described`)
QUESTION_SCAN = 500  # newest open-question events read to rank questions (importance favours recent)


class Memory(Forgetting):
    """Lifelong memory for one namespace (a user, an agent, a team) over one store.

    Args:
        store: a `GraphStore` (EmbeddedStore, Neo4jStore).
        namespace: the tenant every read and write is scoped to.
        embedder: sentence embedder; default `settings.embedding_model`, loaded on first use.
        settings: recall/final k, decay policy, model names.
    """

    def __init__(
        self,
        store: GraphStore,
        *,
        namespace: str | None = None,
        embedder: Embedder | None = None,
        settings: Settings | None = None,
        agent: str | None = None,
    ):
        self.settings = settings or Settings.from_env()
        self.store = store
        self.namespace = validate_namespace(namespace or self.settings.namespace)
        self.embedder = embedder or make_embedder(self.settings.embedding_model)
        self.calibration = configured_calibration(self.settings.calibration, self.embedder.name)
        self._model_checked = False
        self.agent = agent  # written on every turn this Memory logs (unless the turn names one)
        # The names role-labelled speakers gave ("我叫陈阳"), kept across batches of this process so
        # "我" of "user" reads the same name after the batch that introduced it.
        self._introduced: dict[str, dict[str, str]] = {}
        self._threads = threading.local()  # a lease holder id per thread (see `_holder`)

    @classmethod
    def open(cls, store: str | None = None, *, namespace: str | None = None, **kwargs) -> Memory:
        """Open a store by URI (see `open_store`) and wrap it."""
        settings = kwargs.pop("settings", None) or Settings.from_env()
        return cls(
            open_store(store or settings.store, settings), namespace=namespace, settings=settings, **kwargs
        )

    def with_namespace(self, namespace: str) -> Memory:
        """The same store, models and settings, scoped to another namespace."""
        return Memory(
            self.store, namespace=namespace, embedder=self.embedder, settings=self.settings, agent=self.agent
        )

    # ---- write --------------------------------------------------------------------------------
    # ---- read ---------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        at: datetime | str | None = None,
        include_archived: bool = False,
        session: str | None = None,
        budget: int | None = None,
        agent: str | None = None,
    ) -> RetrievalResult:
        """The k (default 5) memories most useful for `query`, each with score, sources and path.

        `at` is when the question is asked: it anchors "last week" or 上周 (default: now).
        `budget` (tokens) instead returns as many memories as fit, best first.
        `agent` keeps only memories written by that agent (several agents sharing one namespace).
        Retrieved events are refreshed (access count, last access).
        """
        if not isinstance(query, str) or not query.strip():
            raise InputError("search: `query` must be a non-empty string")
        if agent is not None and not agent.strip():
            raise InputError("search: `agent` must be a non-empty agent name")
        self._check_model()
        at = datetime.now(UTC) if at is None else as_time(at, "search: `at`")
        final_k = k or self.settings.final_k
        # An agent filter is applied to a wider ranking, so k memories of that agent remain.
        asked_k = final_k * AGENT_FILTER_WIDENING if agent else final_k
        result = retrieve(
            query,
            self.store,
            namespace=self.namespace,
            embedder=self.embedder,
            at=at,
            k=asked_k,
            recall_k=max(self.settings.recall_k, 3 * asked_k),
            include_archived=include_archived,
            session=session,
            decay=self.settings.decay_for(self.namespace),
            budget=None if agent else budget,
            scorer=self._stored_reranker(),
        )
        if agent:
            kept = [hit for hit in result.hits if hit.event.agent == agent]
            if budget is not None:
                kept = fill_budget(kept, budget, query)
            result.hits = kept if budget is not None else kept[:final_k]
            result.context_tokens = sum(count_tokens(hit.event.text) for hit in result.hits)
        if result.hits:
            self.store.apply_delta(
                GraphDelta(namespace=self.namespace, touched=[h.event.id for h in result.hits], touched_at=at)
            )
        result.patterns = self.patterns_for(query, result.hits)
        return result

    # ---- memory above the event ------------------------------------------------------
    def questions(self, *, limit: int | None = 20, at: datetime | str | None = None) -> list[Question]:
        """Open questions of active memory, most important first: the key slots (deadline, owner,
        amount, place, time) that tasks, meetings and commitments still lack."""
        if limit is not None and (not isinstance(limit, int) or limit < 1):
            raise InputError(f"questions: `limit` must be a positive integer, got {limit!r}")
        events = self.store.events(self.namespace, EventQuery(open_questions=True, limit=QUESTION_SCAN))
        found = build_questions(events, at=_time_or_now(at, "questions: `at`"))
        return found if limit is None else found[:limit]

    def questions_for(
        self, hits: Sequence[Hit], *, at: datetime | str | None = None, limit: int = 3
    ) -> list[Question]:
        """Open questions of the hits' topic: about a hit, or an event sharing an entity or topic with one."""
        open_events = self.store.events(self.namespace, EventQuery(open_questions=True, limit=QUESTION_SCAN))
        if not open_events or not hits:
            return []
        hit_ids = {h.event.id for h in hits}
        ids = sorted(hit_ids | {e.id for e in open_events})
        reach: dict[str, set[str]] = {}
        for link in self.store.links(
            self.namespace, kinds=[LinkKind.MENTIONS, LinkKind.IN_TOPIC], node_ids=ids
        ):
            reach.setdefault(link.source, set()).add(link.target)
        near = set().union(*(reach.get(i, set()) for i in hit_ids))
        related = [e for e in open_events if e.id in hit_ids or reach.get(e.id, set()) & near]
        return build_questions(related, at=_time_or_now(at, "questions: `at`"))[:limit]

    def patterns(self, *, include_retired: bool = False) -> list[tuple[Pattern, list[Event]]]:
        """Pattern memories with the events they were counted from (oldest first)."""
        statuses = None if include_retired else [PatternStatus.ACTIVE]
        patterns = self.store.patterns(self.namespace, statuses=statuses)
        if not patterns:
            return []
        evidence: dict[str, list[str]] = {}
        links = self.store.links(
            self.namespace, kinds=[LinkKind.EVIDENCED_BY], node_ids=[p.id for p in patterns]
        )
        for link in links:
            evidence.setdefault(link.source, []).append(link.target)
        events = {
            e.id: e
            for e in self.store.events(
                self.namespace, EventQuery(ids=sorted({t for v in evidence.values() for t in v}))
            )
        }
        return [
            (
                p,
                sorted(
                    (events[i] for i in evidence.get(p.id, []) if i in events), key=lambda e: (e.time, e.id)
                ),
            )
            for p in patterns
        ]

    def patterns_for(self, query: str, hits: Sequence[Hit], *, limit: int = 2) -> list[Pattern]:
        """Active patterns above the hits: those evidenced by a hit, or naming the query's words and
        subject. Patterns are few per namespace (one per regular group), so all are read."""
        patterns = self.store.patterns(self.namespace, statuses=[PatternStatus.ACTIVE])
        if not patterns:
            return []
        hit_ids = [h.event.id for h in hits]
        counted: dict[str, int] = {}
        for link in (
            self.store.links(self.namespace, kinds=[LinkKind.EVIDENCED_BY], node_ids=hit_ids)
            if hit_ids
            else []
        ):
            if link.target in hit_ids:
                counted[link.source] = counted.get(link.source, 0) + 1
        terms = content_terms(query.casefold())
        scored = []
        for p in patterns:
            shared = len(terms & content_terms(p.text.casefold()))
            named = p.subject.casefold() in query.casefold()
            if counted.get(p.id) or (named and shared >= 2):
                scored.append((counted.get(p.id, 0) + 0.1 * shared, p))
        return [p for _, p in sorted(scored, key=lambda x: (-x[0], x[1].id))[:limit]]

    def context(
        self,
        query: str,
        *,
        k: int | None = None,
        at: datetime | str | None = None,
        knowledge: Sequence[str] = (),
        instruction: str = "",
        budget_tokens: int = 600,
        questions: bool = True,
    ) -> str:
        """A prompt block in the seed's order: memories, then external knowledge, then the instruction.

        Pattern memories that summarise the hits go above them; with `questions`, the
        open questions of the hits' topic follow the memories, for the agent to ask."""
        at = _time_or_now(at, "context: `at`")
        result = self.search(query, k=k, at=at)
        asks = (
            [q.question + " — " + q.event.text for q in self.questions_for(result.hits, at=at)]
            if questions
            else []
        )
        return build_context(
            result.hits,
            knowledge=knowledge,
            instruction=instruction,
            budget_tokens=budget_tokens,
            patterns=[p.text for p in result.patterns],
            questions=asks,
        )

    def timeline(
        self,
        entity: str,
        *,
        date_from: date | None = None,
        date_to: date | None = None,
        include_archived=False,
    ) -> list[Hit]:
        """The story of an entity (by canonical name or any alias), oldest first: see `story`.
        Each hit's path says why it is there; replaced values say SUPERSEDED BY, the latest CURRENT."""
        return self.story(
            entity, date_from=date_from, date_to=date_to, include_archived=include_archived
        ).hits

    def story(
        self,
        entity: str,
        *,
        date_from: date | None = None,
        date_to: date | None = None,
        include_archived=False,
    ) -> Story:
        """An entity's story: its aliases, people, suppliers, its events (superseded ones included,
        as history) and the SUPERSEDES chains of its changing values.

        Raises:
            NotFoundError: no entity has that name.
        """
        statuses = None if include_archived else [*DEFAULT_STATUSES, EventStatus.SUPERSEDED]
        try:
            return entity_story(
                self.store, self.namespace, entity, statuses=statuses, date_from=date_from, date_to=date_to
            )
        except NotFoundError as e:
            if self.exists():
                raise
            raise NotFoundError(f"{e} (nothing was ever written to this namespace)") from e

    def described(self, query: str, *, at: datetime | str | None = None) -> Entity | None:
        """The organisation a question describes without naming it ("滨江那家最后是哪天上线的？",
        "when is the credit union's gala now?"): the one the best memories for the question
        mention most, at least twice as often as any other (`retrieve.described`); None when no one
        stands out. Its `story` is then the answer's history. A search: it refreshes what it reads."""
        result = self.search(query, k=DESCRIBED_HITS, at=at, include_archived=True)
        return described_party(self.store, self.namespace, result.hits, content_words(query))

    def conflicts(self) -> list[Conflict]:
        """Unresolved CONTRADICTS pairs, for the agent (or a person) to clarify."""
        return list_conflicts(self.store, self.namespace)

    def namespaces(self) -> list[str]:
        """Every namespace in the store (not only this one)."""
        return self.store.namespaces()

    def stats(self) -> dict[str, Any]:
        """The store's counts for this namespace (`events_by_tier`: tier sizes now), and
        `last_tier_pass`: when the global pass last moved tiers, the time ages were measured from,
        the events it moved `to_hot` / `to_cold` and the tier sizes after it (None before any)."""
        counts = self.store.stats(self.namespace)
        recorded = self.store.get_meta(tier_pass_key(self.namespace))
        counts["last_tier_pass"] = json.loads(recorded) if recorded else None
        names = self.store.namespaces()
        counts["namespaces"] = len(names)  # in the store, not 1 for "this one"
        counts["namespace_exists"] = self.namespace in names
        counts["failed"] = len(self.store.turns(self.namespace, FailedTurns()))
        return counts

    def exists(self) -> bool:
        """Whether anything was ever written to this namespace (a turn or an event): a read of a
        namespace that does not exist answers nothing, and says so, since a typo would look like
        an empty memory."""
        return self.namespace in self.store.namespaces()

    # ---- maintenance --------------------------------------------------------------------------
    def export(self) -> Iterator[dict[str, Any]]:
        """Every record of the namespace (raw log, events, entities, topics, links) as JSON dicts."""
        return self.store.export_records(self.namespace)

    def export_jsonl(self, path: str | Path) -> int:
        count = 0
        with open(path, "w", encoding="utf-8") as f:
            for record in self.export():
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
                count += 1
        return count

    def import_records(self, records: Iterable[dict[str, Any]]) -> dict[str, int]:
        """Load exported records into this namespace; importing the same file twice changes nothing."""
        records = list(records)
        for number, record in enumerate(records, 1):
            if (
                isinstance(record, dict)
                and record.get("type") == "turn"
                and isinstance(record.get("text"), str)
            ):
                check_turn_size(record["text"], f"import: record {number}")
        try:
            return self.store.import_records(records, namespace=self.namespace)
        except (ValueError, TypeError) as e:  # pydantic's ValidationError is a ValueError
            raise InputError(f"import: {e}") from e

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
