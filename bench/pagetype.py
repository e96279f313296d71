"""Page-type benchmark (issue 5): `python -m bench.pagetype [--labels L --html H --seeds S…]`.

Cross-validation grouped by site (no site on both sides): each fold trains the
classifier exactly as `train-pagetype` does and classifies the held-out sites.
Article sets the model learns from (`train-pagetype --articles`; by default those
the model file names in its training record, `--articles` overrides) join the
folds by site (registrable domain; for pages without URL, inferred from their HTML,
see pipelines.training.sites): a site that has labelled pages goes to their fold,
the others are dealt out at random; every such article page is routed out of fold
(never by a model that saw its site). Prints the classifier alone and the full decision
(rules, then classifier with `min_confidence`), rule coverage and precision on
rows whose label was not taken from the URL, and for the model file (`--model`,
the shipped one by default): the cost of features + prediction per parsed page,
the demo site and the article sets it was not trained on (held out), and named pages.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from lxml.html import document_fromstring
from sklearn.model_selection import StratifiedGroupKFold

from bench.articles import SHARED_SETS as ARTICLE_SETS
from bench.articles import Output, body_scores, load_set, run_ours, run_trafilatura
from pipelines.document import Document, load_document
from pipelines.pagetype import FALLBACK_TYPE, classify_page
from pipelines.pagetype.features import extract_features, scanned_features
from pipelines.pagetype.model import DEFAULT_MODEL, PageTypeModel, load_model, normalise
from pipelines.pagetype.page_features import dominant_prose
from pipelines.pagetype.rules import match_rule
from pipelines.params import PAGE_TYPE, PAGE_TYPE_TRAINING, PageTypeParams
from pipelines.process import extract, keeps_body
from pipelines.results import ARTICLE_TYPES, PAGE_TYPES, PageTypeDecision
from pipelines.training.pagetype import (
    LabelledPage,
    fit_pages,
    load_articles,
    load_pages,
    load_sites,
)
from pipelines.training.sites import connected, site_keys

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "pagetype"
SITES = DATA.parent / "realsites"
DEMO_ORIGIN = "http://127.0.0.1:8000"
SHOWN_ERRORS = 14  # wrong pages named per held-out site
TIMING_REPEATS = 5
PUSH_TOP = 6  # features listed per wrong type in push_report
NAMED = ("gne__listpage_163_1.html", "gne__listpage_163_2.html")  # 163.com lists, once news


def class_scores(truth: Sequence[str], predicted: Sequence[str]
                 ) -> dict[str, tuple[float, float, float]]:
    """(precision, recall, F1) per page type."""
    pairs = Counter(zip(truth, predicted, strict=True))
    scores = {}
    for kind in PAGE_TYPES:
        tp = pairs[(kind, kind)]
        precision = tp / max(sum(n for (_, p), n in pairs.items() if p == kind), 1)
        recall = tp / max(sum(n for (t, _), n in pairs.items() if t == kind), 1)
        scores[kind] = (precision, recall, 2 * precision * recall / max(precision + recall, 1e-12))
    return scores


def report(title: str, truth: Sequence[str], predicted: Sequence[str]) -> None:
    """Accuracy, per-class P/R/F1, macro-F1, list-vs-rest and the confusion matrix."""
    pairs = Counter(zip(truth, predicted, strict=True))
    print(f"\n## {title}  (n={len(truth)})")
    print(f"accuracy {sum(t == p for t, p in zip(truth, predicted, strict=True)) / len(truth):.3f}")
    scores = class_scores(truth, predicted)
    for kind, (precision, recall, f1) in scores.items():
        print(f"  {kind:6} P {precision:.3f}  R {recall:.3f}  F1 {f1:.3f}")
    print(f"macro-F1 {np.mean([f1 for *_, f1 in scores.values()]):.3f}   "
          f"list-vs-rest F1 {scores['list'][2]:.3f}")
    print("confusion (rows truth, columns predicted): " + " ".join(PAGE_TYPES))
    for kind in PAGE_TYPES:
        print(f"  {kind:6} " + " ".join(f"{pairs[(kind, p)]:4d}" for p in PAGE_TYPES))


def seed_report(truth: Sequence[str], decisions: dict[int, list[str]]) -> None:
    """Full-decision figures per fold seed and their mean: one seed's split moves macro-F1
    visibly, the forum and 'other' classes having few pages, so goals are read off the mean."""
    print("\n## full decision per fold seed: macro-F1, F1 " + " / ".join(PAGE_TYPES)
          + ", list precision")
    rows = []
    for seed, full in decisions.items():
        scores = class_scores(truth, full)
        f1s = [f1 for *_, f1 in scores.values()]
        rows.append([float(np.mean(f1s)), *f1s, scores["list"][0]])
        print(f"  seed {seed}: " + "  ".join(f"{v:.3f}" for v in rows[-1]))
    print("  mean:   " + "  ".join(f"{v:.3f}" for v in np.mean(rows, axis=0)))


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


def _cpu_us(call: Callable[[], object]) -> float:
    """CPU µs of one call: process time is less disturbed than wall time by other jobs."""
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1e6


def timing(pages: Sequence[LabelledPage], model: PageTypeModel, html_dir: Path,
           repeats: int = TIMING_REPEATS) -> None:
    """µs per parsed page for the model's features + prediction (no rules), and the same as a
    ratio to lxml's parse of the same pages, interleaved page by page in the same run so the
    ratio does not depend on the machine or its load. Each page keeps its fastest repeat.
    Pages the model ranks list first also pay classify_page's prose check (dominant_prose).

    Two figures: "warm" classifies a tree just parsed and cleaned from the same bytes, as the
    pipeline does (page type runs right after the clean stage); "cold" classifies the tree
    parsed at start-up, whose nodes have left the CPU caches by then (the first walk over it
    pays the cache misses)."""
    raws = [(html_dir / page.name).read_bytes() for page in pages]
    parse, cold, warm = ([np.inf] * len(pages) for _ in range(3))

    def classify(doc: Document) -> object:
        features, scan = scanned_features(doc, model.features)
        ranked = model.rank(features)
        return dominant_prose(scan) if ranked[0][0] == "list" else ranked

    for _ in range(repeats):
        for i, page in enumerate(pages):
            parse[i] = min(parse[i], _cpu_us(lambda raw=raws[i]: document_fromstring(raw)))
            cold[i] = min(cold[i], _cpu_us(lambda doc=page.doc: classify(doc)))
            fresh = load_document(raws[i], page.doc.url)
            warm[i] = min(warm[i], _cpu_us(lambda doc=fresh: classify(doc)))
    mean_parse = statistics.mean(parse)
    checked = sum(model.rank(extract_features(p.doc, model.features))[0][0] == "list"
                  for p in pages)
    print(f"\n## cost after parsing (CPU time, fastest of {repeats}); "
          f"lxml.html.document_fromstring of the same pages: {mean_parse / 1e3:.2f} ms/page mean; "
          f"the prose check ran on the {checked} pages ranked list")
    for name, cost in (("warm", warm), ("cold", cold)):
        print(f"features + prediction, {name}: {statistics.mean(cost) / 1e3:.2f} ms/page mean, "
              f"{statistics.median(cost) / 1e3:.2f} median, {max(cost) / 1e3:.1f} max; "
              f"/ parse = {statistics.mean(cost) / mean_parse:.2f} (ratio of means), "
              f"{statistics.median(c / p for c, p in zip(cost, parse, strict=True)):.2f} "
              f"(median page)")


def unsure_report(truth: Sequence[str], ranked: Sequence[list[tuple[str, float]]],
                  params: PageTypeParams) -> None:
    """Pages below min_confidence: what they are, and on which of them list is one of the
    two best guesses (`classify_page` says which of those become list)."""
    unsure = [(t, r) for t, r in zip(truth, ranked, strict=True)
              if r[0][1] < params.min_confidence]
    with_list = [(t, r) for t, r in unsure if "list" in (r[0][0], r[1][0])]
    print(f"\n## below min_confidence: {len(unsure)} pages, truth "
          f"{dict(Counter(t for t, _ in unsure))}; list among the top two on {len(with_list)}, "
          f"truth {dict(Counter(t for t, _ in with_list))}")


def demo_report(model: PageTypeModel, params: PageTypeParams) -> None:
    """The model on the demo site, which no model is trained on."""
    from tests.demosite import Site  # the demo site (a test fixture) is only needed here

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


SHIPPED = Path(__file__).resolve().parents[1] / "pipelines" / DEFAULT_MODEL


def trained_article_sets(model_path: Path) -> list[str]:
    """The article sets a model file was trained on (its training record)."""
    return list(json.loads(model_path.read_text("utf-8"))["training"].get("article_sets", []))


def article_sets(names: Sequence[str]) -> dict[str, list[LabelledPage]]:
    """Article benchmark sets as ARTICLE pages (see train.load_articles)."""
    folder = DATA.parent
    return {name: load_articles(folder / name / "ground-truth.json", folder / name / "html")
            for name in names}


def route_line(name: str, how: str, decided: Sequence[PageTypeDecision], runs: int = 1) -> str:
    """How many article pages does the crawler type as articles, and how many keep their
    body (process.keeps_body: 'other' pages and unsure lists are extracted too)? `decided`
    holds the decisions of `runs` runs over the same pages; counts are per run."""
    counts = Counter(d.page_type for d in decided)
    pages = len(decided) // runs
    routed = sum(counts[kind] for kind in ARTICLE_TYPES) / runs
    kept = sum(map(keeps_body, decided)) / runs
    per_type = ", ".join(f"{kind} {n / runs:g}" for kind, n in counts.most_common())
    return (f"{name} ({how}, all articles): {routed:g}/{pages} typed as articles, "
            f"{kept:g} keep their body; {per_type}")


def pushes(model: PageTypeModel, features: dict[str, float], chosen: str) -> dict[str, float]:
    """Per feature, how far it lifts `chosen`'s linear score over the best article type's
    (absent features read as the training mean, as in `PageTypeModel.rank`)."""
    scaling = model.scaling
    raw = np.array([features.get(n, m) for n, m in zip(scaling.features, scaling.mean,
                                                          strict=True)])
    z = normalise(raw, scaling.minimum, scaling.maximum, scaling.mean)
    row = dict(zip(model.classes, model.coef @ z + model.intercept, strict=True))
    article = max((c for c in ARTICLE_TYPES if c in row), key=row.__getitem__)
    coef = dict(zip(model.classes, model.coef, strict=True))
    return dict(zip(scaling.features, ((coef[chosen] - coef[article]) * z).tolist(), strict=True))


def push_report(model: PageTypeModel, pages: Sequence[LabelledPage],
                decisions: Sequence[PageTypeDecision], top: int = PUSH_TOP) -> None:
    """Why the classifier keeps article pages off the article route: for each wrong type,
    the features that push hardest towards it, averaged over the pages it took (the
    share of those pages a feature pushes at all in brackets). Read over many sites'
    pages, not one page's (docs/CHANGELOG.md, page type)."""
    for kind in ("list", FALLBACK_TYPE):
        taken = [page for page, d in zip(pages, decisions, strict=True)
                 if d.page_type == kind and d.decided_by == "classifier"]
        if not taken:
            continue
        rows = [pushes(model, extract_features(page.doc, model.features), kind) for page in taken]
        mean = {n: statistics.mean(r[n] for r in rows) for n in model.scaling.features}
        strongest = sorted(mean, key=mean.__getitem__, reverse=True)[:top]
        print(f"  called {kind} by the classifier ({len(taken)}), strongest pushes: " + ", ".join(
            f"{n} {mean[n]:+.2f} ({sum(r[n] > 0 for r in rows) / len(rows):.0%})"
            for n in strongest))


def article_route_report(model: PageTypeModel, params: PageTypeParams,
                         trained: Sequence[str]) -> None:
    """The model on the article benchmark sets it was not trained on (every page
    there is an article, news or blog). An article page with heavy navigation must not
    become a list. dragnet-dev has no URLs, so its pages are decided without the URL
    rules and features the crawler always has."""
    held_out = article_sets([name for name in ARTICLE_SETS if name not in trained])
    for name in ARTICLE_SETS:
        if name in trained:
            print(f"{name}: trained on by the model (out-of-fold routing above)")
            continue
        decisions = [classify_page(page.doc, params=params, model=model)
                     for page in held_out[name]]
        print(route_line(name, "held out", decisions))
        push_report(model, held_out[name], decisions)


def oof_route_report(runs: dict[int, CrossValidated],
                     articles: dict[str, list[LabelledPage]]) -> None:
    """Out-of-fold routing of every article page trained on, per fold seed and on average;
    for a set without URLs, how many site groups were inferred from its pages' HTML."""
    if not articles:
        return
    print("\n## article sets trained on: out-of-fold routing per fold seed")
    for name, pages in articles.items():
        unplaced = [p for p in pages if not p.doc.url]
        if unplaced:
            print(f"  {name}: {len(unplaced)} pages without URL in "
                  f"{len({p.group for p in unplaced})} site groups inferred from their HTML")
    for seed, run in runs.items():
        for name in articles:
            print(f"  seed {seed}: " + route_line(name, "out of fold", run.articles[name]))
    for name in articles:
        decided = [d for run in runs.values() for d in run.articles[name]]
        print(f"  mean of {len(runs)} seeds: "
              + route_line(name, "out of fold", decided, len(runs)))
    extracted = [run.lists_with_body for run in runs.values()]
    print(f"  labelled pages called list that keep a body too (unsure lists), per seed: "
          f"{extracted}, mean {statistics.mean(extracted):g}")


def oof_body_report(run: CrossValidated, articles: dict[str, list[LabelledPage]]) -> None:
    """Body F1 of the article sets on the route the crawler runs: each page extracted as
    `process.extract` does after its out-of-fold page-type decision (a page that loses its
    body scores as empty), against the article route forced and trafilatura, same pages."""
    for name, labelled in articles.items():
        pages = load_set(name, None)
        decided = dict(zip((p.name for p in labelled), run.articles[name], strict=True))
        pages = [page for page in pages if page[0] in decided and page[2].get("articleBody")]
        if not pages:
            continue  # a set without body truth (metadata-dev)
        crawler, forced, peer = {}, {}, {}
        for page_id, html, truth in pages:
            result = extract(load_document(html, url=truth.get("url")), decided[page_id])
            crawler[page_id] = Output(body=result.article.content_text if result.article else "")
            forced[page_id] = run_ours(html, truth.get("url"))
            peer[page_id] = run_trafilatura(html, truth.get("url"))
        scores = {how: body_scores(pages, outputs)["f1"] for how, outputs in
                  (("crawler route", crawler), ("article route forced", forced),
                   ("trafilatura", peer))}
        print(f"  {name} body F1 (out of fold): " + ", ".join(
            f"{how} {f1:.4f}" for how, f1 in scores.items()))


def chinese_report(pages: Sequence[LabelledPage], runs: dict[int, CrossValidated]) -> None:
    """Errors on the labelled Chinese news layouts (gne__* pages), per fold seed: the news
    pages an article-set change must not cost."""
    print("\n## labelled Chinese pages (gne__*): full-decision errors per fold seed")
    for seed, run in runs.items():
        wrong = [f"{p.name} {p.page_type}→{kind}" for p, kind in zip(pages, run.full, strict=True)
                 if p.name.startswith("gne__") and kind != p.page_type]
        print(f"  seed {seed}: {len(wrong)}" + (f" ({', '.join(wrong)})" if wrong else ""))


def named_report(pages: Sequence[LabelledPage], decided: Sequence[str]) -> None:
    for page, kind in zip(pages, decided, strict=True):
        if page.name in NAMED:
            print(f"  {page.name}: truth {page.page_type}, cross-validated decision {kind}")


@dataclass
class CrossValidated:
    """Out-of-fold decisions for every page: classifier alone, full decision, ranking."""

    alone: list[str]
    full: list[str]
    ranked: list[list[tuple[str, float]]]
    articles: dict[str, list[PageTypeDecision]]  # every article page trained on, per set
    lists_with_body: int = 0  # labelled pages called list that keep a body (unsure lists)


def article_folds(groups: Sequence[str], labelled_fold: dict[str, int], folds: int,
                  seed: int) -> list[int]:
    """The fold of each article page. Sites are compared by registrable domain (`site_keys`:
    "money.cnn.com" is cnn.com's, an inferred group names all its domains), and article sites
    sharing one are dealt together: into the fold of a labelled site they share one with,
    else into a random fold."""
    keys = [site_keys(group) for group in groups]
    component = connected(keys)
    labelled = {key: fold for group, fold in sorted(labelled_fold.items())
                for key in site_keys(group)}
    fold: dict[int, int] = {}
    for c, page_keys in zip(component, keys, strict=True):
        for key in sorted(page_keys & labelled.keys()):
            fold.setdefault(c, labelled[key])
    fresh = sorted(set(component) - fold.keys())
    random.Random(seed).shuffle(fresh)
    fold |= {c: i % folds for i, c in enumerate(fresh)}
    return [fold[c] for c in component]


def cross_validate(pages: Sequence[LabelledPage], params: PageTypeParams, folds: int,
                   seed: int, rfe: bool = False,
                   articles: dict[str, list[LabelledPage]] | None = None) -> CrossValidated:
    """Each fold trains as `train-pagetype [--rfe] [--articles …]` does and decides the
    held-out sites' pages, labelled and article pages alike."""
    articles = articles or {}
    extra = [page for set_pages in articles.values() for page in set_pages]
    result = CrossValidated([""] * len(pages), [""] * len(pages), [[] for _ in pages], {})
    truth = [p.page_type for p in pages]
    splitter = StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    splits = list(splitter.split(pages, truth, [p.group for p in pages]))
    labelled_fold = {pages[i].group: k for k, (_, test) in enumerate(splits) for i in test}
    extra_fold = article_folds([p.group for p in extra], labelled_fold, folds, seed)
    extra_at: dict[int, PageTypeDecision] = {}  # by index in `extra`
    for k, (train, test) in enumerate(splits):
        model = fit_pages([pages[i] for i in train]
                          + [p for p, f in zip(extra, extra_fold, strict=True) if f != k], rfe)
        for i in test:
            result.ranked[i] = model.rank(pages[i].features)
            result.alone[i] = result.ranked[i][0][0]
            decision = classify_page(pages[i].doc, params=params, model=model)
            result.full[i] = decision.page_type
            result.lists_with_body += decision.page_type == "list" and keeps_body(decision)
        for j in (j for j, f in enumerate(extra_fold) if f == k):
            extra_at[j] = classify_page(extra[j].doc, params=params, model=model)
    extra_decided = [extra_at[j] for j in range(len(extra))]
    start = 0
    for name, set_pages in articles.items():
        result.articles[name] = extra_decided[start:start + len(set_pages)]
        start += len(set_pages)
    return result


def _group(page_type: str) -> str:
    """article, list or other: the grouping the site benchmark scores."""
    return "article" if page_type in ARTICLE_TYPES else page_type


def leave_one_site_out(pages: Sequence[LabelledPage], site_pages: Sequence[LabelledPage],
                       articles: dict[str, list[LabelledPage]], folder: Path,
                       params: PageTypeParams) -> None:
    """Each whole site held out in turn: trained on the labelled pages, the article sets and
    the other sites (as `train-pagetype --sites` samples them), then every page of the held-out
    site (redirect stubs aside) decided as the crawler decides it. The honest figure for a
    site of a theme the model never saw."""
    every = load_sites(folder, replace(PAGE_TYPE_TRAINING, site_pages_per_type=10**9))
    extra = [page for set_pages in articles.values() for page in set_pages]
    print(f"\n## whole sites, leave one site out ({len(every)} pages): article / list / other "
          "right, posts typed list")
    rows = []
    for site in sorted({p.group for p in every}):
        model = fit_pages([*pages, *(p for p in site_pages if p.group != site), *extra])
        held = [p for p in every if p.group == site]
        decided = [classify_page(p.doc, params=params, model=model) for p in held]
        right = [_group(p.page_type) == _group(d.page_type) for p, d in zip(held, decided,
                                                                            strict=True)]
        posts = [d.page_type == "list" for p, d in zip(held, decided, strict=True)
                 if p.page_type in ARTICLE_TYPES]
        confusion = Counter(f"{_group(p.page_type)}→{_group(d.page_type)}"
                            for p, d in zip(held, decided, strict=True)
                            if _group(p.page_type) != _group(d.page_type))
        rows.append(sum(right) / len(held))
        print(f"  {site:10} {rows[-1]:.3f} of {len(held)}; posts typed list {sum(posts)}/"
              f"{len(posts)}; wrong {dict(confusion.most_common())}")
        wrong = [f"{p.name} ({p.page_type}→{d.page_type} {d.decided_by} {d.confidence:.2f})"
                 for p, d, ok in zip(held, decided, right, strict=True) if not ok]
        for line in wrong[:SHOWN_ERRORS]:
            print(f"      {line}")
    print(f"  min {min(rows):.3f}, mean {statistics.mean(rows):.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pagetype")
    parser.add_argument("--labels", type=Path, default=DATA / "labels.json")
    parser.add_argument("--html", type=Path, default=DATA / "html")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0],
                        help="fold seeds; the first is reported in full, all in a summary")
    parser.add_argument("--min-confidence", type=float, default=PAGE_TYPE.min_confidence)
    parser.add_argument("--rfe", action="store_true", help="train with SVM-RFE selection")
    parser.add_argument("--articles", nargs="*", default=None,
                        help="article sets to train on in CV (default: those the --model "
                             "file was trained on)")
    parser.add_argument("--no-timing", action="store_true", help="skip the cost measurement")
    parser.add_argument("--sites", type=Path, default=SITES,
                        help="whole labelled sites (train-pagetype --sites): in the CV as "
                             "labelled pages, and held out one at a time")
    parser.add_argument("--no-sites", action="store_true", help="leave whole sites out")
    parser.add_argument("--loso-only", action="store_true",
                        help="only the leave-one-site-out figures of the whole sites")
    parser.add_argument("--model", type=Path, default=SHIPPED,
                        help="model file for the cost, demo-site and held-out article figures")
    args = parser.parse_args(argv)
    labelled = load_pages(args.labels, args.html)
    params = PageTypeParams(min_confidence=args.min_confidence)
    model_sets = trained_article_sets(args.model)  # what the model file learnt from
    trained = model_sets if args.articles is None else args.articles
    articles = article_sets(trained)
    site_pages = [] if args.no_sites else load_sites(args.sites)
    if site_pages:
        leave_one_site_out(labelled, site_pages, articles, args.sites, params)
        if args.loso_only:
            return 0
    pages = labelled + site_pages
    truth = [p.page_type for p in pages]
    runs = {seed: cross_validate(pages, params, args.folds, seed, args.rfe, articles)
            for seed in args.seeds}
    first = runs[args.seeds[0]]
    print(f"# page type: {len(pages)} pages, {len({p.group for p in pages})} sites, "
          f"{args.folds}-fold CV grouped by site (seed {args.seeds[0]}), "
          f"min_confidence {params.min_confidence}")
    report("classifier alone (no rules, no confidence floor)", truth, first.alone)
    report("full decision (rules, then classifier with min_confidence)", truth, first.full)
    if len(runs) > 1:
        seed_report(truth, {seed: run.full for seed, run in runs.items()})
    oof_route_report(runs, articles)
    oof_body_report(first, articles)
    chinese_report(pages, runs)
    named_report(pages, first.full)
    unsure_report(truth, first.ranked, params)
    rule_report(pages)
    model = load_model(str(args.model))
    if not args.no_timing:
        timing(labelled, model, args.html)
    demo_report(model, params)
    article_route_report(model, params, model_sets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
