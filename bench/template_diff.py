"""Template-diff benchmark: article body F1 with and without a same-site sibling, and its cost.

Run: .venv/bin/python -m bench.template_diff

Pairs come from real pages of one host (article-bench URLs; dragnet-dev canonical /
og:url links): each page is the target once, with another page of its host as the
sibling. Scored with the reference metric (shared/tools/score_articles.py). The
cached path learns a template from two pages and applies it to the host's other pages.
"""

from __future__ import annotations

import importlib.util
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from pipelines.article import extract_article
from pipelines.document import Document, load_document
from pipelines.siblings import sibling_candidates
from pipelines.template_diff import denoise_with_sibling, template_mask

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SCORER = DATA.parent / "tools" / "score_articles.py"
_CANONICAL = re.compile(
    rb"""<(?:link[^>]+rel=["']?canonical["']?[^>]*href|meta[^>]+og:url["']?[^>]*content)"""
    rb"""=["']([^"']+)""",
    re.I,
)


def _scorer():
    spec = importlib.util.spec_from_file_location("score_articles", SCORER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _article_bench() -> tuple[dict[str, str], dict[str, Path], dict[str, str]]:
    gt = json.loads((DATA / "article-bench" / "ground-truth.json").read_text())
    urls = {k: v["url"] for k, v in gt.items()}
    files = {k: DATA / "article-bench" / "html" / f"{k}.html" for k in gt}
    return {k: v["articleBody"] for k, v in gt.items()}, files, urls


def _dragnet() -> tuple[dict[str, str], dict[str, Path], dict[str, str]]:
    gt = json.loads((DATA / "dragnet-dev" / "ground-truth.json").read_text())
    files = {k: DATA / "dragnet-dev" / "html" / f"{k}.html" for k in gt}
    urls = {}
    for key, path in files.items():
        match = _CANONICAL.search(path.read_bytes())
        if match:
            urls[key] = match.group(1).decode("utf-8", "replace")
    return {k: v["articleBody"] for k, v in gt.items()}, files, urls


def _demosite() -> tuple[dict[str, str], dict[str, bytes], dict[str, str]]:
    """Detail pages of the demo site (news, forum, blog); 'host' is the page template."""
    from tests.demosite.site import Site

    site = Site()
    truth = {p: r for p, r in site.ground_truth().items() if r["type"] in ("news", "forum", "blog")}
    urls = {p: f"http://{r['template']}.demo.example{p}" for p, r in truth.items()}
    return {p: r["body"] for p, r in truth.items()}, {p: site.get(p).body for p in truth}, urls


def _by_host(urls: dict[str, str]) -> dict[str, list[str]]:
    hosts: dict[str, list[str]] = defaultdict(list)
    for key in sorted(urls):
        hosts[(urlsplit(urls[key]).hostname or "").removeprefix("www.")].append(key)
    return {h: keys for h, keys in hosts.items() if h and len(keys) >= 2}


def _load(file: Path | bytes, url: str) -> Document:
    return load_document(file if isinstance(file, bytes) else file.read_bytes(), url)


def _best_ms(fn: Callable[[], object], repeat: int = 3) -> tuple[object, float]:
    """Result and best-of-`repeat` wall time: the shared machine adds noise, never speed."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, (time.perf_counter() - start) * 1000)
    return result, best


def _stats(values: list[float]) -> str:
    if not values:
        return "-"
    values = sorted(values)
    return (f"mean {statistics.mean(values):.2f} median {statistics.median(values):.2f} "
            f"p95 {values[int(0.95 * (len(values) - 1))]:.2f}")


def _sibling(key: str, keys: list[str], docs: dict[str, Document]) -> tuple[str, bool]:
    """The page's own best sibling link when we hold that page, else the next page of its host."""
    by_url = {docs[k].url: k for k in keys}
    links = docs[key].body.xpath("//a/@href")
    for url in sibling_candidates(docs[key].url, links, limit=len(links)):
        if url in by_url:
            return by_url[url], True
    return keys[(keys.index(key) + 1) % len(keys)], False


def _paired(hosts: dict[str, list[str]], docs: dict[str, Document]) -> dict:
    """Each page extracted plainly and with its sibling's template / other differing blocks."""
    preds: dict[str, dict[str, str]] = {"plain": {}, "sibling": {}, "sibling+others": {}}
    align_ms, linked = [], 0
    for keys in hosts.values():
        for key in keys:
            other, found = _sibling(key, keys, docs)
            linked += found
            sibling = docs[other]
            result, ms = _best_ms(lambda d=docs[key], s=sibling: denoise_with_sibling(d, s), 1)
            align_ms.append(ms)
            preds["plain"][key] = extract_article(docs[key]).content_text
            preds["sibling"][key] = extract_article(docs[key], result.exclude).content_text
            noise = result.exclude + result.others
            preds["sibling+others"][key] = extract_article(docs[key], noise).content_text
    return {"preds": preds, "align_ms": align_ms, "linked": linked}


def _cached(hosts: dict[str, list[str]], docs: dict[str, Document]) -> dict:
    """Templates learned from a host's first two pages, applied alone to its other pages."""
    preds: dict[str, dict[str, str]] = {"plain": {}, "masked": {}}
    plain_ms, masked_ms, mask_ms, rejected = [], [], [], 0
    for keys in hosts.values():
        template = denoise_with_sibling(docs[keys[0]], docs[keys[1]]).template
        for key in keys[2:]:
            doc = docs[key]
            text, ms = _best_ms(lambda d=doc: extract_article(d).content_text)
            preds["plain"][key], plain_ms = text, plain_ms + [ms]
            mask, ms = _best_ms(lambda d=doc, t=template: template_mask(d, t))
            mask_ms.append(ms)
            rejected += mask is None
            text, ms = _best_ms(
                lambda d=doc, t=template: extract_article(d, template_mask(d, t) or ()).content_text
            )
            preds["masked"][key], masked_ms = text, masked_ms + [ms]
    return {"preds": preds, "plain_ms": plain_ms, "masked_ms": masked_ms, "mask_ms": mask_ms,
            "rejected": rejected}


def _run_set(name: str, loader: Callable, scorer) -> None:
    gt, files, urls = loader()
    hosts = _by_host(urls)
    docs = {k: _load(files[k], urls[k]) for ks in hosts.values() for k in ks}
    mode = scorer.pick_mode(gt, "auto")

    def score(pred: dict[str, str]) -> str:
        if not pred:
            return "-"
        res = scorer.score({k: gt[k] for k in pred}, pred, mode, 0)
        noisy = sum(scorer.doc_counts(gt[k], text, mode)[0][1] > 0 for k, text in pred.items())
        return (f"F1 {res['f1']:.3f}  P {res['precision']:.3f}  R {res['recall']:.3f}  "
                f"pages with non-body text {noisy}")

    paired, cached = _paired(hosts, docs), _cached(hosts, docs)
    third = len(cached["preds"]["plain"])
    print(f"## {name}: {len(paired['preds']['plain'])} pages on {len(hosts)} hosts; "
          f"sibling found among the page's own links for {paired['linked']}")
    for variant, pred in paired["preds"].items():
        print(f"  {variant:<16} {score(pred)}")
    print(f"  ms/page denoise_with_sibling: {_stats(paired['align_ms'])}")
    print(f"  cached template on {third} further pages (template rejected on "
          f"{cached['rejected']}):")
    for variant, pred in cached["preds"].items():
        print(f"    {variant:<14} {score(pred)}")
    print(f"    ms/page plain extraction:            {_stats(cached['plain_ms'])}")
    print(f"    ms/page template_mask + extraction:  {_stats(cached['masked_ms'])}")
    print(f"    ms/page template_mask alone:         {_stats(cached['mask_ms'])}")
    print(f"  cross-host templates rejected: {_cross_host_rejection(hosts, docs)}")
    sys.stdout.flush()


def _cross_host_rejection(hosts: dict[str, list[str]], docs: dict[str, Document]) -> str:
    """Templates applied to a page of another host must be rejected (None)."""
    groups = list(hosts.values())
    rejected = 0
    for i, keys in enumerate(groups):
        template = denoise_with_sibling(docs[keys[0]], docs[keys[1]]).template
        rejected += template_mask(docs[groups[(i + 1) % len(groups)][0]], template) is None
    return f"{rejected}/{len(groups)}"


def main() -> None:
    scorer = _scorer()
    print(f"# {time.strftime('%Y-%m-%d')}  .venv/bin/python -m bench.template_diff")
    sets = (("article-bench", _article_bench), ("dragnet-dev", _dragnet), ("demo site", _demosite))
    for name, loader in sets:
        _run_set(name, loader, scorer)


if __name__ == "__main__":
    main()
