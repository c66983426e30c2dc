"""Timing helpers every benchmark shares: one call timed, medians, and the
median of paired ratios (two variants timed one right after the other, so a
pair sees the same weather on a shared machine)."""

import statistics
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

Sample = tuple[float, float]  # wall-clock seconds, CPU seconds of this process


def timed_result(fn: Callable[[], T]) -> tuple[T, Sample]:
    """What one call returns, and its wall-clock and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, (time.perf_counter() - wall, time.process_time() - cpu)


def timed(fn: Callable[[], object]) -> Sample:
    """Wall-clock and CPU seconds for one call."""
    return timed_result(fn)[1]


def median(samples: list[Sample], which: int) -> float:
    return statistics.median(sample[which] for sample in samples)


def paired_ratio(these: list[Sample], those: list[Sample], which: int) -> float:
    """The median of the ratios of samples taken one right after the other."""
    return statistics.median(a[which] / b[which] for a, b in zip(these, those, strict=True))


def interleaved(variants: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[Sample]]:
    """Each variant timed once per round, in turn, for ``rounds`` rounds."""
    samples: dict[str, list[Sample]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, fn in variants.items():
            samples[name].append(timed(fn))
    return samples
