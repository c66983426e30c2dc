"""Benchmarks (`make bench`): figures to read, not timed tests."""
