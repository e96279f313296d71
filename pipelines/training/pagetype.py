"""`python -m pipelines train-pagetype LABELS.json HTML_DIR --out MODEL`: the page-type model.

Normalise every feature (min/max/mean), train a linear model, calibrate it. The classifier
is an L2 logistic regression over every trained feature (see TRAINED_TAGS). SVM-RFE feature
selection (per family, then over the union) is kept behind `--rfe`: on the labelled pages it
costs macro-F1 (docs/DECISIONS.md, "Page-type training"). The softmax
temperature is fitted on out-of-fold decision values grouped by site, so the confidence
means what it says on sites the model has not seen. The list gate (see model.py) is a
logistic model over the fixed structural features GATE_URL_FEATURES, lst_* and blk_*.

`--articles GT.json HTML_DIR` adds pages known to be articles (news or blog, not which) to
what the classifier learns from, so that the article-versus-list boundary sees articles of
many layouts. Such a page counts as news and as blog in the shares a classifier trained on
the labelled pages alone gives them (one EM step of learning from a label set), so the
news-vs-blog boundary stays the labelled pages'. A set may lack URLs: its pages are grouped
by the sites their HTML names (pipelines.training.sites) and weigh less
(`urlless_article_weight`). Weights and regularisation: params.PageTypeTrainingParams.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path
from urllib.parse import quote

import numpy as np
from sklearn.feature_selection import RFECV
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedGroupKFold
from sklearn.svm import LinearSVC

from pipelines.document import Document, load_document
from pipelines.lexicon import TYPE_CLASSES
from pipelines.pagetype import DECLARES_PUBLICATION
from pipelines.pagetype.features import extract_features, family
from pipelines.pagetype.model import ListGate, PageTypeModel, Scaling, normalise, softmax
from pipelines.params import PAGE_TYPE_TRAINING, PageTypeTrainingParams
from pipelines.results import PAGE_TYPES
from pipelines.training.sites import inferred_groups, site_keys, site_of

MODEL_VERSION = 11  # bump when features or training change; format_version tracks the JSON
# The gate sees how the page is built, never what it is about: lst_*, blk_*, the URL's shape
# and whether it holds a comment section.
GATE_URL_FEATURES = ("url_index_leaf", "url_leaf_digits", "url_leaf_words", "url_has_query",
                     "url_has_date", "url_kw_list", "url_depth", "url_last_words",
                     "url_last_digits")
# A comment section says that the dated, signed items repeated below the text are readers'
# comments, not a list's records: a post with a long thread otherwise has a list's shape.
GATE_PAGE_FEATURES = ("post_comment_area",)
# Features the model is trained on: every one extract_features computes but those that cost
# more than they give (tag shares beyond these, profile links, the URL keyword depth scores;
# docs/DECISIONS.md, "Trained features").
TRAINED_TAGS = frozenset(f"tag_{t}" for t in (
    "blockquote", "br", "cite", "code", "dd", "div", "dt", "em", "figcaption", "form", "h1",
    "header", "img", "label", "li", "link", "meta", "p", "pre", "select", "ul"))
# A page whose head declares a publication date (DECLARES_PUBLICATION) goes to the article
# route whatever the classifier says, so the classifier routes only pages that declare none
# and is not trained on the declarations (docs/DECISIONS.md, "Declared
# publication date").
DECLARATIONS = frozenset((DECLARES_PUBLICATION, "meta_modified"))
UNTRAINED = frozenset(("post_clock_times", "post_user_links", "post_user_link_share",
                       *(f"url_kwscore_{kind}" for kind in TYPE_CLASSES), *DECLARATIONS))
ARTICLE = "article"  # the label of an --articles page: news or blog, not known which
ARTICLE_SUBTYPES = ("news", "blog")


@dataclass
class LabelledPage:
    """One labelled page (of a labels.json file, an article set or a whole site), parsed once;
    its features are computed once too, whatever number of folds train on it."""

    name: str
    page_type: str
    group: str
    label_origin: str
    doc: Document
    weight: float = 1.0  # against a page of labels.json

    @cached_property
    def features(self) -> dict[str, float]:
        """Every feature the model may be trained on (see `trained`)."""
        return {name: value for name, value in extract_features(self.doc).items()
                if trained(name)}


def load_pages(labels_path: Path, html_dir: Path) -> list[LabelledPage]:
    """Parse every labelled page through `load_document` (which handles GBK and friends)."""
    labels = json.loads(labels_path.read_text("utf-8"))
    return [
        LabelledPage(name, item["type"], item["group"], item.get("label_origin", ""),
                     load_document((html_dir / name).read_bytes(), item.get("url")))
        for name, item in sorted(labels.items())
    ]


def load_articles(truth_path: Path, html_dir: Path,
                  params: PageTypeTrainingParams = PAGE_TYPE_TRAINING) -> list[LabelledPage]:
    """Pages of an article set (ground truth: id → {url?…}, page HTML_DIR/id.html), labelled
    ARTICLE and grouped by site: the URL's host, for a page without URL the sites its HTML
    names (`sites.inferred_groups`); a page with neither is a group of its own."""
    truth = json.loads(truth_path.read_text("utf-8"))
    found = [(page_id, item.get("url"), html_dir / f"{page_id}.html")
             for page_id, item in sorted(truth.items())]
    docs = [(page_id, load_document(path.read_bytes(), url))
            for page_id, url, path in found if path.exists()]
    inferred = iter(inferred_groups([doc for _, doc in docs if not doc.url], params))
    return [LabelledPage(page_id, ARTICLE,
                         (site_of(doc.url) if doc.url else next(inferred))
                         or f"{truth_path}:{page_id}", "article_set", doc)
            for page_id, doc in docs]


# A page that only sends the browser on (meta refresh at once): the crawler follows it and
# stores the target, so it is never typed and not learnt from.
_REDIRECT_STUB = re.compile(
    rb"""<meta[^>]+http-equiv=["']?refresh["']?[^>]+content=["']?0\s*[;,]""", re.I)
SITE_ORIGIN = "site_truth"  # the label_origin of a whole site's page


def site_page_url(site: dict, name: str, path: str) -> str:
    """The URL a site's page is learnt under: its real host when the truth names one, else a
    host made of the site's folder name (a host the URL features read like any other)."""
    hosts = site.get("own_hosts") or [f"{name}.example"]
    return f"https://{hosts[0]}{quote(path)}"


def load_sites(folder: Path,
               params: PageTypeTrainingParams = PAGE_TYPE_TRAINING) -> list[LabelledPage]:
    """Pages of whole labelled sites: FOLDER/SITE/truth.json ({"site": {own_hosts?…}, "pages":
    {path: {type…}}}), each page served from FOLDER/SITE/root/ (a directory path from its
    index.html). One group a site; at most `site_pages_per_type` pages of a type a site
    (picked by a hash of their path, the same every run), each of weight `site_page_weight`;
    redirect stubs are left out (see _REDIRECT_STUB)."""
    pages = []
    for truth_path in sorted(folder.glob("*/truth.json")):
        name, truth = truth_path.parent.name, json.loads(truth_path.read_text("utf-8"))
        root = truth_path.parent / "root"
        by_type: dict[str, list[tuple[str, Path]]] = {}
        for path, item in sorted(truth["pages"].items()):
            file = root / (path.lstrip("/") + ("index.html" if path.endswith("/") else ""))
            if file.is_file() and not _REDIRECT_STUB.search(file.read_bytes()[:4096]):
                by_type.setdefault(item["type"], []).append((path, file))
        for page_type, found in sorted(by_type.items()):
            found.sort(key=lambda pair: zlib.crc32(pair[0].encode()))
            pages += [LabelledPage(f"{name}{path}", page_type, name, SITE_ORIGIN,
                                   load_document(file.read_bytes(),
                                                 site_page_url(truth["site"], name, path)),
                                   params.site_page_weight)
                      for path, file in found[:params.site_pages_per_type]]
    return pages


def _svm(params: PageTypeTrainingParams) -> LinearSVC:
    return LinearSVC(C=params.svm_c, class_weight="balanced", max_iter=params.svm_max_iter)


def _classifier(params: PageTypeTrainingParams) -> LogisticRegression:
    """Multinomial logistic regression (classes are weighted in `_balanced`): its log-loss uses
    every page, where the SVM's hinge ignores all but the margin's few, too few to trust here."""
    return LogisticRegression(C=params.classifier_c, max_iter=params.logistic_max_iter)


def _balanced(y: np.ndarray, base: np.ndarray) -> np.ndarray:
    """Sample weights giving every class the same total (5 forum pages against 71 lists);
    with unit `base` weights this is scikit-learn's class_weight="balanced"."""
    classes, index = np.unique(y, return_inverse=True)
    totals = np.bincount(index, weights=base)
    return base * base.sum() / (len(classes) * totals[index])


def article_weight(row: dict[str, float],
                   params: PageTypeTrainingParams = PAGE_TYPE_TRAINING) -> float:
    """An ARTICLE row's weight: `urlless_article_weight` when its page had no URL (no url_*
    feature), else `article_weight`."""
    if any(family(name) == "url" for name in row):
        return params.article_weight
    return params.urlless_article_weight


def fit_classifier(z: np.ndarray, labels: np.ndarray, weights: np.ndarray,
                   params: PageTypeTrainingParams = PAGE_TYPE_TRAINING) -> LogisticRegression:
    """The classifier over labelled rows and ARTICLE rows (see the module docstring): an
    ARTICLE row enters as news and as blog, its weight split by a labelled-only fit's odds
    of each."""
    labelled = labels != ARTICLE
    if labelled.all():
        return _classifier(params).fit(z, labels, sample_weight=_balanced(labels, weights))
    first = fit_classifier(z[labelled], labels[labelled], weights[labelled], params)
    odds = first.predict_proba(z[~labelled])[:, np.searchsorted(first.classes_, ARTICLE_SUBTYPES)]
    shares = odds / odds.sum(axis=1, keepdims=True)
    rows = np.vstack([z[labelled], *([z[~labelled]] * len(ARTICLE_SUBTYPES))])
    y = np.concatenate([labels[labelled],
                        *(np.full((~labelled).sum(), kind) for kind in ARTICLE_SUBTYPES)])
    base = np.concatenate([weights[labelled], *(weights[~labelled] * shares.T)])
    return _classifier(params).fit(rows, y, sample_weight=_balanced(y, base))


def _oof_decisions(z: np.ndarray, labels: np.ndarray, groups: np.ndarray, weights: np.ndarray,
                   params: PageTypeTrainingParams) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold decision values of the labelled rows (sites grouped; ARTICLE rows of a
    held-out site, by registrable domain, are left out of training too) and those rows'
    labels."""
    labelled = np.flatnonzero(labels != ARTICLE)
    keys = {group: site_keys(group) for group in set(groups)}
    decisions, y = [], []
    for train, test in _splitter(params).split(labelled, labels[labelled], groups[labelled]):
        held = set().union(*(keys[group] for group in groups[labelled[test]]))
        held_out = np.array([not held.isdisjoint(keys[group]) for group in groups])
        rows = np.union1d(labelled[train], np.flatnonzero((labels == ARTICLE) & ~held_out))
        decisions.append(fit_classifier(z[rows], labels[rows], weights[rows], params)
                         .decision_function(z[labelled[test]]))
        y.append(labels[labelled[test]])
    return np.vstack(decisions), np.concatenate(y)


def _splitter(params: PageTypeTrainingParams) -> StratifiedGroupKFold:
    return StratifiedGroupKFold(n_splits=params.inner_folds, shuffle=True,
                                random_state=params.fold_seed)


def _rfe(z: np.ndarray, y: np.ndarray, groups: np.ndarray, columns: list[int],
         params: PageTypeTrainingParams) -> list[int]:
    """SVM-RFE over `columns`, keeping the count that scores best in grouped CV."""
    if len(columns) == 1:
        return columns
    selector = RFECV(_svm(params), step=1, cv=_splitter(params), scoring="f1_macro")
    selector.fit(z[:, columns], y, groups=groups)
    return [c for c, kept in zip(columns, selector.support_, strict=True) if kept]


def select_features(z: np.ndarray, y: np.ndarray, groups: np.ndarray,
                    names: list[str],
                    params: PageTypeTrainingParams = PAGE_TYPE_TRAINING) -> list[int]:
    """SVM-RFE per family, then once more over the union of survivors."""
    families: dict[str, list[int]] = {}
    for index, name in enumerate(names):
        families.setdefault(family(name), []).append(index)
    survivors = sorted(i for cols in families.values()
                       for i in _rfe(z, y, groups, cols, params))
    return _rfe(z, y, groups, survivors, params)


def fit_temperature(decisions: np.ndarray, y_index: np.ndarray,
                    params: PageTypeTrainingParams = PAGE_TYPE_TRAINING) -> float:
    """The softmax temperature with the lowest log-loss on out-of-fold decision values."""
    def loss(t: float) -> float:
        probs = softmax(decisions, t)[np.arange(len(y_index)), y_index]
        return float(-np.log(np.maximum(probs, 1e-12)).mean())
    temperatures = np.logspace(*params.temperature_log_range, params.temperature_steps)
    return float(min(temperatures, key=loss))


def gate_features(names: Sequence[str]) -> list[int]:
    """Columns the list gate reads."""
    return [i for i, n in enumerate(names)
            if n.startswith(("lst_", "blk_")) or n in GATE_URL_FEATURES + GATE_PAGE_FEATURES]


def fit_gate(z: np.ndarray, y: np.ndarray, names: list[str], scaling: Scaling,
             params: PageTypeTrainingParams = PAGE_TYPE_TRAINING,
             weights: np.ndarray | None = None) -> ListGate:
    """The list gate: balanced logistic list-vs-rest on the structural columns, each row of
    its page's weight."""
    cols = gate_features(names)
    logit = LogisticRegression(C=params.gate_c, class_weight="balanced",
                               max_iter=params.logistic_max_iter)
    logit.fit(z[:, cols], y == "list", sample_weight=weights)
    kept = Scaling(tuple(names[i] for i in cols), scaling.minimum[cols], scaling.maximum[cols],
                   scaling.mean[cols])
    return ListGate(kept, logit.coef_[0], float(logit.intercept_[0]), params.gate_threshold)


def fit_model(rows: Sequence[dict[str, float]], labels: Sequence[str],
              groups: Sequence[str], rfe: bool = False,
              params: PageTypeTrainingParams = PAGE_TYPE_TRAINING,
              page_weights: Sequence[float] | None = None) -> PageTypeModel:
    """Normalise, (with `rfe`: select,) train and calibrate on feature rows; fit the list gate.
    ARTICLE rows (see `fit_classifier`) train the classifier only; scaling, selection and the
    gate see labelled rows alone: with them, the gate learnt the article sets' URL shapes
    (docs/DECISIONS.md, "Page-type training")."""
    y, group_array = np.array(labels), np.array(groups)
    labelled = y != ARTICLE
    page_weights = [1.0] * len(rows) if page_weights is None else page_weights
    weights = np.array([weight if kept else article_weight(row, params)
                        for row, kept, weight in zip(rows, labelled, page_weights, strict=True)])
    names = sorted({name for row, kept in zip(rows, labelled, strict=True) if kept
                    for name in row})
    x = np.array([[row.get(n, np.nan) for n in names] for row in rows], dtype=float)
    scaling = Scaling(tuple(names), *(stat(x[labelled], axis=0)
                                      for stat in (np.nanmin, np.nanmax, np.nanmean)))
    x = np.where(np.isnan(x), scaling.mean, x)  # absent = no evidence, as at inference
    z = normalise(x, scaling.minimum, scaling.maximum, scaling.mean)
    keep = (select_features(z[labelled], y[labelled], group_array[labelled], names, params)
            if rfe
            else list(range(len(names))))
    classifier = fit_classifier(z[:, keep], y, weights, params)
    oof, oof_y = _oof_decisions(z[:, keep], y, group_array, weights, params)
    classes = tuple(str(c) for c in classifier.classes_)
    temperature = fit_temperature(oof, np.searchsorted(classifier.classes_, oof_y), params)
    selected = Scaling(tuple(names[i] for i in keep), scaling.minimum[keep],
                       scaling.maximum[keep], scaling.mean[keep])
    return PageTypeModel(classes=classes, scaling=selected, coef=classifier.coef_,
                         intercept=classifier.intercept_, temperature=temperature,
                         gate=fit_gate(z[labelled], y[labelled], names, scaling, params,
                                       weights[labelled]))


def trained(name: str) -> bool:
    """Whether the model is trained on feature `name` (see TRAINED_TAGS)."""
    return name in TRAINED_TAGS if family(name) == "tag" else name not in UNTRAINED


def fit_pages(pages: Sequence[LabelledPage], rfe: bool = False,
              params: PageTypeTrainingParams = PAGE_TYPE_TRAINING) -> PageTypeModel:
    """Train on parsed labelled pages, each of its own weight."""
    return fit_model([page.features for page in pages], [p.page_type for p in pages],
                     [p.group for p in pages], rfe, params, [p.weight for p in pages])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipelines train-pagetype",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("labels", type=Path, help="labels.json: file → {type, group, url?…}")
    parser.add_argument("html_dir", type=Path, help="folder holding the labelled pages")
    parser.add_argument("--out", type=Path, required=True, help="model JSON to write")
    parser.add_argument("--rfe", action="store_true",
                        help="select features by SVM-RFE first (lower grouped-CV F1)")
    parser.add_argument("--sites", type=Path, action="append", default=[], metavar="FOLDER",
                        help="also learn from whole labelled sites: FOLDER/SITE/truth.json and "
                             "FOLDER/SITE/root/ (one group a site); repeatable")
    parser.add_argument("--articles", nargs=2, action="append", default=[], type=Path,
                        metavar=("GT_JSON", "HTML_DIR"),
                        help="also learn from an article set: ground truth id → {url?…}, pages "
                             "HTML_DIR/id.html, every one news or blog (which is not needed); "
                             "grouped by URL host, pages without URL by the sites their HTML "
                             "names; repeatable")
    args = parser.parse_args(argv)
    pages = load_pages(args.labels, args.html_dir)
    unknown = {p.page_type for p in pages} - set(PAGE_TYPES)
    if unknown:
        print(f"unknown page types in labels: {sorted(unknown)}", file=sys.stderr)
        return 2
    params = PAGE_TYPE_TRAINING
    articles = [page for truth, folder in args.articles
                for page in load_articles(truth, folder, params)]
    site_pages = [page for folder in args.sites for page in load_sites(folder, params)]
    model = fit_pages(pages + site_pages + articles, args.rfe, params)
    training = {
        "command": "python -m pipelines train-pagetype " + " ".join(argv),
        "date": date.today().isoformat(),
        "pages": len(pages),
        "sites": len({p.group for p in pages}),
        "whole_sites": sorted({p.group for p in site_pages}),
        "site_pages": len(site_pages),
        "site_pages_per_type": params.site_pages_per_type,
        "site_page_weight": params.site_page_weight,
        "article_sets": [truth.parent.name for truth, _ in args.articles],
        "article_pages": len(articles),
        "article_weight": params.article_weight,
        "urlless_article_weight": params.urlless_article_weight,
        "version": MODEL_VERSION,
        "classifier": f"LogisticRegression(C={params.classifier_c}), multinomial, classes "
                      "balanced by sample weight",
        "selection": f"SVM-RFE, LinearSVC(C={params.svm_c})" if args.rfe else "none",
        "list_gate": f"LogisticRegression(C={params.gate_c}, class_weight=balanced), "
                     f"threshold {params.gate_threshold}",
    }
    args.out.write_text(json.dumps(model.to_json(training), indent=1) + "\n", "utf-8")
    print(f"wrote {args.out}: {len(model.scaling.features)} features + list gate "
          f"{len(model.gate.scaling.features) if model.gate else 0}, classes {model.classes}")
    return 0
