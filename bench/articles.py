"""Article extraction benchmark: our route against trafilatura, readability-lxml and GNE.

    .venv/bin/python -m bench.articles [--limit N]
                                       [--sets article-bench dragnet-dev metadata-dev demo-site
                                               cn-news-dates]
                                       [--systems ours trafilatura readability gne] [--variants]
                                       [--write-preds DIR]

Body text is scored with the reference scorer's own functions (imported from
../shared/tools/score_articles.py, so the figures agree with it by construction;
--write-preds writes prediction files to cross-check with the script itself).
Our ms/page covers the whole route: decode, parse, clean, extract, metadata,
comments. "parse floor" is load_document alone (decode + parse + clean).

demo-site is the project's own demo site (Chinese news, forum and blog pages, one section
GBK without a charset header, and an English section) with the site's truth: the shared
sets have no Chinese page with a body truth. We wrote that site, so its figures check the
Chinese forms (来源/作者 lines, 发表于 posts, GBK); they are no independent score.
cn-news-dates is an independent one for dates only: 32 news pages of real Chinese portals
(GNE's test pages, in ../shared/data/pagetype) with their publish day read by hand
(bench/cn_news_dates.json); GNE was built on these pages.
GNE (GeneralNewsExtractor, built for Chinese news) takes decoded HTML: it is given the
text our decoder returns, outside its timing.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from types import ModuleType

import lxml.html

from pipelines.article import extract_article
from pipelines.article.body import render
from pipelines.article.dates.parse import parse_date
from pipelines.document import decode_html, load_document
from pipelines.lexicon import SAID_WORDS
from pipelines.params import DENSITY
from pipelines.results import ARTICLE_TYPES

SHARED = Path(os.environ.get("SHARED_DIR", Path(__file__).resolve().parents[2] / "shared"))
DEMO_SET = "demo-site"
CN_DATES_SET = "cn-news-dates"  # hand-labelled publish days of Chinese news pages
CN_DATES = Path(__file__).with_name("cn_news_dates.json")
SHARED_SETS = ("article-bench", "dragnet-dev", "metadata-dev")  # in ../shared/data
SETS = (*SHARED_SETS, DEMO_SET, CN_DATES_SET)
SYSTEMS = ("ours", "trafilatura", "readability", "gne")
DEMO_ORIGIN = "http://127.0.0.1:8000"


@cache
def scorer() -> ModuleType:
    """The reference scorer module, imported from the shared tools folder on first use: a
    module importing this one (bench.pagetype, its tests) must load on a clone without it."""
    spec = importlib.util.spec_from_file_location(
        "score_articles", SHARED / "tools" / "score_articles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Output:
    """What one system returned for one page."""

    body: str = ""
    ms: float = 0.0
    parse_ms: float | None = None
    title: str | None = None
    author: str | None = None
    date: str | None = None  # YYYY-MM-DD
    comments: list[str] = field(default_factory=list)
    comment_authors: list[str] = field(default_factory=list)  # where a system names them


def run_ours(html: bytes, url: str | None, params=DENSITY) -> Output:
    start = time.perf_counter()
    doc = load_document(html, url=url)
    parsed = time.perf_counter()
    art = extract_article(doc, params=params)
    end = time.perf_counter()
    return Output(
        body=art.content_text, ms=(end - start) * 1000, parse_ms=(parsed - start) * 1000,
        title=art.title, author=art.author,
        date=art.published_at.date().isoformat() if art.published_at else None,
        comments=[_comment_text(c) for c in art.comments],
        comment_authors=[c.author for c in art.comments if c.author],
    )


def _comment_text(comment) -> str:
    """Author, date as written, then text: what a comment section shows and peers return."""
    return "\n".join(part for part in (comment.author, comment.published_raw, comment.text) if part)


def run_trafilatura(html: bytes, url: str | None) -> Output:
    """Body from extract() with defaults (comments kept out); metadata from bare_extraction()."""
    import trafilatura

    start = time.perf_counter()
    body = trafilatura.extract(html, url=url, include_comments=False) or ""
    ms = (time.perf_counter() - start) * 1000
    meta = trafilatura.bare_extraction(html, url=url, with_metadata=True, include_comments=True)
    return Output(
        body=body, ms=ms, title=getattr(meta, "title", None),
        author=getattr(meta, "author", None), date=getattr(meta, "date", None),
        comments=[getattr(meta, "comments", None) or ""],
    )


def run_readability(html: bytes, url: str | None) -> Output:
    import readability

    start = time.perf_counter()
    document = readability.Document(html, url=url)
    summary = document.summary()
    ms = (time.perf_counter() - start) * 1000
    body = render.to_text([lxml.html.fromstring(summary)]) if summary.strip() else ""
    return Output(body=body, ms=ms, title=document.short_title())


_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


def run_gne(html: bytes, url: str | None) -> Output:
    """GNE's body, title, author and publish time (its raw string, read to a day here). It
    takes decoded text without an XML declaration (lxml refuses a str that declares an
    encoding); a page it fails on counts as nothing found."""
    from gne import GeneralNewsExtractor

    text = _XML_DECLARATION.sub("", decode_html(html)[0])
    start = time.perf_counter()
    try:
        found = GeneralNewsExtractor().extract(text)
    except Exception:  # noqa: BLE001 - a peer's crash on one page is an empty result
        found = {}
    ms = (time.perf_counter() - start) * 1000
    when = parse_date(found.get("publish_time"))
    return Output(body=found.get("content") or "", ms=ms, title=found.get("title"),
                  author=found.get("author"), date=when.date().isoformat() if when else None)


def _systems(names: list[str], variants: bool) -> dict[str, Callable[[bytes, str | None], Output]]:
    runners = {"ours": run_ours, "trafilatura": run_trafilatura, "readability": run_readability,
               "gne": run_gne}
    chosen = {name: runners[name] for name in names}
    if variants:
        for density in ("text", "composite", "punctuation"):
            params = replace(DENSITY, density=density)
            chosen[f"ours[{density}]"] = lambda h, u, p=params: run_ours(h, u, p)
    return chosen


def load_demo_site() -> list[tuple[str, bytes, dict]]:
    """The demo site's article pages, their truth under the shared sets' keys."""
    from tests.demosite.site import Site

    site = Site()
    pages = []
    for path, truth in sorted(site.ground_truth().items()):
        if truth["type"] in ARTICLE_TYPES and not truth["meta"].get("robots_disallowed"):
            pages.append((path, site.get(path).body, {
                "url": DEMO_ORIGIN + path, "articleBody": truth["body"], "title": truth["title"],
                "author": truth["author"], "date": truth["published"],
                "comments": [comment["text"] for comment in truth["comments"]]}))
    return pages


def load_cn_dates() -> list[tuple[str, bytes, dict]]:
    """Chinese news pages of the page-type set with their publish day, labelled by hand
    (bench/cn_news_dates.json): the shared article sets hold three Chinese pages."""
    days = json.loads(CN_DATES.read_text(encoding="utf-8"))["days"]
    folder = SHARED / "data" / "pagetype" / "html"
    return [(name, (folder / name).read_bytes(), {"date": day}) for name, day in days.items()]


def load_set(name: str, limit: int | None) -> list[tuple[str, bytes, dict]]:
    if name == DEMO_SET:
        return load_demo_site()[:limit]
    if name == CN_DATES_SET:
        return load_cn_dates()[:limit]
    folder = SHARED / "data" / name
    truth = json.loads((folder / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for page_id in sorted(truth)[:limit]:
        path = folder / "html" / f"{page_id}.html"
        if path.exists():
            pages.append((page_id, path.read_bytes(), truth[page_id]))
    return pages


def body_scores(pages: list, outputs: dict[str, Output], key: str = "articleBody") -> dict:
    """P/R/F1/exact with the reference scorer's functions and tokenizer choice."""
    truth = {pid: gt.get(key) or "" for pid, _, gt in pages}
    mode = scorer().pick_mode(truth, "auto")
    rows, exact = [], 0
    for pid, true_text in truth.items():
        counts, same = scorer().doc_counts(true_text, outputs[pid].body, mode)
        rows.append(counts)
        exact += same
    p, r, f1 = scorer().aggregate(rows)
    return {"precision": p, "recall": r, "f1": f1, "exact": exact, "n": len(rows)}


def _shingle_recall(true_text: str, found_text: str, mode: str) -> float:
    true = scorer().shingles(scorer().tokens(true_text, mode))
    found = scorer().shingles(scorer().tokens(found_text, mode))
    total = sum(true.values())
    return sum((true & found).values()) / total if total else 1.0


def _comment_truth(gt: dict) -> list[str]:
    """True comments: one text (dragnet-dev) or a list of snippets (metadata-dev)."""
    value = gt.get("comments") or []
    return [value] if isinstance(value, str) else list(value)


def comment_scores(pages: list, outputs: dict[str, Output]) -> dict:
    """On pages with true comments: recall of comment shingles, leak into body, body precision."""
    with_comments = [(pid, _comment_truth(gt)) for pid, _, gt in pages if gt.get("comments")]
    if not with_comments:
        return {}
    # tokens as the scorer picks them for the set's bodies (Chinese has no spaces to split at)
    mode = scorer().pick_mode({pid: gt.get("articleBody") or "" for pid, _, gt in pages}, "auto")
    recall = [_shingle_recall(t, "\n".join(outputs[pid].comments), mode)
              for pid, truth in with_comments for t in truth]
    leak = [_shingle_recall(t, outputs[pid].body, mode)
            for pid, truth in with_comments for t in truth]
    chosen = {pid for pid, _ in with_comments}
    scored = [p for p in pages if p[2].get("articleBody")]
    verbatim = [t.strip() in outputs[pid].body for pid, truth in with_comments for t in truth]
    return {
        "comment_recall": statistics.mean(recall),
        "comment_in_body": statistics.mean(leak),
        "verbatim_in_body": statistics.mean(verbatim),
        "body_p_with": body_scores([p for p in scored if p[0] in chosen], outputs)["precision"],
        "body_p_without": body_scores(
            [p for p in scored if p[0] not in chosen], outputs)["precision"],
        "n_comments": len(with_comments),
    }


# What a comment header sets beside the name: "Ann says:", "On May 1, 2012 Ann said:".
_HEADER_CUE = re.compile(rf"\b(?:{'|'.join(SAID_WORDS)})\b|^\s*(?:on|by|von)\b", re.I)


def header_author_rate(outputs: dict[str, Output]) -> float:
    """Share of named comment authors that are really their header: a date, "Ann says:",
    no letter at all (nan where a system names no comment author)."""
    names = [name for o in outputs.values() for name in o.comment_authors]
    junk = [bool(parse_date(n) or _HEADER_CUE.search(n) or not re.search(r"[^\W\d_]", n))
            for n in names]
    return statistics.mean(junk) if junk else float("nan")


_NAME_SPLIT = re.compile(r"\s*(?:;|,|&|/|\bund\b|\band\b)\s*", re.I)


def _norm(text: str | list | None) -> str:
    if isinstance(text, list):  # a few ground-truth authors are lists of names
        text = "; ".join(text)
    text = (text or "").casefold().replace("\u00a0", " ")
    text = re.sub(r"[\"'“”„‘’«»]", "", text)
    return re.sub(r"\s+", " ", text).strip(" -–—|:")


def same_author(predicted: str | None, true: str) -> bool:
    """Equal after normalisation, or the same set of names in any order and separator."""
    if _norm(predicted) == _norm(true):
        return True
    names = {_norm(n) for n in _NAME_SPLIT.split(predicted or "") if _norm(n)}
    return names == {_norm(n) for n in _NAME_SPLIT.split(_norm(true)) if _norm(n)}


def _snippet_rate(pages: list, outputs: dict, key: str, wanted: bool) -> float:
    hits = []
    for pid, _, gt in pages:
        body = _norm(outputs[pid].body)
        hits.extend((_norm(s) in body) == wanted for s in gt.get(key) or [])
    return statistics.mean(hits) if hits else float("nan")


def metadata_scores(pages: list, outputs: dict[str, Output]) -> dict:
    def rate(field_name: str, test: Callable[[Output, str], bool]) -> float:
        hits = [test(outputs[pid], gt[field_name]) for pid, _, gt in pages if gt.get(field_name)]
        return statistics.mean(hits) if hits else float("nan")

    return {
        "title": rate("title", lambda o, t: _norm(o.title) == _norm(t)),
        "date": rate("date", lambda o, t: (o.date or "")[:10] == t[:10]),
        "author": rate("author", lambda o, t: same_author(o.author, t)),
        "with": _snippet_rate(pages, outputs, "with", True),
        "without": _snippet_rate(pages, outputs, "without", False),
    }


def run_set(pages: list, runners: dict[str, Callable]) -> dict[str, dict[str, Output]]:
    """Every system on every page, page by page: systems take turns on the same page, so a
    load change on the shared machine slows them alike and the ratios stay fair."""
    for runner in runners.values():  # warm-up: first-call imports and caches not timed
        runner(pages[0][1], pages[0][2].get("url"))
    results: dict[str, dict[str, Output]] = {name: {} for name in runners}
    for pid, html, gt in pages:
        for name, runner in runners.items():
            results[name][pid] = runner(html, gt.get("url"))
    return results


def _time_ratio(results: dict[str, dict[str, Output]], system: str) -> str:
    """Mean time per page over trafilatura's in the same run (the speed goal's measure)."""
    if "trafilatura" not in results:
        return "–"
    mean = {name: statistics.mean(o.ms for o in results[name].values())
            for name in (system, "trafilatura")}
    return f"{mean[system] / mean['trafilatura']:.3f}"


def _ms(outputs: dict[str, Output]) -> str:
    ms = statistics.mean(o.ms for o in outputs.values())
    parse = [o.parse_ms for o in outputs.values() if o.parse_ms is not None]
    return f"{ms:.1f}" + (f" (parse floor {statistics.mean(parse):.1f})" if parse else "")


def report(set_name: str, pages: list, results: dict[str, dict[str, Output]]) -> None:
    print(f"\n### {set_name} ({len(pages)} pages)\n")
    print("| system | F1 | precision | recall | exact | ms/page | time / trafilatura's |")
    print("|---|---|---|---|---|---|---|")
    for system, outputs in results.items():
        s = body_scores(pages, outputs) if any(gt.get("articleBody") for *_, gt in pages) else None
        scores = (f"{s['f1']:.3f} | {s['precision']:.3f} | {s['recall']:.3f} | {s['exact']}/"
                  f"{s['n']}" if s else "– | – | – | –")
        print(f"| {system} | {scores} | {_ms(outputs)} | {_time_ratio(results, system)} |")
    extra = {system: comment_scores(pages, outputs) for system, outputs in results.items()}
    if any(extra.values()):
        print("\n| system | comment recall | comment text in body | whole comments in body |"
              " body P (pages with comments) | body P (without) | authors that are a header |"
              "\n|---|---|---|---|---|---|---|")
        for system, c in extra.items():
            print(f"| {system} | {c['comment_recall']:.3f} | {c['comment_in_body']:.3f} | "
                  f"{c['verbatim_in_body']:.3f} | {c['body_p_with']:.3f} | "
                  f"{c['body_p_without']:.3f} | {_rate(header_author_rate(results[system]))} |")
    if any(gt.get("title") or gt.get("date") for *_, gt in pages):
        print("\n| system | title exact | date day | author | with-snippets in body |"
              " without-snippets kept out |\n|---|---|---|---|---|---|")
        for system, outputs in results.items():
            m = metadata_scores(pages, outputs)
            print(f"| {system} | {_rate(m['title'])} | {_rate(m['date'])} | "
                  f"{_rate(m['author'])} | {_rate(m['with'])} | {_rate(m['without'])} |")


def _rate(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.3f}"  # a set without such snippets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--systems", nargs="+", default=list(SYSTEMS), choices=SYSTEMS)
    parser.add_argument("--variants", action="store_true", help="also run all density variants")
    parser.add_argument("--write-preds", type=Path, help="write DIR/<set>/<system>.json")
    args = parser.parse_args(argv)
    for set_name in args.sets:
        pages = load_set(set_name, args.limit)
        results = run_set(pages, _systems(args.systems, args.variants))
        report(set_name, pages, results)
        if args.write_preds:
            folder = args.write_preds / set_name
            folder.mkdir(parents=True, exist_ok=True)
            for name, outputs in results.items():
                preds = {pid: o.body for pid, o in outputs.items()}
                (folder / f"{name}.json").write_text(json.dumps(preds, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
