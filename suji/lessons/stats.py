"""Small statistics for the simulations: the student's N, standard errors and confidence intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.core.text import whole_number

DEFAULT_TRIALS = 1000
MAX_TRIALS = 100_000
MAX_SEED = 2**31 - 1
Z95 = 1.959963984540054

TRIAL_ERRORS: dict[str, str] = {
    "bad_trials": N_("The number of trials must be a whole number from 1 to %(limit)s."),
    "bad_seed": N_("The seed must be a whole number from 0 to %(limit)s."),
}


class TrialsError(SujiError):
    """A bad number of trials or seed typed by the student; `code` keys `TRIAL_ERRORS`."""

    MESSAGES = TRIAL_ERRORS

    def __init__(self, code: str, limit: int) -> None:
        super().__init__(code, limit=limit)
        self.limit = limit


def read_trials(text: object, limit: int = MAX_TRIALS, default: int = DEFAULT_TRIALS) -> int:
    """The number of simulated trials typed by the student (1 to `limit`); empty means `default`."""
    return _read_int(text, 1, limit, default, "bad_trials")


def read_seed(text: object, default: int = 1) -> int:
    """A simulation seed typed by the student (0 to MAX_SEED); empty means `default`."""
    return _read_int(text, 0, MAX_SEED, default, "bad_seed")


def _read_int(text: object, low: int, high: int, default: int, code: str) -> int:
    if text is None or (isinstance(text, str) and not text.strip()):
        return default
    value = whole_number(text, low, high, digits=12, grouped=True)
    if value is None:
        raise TrialsError(code, high)
    return value


def standard_error(p: Fraction | float, n: int) -> float:
    """The standard error of a frequency estimating probability `p` from `n` independent trials."""
    p = float(p)
    return math.sqrt(p * (1 - p) / n)


@dataclass(frozen=True)
class Estimate:
    """A simulated frequency (`hits` out of `n`) with its 95% Wilson interval."""

    hits: int
    n: int

    @property
    def value(self) -> float:
        """The observed frequency."""
        return self.hits / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval (good even near 0 and 1)."""
        return wilson_interval(self.hits, self.n)


def wilson_interval(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of `values` with a normal-approximation 95% interval: (mean, low, high)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)
