"""Tests of the benchmarks' own machinery (bench/)."""

from pathlib import Path

# The stores the bench tests fill are made of this corpus: two small sites in the realsites
# format, written for the tests (the benches read ../shared/data's real sites).
CORPUS = Path(__file__).parent / "corpus"
