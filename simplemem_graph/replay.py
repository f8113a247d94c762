"""Replay (seed 6.1, 回放机制): re-run a timestamped log slice by slice and, after each slice, ask the
questions whose evidence lies in the past, so a change of parameters is judged on how memory behaves
as it grows — two configurations side by side in one run.

Logs: LoCoMo (one conversation, `qa` with evidence turn ids), LongMemEval (one record: its haystack
and its question), or the project's JSON Lines turns with a queries file
(`{"id", "query", "evidence": [turn ids], "at"?}`). A query without evidence is asked after every
slice and scores no recall.

Per slice (FORMATS.md): slice, turns, events, questions, recall@5 (share of a question's evidence
turns among the source turns of the top 5, averaged), tokens@5 (returned tokens), p95_ms.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from simplemem_graph.config import DecayPolicy, Settings
from simplemem_graph.errors import ConfigError, InputError
from simplemem_graph.loaders import (
    _read_text,
    is_longmemeval,
    load_jsonl,
    load_locomo,
    load_locomo_questions,
    longmemeval_haystack,
    parse_time,
)
from simplemem_graph.models import Turn

SLICES = ("day", "week", "month")
REPLAY_K = 5
# Settings a replay config may change (the rest — stores, keys — are not parameters of memory).
_SETTING_KEYS = ("recall_k", "final_k", "embedding_model")
_DECAY_KEYS = tuple(f.name for f in fields(DecayPolicy))


@dataclass
class ReplayQuery:
    id: str
    query: str
    evidence: list[str] = field(default_factory=list)
    at: datetime | None = None


@dataclass
class ReplayLog:
    turns: list[Turn]
    queries: list[ReplayQuery]
    source: str  # locomo | longmemeval | jsonl


def slice_key(when: datetime, slices: str) -> str:
    """The label of the slice a time falls in: 2023-05-08, 2023-W19, 2023-05."""
    if slices == "day":
        return when.date().isoformat()
    if slices == "week":
        year, week, _ = when.isocalendar()
        return f"{year}-W{week:02d}"
    if slices == "month":
        return f"{when.year}-{when.month:02d}"
    raise InputError(f"replay: --slices must be one of {list(SLICES)}, got {slices!r}")


def load_replay_log(
    path: str | Path,
    *,
    queries: str | Path | None = None,
    sample: str | None = None,
    namespace: str = "replay",
) -> ReplayLog:
    """Read a log in any supported format, validated before anything runs.

    Raises:
        InputError: unreadable file, unknown format, a query file line that is not a query.
    """
    path = Path(path)
    text = _read_text(path)
    data: Any = None
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = None
    if is_longmemeval(data):
        records = [r for r in data if sample is None or r.get("question_id") == sample]
        if not records:
            raise InputError(f"{path}: no LongMemEval question {sample!r}")
        record = records[0]
        turns, gold = longmemeval_haystack(record, namespace)
        found = [ReplayQuery(record["question_id"], record["question"], sorted(gold))]
        return ReplayLog(turns, found + _read_queries(queries), "longmemeval")
    if isinstance(data, list) and data and isinstance(data[0], dict) and "conversation" in data[0]:
        chosen = sample or str(data[0].get("sample_id"))
        turns = load_locomo(path, sample=chosen, namespace=namespace)[chosen]
        asked = load_locomo_questions(path, chosen, {t.id for t in turns})
        found = [ReplayQuery(q["id"], q["query"], q["evidence"]) for q in asked]
        return ReplayLog(turns, found + _read_queries(queries), "locomo")
    if sample is not None:
        raise InputError("replay: --sample applies to LoCoMo and LongMemEval files only")
    turns = load_jsonl(path, namespace=namespace)
    if queries is None:
        raise InputError(f"replay: {path} is a JSON Lines log; give its questions with --queries FILE")
    return ReplayLog(turns, _read_queries(queries), "jsonl")


def _read_queries(path: str | Path | None) -> list[ReplayQuery]:
    if path is None:
        return []
    path = Path(path)
    found = []
    for n, line in enumerate(_read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"{where}: invalid JSON: {e.msg}") from e
        if (
            not isinstance(record, dict)
            or not isinstance(record.get("query"), str)
            or not record["query"].strip()
        ):
            raise InputError(f"{where}: a query needs a non-empty string `query`")
        evidence = record.get("evidence", [])
        if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
            raise InputError(f"{where}: `evidence` must be a list of turn ids")
        at = parse_time(record["at"], where) if record.get("at") is not None else None
        found.append(ReplayQuery(str(record.get("id", f"q{n}")), record["query"], evidence, at))
    return found


def load_config(path: str | Path, base: Settings) -> tuple[str, Settings]:
    """A replay configuration from TOML: top-level `name`, `recall_k`, `final_k`, `embedding_model`,
    and a `[decay]` table (full_days, archive_days, floor, hot_access_count).

    Raises:
        ConfigError: unreadable TOML or an unknown key (named, with the keys allowed).
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise ConfigError(f"{path}: no such file") from e
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from e
    name = str(data.pop("name", path.stem))
    decay = data.pop("decay", {})
    unknown = sorted(set(data) - set(_SETTING_KEYS)) + sorted(
        f"decay.{k}" for k in set(decay) - set(_DECAY_KEYS)
    )
    if unknown:
        raise ConfigError(
            f"{path}: unknown setting(s) {unknown}; allowed: {list(_SETTING_KEYS)}"
            f" and [decay] {list(_DECAY_KEYS)}"
        )
    for key in ("recall_k", "final_k"):
        if key in data and (not isinstance(data[key], int) or data[key] < 1):
            raise ConfigError(f"{path}: {key} must be a positive integer, got {data[key]!r}")
    try:
        settings = replace(base, **data, decay=replace(base.decay, **decay))
    except TypeError as e:
        raise ConfigError(f"{path}: {e}") from e
    return name, settings


@dataclass
class SliceReport:
    config: str
    slice: str
    turns: int
    events: int
    questions: int
    recall: float | None
    tokens: float | None
    p95_ms: float | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "config": self.config,
            "slice": self.slice,
            "turns": self.turns,
            "events": self.events,
            "questions": self.questions,
            "recall@5": None if self.recall is None else round(self.recall, 4),
            "tokens@5": None if self.tokens is None else round(self.tokens, 1),
            "p95_ms": None if self.p95_ms is None else round(self.p95_ms, 1),
        }


def _p95(values: Sequence[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def replay(
    log: ReplayLog,
    memory,
    *,
    slices: str = "week",
    config: str = "default",
    progress: Callable[[SliceReport], None] | None = None,
) -> list[SliceReport]:
    """Ingest the log slice by slice into `memory` (a fresh namespace) and, after each slice, ask the
    questions whose evidence turns are all ingested, at the end of the slice.

    Args:
        log: turns and questions (see `load_replay_log`).
        memory: a `Memory` over an empty namespace; written to.
        slices: day | week | month.
        config: the configuration's name, carried into every report.
    """
    turns = sorted(log.turns, key=lambda t: (t.time, t.id))
    if not turns:
        raise InputError("replay: the log holds no turns")
    order: dict[str, list[Turn]] = {}
    for turn in turns:
        order.setdefault(slice_key(turn.time, slices), []).append(turn)
    seen: set[str] = set()
    reports = []
    for label, batch in order.items():
        memory.add_many(batch)
        seen.update(t.id for t in batch)
        asked_at = batch[-1].time
        recalls, tokens, took = [], [], []
        asked = 0
        for q in log.queries:
            if q.evidence and not set(q.evidence) <= seen:
                continue  # its evidence lies in the future
            if q.at is not None and q.at > asked_at:
                continue
            result = memory.search(q.query, k=REPLAY_K, at=asked_at)
            asked += 1
            took.append(result.took_ms)
            tokens.append(result.context_tokens)
            if q.evidence:
                found = {s for hit in result.hits for s in hit.event.source_ids}
                recalls.append(len(found & set(q.evidence)) / len(q.evidence))
        report = SliceReport(
            config=config,
            slice=label,
            turns=len(batch),
            events=memory.stats().get("events", 0),
            questions=asked,
            recall=sum(recalls) / len(recalls) if recalls else None,
            tokens=sum(tokens) / len(tokens) if tokens else None,
            p95_ms=_p95(took),
        )
        reports.append(report)
        if progress:
            progress(report)
    return reports


def replay_scratch(
    log: ReplayLog,
    *,
    embedder,
    configs: Sequence[tuple[str, Settings]],
    slices: str = "week",
    store=None,
    progress: Callable[[SliceReport], None] | None = None,
) -> list[SliceReport]:
    """Replay the log once per configuration into scratch memory, with one embedder: what the CLI,
    REST and MCP run.

    Args:
        store: a server store (Neo4j) to replay into, so the replay measures that store: each
            configuration gets a fresh namespace of it, deleted afterwards (the store stays open).
            None: a fresh in-memory embedded store per configuration.
    """
    from uuid import uuid4

    from simplemem_graph.memory import Memory
    from simplemem_graph.stores.embedded import EmbeddedStore

    reports: list[SliceReport] = []
    for name, settings in configs:
        scratch = store if store is not None else EmbeddedStore(":memory:")
        namespace = f"replay-{uuid4().hex[:10]}"
        memory = Memory(scratch, namespace=namespace, embedder=embedder, settings=settings)
        try:
            reports += replay(log, memory, slices=slices, config=name, progress=progress)
        finally:
            if store is None:
                memory.close()
            else:
                store.delete_namespace(namespace)
    return reports


def replay_server_store(store):
    """The store a replay should write its scratch namespaces into: a server store (Neo4j) is
    measured as itself; an embedded store is left alone (replays go to in-memory scratch)."""
    return store if getattr(store, "kind", None) == "neo4j" else None


def plot_replay(reports: Sequence[SliceReport], path: str | Path) -> None:
    """recall@5 and tokens@5 per slice, one line per configuration, as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ConfigError("replay --plot needs matplotlib (pip install 'simplemem-graph[dev]')") from e
    configs = list(dict.fromkeys(r.config for r in reports))
    labels = list(dict.fromkeys(r.slice for r in reports))
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(max(6, len(labels) * 0.45), 6), sharex=True)
    for name in configs:
        rows = {r.slice: r for r in reports if r.config == name}
        xs = list(range(len(labels)))
        top.plot(
            xs,
            [rows[s].recall if s in rows and rows[s].recall is not None else float("nan") for s in labels],
            marker="o",
            label=name,
        )
        bottom.plot(
            xs,
            [rows[s].tokens if s in rows and rows[s].tokens is not None else float("nan") for s in labels],
            marker="o",
            label=name,
        )
    top.set_ylabel("recall@5")
    top.set_ylim(0, 1)
    top.legend()
    bottom.set_ylabel("tokens@5")
    bottom.set_xticks(range(len(labels)), labels, rotation=60, fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
