"""How long each step of matching takes, counted only when asked (``ktr score --profile``).

:func:`start` turns the counting on in this process; from then on each matching stage built by
:func:`ktr.matching.stage.cascade` has its methods timed (:func:`timed`), and the pipeline adds
its own steps (analysis, keyword preparation, the assignment and tracing) with :func:`add`.
:func:`times` gives the seconds by step. Off (the default), nothing is timed and nothing costs.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import Any, TypeVar

_TIMES: dict[str, float] = {}
_ON = [False]

T = TypeVar("T")

#: the methods of a stage that are timed, those it has (its hook and its optional roles)
METHODS = ("propose", "refine", "marks", "place", "complete")


def start() -> None:
    """Count from now on, in this process, from zero."""
    _TIMES.clear()
    _ON[0] = True


def stop() -> None:
    """Count no more (what was counted stays readable)."""
    _ON[0] = False


def on() -> bool:
    return _ON[0]


def add(step: str, seconds: float) -> None:
    """``seconds`` more spent in ``step``."""
    _TIMES[step] = _TIMES.get(step, 0.0) + seconds


def times() -> dict[str, float]:
    """Seconds by step, since :func:`start`."""
    return dict(_TIMES)


def timed(stage: T, name: str) -> T:
    """A copy of ``stage`` whose methods add their time to ``name``."""
    found = copy.copy(stage)
    for method in METHODS:
        if hasattr(stage, method):
            setattr(found, method, _clock(getattr(stage, method), name))
    return found


def _clock(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def clocked(*args: Any) -> Any:
        begin = time.perf_counter()
        try:
            return fn(*args)
        finally:
            add(name, time.perf_counter() - begin)

    return clocked
