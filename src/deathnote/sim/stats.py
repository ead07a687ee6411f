"""Confidence intervals for the arena: Wilson score intervals and Elo differences.

Written out here (a few lines) rather than taken from statsmodels, whose
``proportion_confint(method="wilson")`` computes the same interval but would bring SciPy and
pandas into the install. The normal quantile comes from the standard library.

>>> low, high = wilson(60, 100)
>>> round(low, 4), round(high, 4)
(0.5021, 0.6906)
>>> round(elo(0.75), 1)
190.8
"""

from __future__ import annotations

import math
from statistics import NormalDist

#: the two-sided 95% normal quantile, 1.959963984540054
Z95 = NormalDist().inv_cdf(0.975)
#: the Elo difference reported for a score of exactly 0 or 1
ELO_CAP = 1000.0


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` when n is 0)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(score: float) -> float:
    """The Elo difference that predicts this expected score (clipped at +-ELO_CAP)."""
    if score <= 0:
        return -ELO_CAP
    if score >= 1:
        return ELO_CAP
    return max(-ELO_CAP, min(ELO_CAP, -400 * math.log10(1 / score - 1)))


def mean_interval(total: float, squares: float, n: int, z: float = Z95) -> tuple[float, float]:
    """A normal 95% interval of a mean from the sum and the sum of squares of ``n`` values."""
    if n == 0:
        return (0.0, 0.0)
    mean = total / n
    if n == 1:
        return (mean, mean)
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = z * math.sqrt(variance / n)
    return (mean - half, mean + half)
