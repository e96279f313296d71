"""Page-type benchmark (issue 5): `python -m bench.pagetype [--labels L --html H --folds K]`.

Cross-validation grouped by site (no site on both sides): each fold trains the
classifier exactly as `train-pagetype` does and classifies the held-out sites.
Prints the classifier alone and the full decision (rules, then classifier with
`min_confidence`), rule coverage and precision on rows whose label was not taken
from the URL, and the cost of features + prediction per parsed page.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedGroupKFold

from pipelines.pagetype import classify_page
from pipelines.pagetype.features import extract_features
from pipelines.pagetype.rules import match_rule
from pipelines.pagetype.train import LabelledPage, fit_pages, load_pages
from pipelines.params import PAGE_TYPE, PageTypeParams
from pipelines.results import PAGE_TYPES

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "pagetype"


def report(title: str, truth: Sequence[str], predicted: Sequence[str]) -> None:
    """Accuracy, per-class P/R/F1, macro-F1, list-vs-rest and the confusion matrix."""
    pairs = Counter(zip(truth, predicted, strict=True))
    print(f"\n## {title}  (n={len(truth)})")
    print(f"accuracy {sum(t == p for t, p in zip(truth, predicted, strict=True)) / len(truth):.3f}")
    f1s = []
    for kind in PAGE_TYPES:
        tp = pairs[(kind, kind)]
        precision = tp / max(sum(n for (_, p), n in pairs.items() if p == kind), 1)
        recall = tp / max(sum(n for (t, _), n in pairs.items() if t == kind), 1)
        f1 = 2 * precision * recall / max(precision + recall, 1e-12)
        f1s.append(f1)
        print(f"  {kind:6} P {precision:.3f}  R {recall:.3f}  F1 {f1:.3f}")
    print(f"macro-F1 {np.mean(f1s):.3f}   list-vs-rest F1 {f1s[PAGE_TYPES.index('list')]:.3f}")
    print("confusion (rows truth, columns predicted): " + " ".join(PAGE_TYPES))
    for kind in PAGE_TYPES:
        print(f"  {kind:6} " + " ".join(f"{pairs[(kind, p)]:4d}" for p in PAGE_TYPES))


def scoreable(page: LabelledPage) -> bool:
    """Rows whose label was not read off the URL, so URL rules can be scored on them."""
    return not page.label_origin.startswith("agent_url")


def rule_report(pages: Sequence[LabelledPage]) -> None:
    """Share of pages decided by rules and each rule's precision on scoreable rows."""
    fired = [(p, match_rule(p.doc.url)) for p in pages]
    fired = [(p, m) for p, m in fired if m is not None]
    rows = [(p, m) for p, m in fired if scoreable(p)]
    right = sum(p.page_type == m[0] for p, m in rows)
    print(f"\n## rules: decide {len(fired)}/{len(pages)} pages; on scoreable rows "
          f"{len(rows)}/{sum(map(scoreable, pages))}, precision {right}/{len(rows)}")
    for name in sorted({m[1] for _, m in fired}):
        mine = [(p, m) for p, m in fired if m[1] == name]
        good = [p.page_type == m[0] for p, m in mine if scoreable(p)]
        print(f"  {name:24} fires {len(mine):3d}  scoreable {sum(good)}/{len(good)} right  "
              f"(all rows {sum(p.page_type == m[0] for p, m in mine)}/{len(mine)})")


def timing(pages: Sequence[LabelledPage], model) -> None:
    """µs per parsed page for feature extraction + prediction (rules bypassed)."""
    costs = []
    for page in pages:
        start = time.perf_counter()
        model.rank(extract_features(page.doc))
        costs.append((time.perf_counter() - start) * 1e6)
    print(f"\n## cost after parsing: features + prediction {statistics.mean(costs):.0f} µs/page "
          f"mean, {statistics.median(costs):.0f} median, {max(costs):.0f} max")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pagetype")
    parser.add_argument("--labels", type=Path, default=DATA / "labels.json")
    parser.add_argument("--html", type=Path, default=DATA / "html")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--min-confidence", type=float, default=PAGE_TYPE.min_confidence)
    args = parser.parse_args(argv)
    pages = load_pages(args.labels, args.html)
    params = PageTypeParams(min_confidence=args.min_confidence)
    truth = [p.page_type for p in pages]
    alone, full = [""] * len(pages), [""] * len(pages)
    splitter = StratifiedGroupKFold(n_splits=args.folds, shuffle=True, random_state=0)
    model = None
    for train, test in splitter.split(pages, truth, [p.group for p in pages]):
        model = fit_pages([pages[i] for i in train])
        for i in test:
            alone[i] = model.rank(extract_features(pages[i].doc))[0][0]
            full[i] = classify_page(pages[i].doc, params=params, model=model).page_type
    print(f"# page type: {len(pages)} pages, {len({p.group for p in pages})} sites, "
          f"{args.folds}-fold CV grouped by site, min_confidence {params.min_confidence}")
    report("classifier alone (no rules, no confidence floor)", truth, alone)
    report("full decision (rules, then classifier with min_confidence)", truth, full)
    rule_report(pages)
    timing(pages, model)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
