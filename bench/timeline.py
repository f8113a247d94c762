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
against the updates annotated for the story (the file's own `updates` field, as in
bench/data/timeline_dev3.json, or the constants below for the two shared dev stories): found /
expected, and whether each chain ends current (its newest value active, the replaced ones superseded).

    python bench/timeline.py [--data PATH ...] [--json]
    python bench/timeline.py --markdown --data ../shared/data/timeline_dev.json \
        ../shared/data/timeline_dev2.json bench/data/timeline_dev3.json   # the README tables
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from datetime import date, datetime
from pathlib import Path

from rank_bm25 import BM25Okapi
from scipy.stats import kendalltau

from simplemem_graph.compress.names import load_english_pipeline
from simplemem_graph.consolidate.name_matching import name_occurs
from simplemem_graph.errors import NotFoundError
from simplemem_graph.memory import Memory
from simplemem_graph.models import LinkKind, Turn
from simplemem_graph.retrieve.timerange import parse_time_range
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.text import count_tokens, tokenize

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_stories import generate

from simplemem_graph.stores.queries import EntityQuery, EventQuery

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "timeline_dev.json"
NAMESPACE = "timeline-dev"
METHODS = ("graph", "search", "bm25")  # graph = what `timeline` returns

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
# The same for timeline_dev2.json (shared data, so annotated here): every value that changes.
EXPECTED_UPDATES_DEV2 = [
    ({"s3:9", "s3:10"}, {"s1:4", "s1:5"}, "A&R rate 2,350 -> 2,780 (GRI)", "SUPERSEDES"),
    (
        {"s5:6", "s5:7"},
        {"s3:9", "s3:10", "s4:12", "s4:13"},
        "A&R rate 2,780 -> 2,560 (Q2 deal)",
        "SUPERSEDES",
    ),
    (
        {"s4:11", "s5:4", "s5:5"},
        {"s4:3", "s4:4", "s4:5"},
        "A&R amount due 920 -> 580 (50/50 split)",
        "SUPERSEDES",
    ),
    ({"s6:6", "s6:7"}, {"s1:3"}, "A&R logistics contact Fi -> Ollie", "SUPERSEDES"),
]


def expected_updates(data: dict) -> list[tuple[set[str], set[str], str, str]]:
    """The updates annotated for a story: its own `updates` field, else the constants above."""
    if "updates" in data:
        return [(set(u["newer"]), set(u["older"]), u["what"], u["kind"]) for u in data["updates"]]
    name = data.get("name", "")
    if name.startswith("dev2"):
        return EXPECTED_UPDATES_DEV2
    if name.startswith("dev:"):
        return EXPECTED_UPDATES
    return []


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
            for e in store.entities(NAMESPACE, EntityQuery())
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


def _tokens_of_turns(turn_ids, turn_text: dict[str, str]) -> int:
    return sum(count_tokens(turn_text[t]) for t in dict.fromkeys(turn_ids) if t in turn_text)


class BM25Turns:
    """BM25 over the raw turns ("speaker: text"), cut at a token budget (the baseline)."""

    def __init__(self, data: dict):
        self.ids = [t["id"] for t in data["turns"]]
        self.bm25 = BM25Okapi([tokenize(f"{t['speaker']}: {t['text']}") or ["_"] for t in data["turns"]])

    def top(self, query: str, budget_tokens: int, turn_text: dict[str, str]) -> list[str]:
        scores = self.bm25.get_scores(tokenize(query))
        order = sorted(range(len(self.ids)), key=lambda i: -scores[i])
        out, used = [], 0
        for i in order:
            if used >= budget_tokens or scores[i] <= 0:
                break
            out.append(self.ids[i])
            used += count_tokens(turn_text[self.ids[i]])
        return out


def _timeline_turns(memory: Memory, names: list[str], span) -> list[str]:
    """What `timeline NAME [--from --to]` returns, as source turn ids in the returned order."""
    turns: list[str] = []
    for name in names:
        try:
            hits = memory.timeline(
                name,
                date_from=span.start if span else None,
                date_to=span.end if span else None,
                include_archived=True,
            )
        except NotFoundError:
            continue
        turns += [s for h in hits for s in h.event.source_ids]
    return list(dict.fromkeys(turns))


def run_queries(memory: Memory, data: dict) -> list[dict]:
    """Per question: what `timeline` and `search` return, and BM25 over raw turns at search's budget.

    `search` gets k = max(5, gold turns) (recall at the gold size: it cannot reach 1.0 by
    returning the whole store); BM25 gets as many raw-turn tokens as search's source turns hold.

    The entity given to `timeline` is the form the question names (`entity_form` in generated
    stories; in the dev file, the names found in the question text by store lookup, else the
    client's name when the question says it word for word: what a user would type; else the
    party `Memory.described` finds the question describes, if one stands out).
    """
    store, rows = memory.store, []
    last_turn_time = max(datetime.fromisoformat(t["time"]) for t in data["turns"])
    turn_text = {t["id"]: f"{t['speaker']}: {t['text']}" for t in data["turns"]}
    bm25 = BM25Turns(data)
    for q in data["queries"]:
        span = parse_time_range(q["query"], last_turn_time)
        if "entity_form" in q:
            names = [q["entity_form"]]
        else:
            ids = set(find_query_entities(store, q["query"]))
            names = [e.name for e in store.entities(memory.namespace, EntityQuery()) if e.id in ids]
            if not names and name_occurs(q["about"], q["query"]):
                # No entity name in the question: `timeline` gets the name as the question types
                # it (a user runs `timeline "<the name they know>"`), never a form it does not say.
                names = [q["about"]]
            if not names:
                # A party described, not named ("滨江那家…"): the one `Memory.described` reads
                # off the best memories for the question, if one stands out.
                party = memory.described(q["query"], at=last_turn_time)
                names = [party.name] if party is not None else []
        timeline_turns = _timeline_turns(memory, names, span)
        search_k = max(5, len(q["gold_turns"]))
        result = memory.search(q["query"], k=search_k, at=last_turn_time, include_archived=True)
        search_turns = list(dict.fromkeys(s for h in result.hits for s in h.event.source_ids))
        budget = _tokens_of_turns(search_turns, turn_text)
        bm25_turns = bm25.top(q["query"], budget, turn_text)
        rows.append(
            {
                "id": q["id"],
                "type": q["type"],
                "about": q["about"],
                "entities_found": names,
                "graph": score(timeline_turns, q["gold_turns"], q["gold_order_matters"]),
                "timeline_turns": timeline_turns,
                "search": score(search_turns, q["gold_turns"], q["gold_order_matters"]),
                "bm25": score(bm25_turns, q["gold_turns"], q["gold_order_matters"]),
                "budget_tokens": budget,
                "gold": q["gold_turns"],
            }
        )
    return rows


def entity_resolution(store, data: dict) -> dict:
    """Alias precision/recall against the file's entity lists (alias -> canonical pairs)."""
    group = {}
    for i, entity in enumerate(data["entities"]):
        for name in (entity["canonical"], *entity["aliases"]):
            group[name.casefold()] = i
    entities = {e.id: e for e in store.entities(NAMESPACE, EntityQuery())}
    canonical_of = {lk.source: lk.target for lk in store.links(NAMESPACE, kinds=[LinkKind.ALIAS_OF])}

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
        alias_roots = {root(e.id) for e in store.entities(NAMESPACE, EntityQuery(name=alias))}
        canonical_roots = {root(e.id) for e in store.entities(NAMESPACE, EntityQuery(name=canonical))}
        if alias_roots & canonical_roots:
            resolved.append(alias)
    candidates = store.links(NAMESPACE, kinds=[LinkKind.CANDIDATE_ALIAS])
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


def update_links(store, expected: list[tuple[set[str], set[str], str, str]]) -> dict:
    """SUPERSEDES / CONTRADICTS found vs the story's expected updates, and whether each chain ends
    current: the newest value's event still active, every replaced one marked superseded."""
    events = {e.id: e for e in store.events(NAMESPACE, EventQuery())}
    found = [
        (lk.kind.value, set(events[lk.source].source_ids), set(events[lk.target].source_ids), lk.props, lk)
        for lk in store.links(NAMESPACE, kinds=[LinkKind.SUPERSEDES, LinkKind.CONTRADICTS])
        if lk.source in events and lk.target in events
    ]
    matched_expected, right_kind, matched_found = set(), set(), set()
    links_of: dict[int, list] = defaultdict(list)
    for i, (newer, older, _what, kind) in enumerate(expected):
        for j, (found_kind, src, dst, _props, link) in enumerate(found):
            if src & newer and dst & older:
                matched_expected.add(i)
                matched_found.add(j)
                links_of[i].append(link)
                if kind in ("either", found_kind):
                    right_kind.add(i)
    # A chain's head: an expected change no later expected change replaces.
    replaced = [older for _newer, older, _what, kind in expected if kind == "SUPERSEDES"]
    heads_current, heads = 0, 0
    stale_marked, stale = 0, 0
    for i, (newer, _older, _what, kind) in enumerate(expected):
        if kind != "SUPERSEDES":
            continue
        supersedes = [lk for lk in links_of[i] if lk.kind == LinkKind.SUPERSEDES]
        stale += 1
        stale_marked += any(str(events[lk.target].status) == "superseded" for lk in supersedes)
        if not any(newer & older for older in replaced):
            heads += 1
            heads_current += any(str(events[lk.source].status) != "superseded" for lk in supersedes)
    by_kind = defaultdict(int)
    for found_kind, *_ in found:
        by_kind[found_kind] += 1
    return {
        "found": dict(by_kind),
        "expected": len(expected),
        "expected_found": len(matched_expected),
        "expected_found_right_kind": len(right_kind),
        "chains_current": f"{heads_current}/{heads}",
        "replaced_marked_superseded": f"{stale_marked}/{stale}",
        "precision": len(matched_found) / len(found) if found else 0.0,
        "missed": [expected[i][2] for i in range(len(expected)) if i not in matched_expected],
        "wrong_kind": [expected[i][2] for i in sorted(matched_expected - right_kind)],
        "unexpected": [
            f"{k} {sorted(s)} -> {sorted(d)} {p.get('attribute')}"
            for j, (k, s, d, p, _lk) in enumerate(found)
            if j not in matched_found
        ],
    }


def summarise(rows: list[dict]) -> dict:
    """Mean and minimum per query type and overall, for each method (never medians)."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups[row["type"]].append(row)
        groups["ALL"].append(row)
    summary = {}
    for name, members in groups.items():
        summary[name] = {}
        for method in METHODS:
            taus = [m[method]["tau"] for m in members if m[method]["tau"] is not None]
            recalls = [m[method]["recall"] for m in members]
            summary[name][method] = {
                "recall": statistics.fmean(recalls),
                "recall_min": min(recalls),
                "precision": statistics.fmean(m[method]["precision"] for m in members),
                "tau": statistics.fmean(taus) if taus else None,
                "tau_min": min(taus) if taus else None,
            }
    return summary


def run_story(data: dict) -> dict:
    """Ingest one story with the real pipeline, then score every question and the aliases."""
    memory = Memory(EmbeddedStore(":memory:"), namespace=NAMESPACE)
    started = time.perf_counter()
    report = memory.add_many(load_turns(data))
    ingest_s = time.perf_counter() - started
    last = max(datetime.fromisoformat(t["time"]) for t in data["turns"])
    pass_counts = memory.consolidate(now=last)
    rows = run_queries(memory, data)
    result = {
        "name": data.get("name"),
        "turns": len(data["turns"]),
        "events": report.events,
        "ingest_s": round(ingest_s, 2),
        "consolidate_counts": report.consolidate,
        "global_pass_counts": pass_counts,
        "queries": rows,
        "summary": summarise(rows),
        "entity_resolution": entity_resolution(memory.store, data),
    }
    expected = expected_updates(data)
    if expected:
        result["updates"] = update_links(memory.store, expected)
    memory.close()
    return result


def run_generated(seeds: list[int], langs: list[str]) -> dict:
    """Every (seed, lang) story; means and minimums over all entities of all stories."""
    stories = [run_story(generate(seed, lang)) for lang in langs for seed in seeds]
    rows = [dict(r, type=f"{s['name'].split()[1]}") for s in stories for r in s["queries"]]
    aliases = [s["entity_resolution"] for s in stories]
    links = sum(a["alias_links"] for a in aliases)
    gold = sum(a["gold_aliases"] for a in aliases)
    return {
        "stories": stories,
        "summary": summarise(rows),
        "aliases": {
            "gold": gold,
            "resolved": sum(a["gold_resolved"] for a in aliases),
            "recall": sum(a["gold_resolved"] for a in aliases) / gold if gold else 0.0,
            "links": links,
            "correct": sum(a["alias_correct"] for a in aliases),
            "precision": sum(a["alias_correct"] for a in aliases) / links if links else 0.0,
            "missed": [m for a in aliases for m in a["missed"]],
            "wrong": [w for a in aliases for w in a["wrong"]],
        },
    }


def _print_summary(summary: dict) -> None:
    print(f"{'':8} {'method':8} {'R mean':>7} {'R min':>6} {'P mean':>7} {'tau':>6} {'tau min':>7}")
    for name, methods in summary.items():
        for method, m in methods.items():
            print(
                f"{name:8} {method:8} {m['recall']:7.3f} {m['recall_min']:6.2f} {m['precision']:7.3f} "
                f"{_tau(m['tau']):>6} {_tau(m['tau_min']):>7}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, nargs="+", default=None, help="story files (default: generated stories)"
    )
    parser.add_argument("--markdown", action="store_true", help="one table row per story, for the README")
    parser.add_argument("--dev", action="store_true", help="the dev story (timeline_dev.json)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--langs", nargs="+", default=["zh", "en"], choices=["zh", "en"])
    parser.add_argument("--json", action="store_true", help="print one machine-readable JSON object")
    parser.add_argument("--verbose", action="store_true", help="every question's row")
    args = parser.parse_args(argv)
    load_english_pipeline()
    if args.markdown:
        results = [run_story(json.loads(p.read_text(encoding="utf-8"))) for p in args.data or [DEFAULT_DATA]]
        print(markdown_table(results))
        return 0
    if args.json and args.data and len(args.data) > 1:  # one JSON list, a story per file
        results = [run_story(json.loads(p.read_text(encoding="utf-8"))) for p in args.data]
        print(json.dumps([dict(r, date=date.today().isoformat()) for r in results], ensure_ascii=False))
        return 0
    if args.data or args.dev:
        path = (args.data or [DEFAULT_DATA])[0]
        result = run_story(json.loads(path.read_text(encoding="utf-8")))
        result["date"] = date.today().isoformat()
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
            return 0
        print(f"{result['turns']} turns -> {result['events']} events; ingest {result['ingest_s']:.1f}s")
        for row in result["queries"]:
            print(_row_line(row, f"{row['id']:5} {row['type']:13}"))
        _print_summary(result["summary"])
        print(f"\nentity resolution: {json.dumps(result['entity_resolution'], ensure_ascii=False)}")
        if "updates" in result:
            print(f"updates: {json.dumps(result['updates'], ensure_ascii=False, indent=1)}")
        return 0
    result = run_generated(args.seeds, args.langs)
    result["date"] = date.today().isoformat()
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    print(f"generated stories: seeds {args.seeds}, langs {args.langs}")
    if args.verbose:
        for story in result["stories"]:
            print(f"-- {story['name']}: {story['turns']} turns -> {story['events']} events")
            for row in story["queries"]:
                print(_row_line(row, f"  {row['about'][:24]:24}"))
    print("per entity (one question each), by language and overall:")
    _print_summary(result["summary"])
    a = result["aliases"]
    print(
        f"\naliases: resolved {a['resolved']}/{a['gold']} = {a['recall']:.3f}; "
        f"ALIAS_OF links {a['correct']}/{a['links']} right = {a['precision']:.3f}"
    )
    print(f"missed: {a['missed']}\nwrong: {a['wrong']}")
    return 0


def story_figures(result: dict) -> dict:
    """The figures of one story: `timeline` of the client (the `story` question), of the distractor
    clients, the update chains, and recall per question type for each method."""
    rows = result["queries"]
    story = [r for r in rows if r["type"] == "story"]
    distractors = [r for r in rows if r["type"] == "distractor"]
    updates = result.get("updates", {})
    # Another client's turns in a client's timeline: the distractors' gold in the main client's
    # timeline, the main client's story gold in a distractor's.
    story_gold = {t for r in story for t in r["gold"]}
    distractor_gold = {t for r in distractors for t in r["gold"]}
    foreign = sum(len(set(r["timeline_turns"]) & distractor_gold) for r in story) + sum(
        len(set(r["timeline_turns"]) & story_gold) for r in distractors
    )
    return {
        "name": result["name"].split(":")[0],
        "turns": result["turns"],
        "timeline_recall": statistics.fmean(r["graph"]["recall"] for r in story),
        "timeline_precision": statistics.fmean(r["graph"]["precision"] for r in story),
        "foreign_turns": foreign,
        "chains": f"{updates.get('expected_found', 0)}/{updates.get('expected', 0)}",
        "chains_current": updates.get("chains_current", "-"),
        "by_type": {
            t: {m: result["summary"][t][m]["recall"] for m in METHODS}
            for t in result["summary"]
            if t != "ALL"
        },
        "all": {m: result["summary"]["ALL"][m]["recall"] for m in METHODS},
    }


def markdown_table(results: list[dict]) -> str:
    """Two tables: the story figures per story, and recall per question type (timeline / search /
    BM25 over raw turns at search's token budget, all from the same run)."""
    figures = [story_figures(r) for r in results]
    lines = [
        "| story | turns | timeline R | timeline P | other clients' turns in timelines | updates found "
        "| chains ending current |",
        "|---|---|---|---|---|---|---|",
    ]
    for f in figures:
        lines.append(
            f"| {f['name']} | {f['turns']} | {f['timeline_recall']:.2f} | {f['timeline_precision']:.2f} | "
            f"{f['foreign_turns']} | {f['chains']} | {f['chains_current']} |"
        )
    types = sorted({t for f in figures for t in f["by_type"]})
    lines += ["", "| story | " + " | ".join(types) + " | ALL |", "|---|" + "---|" * (len(types) + 1)]
    for f in figures:
        cells = [
            "/".join(_num(f["by_type"][t][m]) for m in METHODS) if t in f["by_type"] else "-" for t in types
        ]
        lines.append(
            f"| {f['name']} | "
            + " | ".join(cells)
            + " | "
            + "/".join(_num(f["all"][m]) for m in METHODS)
            + " |"
        )
    lines.append("")
    lines.append(
        "Recall cells: timeline / search / BM25 over raw turns (same run, BM25 at search's token budget)."
    )
    return "\n".join(lines)


def _num(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


def _row_line(row: dict, label: str) -> str:
    g, s, b = row["graph"], row["search"], row["bm25"]
    return (
        f"{label} via {','.join(row['entities_found'])[:24]:24} | "
        f"timeline R {g['recall']:.2f} | search R {s['recall']:.2f} | bm25 R {b['recall']:.2f}"
    )


def _tau(value: float | None) -> str:
    return f"{value:5.2f}" if value is not None else "  -  "


if __name__ == "__main__":
    sys.exit(main())
