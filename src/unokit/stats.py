"""Counting and confidence intervals: exact integer tallies that merge in any order.

Every number a simulation reports comes from integer counts (sums, histograms), so the
result of a run is the same whatever the split into chunks and workers: merging adds
integers, and the means, percentiles and intervals are computed once, at the end.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (good near 0 and 1, unlike the normal one).

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if trials <= 0:
        return (math.nan, math.nan)
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return (lo, hi)


def mean_ci(n: int, total: float, total_sq: float, z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval from n, Σx and Σx² (sample variance)."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    mean = total / n
    if n == 1:
        return (mean, math.nan, math.nan)
    var = max(0.0, (total_sq - total * total / n) / (n - 1))
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


@dataclass
class Hist:
    """A histogram of small non-negative integers (turns per game, points per round)."""

    counts: dict[int, int] = field(default_factory=dict)

    def add(self, value: int, times: int = 1) -> None:
        c = self.counts
        c[value] = c.get(value, 0) + times

    def merge(self, other: Hist) -> None:
        c = self.counts
        for value, times in other.counts.items():
            c[value] = c.get(value, 0) + times

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    @property
    def total(self) -> int:
        return sum(v * k for v, k in self.counts.items())

    @property
    def total_sq(self) -> int:
        return sum(v * v * k for v, k in self.counts.items())

    def mean_ci(self) -> tuple[float, float, float]:
        return mean_ci(self.n, self.total, self.total_sq)

    def quantile(self, q: float) -> float:
        """The q-quantile, interpolated between order statistics like numpy's default."""
        n = self.n
        if n == 0:
            return math.nan
        pos = q * (n - 1)
        lo_rank = math.floor(pos)
        frac = pos - lo_rank
        lo = self._at(lo_rank)
        if frac == 0:
            return float(lo)
        hi = self._at(lo_rank + 1)
        return lo + (hi - lo) * frac

    def _at(self, rank: int) -> int:
        """The value of the rank-th smallest observation (0-based)."""
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if rank < seen:
                return value
        raise IndexError(rank)

    @property
    def max(self) -> int:
        return max(self.counts) if self.counts else 0

    @property
    def min(self) -> int:
        return min(self.counts) if self.counts else 0

    def to_json(self) -> dict[str, int]:
        return {str(v): self.counts[v] for v in sorted(self.counts)}

    @classmethod
    def from_json(cls, data: Mapping[str, int]) -> Hist:
        return cls({int(k): int(v) for k, v in data.items()})

    @classmethod
    def of(cls, values: Iterable[int]) -> Hist:
        h = cls()
        for v in values:
            h.add(v)
        return h

    def summary(self) -> dict[str, float]:
        """Mean with its 95% interval, and the usual percentiles."""
        mean, lo, hi = self.mean_ci()
        return {
            "n": self.n,
            "mean": mean,
            "ci_low": lo,
            "ci_high": hi,
            "min": self.min,
            "p5": self.quantile(0.05),
            "p25": self.quantile(0.25),
            "median": self.quantile(0.5),
            "p75": self.quantile(0.75),
            "p95": self.quantile(0.95),
            "max": self.max,
        }
