"""Benchmarks run by `make bench`; each module prints a table and is runnable alone."""
