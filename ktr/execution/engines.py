"""Choosing an engine for a corpus's stretches and putting their results together in line order."""
from __future__ import annotations

from typing import Callable, Iterable

from ktr.execution.local import run_local
from ktr.execution.processes import run_processes
from ktr.execution.unit import Scored, Stretch, Unit, fewer_gc_pauses


def _nothing(stretch: Stretch) -> None:
    pass


def run_stretches(unit: Unit, stretches: Iterable[Stretch], name: str, *, processes: int = 1,
                  factory: Callable[[], Unit] | None = None, details: bool = True,
                  each: Callable[[Stretch], None] | None = None) -> Scored:
    """Every system's per-line results on the ``stretches`` and the input warnings, in line
    order: in this process, or with ``processes`` > 1 in worker processes that build their unit
    with ``factory``. Without ``details`` the per-line results keep their counts but not their
    keywords, stretch by stretch, so that memory grows by a few numbers a line. ``each`` is
    called in this process with every stretch, or every part of one, in line order, between
    analyses (ktr sums BLEU and chrF there)."""
    each = each or _nothing
    with fewer_gc_pauses():
        if processes > 1:
            if factory is None:
                raise ValueError("several processes need a factory that builds each worker's unit")
            parts = run_processes(unit, factory, iter(stretches), name, processes, details, each)
        else:
            parts = run_local(unit, iter(stretches), name, details, each)
    results: dict[str, list] = {}
    messages: list[str] = []
    for found, notes in parts:
        for system, sentences in found.items():
            results.setdefault(system, []).extend(sentences)
        messages += notes
    return results, messages
