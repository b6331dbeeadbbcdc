"""ktr: keyword transfer rate, a reference-free evaluation of Korean→English machine translation."""
__version__ = "0.1.0"

from .config import Config  # noqa: E402
from .errors import KtrError  # noqa: E402


def __getattr__(name: str):
    # the scorer pulls in the analyzers and sacreBLEU; import it only when used
    if name in ("Scorer", "Report"):
        from . import scorer

        return getattr(scorer, name)
    raise AttributeError(name)


__all__ = ["Config", "KtrError", "Scorer", "Report", "__version__"]
