"""`python -m pipelines train-labeller`: the node labeller's CRF, learnt by crfsuite, as JSON.

crfsuite (L-BFGS with elastic-net penalty) learns the weights on the training
sites; the exported, pruned weights go to node_labeller.json, and our Viterbi on
them is checked against crfsuite's own tagging of the held-out sites.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict
from datetime import date
from pathlib import Path

import pycrfsuite

from pipelines.labelling import MODEL_PATH
from pipelines.labelling.crf import CrfModel
from pipelines.params import LABELLER_TRAINING, NOISE_FILTER
from pipelines.training.corpus import SOURCES, labelled_sequence, load_pages
from pipelines.training.label_alignment import LABELS

Sequences = list[tuple[list[dict[str, float]], list[str]]]


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m pipelines train-labeller")
    parser.add_argument("--data", type=Path, default=Path("../shared/data"),
                        help="folder holding the data sets of training.corpus.SOURCES")
    parser.add_argument("--out", type=Path, default=MODEL_PATH,
                        help="model JSON to write (default: the shipped model)")
    defaults = LABELLER_TRAINING
    parser.add_argument("--c1", type=float, default=defaults.c1, help="L1 penalty: sparser model")
    parser.add_argument("--c2", type=float, default=defaults.c2, help="L2 penalty")
    parser.add_argument("--max-iterations", type=int, default=defaults.max_iterations,
                        help="stop the CRF training after this many iterations")
    parser.add_argument("--min-weight", type=float, default=defaults.min_weight,
                        help="drop attributes whose weights are all smaller than this")
    return parser.parse_args(argv)


def _fit(train: Sequences, args: argparse.Namespace, model_file: str) -> None:
    trainer = pycrfsuite.Trainer(verbose=False)
    for features, labels in train:
        trainer.append(features, labels)
    trainer.set_params({"c1": args.c1, "c2": args.c2, "max_iterations": args.max_iterations,
                        "feature.possible_transitions": True})
    trainer.train(model_file)


def agreement(model: CrfModel, tagger: pycrfsuite.Tagger, sequences: Sequences) -> float:
    """Share of held-out blocks on which our Viterbi and crfsuite's tagger agree."""
    same = total = 0
    for features, _ in sequences:
        ours, theirs = model.tag(features), tagger.tag(features)
        same += sum(a == b for a, b in zip(ours, theirs, strict=True))
        total += len(ours)
    return same / max(total, 1)


def _export(args: argparse.Namespace, model_file: str, test: Sequences) -> tuple[CrfModel, dict]:
    tagger = pycrfsuite.Tagger()
    tagger.open(model_file)
    info = tagger.info()
    labels = [label for label in LABELS if label in tagger.labels()]
    full = CrfModel.from_crfsuite(labels, info.state_features, info.transitions)
    pruned = CrfModel.from_crfsuite(labels, info.state_features, info.transitions,
                                    args.min_weight)
    checks = {"viterbi_vs_crfsuite_full": agreement(full, tagger, test),
              "viterbi_vs_crfsuite_pruned": agreement(pruned, tagger, test),
              "attributes_learned": len(full.attributes)}
    tagger.close()
    return pruned, checks


def dump(document: dict) -> str:
    """JSON with one feature per line: small, and a retrained model diffs line by line."""
    head = {key: value for key, value in document.items() if key != "state_features"}
    lines = [f" {json.dumps(name, ensure_ascii=False)}:{json.dumps(weights)}"
             for name, weights in document["state_features"].items()]
    text = json.dumps(head, ensure_ascii=False, indent=1)[:-2]
    return text + ',\n "state_features": {\n' + ",\n".join(lines) + "\n }\n}\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Train on the training sites, check on the held-out ones, write the model JSON."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _arguments(argv)
    pages = list(load_pages(args.data))
    train = [labelled_sequence(p) for p in pages if not p.held_out]
    test = [labelled_sequence(p) for p in pages if p.held_out]
    with tempfile.TemporaryDirectory() as folder:
        model_file = str(Path(folder) / "labeller.crfsuite")
        _fit(train, args, model_file)
        model, checks = _export(args, model_file, test)
    about = {
        "trained": date.today().isoformat(),
        "command": " ".join(["python -m pipelines train-labeller", *argv]),
        "data": {"folder": str(args.data), "sources": list(SOURCES), "train_pages": len(train),
                 "held_out_pages": len(test),
                 "split": f"sites with crc32(host) % {LABELLER_TRAINING.held_out_folds} == 0 "
                          "held out (pipelines.training.corpus)"},
        "hyperparameters": {"c1": args.c1, "c2": args.c2, "max_iterations": args.max_iterations,
                            "min_weight": args.min_weight},
        "noise_filter": asdict(NOISE_FILTER),
        "checks": checks,
        "feature_names": "the keys of state_features; values are weights per label, in order",
    }
    args.out.write_text(dump(model.to_json(about)), encoding="utf-8")
    print(json.dumps({"out": str(args.out), **checks}, indent=1))
    return 0
