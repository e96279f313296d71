"""Record-mining benchmark (issue 6): `python -m bench.records`.

Hand labels (bench/records_labels.json) name, for real list pages in
../shared/data/pagetype, the main list's records: URL, title and, when the page
shows one, the date. A mined record matches a labelled one when their absolute
URLs are equal (fragment dropped). Reported: record precision / recall / F1
(micro over all records), title correct (normalised text equal, or the mined title
starting with the labelled one when the link wraps extra text) among matched
records, date found among matched records whose label shows a date, ms per page.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urldefrag, urljoin

from pipelines.document import load_document
from pipelines.records import mine_records
from pipelines.results import RecordData

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT.parent / "shared" / "data" / "pagetype" / "html"
LABELS = Path(__file__).with_name("records_labels.json")
DEMO_BASE = "http://demo.test"


@dataclass
class Tally:
    """Counts summed over pages."""

    found: int = 0
    labelled: int = 0
    matched: int = 0
    titles_ok: int = 0
    dated: int = 0
    dates_found: int = 0
    ms: float = 0.0
    pages: int = 0

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def row(self, name: str) -> str:
        precision = self.matched / self.found if self.found else 0.0
        recall = self.matched / self.labelled if self.labelled else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        titles = self.titles_ok / self.matched if self.matched else 0.0
        dates = f"{self.dates_found / self.dated:6.1%}" if self.dated else "     –"
        return (f"{name:34} {self.labelled:5} {self.found:5} {precision:6.1%} {recall:6.1%} "
                f"{f1:6.1%} {titles:6.1%} {dates} {self.ms / max(self.pages, 1):7.1f}")


HEADER = (f"{'page':34} {'gold':>5} {'found':>5} {'prec':>6} {'rec':>6} {'F1':>6} "
          f"{'title':>6} {'date':>6} {'ms':>7}")


def _url(url: str | None, base: str | None) -> str:
    return urldefrag(urljoin(base or "", (url or "").strip()))[0]


def _norm(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def score(mined: list[RecordData], gold: list[dict], base: str | None) -> Tally:
    """Match mined records to labelled ones by URL and count title and date agreement."""
    by_url = {_url(record["url"], base): record for record in gold}
    tally = Tally(found=len(mined), labelled=len(by_url), pages=1)
    seen: set[str] = set()
    for record in mined:
        url = _url(record.url, base)
        label = by_url.get(url)
        if label is None or url in seen:
            continue
        seen.add(url)
        tally.matched += 1
        tally.titles_ok += _norm(record.title).startswith(_norm(label["title"]))
        if label.get("date"):
            tally.dated += 1
            tally.dates_found += record.date is not None
    return tally


def run_page(name: str, label: dict) -> Tally:
    """Mine one labelled page and score it."""
    doc = load_document((PAGES / name).read_bytes(), url=label.get("url"))
    start = time.perf_counter()
    data = mine_records(doc)
    elapsed = (time.perf_counter() - start) * 1000
    tally = score(data.records, label["records"], label.get("url"))
    tally.ms = elapsed
    return tally


def demo_site() -> tuple[Tally, int, int]:
    """All list pages of the generated demo site; also (next pages right, next pages due)."""
    from tests.demosite.site import Site  # the demo site is a bench input, not a dependency

    site, total, right, due = Site(), Tally(), 0, 0
    for path, truth in site.ground_truth().items():
        if truth["type"] != "list":
            continue
        page = site.get(path)
        doc = load_document(page.body, url=DEMO_BASE + path, content_type=page.content_type)
        start = time.perf_counter()
        data = mine_records(doc)
        tally = score(data.records, truth["records"], DEMO_BASE + path)
        tally.ms = (time.perf_counter() - start) * 1000
        total.add(tally)
        expected = _url(truth["next_page"], DEMO_BASE) if truth["next_page"] else None
        due += expected is not None
        right += expected is not None and data.next_page == expected
    return total, right, due


def main() -> None:
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    total = Tally()
    print(HEADER)
    for name, label in labels.items():
        tally = run_page(name, label)
        total.add(tally)
        print(tally.row(name.removesuffix(".html")))
    print(total.row(f"ALL real pages ({total.pages})"))
    demo, right, due = demo_site()
    print(demo.row(f"demo site list pages ({demo.pages})"))
    print(f"demo site next page found: {right}/{due}")


if __name__ == "__main__":
    main()
