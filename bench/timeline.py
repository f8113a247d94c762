"""Timeline benchmark: the entity storyline from the graph vs plain vector search, in one run.

Ingests timeline_dev.json with the real pipeline (Memory over EmbeddedStore(":memory:")), then for
each query:
- graph: the query's entity is found in the query text by name/alias lookup (never from the gold
  `about` field, which is only reported), and its storyline (store.entity_events, any status,
  limited to the query's time range when the query names one) is returned oldest first;
- vector: store.vector_search with the query embedding, top-k with the same k, by score.
Both are scored on gold turns (recall, precision of the returned events' source_ids) and order
(Kendall tau between the returned order and the gold chronological order, over retrieved gold).

It also measures entity resolution against the file's alias lists, and SUPERSEDES / CONTRADICTS
against the updates annotated below (from the queries' notes and the dialogue).

    python bench/timeline.py [--data PATH] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from datetime import UTC, date, datetime
from pathlib import Path

from scipy.stats import kendalltau

from simplemem_graph.consolidate.entities import name_occurs
from simplemem_graph.memory import Memory
from simplemem_graph.models import LinkKind, Turn
from simplemem_graph.retrieve.timerange import parse_time_range
from simplemem_graph.stores.embedded import EmbeddedStore

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "timeline_dev.json"
NAMESPACE = "timeline-dev"

# Updates a careful reader finds in the dev dialogue: (newer turns, older turns, what changed, kind).
# A found link matches when its newer event comes from a newer turn and its older event from an
# older turn. "either" = an implicit change that SUPERSEDES or CONTRADICTS may both fairly flag.
EXPECTED_UPDATES = [
    ({"s2:1", "s2:2"}, {"s1:1"}, "锐拓 unit price 3.6 -> 3.85 (correction)", "SUPERSEDES"),
    ({"s4:7", "s4:8", "s5:4", "s5:6"}, {"s2:1", "s2:2"}, "锐拓 2nd batch price 3.85 -> 3.65", "SUPERSEDES"),
    ({"s5:5", "s5:6"}, {"s2:3"}, "锐拓 2nd batch date 03-06 -> 03-13", "SUPERSEDES"),
    ({"s3:12"}, {"s1:5", "s1:6"}, "锐丰 delivery 02-05 -> 02-04", "SUPERSEDES"),
    ({"s4:11", "s4:12"}, {"s1:5", "s1:6", "s2:10"}, "锐丰 price 1.25 -> 1.32", "SUPERSEDES"),
    ({"s7:3", "s7:4"}, {"s6:5", "s6:6"}, "framework quantity 60000 -> 50000", "SUPERSEDES"),
    ({"s3:3", "s3:4"}, {"s1:3", "s2:3"}, "锐拓 1st batch arrival 01-30 -> 02-10", "either"),
    (
        {"s4:5"},
        {"s3:4", "s4:2", "s4:4"},
        "penalty 11 days / 2117.5 vs 7 working days / 1347.5",
        "CONTRADICTS",
    ),
]


def load_turns(data: dict) -> list[Turn]:
    return [
        Turn(
            id=t["id"],
            namespace=NAMESPACE,
            session=t["session"],
            speaker=t["speaker"],
            time=datetime.fromisoformat(t["time"]),
            text=t["text"],
        )
        for t in data["turns"]
    ]


def find_query_entities(store, query: str) -> list[str]:
    """Entity ids named in the query text (canonical names or aliases, longest names first)."""
    names = sorted(
        (
            (name, e.id)
            for e in store.list_entities(NAMESPACE)
            for name in (e.name, *e.aliases)
            if len(name) >= 2 and name.lower() not in ("user", "assistant")
        ),
        key=lambda pair: -len(pair[0]),
    )
    found, covered = [], query
    for name, entity_id in names:
        if name_occurs(name, covered):
            found.append(entity_id)
            covered = covered.replace(name, " " * len(name))  # 锐拓 inside a longer matched name counts once
    return list(dict.fromkeys(found))


def score(returned_turns: list[str], gold: list[str], order_matters: bool) -> dict:
    """Recall / precision of gold turns; Kendall tau of the order in which gold turns come back."""
    returned_set, gold_set = set(returned_turns), set(gold)
    hits = returned_set & gold_set
    first_seen = list(dict.fromkeys(t for t in returned_turns if t in gold_set))
    tau = None
    if order_matters and len(first_seen) >= 2:
        tau = float(kendalltau([gold.index(t) for t in first_seen], list(range(len(first_seen)))).statistic)
    return {
        "recall": len(hits) / len(gold_set) if gold_set else 0.0,
        "precision": len(hits) / len(returned_set) if returned_set else 0.0,
        "tau": tau,
        "returned_turns": len(returned_set),
    }


def turns_of(events) -> list[str]:
    return [s for e in events for s in e.source_ids]


def run_queries(memory: Memory, data: dict) -> list[dict]:
    store, rows = memory.store, []
    last_turn_time = max(datetime.fromisoformat(t["time"]) for t in data["turns"])
    for q in data["queries"]:
        entity_ids = find_query_entities(store, q["query"])
        span = parse_time_range(q["query"], last_turn_time)
        time_from, time_to = (span.start, span.end) if span else (None, None)
        graph_events = (
            store.entity_events(NAMESPACE, entity_ids, statuses=None, time_from=time_from, time_to=time_to)
            if entity_ids
            else []
        )
        if span:  # the range is about when things happened, not every date an event names
            graph_events = [e for e in graph_events if span.contains(e.time.date())]
        k = max(len(graph_events), 5)
        vector = memory.embedder.encode([q["query"]])[0]
        vector_ids = [h.id for h in store.vector_search(NAMESPACE, vector, k, statuses=None)]
        vector_events = store.get_events(NAMESPACE, vector_ids)
        names = [e.name for e in store.list_entities(NAMESPACE) if e.id in set(entity_ids)]
        rows.append(
            {
                "id": q["id"],
                "type": q["type"],
                "about": q["about"],
                "entities_found": names,
                "k": k,
                "graph": score(turns_of(graph_events), q["gold_turns"], q["gold_order_matters"]),
                "vector": score(turns_of(vector_events), q["gold_turns"], q["gold_order_matters"]),
            }
        )
    return rows


def entity_resolution(store, data: dict) -> dict:
    """Alias precision/recall against the file's entity lists (alias -> canonical pairs)."""
    group = {}
    for i, entity in enumerate(data["entities"]):
        for name in (entity["canonical"], *entity["aliases"]):
            group[name.casefold()] = i
    entities = {e.id: e for e in store.list_entities(NAMESPACE)}
    canonical_of = {lk.source: lk.target for lk in store.list_links(NAMESPACE, kinds=[LinkKind.ALIAS_OF])}

    def root(entity_id: str) -> str:
        while entity_id in canonical_of:
            entity_id = canonical_of[entity_id]
        return entity_id

    predicted = [
        (entities[s].name, entities[t].name)
        for s, t in canonical_of.items()
        if s in entities and t in entities
    ]
    correct = [
        p
        for p in predicted
        if group.get(p[0].casefold()) is not None and group.get(p[0].casefold()) == group.get(p[1].casefold())
    ]
    gold_pairs = [(a, e["canonical"]) for e in data["entities"] for a in e["aliases"]]
    resolved = []
    for alias, canonical in gold_pairs:
        alias_roots = {root(e.id) for e in store.find_entities(NAMESPACE, alias)}
        canonical_roots = {root(e.id) for e in store.find_entities(NAMESPACE, canonical)}
        if alias_roots & canonical_roots:
            resolved.append(alias)
    candidates = store.list_links(NAMESPACE, kinds=[LinkKind.CANDIDATE_ALIAS])
    candidate_pairs = [
        (entities[c.source].name, entities[c.target].name)
        for c in candidates
        if c.source in entities and c.target in entities
    ]
    candidate_right = [
        p
        for p in candidate_pairs
        if group.get(p[0].casefold()) is not None and group.get(p[0].casefold()) == group.get(p[1].casefold())
    ]
    return {
        "alias_links": len(predicted),
        "alias_correct": len(correct),
        "alias_precision": len(correct) / len(predicted) if predicted else 0.0,
        "gold_aliases": len(gold_pairs),
        "gold_resolved": len(resolved),
        "alias_recall": len(resolved) / len(gold_pairs) if gold_pairs else 0.0,
        "missed": sorted({a for a, _ in gold_pairs} - set(resolved)),
        "wrong": [f"{a} -> {c}" for a, c in predicted if (a, c) not in correct],
        "candidates": len(candidate_pairs),
        "candidates_right": len(candidate_right),
        "canonical_entities": len(entities) - len(canonical_of),
    }


def update_links(store) -> dict:
    """SUPERSEDES / CONTRADICTS found vs EXPECTED_UPDATES."""
    events = {e.id: e for e in store.list_events(NAMESPACE)}
    found = [
        (lk.kind.value, set(events[lk.source].source_ids), set(events[lk.target].source_ids), lk.props)
        for lk in store.list_links(NAMESPACE, kinds=[LinkKind.SUPERSEDES, LinkKind.CONTRADICTS])
        if lk.source in events and lk.target in events
    ]
    matched_expected, right_kind, matched_found = set(), set(), set()
    for i, (newer, older, _what, kind) in enumerate(EXPECTED_UPDATES):
        for j, (found_kind, src, dst, _props) in enumerate(found):
            if src & newer and dst & older:
                matched_expected.add(i)
                matched_found.add(j)
                if kind in ("either", found_kind):
                    right_kind.add(i)
    by_kind = defaultdict(int)
    for found_kind, *_ in found:
        by_kind[found_kind] += 1
    return {
        "found": dict(by_kind),
        "expected": len(EXPECTED_UPDATES),
        "expected_found": len(matched_expected),
        "expected_found_right_kind": len(right_kind),
        "precision": len(matched_found) / len(found) if found else 0.0,
        "missed": [EXPECTED_UPDATES[i][2] for i in range(len(EXPECTED_UPDATES)) if i not in matched_expected],
        "unexpected": [
            f"{k} {sorted(s)} -> {sorted(d)} {p.get('attribute')}"
            for j, (k, s, d, p) in enumerate(found)
            if j not in matched_found
        ],
    }


def summarise(rows: list[dict]) -> dict:
    """Medians per query type and overall, for each method."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups[row["type"]].append(row)
        groups["ALL"].append(row)
    summary = {}
    for name, members in groups.items():
        summary[name] = {}
        for method in ("graph", "vector"):
            taus = [m[method]["tau"] for m in members if m[method]["tau"] is not None]
            summary[name][method] = {
                "recall": statistics.median(m[method]["recall"] for m in members),
                "precision": statistics.median(m[method]["precision"] for m in members),
                "tau": statistics.median(taus) if taus else None,
            }
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--json", action="store_true", help="print one machine-readable JSON object")
    args = parser.parse_args(argv)
    data = json.loads(args.data.read_text(encoding="utf-8"))

    memory = Memory(EmbeddedStore(":memory:"), namespace=NAMESPACE)
    memory.embedder.encode(["warm up"])
    started = time.perf_counter()
    report = memory.add_many(load_turns(data))
    ingest_s = time.perf_counter() - started
    started = time.perf_counter()
    pass_counts = memory.consolidate(now=datetime(2026, 3, 31, tzinfo=UTC))
    pass_s = time.perf_counter() - started

    rows = run_queries(memory, data)
    result = {
        "data": str(args.data),
        "turns": len(data["turns"]),
        "events": report.events,
        "ingest_s": round(ingest_s, 2),
        "global_pass_s": round(pass_s, 2),
        "consolidate_counts": report.consolidate,
        "global_pass_counts": pass_counts,
        "queries": rows,
        "summary": summarise(rows),
        "entity_resolution": entity_resolution(memory.store, data),
        "updates": update_links(memory.store),
        "date": date.today().isoformat(),
    }
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    print(
        f"{result['turns']} turns -> {result['events']} events; "
        f"ingest {ingest_s:.1f}s, global pass {pass_s:.1f}s"
    )
    print(f"consolidate: {report.consolidate}\nglobal pass: {pass_counts}\n")
    print(
        f"{'query':5} {'type':13} {'entities found':28} {'k':>3} | graph R / P / tau     | vector R / P / tau"
    )
    for row in rows:
        g, v = row["graph"], row["vector"]
        print(
            f"{row['id']:5} {row['type']:13} {','.join(row['entities_found'])[:28]:28} {row['k']:3d} | "
            f"{g['recall']:.2f} / {g['precision']:.2f} / {_tau(g['tau'])} | "
            f"{v['recall']:.2f} / {v['precision']:.2f} / {_tau(v['tau'])}"
        )
    print("\nmedians by type (graph vs vector):")
    for name, methods in result["summary"].items():
        g, v = methods["graph"], methods["vector"]
        print(
            f"  {name:13} R {g['recall']:.2f} vs {v['recall']:.2f}"
            f"   P {g['precision']:.2f} vs {v['precision']:.2f}"
            f"   tau {_tau(g['tau'])} vs {_tau(v['tau'])}"
        )
    print(f"\nentity resolution: {json.dumps(result['entity_resolution'], ensure_ascii=False)}")
    print(f"updates: {json.dumps(result['updates'], ensure_ascii=False, indent=1)}")
    return 0


def _tau(value: float | None) -> str:
    return f"{value:5.2f}" if value is not None else "  -  "


if __name__ == "__main__":
    sys.exit(main())
