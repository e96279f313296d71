"""Page-type benchmark (issue 5): `python -m bench.pagetype [--labels L --html H --folds K]`.

Cross-validation grouped by site (no site on both sides): each fold trains the
classifier exactly as `train-pagetype` does and classifies the held-out sites.
Prints the classifier alone and the full decision (rules, then classifier with
`min_confidence`), rule coverage and precision on rows whose label was not taken
from the URL, the cost of features + prediction per parsed page, and the shipped
model on the demo site (held out: never trained on) and on named pages.
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

from pipelines.document import load_document
from pipelines.pagetype import classify_page
from pipelines.pagetype.features import extract_features
from pipelines.pagetype.model import PageTypeModel, load_model
from pipelines.pagetype.rules import match_rule
from pipelines.pagetype.train import LabelledPage, fit_pages, load_pages
from pipelines.params import PAGE_TYPE, PageTypeParams
from pipelines.results import PAGE_TYPES

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "pagetype"
DEMO_ORIGIN = "http://127.0.0.1:8000"
NAMED = ("gne__listpage_163_1.html", "gne__listpage_163_2.html")  # 163.com lists, once news


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


def timing(pages: Sequence[LabelledPage], model: PageTypeModel) -> None:
    """µs per parsed page for extraction of the model's features + prediction (no rules)."""
    costs = []
    for page in pages:
        start = time.perf_counter()
        model.rank(extract_features(page.doc, model.features))
        costs.append((time.perf_counter() - start) * 1e6)
    print(f"\n## cost after parsing: features + prediction {statistics.mean(costs):.0f} µs/page "
          f"mean, {statistics.median(costs):.0f} median, {max(costs):.0f} max")


def unsure_report(truth: Sequence[str], ranked: Sequence[list[tuple[str, float]]],
                  params: PageTypeParams) -> None:
    """Pages below min_confidence: what they are, and which of them the list rescue
    (list when list is a top-two candidate, see `classify_page`) turns into list."""
    unsure = [(t, r) for t, r in zip(truth, ranked, strict=True)
              if r[0][1] < params.min_confidence]
    with_list = [(t, r) for t, r in unsure if "list" in (r[0][0], r[1][0])]
    print(f"\n## below min_confidence: {len(unsure)} pages, truth "
          f"{dict(Counter(t for t, _ in unsure))}; list among the top two on {len(with_list)}, "
          f"truth {dict(Counter(t for t, _ in with_list))}")


def demo_report(model: PageTypeModel, params: PageTypeParams) -> None:
    """The shipped model on the demo site, which no model is trained on."""
    from crawler.demosite import Site  # the crawler package is only needed for this check

    site = Site()
    truth, predicted = [], []
    for path, item in sorted(site.ground_truth().items()):
        page = site.get(path)
        doc = load_document(page.body, DEMO_ORIGIN + path, page.content_type)
        truth.append(item["type"])
        predicted.append(classify_page(doc, params=params, model=model).page_type)
    report("demo site (held out), full decision", truth, predicted)
    missed = [p for p, t, q in zip(sorted(site.ground_truth()), truth, predicted, strict=True)
              if t == "list" and q != "list"]
    print(f"demo list pages not called list: {missed or 'none'}")


def named_report(pages: Sequence[LabelledPage], decided: Sequence[str]) -> None:
    for page, kind in zip(pages, decided, strict=True):
        if page.name in NAMED:
            print(f"  {page.name}: truth {page.page_type}, cross-validated decision {kind}")


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
    ranked: list[list[tuple[str, float]]] = [[] for _ in pages]
    splitter = StratifiedGroupKFold(n_splits=args.folds, shuffle=True, random_state=0)
    for train, test in splitter.split(pages, truth, [p.group for p in pages]):
        model = fit_pages([pages[i] for i in train])
        for i in test:
            ranked[i] = model.rank(extract_features(pages[i].doc))
            alone[i] = ranked[i][0][0]
            full[i] = classify_page(pages[i].doc, params=params, model=model).page_type
    print(f"# page type: {len(pages)} pages, {len({p.group for p in pages})} sites, "
          f"{args.folds}-fold CV grouped by site, min_confidence {params.min_confidence}")
    report("classifier alone (no rules, no confidence floor)", truth, alone)
    report("full decision (rules, then classifier with min_confidence)", truth, full)
    named_report(pages, full)
    unsure_report(truth, ranked, params)
    rule_report(pages)
    shipped = load_model()
    timing(pages, shipped)
    demo_report(shipped, params)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
