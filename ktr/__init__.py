"""ktr: keyword transfer rate, a reference-free evaluation of Korean→English machine translation."""

__version__ = "0.1.0"  # the only place the version is written (pyproject.toml reads it)

from ktr.config import Config  # noqa: E402
from ktr.errors import KtrError  # noqa: E402


def __getattr__(name: str) -> object:
    # the metric and the scorer pull in the analyzers and sacreBLEU; import them only when used
    if name == "Scorer":
        from ktr.scoring.scorer import Scorer

        return Scorer
    if name == "KTR":
        from ktr.scoring.metric import KTR

        return KTR
    if name == "Report":
        from ktr.scoring.corpus import Report

        return Report
    if name == "score_columns":
        from ktr.scoring.dataframes import score_columns

        return score_columns
    raise AttributeError(name)


__all__ = ["Config", "KtrError", "KTR", "Scorer", "Report", "score_columns", "__version__"]
