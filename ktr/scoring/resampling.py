"""A bootstrap's settings, their defaults and bounds, checked in one place for the command line,
experiments and the Python API (light: read when the command line is built)."""

from __future__ import annotations

from dataclasses import dataclass

from ktr.errors import ConfigError

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 12345
#: trials of an approximate randomization test (sacreBLEU's ``--paired-ar-n`` default)
DEFAULT_TRIALS = 10_000
#: the most resamples a bootstrap draws. Every resample's score is kept (the interval is read from
#: the sorted scores, sacreBLEU's rule), 8 bytes per resample for each system and figure, and on
#: the 20-line sample with three systems and references a million resamples take a minute on one
#: core; at a million, a p-value's Monte Carlo error is at most 0.0005, so more resamples would
#: cost memory and hours for digits no report needs (``--bootstrap-resamples 10**9`` used to run
#: until memory ran out).
MAX_RESAMPLES = 1_000_000


def check_resamples(resamples: int, name: str = "resamples") -> None:
    """Raise ConfigError unless ``resamples`` is a whole number from 1 to :data:`MAX_RESAMPLES`
    (``name``: how the caller calls it, an option of the command line)."""
    if isinstance(resamples, bool) or not isinstance(resamples, int) or not 1 <= resamples <= MAX_RESAMPLES:
        raise ConfigError(f"{name} must be from 1 to {MAX_RESAMPLES}, got {resamples!r}")


def check_seed(seed: int, name: str = "seed") -> None:
    """Raise ConfigError unless ``seed`` is a whole number of at least 0 (numpy's generator takes no other)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"{name} must be at least 0, got {seed!r}")


@dataclass(frozen=True)
class Resampling:
    """A bootstrap's settings: how many resamples, their seed, and whether each system is also
    tested against the first (``paired``: by paired bootstrap, sacreBLEU's ``--paired-bs``; with
    ``trials``, by approximate randomization with that many trials, sacreBLEU's ``--paired-ar``).
    ``intervals``: whether the bootstrap's 95% intervals are drawn (an approximate randomization
    test may go without them, as sacreBLEU's ``--paired-ar`` does)."""

    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    paired: bool = False
    trials: int | None = None
    intervals: bool = True

    def __post_init__(self) -> None:
        check_resamples(self.resamples)
        check_seed(self.seed)
        if self.trials is not None:
            check_resamples(self.trials, "trials")
            if not self.paired:
                raise ConfigError("trials are those of a paired test: approximate randomization needs paired=True")
        elif not self.intervals:
            raise ConfigError("a resampling without intervals is an approximate randomization test: give trials")

    @property
    def test(self) -> str | None:
        """The paired test: ``"bs"`` (paired bootstrap), ``"ar"`` (approximate randomization) or None."""
        return None if not self.paired else "ar" if self.trials is not None else "bs"
