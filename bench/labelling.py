"""S0 node-labelling benchmark (issue 3): `python -m bench.labelling [--data D --model M]`.

Scores the shipped CRF on the held-out sites (pipelines.labelling.corpus: no site
on both sides of the split): per-label block-level precision/recall/F1, overall
and per data set (only metadata-dev has hand-made title/author/date truth; the
others' come from the page's own <head>). Also reports what the T1–T5 noise
filter keeps of the true body, and the cost of labelling a parsed page.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from pathlib import Path

from pipelines.document import load_document
from pipelines.labelling import MODEL_PATH, label_nodes, load_model, page_sequence
from pipelines.labelling.align import CHUNK, LABELS
from pipelines.labelling.corpus import Page, labelled_sequence, load_pages
from pipelines.labelling.crf import CrfModel
from pipelines.labelling.features import squash
from pipelines.labelling.linearise import linearise
from pipelines.params import NOISE_FILTER, NoiseFilterParams

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
NO_FILTER = NoiseFilterParams(form_char_ratio=float("inf"), max_links=10**9)


def label_report(title: str, pairs: Counter) -> None:
    """Per-label precision, recall and F1 from (truth, predicted) block counts."""
    print(f"\n### {title}  (blocks={sum(pairs.values())})")
    print("| label | P | R | F1 | true blocks |\n|---|---|---|---|---|")
    for label in LABELS:
        tp = pairs[(label, label)]
        predicted = sum(n for (_, p), n in pairs.items() if p == label)
        true = sum(n for (t, _), n in pairs.items() if t == label)
        if not true and not predicted:
            continue
        precision, recall = tp / max(predicted, 1), tp / max(true, 1)
        f1 = 2 * precision * recall / max(precision + recall, 1e-12)
        print(f"| {label} | {precision:.3f} | {recall:.3f} | {f1:.3f} | {true} |")


def body_kept(page: Page, params: NoiseFilterParams) -> tuple[float, int]:
    """Share of the true body's chunks found in the kept blocks, and characters kept."""
    doc = load_document(page.path.read_bytes())
    kept = squash(" ".join(block.text for block in linearise(doc.body, params)))
    body = squash(page.record["articleBody"])
    chunks = [body[i:i + CHUNK] for i in range(0, len(body) - CHUNK + 1, CHUNK)]
    return sum(chunk in kept for chunk in chunks) / max(len(chunks), 1), len(kept)


def filter_report(pages: list[Page]) -> None:
    """What the noise filter costs in body recall and saves in text, against no filter."""
    with_body = [p for p in pages if p.record.get("articleBody")]
    filtered = [body_kept(p, NOISE_FILTER) for p in with_body]
    unfiltered = [body_kept(p, NO_FILTER) for p in with_body]
    recall = sum(r for r, _ in filtered) / len(filtered)
    recall_all = sum(r for r, _ in unfiltered) / len(unfiltered)
    kept = sum(n for _, n in filtered) / max(sum(n for _, n in unfiltered), 1)
    print(f"\n### Noise filter {NOISE_FILTER} on {len(with_body)} held-out pages with a body")
    print(f"body chunks kept {recall:.3f} (no filter {recall_all:.3f}); "
          f"page text kept {kept:.3f}")


def speed_report(pages: list[Page], model: CrfModel) -> None:
    """Microseconds per parsed page: linearise + features, and the whole label_nodes."""
    docs = [load_document(p.path.read_bytes()) for p in pages]
    start = time.perf_counter()
    for doc in docs:
        page_sequence(doc)
    features = time.perf_counter() - start
    start = time.perf_counter()
    blocks = sum(len(label_nodes(doc, model)) for doc in docs)
    total = time.perf_counter() - start
    print(f"\n### Speed on {len(docs)} parsed pages ({blocks / len(docs):.0f} blocks/page)")
    print(f"label_nodes {total / len(docs) * 1e6:,.0f} µs/page, of which linearise+features "
          f"{features / len(docs) * 1e6:,.0f} µs/page")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.labelling")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--model", type=Path, default=MODEL_PATH)
    args = parser.parse_args(argv)
    model = load_model(args.model)
    pages = [p for p in load_pages(args.data) if p.held_out]
    by_source: dict[str, Counter] = defaultdict(Counter)
    for page in pages:
        features, truth = labelled_sequence(page)
        by_source[page.source].update(zip(truth, model.tag(features), strict=True))
    print(f"## S0 labeller on {len(pages)} held-out pages ({len({p.site for p in pages})} sites)")
    label_report("all held-out pages", sum(by_source.values(), Counter()))
    for source, pairs in sorted(by_source.items()):
        label_report(source, pairs)
    filter_report(pages)
    speed_report(pages, model)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
