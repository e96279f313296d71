"""Grouping reposts into stories: MinHash signatures over character shingles, candidates
by locality-sensitive banding, copies by estimated containment.

A reprint keeps the wire copy's sentences while its headline, byline, 编辑 line, template
and trimming change, so the body is compared as a set of character shingles (letters and
digits only, normalised as the search index reads text), and two bodies are copies when
most of the shorter one's shingles are in the longer (containment): a trimmed copy is
still a copy. Shingles are sampled by hash (one in SHINGLE_SAMPLE, the same ones in every
text), which keeps the estimate and bounds the cost of a long article.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cache

import numpy as np
from datasketch import MinHash
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from models.page import Article, Page
from models.search.terms import normalise
from models.story import ArticleStory, StoryBand

SHINGLE_CHARACTERS = 5
SHINGLE_SAMPLE = 4
MIN_SHINGLES = 30  # fewer sampled shingles: too short to tell a copy from a coincidence
PERMUTATIONS = 64
BANDS = 32  # of PERMUTATIONS / BANDS rows: candidates from a Jaccard near 0.2 up
COPY_CONTAINMENT = 0.7
COPY_JACCARD = 0.25
GROUP_BATCH = 500  # articles grouped per pass
_SEED = 20261127
_SAMPLED = 0xFFFFFFFF // SHINGLE_SAMPLE
_NOT_LETTERS = re.compile(r"[\W_]+")
_BUCKETS_PER_QUERY = 900  # bound parameters per query (SQLite's limit is the tightest)


@cache
def _permutations() -> tuple[np.ndarray, np.ndarray]:
    return MinHash(num_perm=PERMUTATIONS, seed=_SEED).permutations


@dataclass(frozen=True)
class Signature:
    hashvalues: np.ndarray  # uint32, PERMUTATIONS long
    shingles: int

    def to_bytes(self) -> bytes:
        return self.hashvalues.astype("<u4").tobytes()

    @classmethod
    def from_bytes(cls, data: bytes, shingles: int) -> Signature:
        return cls(np.frombuffer(data, dtype="<u4"), shingles)


def signature(text: str) -> Signature | None:
    """The text's signature, or None when it is too short to group."""
    hashes = _shingle_hashes(_NOT_LETTERS.sub("", normalise(text)))
    if len(hashes) < MIN_SHINGLES:
        return None
    sketch = MinHash(num_perm=PERMUTATIONS, hashfunc=int, permutations=_permutations(),
                     scheme="affine32")
    sketch.update_batch(hashes.tolist())
    return Signature(sketch.hashvalues.astype(np.uint32), len(hashes))


def _shingle_hashes(letters: str) -> np.ndarray:
    """The distinct sampled 32-bit hashes of the text's shingles: a polynomial hash of each
    SHINGLE_CHARACTERS code points, mixed (MurmurHash3's finaliser), kept when small."""
    codes = np.frombuffer(letters.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    count = len(codes) - SHINGLE_CHARACTERS + 1
    if count <= 0:
        return np.empty(0, dtype=np.uint32)
    hashes = np.zeros(count, dtype=np.uint64)
    for offset in range(SHINGLE_CHARACTERS):
        hashes = hashes * np.uint64(1_000_003) + codes[offset:offset + count]
    for shift, factor in ((33, 0xFF51AFD7ED558CCD), (33, 0xC4CEB9FE1A85EC53), (33, 1)):
        hashes ^= hashes >> np.uint64(shift)
        hashes *= np.uint64(factor)
    top = (hashes >> np.uint64(32)).astype(np.uint32)
    return np.unique(top[top <= _SAMPLED])


def band_keys(sig: Signature) -> list[tuple[int, int]]:
    """(band, bucket) pairs: equal buckets mean the signatures agree on all of a band's rows
    (the band number is mixed into the bucket, so a bucket alone names its band)."""
    rows = PERMUTATIONS // BANDS
    values = sig.hashvalues.astype(np.uint64).reshape(BANDS, rows)
    keys = np.zeros(BANDS, dtype=np.uint64)
    for row in range(rows):
        keys = keys * np.uint64(0x100000001B3) + values[:, row]
    keys ^= np.arange(BANDS, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    return list(enumerate(keys.view(np.int64).tolist()))


def containment(a: Signature, b: Signature) -> float:
    """Estimated share of the smaller set's shingles found in the other."""
    jaccard = float(np.mean(a.hashvalues == b.hashvalues))
    shared = jaccard * (a.shingles + b.shingles) / (1 + jaccard)
    return min(1.0, shared / min(a.shingles, b.shingles))


def _stored_by_bucket(session: Session, buckets: Iterable[int]
                      ) -> dict[int, list[tuple[int, Signature]]]:
    """bucket → (story id, signature) of the stored articles with that band key, for a
    whole pass's buckets in a few queries."""
    stories, bands = ArticleStory.__table__.c, StoryBand.__table__.c
    wanted = sorted(set(buckets))
    found: dict[int, list[tuple[int, Signature]]] = {}
    for start in range(0, len(wanted), _BUCKETS_PER_QUERY):
        rows = session.connection().execute(
            select(bands.bucket, stories.story_id, stories.signature, stories.shingles)
            .join(ArticleStory.__table__, stories.article_id == bands.article_id)
            .where(bands.bucket.in_(wanted[start:start + _BUCKETS_PER_QUERY]),
                   stories.signature.is_not(None)))
        for row in rows:
            found.setdefault(row.bucket, []).append(
                (row.story_id, Signature.from_bytes(row.signature, row.shingles)))
    return found


def is_copy(a: Signature, b: Signature) -> bool:
    """Copies share most of the shorter text (containment) and enough of both (Jaccard):
    the containment of a short text in a long one is too noisy an estimate alone."""
    jaccard = float(np.mean(a.hashvalues == b.hashvalues))
    return jaccard >= COPY_JACCARD and containment(a, b) >= COPY_CONTAINMENT


def group_new(session: Session, limit: int = GROUP_BATCH) -> int:
    """Group the articles stored since the last pass, oldest publication first (so a story's
    first member is its earliest copy where the crawl saw it); returns how many. An article
    joins the story of the closest copy among those stored and those grouped before it in
    this pass, else starts its own."""
    pending = session.execute(
        select(Article.id, Article.body_text).outerjoin(ArticleStory)
        .where(ArticleStory.article_id.is_(None))
        .order_by(Article.published_at.is_(None), Article.published_at, Article.id)
        .limit(limit)).all()
    signed = [(article_id, sig, band_keys(sig) if sig else [])
              for article_id, body in pending for sig in [signature(body or "")]]
    known = _stored_by_bucket(session, (bucket for _, _, keys in signed
                                        for _, bucket in keys))
    stories, bands = [], []
    for article_id, sig, keys in signed:
        story = article_id
        if sig is not None:
            candidates = [entry for _, bucket in keys for entry in known.get(bucket, ())]
            copies = [(containment(sig, other), story_id) for story_id, other in candidates
                      if is_copy(sig, other)]
            if copies:
                story = max(copies)[1]
            for _, bucket in keys:  # later articles of this pass see this one
                known.setdefault(bucket, []).append((story, sig))
            bands += [{"article_id": article_id, "band": band, "bucket": bucket}
                      for band, bucket in keys]
        stories.append({"article_id": article_id, "story_id": story,
                        "signature": sig.to_bytes() if sig else None,
                        "shingles": sig.shingles if sig else 0})
    if stories:
        session.execute(insert(ArticleStory.__table__), stories)
    if bands:
        session.execute(insert(StoryBand.__table__), bands)
    return len(pending)


@dataclass
class StoryMember:
    article_id: int
    url: str
    title: str | None
    credits: str | None  # the outlet the copy credits (来源)
    published_at: datetime | None


def members(session: Session, story_id: int) -> list[StoryMember]:
    """A story's copies, its origin first: the copy from the outlet most copies credit
    (来源) when that outlet's own copy is there, else the earliest publication."""
    rows = session.execute(
        select(Article.id, Page.url, Article.title, Article.source, Article.published_at)
        .join(ArticleStory).join(Page).where(ArticleStory.story_id == story_id)).all()
    copies = [StoryMember(*row) for row in rows]
    copies.sort(key=lambda m: (m.published_at is None, m.published_at or 0, m.article_id))
    credited = _most_credited(copies)
    if credited:
        own = [m for m in copies if m.title and _names(credited, m.url)]
        if own:
            copies.remove(own[0])
            copies.insert(0, own[0])
    return copies


def _most_credited(copies: Iterable[StoryMember]) -> str | None:
    counts: dict[str, int] = {}
    for copy in copies:
        if copy.credits:
            counts[copy.credits] = counts.get(copy.credits, 0) + 1
    return max(counts, key=counts.__getitem__) if counts else None


def _names(outlet: str, url: str) -> bool:
    """Whether a copy's URL is the outlet's own site, by the outlet's usual host names."""
    return any(host in url for host in OUTLET_HOSTS.get(outlet, ()))


# The wire services and papers Chinese portals reprint most, with their sites' hosts.
OUTLET_HOSTS: dict[str, tuple[str, ...]] = {
    "新华社": ("news.cn", "xinhuanet.com"), "新华网": ("news.cn", "xinhuanet.com"),
    "人民日报": ("people.com.cn",), "人民网": ("people.com.cn",),
    "中国新闻网": ("chinanews.com",), "中新网": ("chinanews.com",),
    "央视新闻": ("cctv.com",), "央视网": ("cctv.com",), "光明日报": ("gmw.cn",),
    "经济日报": ("ce.cn",), "澎湃新闻": ("thepaper.cn",), "新京报": ("bjnews.com.cn",),
}

