"""ktr: keyword transfer rate, a reference-free evaluation of Korean→English machine translation."""

from ktr.config import Config
from ktr.errors import KtrError
from ktr.version import __version__


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
