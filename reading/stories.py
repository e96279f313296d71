"""Grouping reposts into stories: MinHash signatures over character shingles, candidates
by locality-sensitive banding, copies by estimated containment, confirmed on the text the
site does not repeat.

A reprint keeps the wire copy's sentences while its headline, byline, 编辑 line, template
and trimming change, so the body is compared as a set of character shingles (letters and
digits only, normalised as the search index reads text), and two bodies are copies when
most of the shorter one's shingles are in the longer (containment): a trimmed copy is
still a copy. Shingles are sampled by hash (one in SHINGLE_SAMPLE, the same ones in every
text), which keeps the estimate and bounds the cost of a long article.

Pages of one site also share whole sentences that are no story (a notice, a code skeleton, a
comment policy), and a site's yearly notice repeats last year's: a candidate the
signatures find is a copy only when the texts, without the sentences their sites repeat on
many pages (reading/story_text.py), still share most of the shorter one's shingles, enough
of them, were published within COPY_WINDOW of each other, and hold no sentence of their
site with other numbers (one form filled twice: a moved-topic notice for another topic).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from itertools import chain

import numpy as np
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from models.bulk import add_counts, columns_in, insert_columns, insert_rows, newest_in, select_in
from models.page import Article, Page
from models.search.terms import normalise
from models.story import ArticleStory, StoryBand, StoryLine
from pipelines.collector import collector_paused
from reading.story_text import StoryText, sentence_pages, story_texts

SHINGLE_CHARACTERS = 5
SHINGLE_SAMPLE = 4
MIN_SHINGLES = 30  # fewer sampled shingles: too short to tell a copy from a coincidence
PERMUTATIONS = 64
BANDS = 32  # of PERMUTATIONS / BANDS rows: candidates from a Jaccard near 0.2 up
# A bucket's newest members that are candidates: a bucket thousands of articles share (a
# phrase many texts hold) would make the lookup grow with the store (docs/BENCHMARKS.md,
# stories at 1,000,000 stored); a story's copies share many buckets of their own.
CANDIDATES_PER_BUCKET = 20
CROWDED_SHARED = 2  # full buckets a candidate met in no other shares with one article
COPY_CONTAINMENT = 0.7  # of the shorter text's shingles: estimated, then on distinctive text
COPY_JACCARD = 0.25
# Confirming a candidate (docs/BENCHMARKS.md, stories: the real pairs):
TEMPLATE_PAGES = 3  # a sentence on this many of a site's pages is its template
MIN_DISTINCT_SHINGLES = 100  # shingles of the shorter text without its template
COPY_WINDOW = timedelta(days=30)  # copies further apart in publication are not one story
GROUP_BATCH = 500  # articles grouped per pass
# A crawl's pass looks for ungrouped articles among the newest this many (by id): 20 persist
# batches, room for a concurrent writer's late commit (docs/BENCHMARKS.md, stories).
GROUP_LOOKBACK = 1000
_SEED = 20261127
_GROUPING_LOCK = 20261128  # PostgreSQL advisory lock key: one grouping pass at a time
_SAMPLED = 0xFFFFFFFF // SHINGLE_SAMPLE
_HASHED_AT_ONCE = 1 << 15  # shingles: their arrays in a core's L2 cache
NOT_LETTERS = re.compile(r"[\W_]+")  # what a shingle is made of: letters and digits


@cache
def _permutations() -> tuple[np.ndarray, np.ndarray]:
    # imported here: datasketch's package imports SciPy (about 0.6 s), which every command
    # that loads this module (search, export, a crawl that stores nothing) would pay
    from datasketch import MinHash

    return MinHash(num_perm=PERMUTATIONS, seed=_SEED, scheme="affine32").permutations


@dataclass(frozen=True)
class Signature:
    hashvalues: np.ndarray  # uint32, PERMUTATIONS long
    shingles: int

    def to_bytes(self) -> bytes:
        return self.hashvalues.astype("<u4").tobytes()


def signatures(texts: Sequence[str]) -> list[Signature | None]:
    """Each text's signature, or None when it is too short to group: the MinHash that
    datasketch's `MinHash(scheme="affine32").update_batch` gives the text's sampled shingle
    hashes, computed for all the texts in a few array operations (one MinHash object and
    its list conversions an article cost more than the hashing itself)."""
    return _signatures([NOT_LETTERS.sub("", normalise(text)) for text in texts])


def _signatures(letters: Sequence[str]) -> list[Signature | None]:
    """`signatures` of texts already normalised and reduced to their letters."""
    owners, hashes = _shingle_hashes(letters)
    counts = np.bincount(owners, minlength=len(letters))
    found: list[Signature | None] = [None] * len(letters)
    rows = counts[owners] >= MIN_SHINGLES
    if not rows.any():
        return found
    values = _minima(hashes[rows], np.flatnonzero(np.diff(owners[rows], prepend=-1)))
    for index, hashvalues in zip(np.flatnonzero(counts >= MIN_SHINGLES).tolist(), values,
                                 strict=True):
        found[index] = Signature(hashvalues, int(counts[index]))
    return found


def _minima(hashes: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per run of hashes (runs begin at `starts`), the minimum of each permutation of
    datasketch's affine32 scheme: its MurmurHash3 fmix32 pre-mix, then a * h + b (mod 2³²).
    A permutation at a time over the pass's hashes: one (hashes × PERMUTATIONS) array
    reduced along its rows took 16 times as long (docs/BENCHMARKS.md, stories)."""
    mixed = hashes.astype(np.uint32)
    for shift, factor in ((16, 0x85EBCA6B), (13, 0xC2B2AE35), (16, 1)):
        mixed ^= mixed >> np.uint32(shift)
        mixed *= np.uint32(factor)
    a, b = _permutations()
    minima = np.empty((len(starts), PERMUTATIONS), dtype=np.uint32)
    permuted = np.empty_like(mixed)
    for column in range(PERMUTATIONS):
        np.multiply(mixed, a[column], out=permuted)
        permuted += b[column]
        minima[:, column] = np.minimum.reduceat(permuted, starts)
    return minima


def _shingle_hashes(letters: Sequence[str], sampled: bool = True
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The distinct 32-bit hashes of each text's shingles (`sampled`: those that are small
    only), as (text index, hash) arrays sorted by text: a polynomial hash of each
    SHINGLE_CHARACTERS code points, mixed (MurmurHash3's finaliser). The texts are hashed as
    one array; a shingle that would run into the next text is dropped."""
    ends = np.cumsum(np.fromiter(map(len, letters), dtype=np.int64, count=len(letters)))
    codes = np.frombuffer("".join(letters).encode("utf-32-le"), dtype=np.uint32)
    count = len(codes) - SHINGLE_CHARACTERS + 1
    if count <= 0:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.uint64)
    top = np.empty(count, dtype=np.uint64)
    for start in range(0, count, _HASHED_AT_ONCE):
        _hash_shingles(codes[start:start + _HASHED_AT_ONCE + SHINGLE_CHARACTERS - 1],
                       top[start:start + _HASHED_AT_ONCE])
    kept = top <= _SAMPLED if sampled else np.ones(count, dtype=bool)
    across = (ends[:, None] - np.arange(1, SHINGLE_CHARACTERS)).ravel()  # into the next text
    kept[across[(across >= 0) & (across < count)]] = False
    owners = np.repeat(np.arange(len(ends), dtype=np.uint64), np.diff(ends, prepend=0)
                       )[:count][kept]
    keys = np.sort((owners << np.uint64(32)) | top[kept])
    distinct = np.ones(len(keys), dtype=bool)  # np.unique's hash table (NumPy 2.3+) takes
    distinct[1:] = keys[1:] != keys[:-1]  # 15 times as long as this sort for these keys
    keys = keys[distinct]
    return (keys >> np.uint64(32)).astype(np.int64), keys & np.uint64(0xFFFFFFFF)


def _hash_shingles(codes: np.ndarray, top: np.ndarray) -> None:
    """Into `top`, the top 32 bits of each SHINGLE_CHARACTERS code points' hash (`codes`
    holds the last shingle's last ones). In place, a part of a pass at a time that the
    processor's cache holds: the pass at once went through memory twenty times."""
    hashes = codes[:len(top)].astype(np.uint64)
    for offset in range(1, SHINGLE_CHARACTERS):
        hashes *= np.uint64(1_000_003)
        hashes += codes[offset:offset + len(top)]
    shifted = np.empty_like(hashes)
    for shift, factor in ((33, 0xFF51AFD7ED558CCD), (33, 0xC4CEB9FE1A85EC53), (33, 1)):
        hashes ^= np.right_shift(hashes, np.uint64(shift), out=shifted)
        hashes *= np.uint64(factor)
    np.right_shift(hashes, np.uint64(32), out=top)


def _buckets(hashvalues: np.ndarray) -> np.ndarray:
    """Each signature's (a row of `hashvalues`) bucket per band, as int64: one array
    operation for a whole pass (a signature at a time cost more than signing it)."""
    rows = PERMUTATIONS // BANDS
    values = hashvalues.astype(np.uint64).reshape(len(hashvalues), BANDS, rows)
    keys = np.zeros((len(hashvalues), BANDS), dtype=np.uint64)
    for row in range(rows):
        keys = keys * np.uint64(0x100000001B3) + values[:, :, row]
    keys ^= np.arange(BANDS, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    return keys.view(np.int64)


def band_keys(sigs: Sequence[Signature | None]) -> list[list[int]]:
    """Each signature's bucket per band, in band order, none for None: equal buckets mean
    the signatures agree on all of a band's rows (the band number is mixed into the
    bucket, so a bucket alone names its band)."""
    signed = [sig for sig in sigs if sig is not None]
    rows = iter(_buckets(np.stack([sig.hashvalues for sig in signed])).tolist()
                if signed else [])
    return [next(rows) if sig is not None else [] for sig in sigs]


@dataclass(frozen=True)
class _Stored:
    """A pass's stored candidates, as arrays: each signed article's id, signature (a row of
    one matrix) and shingle count, its story by id, and the (bucket, row) pairs that name
    them (each bucket's newest members)."""

    ids: np.ndarray  # int64, one a row
    hashvalues: np.ndarray  # uint32, rows × PERMUTATIONS
    shingles: np.ndarray  # float64, one a row
    stories: dict[int, int]  # article id → story id
    buckets: np.ndarray  # int64, one a pair
    rows: np.ndarray  # int64, one a pair


def _stored_by_bucket(session: Session, keys: Sequence[Sequence[int]], days: np.ndarray
                      ) -> _Stored:
    """The newest CANDIDATES_PER_BUCKET stored articles with each band key of a whole pass
    (its signed articles' `keys`, published on `days`): the (bucket, article) pairs, those
    `_telling` and `_near` keep, then each article's signature once (copies share many
    buckets), all the signatures decoded by one array operation."""
    paired, articles, published = newest_in(
        session, StoryBand.__table__, "bucket", "article_id",
        sorted(set(chain.from_iterable(keys))), CANDIDATES_PER_BUCKET, "published_day")
    kept = _telling(paired, articles, keys) & _near(paired, published, keys, days)
    paired, articles = paired[kept], articles[kept]
    signed, story_ids, hashvalues, shingles = columns_in(
        session, ArticleStory.__table__, ("article_id", "story_id", "signature", "shingles"),
        "article_id", np.unique(articles).tolist(), "signature IS NOT NULL", joined="signature")
    ids = np.array(signed, dtype=np.int64)
    at = np.searchsorted(ids, articles)
    kept = np.flatnonzero(at < len(ids))
    kept = kept[ids[at[kept]] == articles[kept]]  # an article too short to sign has no row
    return _Stored(
        ids=ids,
        hashvalues=np.frombuffer(hashvalues, dtype="<u4").reshape(len(ids), PERMUTATIONS),
        shingles=np.array(shingles, dtype=np.float64),
        stories=dict(zip(signed, story_ids, strict=True)),
        buckets=paired[kept], rows=at[kept])


def _telling(paired: np.ndarray, articles: np.ndarray, keys: Sequence[Sequence[int]]
             ) -> np.ndarray:
    """Which of a pass's stored (bucket, article) pairs (`newest_in`'s) are worth an
    article's signature: an article met in a bucket that is not full (fewer than
    CANDIDATES_PER_BUCKET members came back), or sharing CROWDED_SHARED buckets with one
    article of the pass (band keys `keys`). A full bucket is a phrase thousands of texts
    hold: sharing one alone says little, and such candidates were most of those a large
    store gave, their signatures read only to fail the estimate."""
    buckets, members = np.unique(paired, return_counts=True)
    full = np.isin(paired, buckets[members >= CANDIDATES_PER_BUCKET])
    owned, wanted = _owned_keys(keys)
    order = np.argsort(wanted, kind="stable")
    which, at = _equal_ranges(wanted[order], paired)
    shared = owned[order][at] << np.int64(40) | articles[which]  # (owner, article); ids < 2⁴⁰
    pairs, counts = np.unique(shared, return_counts=True)
    return np.isin(articles, np.union1d(
        articles[~full], pairs[counts >= CROWDED_SHARED] & np.int64((1 << 40) - 1)))


def _near(paired: np.ndarray, published: np.ndarray, keys: Sequence[Sequence[int]],
          days: np.ndarray) -> np.ndarray:
    """Which of a pass's stored (bucket, article) pairs, the article published on day
    `published`, could be a copy of an article of the pass sharing that bucket (band keys
    `keys`, published on `days`) as far as their publications go: within COPY_WINDOW of one
    of them, a day's margin for the days' rounding, or a day not known (NaN). Only a sieve
    before the signatures are read: `_within_window` tests each pair's times after (at
    1,000,000 stored, nine in ten candidates' signatures were read only to fail it;
    docs/BENCHMARKS.md, session 13)."""
    owned, wanted = _owned_keys(keys)
    buckets, which = np.unique(wanted, return_inverse=True)
    owner_days = days[owned]
    undated = np.isnan(owner_days)
    earliest = np.full(len(buckets), np.inf)
    latest = np.full(len(buckets), -np.inf)
    np.minimum.at(earliest, which, np.where(undated, -np.inf, owner_days))
    np.maximum.at(latest, which, np.where(undated, np.inf, owner_days))
    at = np.minimum(np.searchsorted(buckets, paired), max(len(buckets) - 1, 0))
    margin = COPY_WINDOW.days + 1
    with np.errstate(invalid="ignore"):  # NaN days compare False: kept by isnan
        return np.isnan(published) | ((published >= earliest[at] - margin)
                                      & (published <= latest[at] + margin))


def _owned_keys(keys: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """A pass's band keys (`keys[owner]`, an article's each) flattened: each key's owner
    and the key, as two int64 arrays."""
    owned = np.repeat(np.arange(len(keys), dtype=np.int64), [len(each) for each in keys])
    return owned, np.fromiter(chain.from_iterable(keys), dtype=np.int64, count=len(owned))


def _equal_ranges(ordered: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (i, j) with `ordered[j] == wanted[i]` (`ordered` sorted), as two arrays."""
    low = np.searchsorted(ordered, wanted, side="left")
    counts = np.searchsorted(ordered, wanted, side="right") - low
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    return np.repeat(np.arange(len(wanted)), counts), np.repeat(low, counts) + offsets


def _shared_buckets(stored: _Stored, keys: Sequence[Sequence[int]]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (owner, row) pairs of a pass: owner, a signed article of the pass (its
    band keys `keys[owner]`), and row, a stored candidate (a row of `stored`) or an earlier
    article of the pass (`len(stored.ids)` + its owner number) sharing a bucket with it."""
    first = len(stored.ids)
    owned, wanted = _owned_keys(keys)
    buckets = np.concatenate([stored.buckets, wanted])
    rows = np.concatenate([stored.rows, first + owned])
    order = np.argsort(buckets, kind="stable")
    buckets, rows = buckets[order], rows[order]
    which, at = _equal_ranges(buckets, wanted)
    owners, found = owned[which], rows[at]
    earlier = (found < first) | (found - first < owners)  # later ones see this one
    pairs = np.unique(owners[earlier] * (first + len(keys)) + found[earlier])
    return pairs // (first + len(keys)), pairs % (first + len(keys))


def likely_copies(sigs: Sequence[Signature], keys: Sequence[Sequence[int]],
                  ids: Sequence[int], stored: _Stored) -> list[list[int]]:
    """The articles each signed article of a pass (`sigs`, their band keys and ids) may
    copy, among the stored candidates and the pass's earlier articles sharing a bucket with
    it, the most contained first (ties: the later article), for a whole pass in a few array
    operations (a few small ones an article cost more than its signature). Copies share
    most of the shorter text (containment, estimated from the signatures' Jaccard and the
    sets' sizes) and enough of both (Jaccard): the containment of a short text in a long one
    is too noisy an estimate alone."""
    found: list[list[int]] = [[] for _ in sigs]
    if not sigs:
        return found
    owners, rows = _shared_buckets(stored, keys)
    if not len(owners):
        return found
    own_values = np.stack([sig.hashvalues for sig in sigs])
    own_sizes = np.array([sig.shingles for sig in sigs], dtype=np.float64)
    every_id = np.concatenate([stored.ids, np.asarray(ids, dtype=np.int64)])
    values = np.concatenate([stored.hashvalues, own_values])
    sizes = np.concatenate([stored.shingles, own_sizes])[rows]
    jaccard = np.mean(values[rows] == own_values[owners], axis=1)
    own = own_sizes[owners]
    shared = jaccard * (sizes + own) / (1 + jaccard)
    contained = np.minimum(1.0, shared / np.minimum(sizes, own))
    kept = np.flatnonzero((jaccard >= COPY_JACCARD) & (contained >= COPY_CONTAINMENT))
    candidates = every_id[rows]
    kept = kept[np.lexsort((-candidates[kept], -contained[kept], owners[kept]))]
    for owner, article_id in zip(owners[kept].tolist(), candidates[kept].tolist(),
                                 strict=True):
        found[owner].append(article_id)
    return found


@dataclass(frozen=True)
class _Body:
    """A body's sentences and its publication."""

    text: StoryText
    published_at: datetime | None


@dataclass(frozen=True)
class _Distinct:
    """What a candidate pair is confirmed on: a body's shingles without its site's template
    (all of them, sorted) and its publication."""

    shingles: np.ndarray
    published_at: datetime | None
    numbered: dict[int, str]  # its sentences holding digits, by key (template ones too)


def is_copy(first: _Distinct, second: _Distinct) -> bool:
    """Whether two candidates are one story: published within COPY_WINDOW (when both
    dates are known), no sentence of one site that both hold with other numbers (one form
    filled twice: a moved-topic notice pointing at another topic, a yearly call, a
    report's figures; a repost keeps its numbers) and, without their sites' template
    sentences, the shorter still has MIN_DISTINCT_SHINGLES shingles, COPY_CONTAINMENT of
    them in the other (all of the shingles: a pair's few thousand, where a sample of a
    short text is noisy)."""
    if _apart(first.published_at, second.published_at):
        return False
    if any(second.numbered.get(key, sentence) != sentence
           for key, sentence in first.numbered.items()):
        return False
    smaller = min(len(first.shingles), len(second.shingles))
    return smaller >= MIN_DISTINCT_SHINGLES and _shared(first.shingles, second.shingles) >= (
        COPY_CONTAINMENT * smaller)


def _apart(first: datetime | None, second: datetime | None) -> bool:
    """Whether two publications are further apart than COPY_WINDOW (both known)."""
    return bool(first and second and abs(_naive(first) - _naive(second)) > COPY_WINDOW)


def _within_window(session: Session, likely: dict[int, list[int]],
                   bodies: Mapping[int, _Body]) -> dict[int, list[int]]:
    """Each article's likely copies (in order) published within COPY_WINDOW of it, the
    stored candidates' publications read first: the window is `is_copy`'s first test, and a
    stored candidate outside it would be read, keyed and hashed only to fail it (most of
    those a large store's older articles bring; docs/BENCHMARKS.md, stories)."""
    stored = sorted({other for others in likely.values() for other in others} - bodies.keys())
    published = {article_id: body.published_at for article_id, body in bodies.items()}
    if stored:
        published |= dict(session.execute(
            select(Article.id, Article.published_at).where(Article.id.in_(stored))).all())
    return {article_id: [other for other in others
                         if not _apart(published[article_id], published.get(other))]
            for article_id, others in likely.items()}


def _shared(first: np.ndarray, second: np.ndarray) -> int:
    """How many values two sorted arrays of distinct values share: each of the first looked
    up in the second (`np.intersect1d` sorts both again)."""
    if not len(first) or not len(second):
        return 0
    found = np.searchsorted(second, first)
    return int(np.count_nonzero(second[np.minimum(found, len(second) - 1)] == first))


def _distinct(bodies: dict[int, _Body], template: set[int]) -> dict[int, _Distinct]:
    """Each body (article id → body) as it is confirmed on, its shingles hashed at once."""
    ids = list(bodies)
    owners, hashes = _shingle_hashes([bodies[i].text.without(template) for i in ids],
                                     sampled=False)
    starts = np.searchsorted(owners, np.arange(len(ids) + 1))
    return {article_id: _Distinct(hashes[starts[n]:starts[n + 1]], bodies[article_id]
                                  .published_at, bodies[article_id].text.numbered())
            for n, article_id in enumerate(ids)}


def _naive(moment: datetime) -> datetime:
    """A stored time in UTC without its zone (SQLite returns UTC times without one)."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


_EPOCH = datetime(1970, 1, 1)


def published_day(moment: datetime | None) -> int | None:
    """A publication as the band rows keep it: whole days since 1970-01-01 UTC."""
    return None if moment is None else (_naive(moment) - _EPOCH).days


def _bodies(session: Session, article_ids: Collection[int]) -> dict[int, _Body]:
    """The stored articles' bodies (article id → body), read again to be confirmed on."""
    if not article_ids:
        return {}
    rows = session.execute(
        select(Article.id, Article.body_text, Article.published_at, Page.url).join(Page)
        .where(Article.id.in_(sorted(set(article_ids))))).all()
    texts = story_texts([normalise(body or "") for _, body, _, _ in rows],
                        [url for *_, url in rows])
    return {article_id: _Body(text, published_at)
            for (article_id, _, published_at, _), (_, text) in zip(rows, texts, strict=True)}


def _template(session: Session, bodies: Iterable[_Body], counted: Mapping[int, int]
              ) -> set[int]:
    """The keys among these bodies' sentences that are on TEMPLATE_PAGES of their site's
    pages: the pass's keys by their counts as the pass's upsert left them (`counted`), the
    others looked up (a lookup a key was 6 % of a pass)."""
    keys = {key for body in bodies for key in body.text.keys}
    return {key for key in keys & counted.keys() if counted[key] >= TEMPLATE_PAGES} | {
        key for key, in select_in(session, StoryLine.__table__, ("key",), "key",
                                  sorted(keys - counted.keys()),
                                  f"pages >= {int(TEMPLATE_PAGES)}")}


def _confirmed(session: Session, likely: dict[int, list[int]], bodies: dict[int, _Body],
               counted: Mapping[int, int]) -> dict[int, int]:
    """Each article's first likely copy (article id → its candidates, in order) that
    `is_copy` confirms. Candidates are tried in rounds, the first of each article's, then
    the next of those not confirmed: a body is read (stored candidates, into `bodies`), its
    template looked up and its shingles hashed only when it is compared, and only for
    candidates published within the window (most articles' first candidate is their copy;
    docs/BENCHMARKS.md, stories)."""
    found: dict[int, int] = {}
    distinct: dict[int, _Distinct] = {}
    likely = _within_window(session, likely, bodies)
    trying = [article_id for article_id, others in likely.items() if others]
    rank = 0
    while trying:
        pairs = [(article_id, likely[article_id][rank]) for article_id in trying]
        needed = {article_id for pair in pairs for article_id in pair} - distinct.keys()
        bodies |= _bodies(session, needed - bodies.keys())
        compared = {article_id: bodies[article_id] for article_id in needed}
        distinct |= _distinct(compared, _template(session, compared.values(), counted))
        trying = []
        for article_id, other in pairs:
            if is_copy(distinct[article_id], distinct[other]):
                found[article_id] = other
            elif rank + 1 < len(likely[article_id]):
                trying.append(article_id)
        rank += 1
    return found


def take_grouping_turn(session: Session) -> None:
    """Hold the store's grouping turn to the end of the transaction. Two passes at once
    (two workers, a crawl's last pass and a backfill) would read the same ungrouped
    articles, and one would take the other's fresh rows for stored ones: on PostgreSQL an
    advisory lock, on SQLite the database's write lock, taken before anything is read."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _GROUPING_LOCK})
    elif dialect == "sqlite":
        session.execute(text("UPDATE story_line SET pages = pages WHERE 0"))


@collector_paused()  # a pass keeps its objects to its end
def group_new(session: Session, limit: int = GROUP_BATCH, lookback: int | None = None) -> int:
    """Group the articles stored since the last pass, oldest publication first (so a story's
    first member is its earliest copy where the crawl saw it); returns how many. An article
    joins the story of the closest confirmed copy among those stored and those grouped
    before it in this pass, else starts its own. The pass's sentences are counted first, so a
    template is known from the pass that brings it. With `lookback`, only the newest
    `lookback` articles are looked at: an index range, where finding the ungrouped among
    all articles is a scan of the store (0.9 s a pass at 1,000,000 articles); older ones
    are the backfill's (`python -m crawler reindex`). Passes of the store take turns
    (`take_grouping_turn`); the garbage collector waits for the pass (`collector_paused`)."""
    take_grouping_turn(session)
    query = (select(Article.id, Article.body_text, Article.published_at, Page.url).join(Page)
             .outerjoin(ArticleStory).where(ArticleStory.article_id.is_(None)))
    if lookback is not None:  # a number, not a subquery: the planner then uses the range
        newest = session.scalar(select(func.max(Article.id))) or 0
        query = query.where(Article.id > newest - lookback)
    pending = session.execute(
        query.order_by(Article.published_at.is_(None), Article.published_at, Article.id)
        .limit(limit)).all()
    texts = story_texts([normalise(body or "") for _, body, _, _ in pending],
                        [url for *_, url in pending])
    bodies = {article_id: _Body(text, published_at)
              for (article_id, _, published_at, _), (_, text) in zip(pending, texts, strict=True)}
    counted = add_counts(session, StoryLine.__table__, "key", "pages",
                         sentence_pages(body.text for body in bodies.values()))
    sigs = _signatures([letters.replace("\n", "") for letters, _ in texts])
    signed = list(zip((row[0] for row in pending), sigs, band_keys(sigs), strict=True))
    days = [published_day(published_at) for _, _, published_at, _ in pending]
    stored = _stored_by_bucket(session, [keys for *_, keys in signed],
                               np.array(days, dtype=np.float64))  # None becomes NaN
    comparable = [(article_id, sig, keys) for article_id, sig, keys in signed
                  if sig is not None]
    likely = dict(zip((article_id for article_id, _, _ in comparable), likely_copies(
        [sig for _, sig, _ in comparable], [keys for *_, keys in comparable],
        [article_id for article_id, _, _ in comparable], stored), strict=True))
    confirmed = _confirmed(session, likely, bodies, counted)
    stored_story = stored.stories
    story_of: dict[int, int] = {}
    stories: list[tuple[int, int, bytes | None, int]] = []
    for article_id, sig, _ in signed:
        other = confirmed.get(article_id)
        story_of[article_id] = (article_id if other is None
                                else story_of.get(other) or stored_story[other])
        stories.append((article_id, story_of[article_id], sig.to_bytes() if sig else None,
                        sig.shingles if sig else 0))
    insert_rows(session, ArticleStory.__table__,
                ("article_id", "story_id", "signature", "shingles"), stories)
    insert_columns(session, StoryBand.__table__, band_columns(
        [article_id for article_id, _, _ in signed], [keys for *_, keys in signed], days))
    return len(pending)


def band_columns(ids: Sequence[int], keys: Sequence[Sequence[int]],
                 days: Sequence[int | None]) -> dict[str, list[int | None]]:
    """The band rows (article id, band, bucket, published day) of articles with their band
    keys (`band_keys`; none: not signed) and publication days, as columns (a tuple built in
    Python a row cost as much as inserting it)."""
    banded = [n for n, each in enumerate(keys) if each]
    return {"article_id": np.repeat([ids[n] for n in banded], BANDS).tolist(),
            "band": list(range(BANDS)) * len(banded),
            "bucket": list(chain.from_iterable(keys[n] for n in banded)),
            "published_day": list(chain.from_iterable([days[n]] * BANDS for n in banded))}


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

