"""Story signatures computed for a whole pass at once are datasketch's MinHash of each
text alone: batching changes neither the shingles (none runs from one text into the
next) nor the minima."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from datasketch import MinHash

from models.search.terms import normalise
from pipelines.collector import collector_paused
from reading import stories
from reading.stories import (
    BANDS,
    MIN_SHINGLES,
    NOT_LETTERS,
    PERMUTATIONS,
    _permutations,
    _shared,
    _shingle_hashes,
    band_keys,
    signatures,
)

WIRE = "，".join("".join(chr(0x4E00 + (7919 * (40 * sentence + i)) % 20_000) for i in range(40))
                 for sentence in range(10))  # 400 Han characters, no shingle repeated
ENGLISH = " ".join(f"word{number} council budget" for number in range(60))


def _alone(text: str) -> tuple[MinHash, int] | None:
    """datasketch's MinHash of the text's shingle hashes, and how many there are."""
    _, hashes = _shingle_hashes([NOT_LETTERS.sub("", normalise(text))])
    if len(hashes) < MIN_SHINGLES:
        return None
    sketch = MinHash(num_perm=PERMUTATIONS, hashfunc=int, permutations=_permutations(),
                     scheme="affine32")
    sketch.update_batch(hashes.tolist())
    return sketch, len(hashes)


def test_a_batch_signs_each_text_as_datasketch_signs_it_alone() -> None:
    texts = [WIRE, "", "短文", ENGLISH, WIRE[5:] + ENGLISH[:40], "a" * 200, WIRE, ENGLISH[::-1]]
    batch = signatures(texts)
    for text, signature in zip(texts, batch, strict=True):
        expected = _alone(text)
        if expected is None:
            assert signature is None
            continue
        sketch, shingles = expected
        assert signature is not None and signature.shingles == shingles
        assert np.array_equal(signature.hashvalues, sketch.hashvalues.astype(np.uint32))
    assert batch[0] is not None and batch[6] is not None
    assert np.array_equal(batch[0].hashvalues, batch[6].hashvalues)  # the same text twice


def test_each_texts_shingle_hashes_are_distinct_and_in_order() -> None:
    letters = [NOT_LETTERS.sub("", normalise(text)) for text in (WIRE * 3, ENGLISH, "", WIRE)]
    owners, hashes = _shingle_hashes(letters)
    keys = (owners.astype(np.uint64) << np.uint64(32)) | hashes
    assert np.all(keys[1:] > keys[:-1])  # sorted by text, then hash; none twice
    alone = set(_shingle_hashes([letters[3]])[1].tolist())
    assert set(hashes[owners == 0].tolist()) >= alone == set(hashes[owners == 3].tolist())
    assert (owners == 0).sum() < 2 * len(alone)  # the text repeated adds only its seams


def _band_key(values: list[int]) -> int:
    """A band's bucket as the store defines it, in Python integers (the reference)."""
    key = 0
    for value in values:
        key = (key * 0x100000001B3 + value) % 2**64
    return key


def test_band_keys_of_a_pass_are_each_signatures_own() -> None:
    first, second = (sig for sig in signatures([WIRE, ENGLISH]) if sig is not None)
    rows = PERMUTATIONS // BANDS
    keys = band_keys([first, None, second, first])
    assert keys[1] == [] and keys[0] == keys[3] != keys[2]
    for sig, found in ((first, keys[0]), (second, keys[2])):
        values = sig.hashvalues.tolist()
        expected = [_band_key(values[band * rows:(band + 1) * rows])
                    ^ band * 0x9E3779B97F4A7C15 % 2**64 for band in range(BANDS)]
        assert found == [(key + 2**63) % 2**64 - 2**63 for key in expected]


def test_shared_shingles_are_the_intersection_of_the_sorted_sets() -> None:
    rng = np.random.default_rng(5)
    for size, other in ((0, 10), (10, 0), (1, 1), (300, 500), (2000, 40)):
        first = np.unique(rng.integers(0, 1000, size, dtype=np.uint64))
        second = np.unique(rng.integers(0, 1000, other, dtype=np.uint64))
        assert _shared(first, second) == len(np.intersect1d(first, second))


def test_shingles_hashed_in_parts_are_hashed_as_at_once(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    texts = [NOT_LETTERS.sub("", normalise(WIRE * 3 + ENGLISH)) for _ in range(60)]
    parts = _shingle_hashes(texts, sampled=False)
    monkeypatch.setattr(stories, "_HASHED_AT_ONCE", 10**9)
    whole = _shingle_hashes(texts, sampled=False)
    assert sum(map(len, texts)) > 3 * 2**15
    assert all(np.array_equal(part, at_once) for part, at_once in zip(parts, whole, strict=True))


def test_the_collector_waits_for_a_pass_and_is_left_as_it_was() -> None:
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            with pytest.raises(ValueError), collector_paused():
                assert not gc.isenabled()
                raise ValueError
            assert gc.isenabled() == enabled
        finally:
            gc.enable()


def test_a_candidate_met_only_in_one_full_bucket_is_not_telling(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A full bucket (its CANDIDATES_PER_BUCKET newest came back) shared alone says little; a
    rarer bucket, or two full ones shared with one article of the pass, is worth a signature."""
    monkeypatch.setattr(stories, "CANDIDATES_PER_BUCKET", 2)
    keys = [[10, 11, 12], [20, 21]]  # the pass: article 0's band keys, article 1's
    paired = np.array([10, 10, 11, 11, 12, 20, 20, 21, 21], dtype=np.int64)
    articles = np.array([7, 8, 7, 9, 5, 8, 6, 9, 4], dtype=np.int64)
    kept = stories._telling(paired, articles, keys)
    # 7: two full buckets with article 0; 5: bucket 12 is not full; 8: one full bucket with
    # each article; 6, 9, 4: one full bucket each (9 with both articles, once each)
    assert sorted(set(articles[kept].tolist())) == [5, 7]
    assert kept.tolist() == [True, False, True, False, True, False, False, False, False]
