"""Story signatures computed for a whole pass at once are datasketch's MinHash of each
text alone: batching changes neither the shingles (none runs from one text into the
next) nor the minima."""

from __future__ import annotations

import numpy as np
from datasketch import MinHash

from models.search.terms import normalise
from reading.stories import (
    _NOT_LETTERS,
    MIN_SHINGLES,
    PERMUTATIONS,
    _permutations,
    _shingle_hashes,
    signatures,
)

WIRE = "，".join("".join(chr(0x4E00 + (7919 * (40 * sentence + i)) % 20_000) for i in range(40))
                 for sentence in range(10))  # 400 Han characters, no shingle repeated
ENGLISH = " ".join(f"word{number} council budget" for number in range(60))


def _alone(text: str) -> tuple[MinHash, int] | None:
    """datasketch's MinHash of the text's shingle hashes, and how many there are."""
    _, hashes = _shingle_hashes([_NOT_LETTERS.sub("", normalise(text))])
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
