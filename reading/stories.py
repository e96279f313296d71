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

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache

import numpy as np
from datasketch import MinHash
from sqlalchemy import select, tuple_
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
GROUP_BATCH = 500  # articles grouped per pass
_SEED = 20261127
_SAMPLED = 0xFFFFFFFF // SHINGLE_SAMPLE


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
    letters = "".join(character for character in normalise(text) if character.isalnum())
    hashes = {crc for start in range(len(letters) - SHINGLE_CHARACTERS + 1)
              if (crc := zlib.crc32(letters[start:start + SHINGLE_CHARACTERS].encode()))
              <= _SAMPLED}
    if len(hashes) < MIN_SHINGLES:
        return None
    sketch = MinHash(num_perm=PERMUTATIONS, hashfunc=int, permutations=_permutations(),
                     scheme="affine32")
    sketch.update_batch(list(hashes))
    return Signature(sketch.hashvalues.astype(np.uint32), len(hashes))


def band_keys(sig: Signature) -> list[tuple[int, int]]:
    """(band, bucket) pairs: equal in a band means the signatures agree on all its rows."""
    rows = PERMUTATIONS // BANDS
    values = sig.hashvalues.astype("<u4")
    return [(band, int.from_bytes(values[band * rows:(band + 1) * rows].tobytes()[:8],
                                  "little", signed=True)) for band in range(BANDS)]


def containment(a: Signature, b: Signature) -> float:
    """Estimated share of the smaller set's shingles found in the other."""
    jaccard = float(np.mean(a.hashvalues == b.hashvalues))
    shared = jaccard * (a.shingles + b.shingles) / (1 + jaccard)
    return min(1.0, shared / min(a.shingles, b.shingles))


def _candidates(session: Session, keys: Sequence[tuple[int, int]],
                own: int) -> list[tuple[int, int, Signature]]:
    """(article id, story id, signature) of articles sharing a band key."""
    found = session.execute(
        select(ArticleStory.article_id, ArticleStory.story_id, ArticleStory.signature,
               ArticleStory.shingles)
        .where(ArticleStory.article_id.in_(
            select(StoryBand.article_id).where(tuple_(StoryBand.band, StoryBand.bucket)
                                               .in_(keys))),
               ArticleStory.article_id != own)).all()
    return [(row.article_id, row.story_id, Signature.from_bytes(row.signature, row.shingles))
            for row in found if row.signature]


def group(session: Session, article_id: int, text: str) -> int:
    """Give one article its story (joining the closest copy's, else its own); returns it."""
    sig = signature(text)
    story = article_id
    if sig is not None:
        keys = band_keys(sig)
        scored = [(containment(sig, other), story_id)
                  for _, story_id, other in _candidates(session, keys, article_id)]
        copies = [entry for entry in scored if entry[0] >= COPY_CONTAINMENT]
        if copies:
            story = max(copies)[1]
        session.add_all(StoryBand(article_id=article_id, band=band, bucket=bucket)
                        for band, bucket in keys)
    session.add(ArticleStory(article_id=article_id, story_id=story,
                             signature=sig.to_bytes() if sig else None,
                             shingles=sig.shingles if sig else 0))
    session.flush()
    return story


def group_new(session: Session, limit: int = GROUP_BATCH) -> int:
    """Group the articles stored since the last pass, oldest publication first (so a story's
    first member is its earliest copy where the crawl saw it); returns how many."""
    pending = session.execute(
        select(Article.id, Article.body_text).outerjoin(ArticleStory)
        .where(ArticleStory.article_id.is_(None))
        .order_by(Article.published_at.is_(None), Article.published_at, Article.id)
        .limit(limit)).all()
    for article_id, body in pending:
        group(session, article_id, body or "")
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

