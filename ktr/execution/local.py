"""One process: analysis overlapped with matching.

Kiwi (in this process) is fed the lines as its batch API asks for them, and this thread matches
every ``STEP`` lines between its results while Kiwi's own threads analyse the next ones
(:func:`_streamed`). Kiwi hands each result back through the interpreter lock and holds the lock
while it waits for one, so a second Python thread taking the results would keep the matching
waiting. Another analyzer that works outside the lock (a KoNLPy analyzer in its child process,
an analysis cache) has the next ``AHEAD`` stretches analysed in a background thread while this
one is matched. Any other is simply run stretch after stretch.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from itertools import islice

from ktr.execution.options import Execution
from ktr.execution.unit import Scored, Stretch, Unit, sliced

#: stretches analysed ahead of the one being matched (one process, a concurrent analyzer)
AHEAD = 3
#: lines matched at a time between the results of an analyzer that streams (Kiwi): few enough
#: that its look-ahead (16 lines per thread) never runs dry meanwhile
STEP = 8


def run_local(
    unit: Unit, stretches: Iterator[Stretch], run: Execution, each: Callable[[Stretch], None]
) -> Iterator[Scored]:
    """Every stretch scored in this process, yielded in order as it is scored (nothing is kept
    here once the caller has it); ``each`` called with every stretch (or part of one) once it is
    scored, before it is yielded."""
    if unit.streams:
        yield from _streamed(unit, stretches, run, each)
    elif unit.concurrent:
        yield from _ahead(unit, stretches, run, each)
    else:
        for stretch in stretches:
            part = unit.score_stretch(stretch, name=run.name, details=run.details, outputs=run.outputs)
            each(stretch)
            yield part


def _ahead(
    unit: Unit, stretches: Iterator[Stretch], run: Execution, each: Callable[[Stretch], None]
) -> Iterator[Scored]:
    """``AHEAD`` stretches queued for analysis in a thread, so the analyzer never waits for matching."""
    with ThreadPoolExecutor(1, thread_name_prefix="ktr-analysis") as ahead:
        pending = [(s, ahead.submit(unit.analyse, s.sources)) for s in islice(stretches, AHEAD)]
        while pending:
            stretch, analysis = pending.pop(0)
            analysed = analysis.result()
            for s in islice(stretches, 1):
                pending.append((s, ahead.submit(unit.analyse, s.sources)))
            part = unit.score_stretch(stretch, analysed, run.name, run.details, run.outputs)
            each(stretch)
            yield part


def _streamed(
    unit: Unit, stretches: Iterator[Stretch], run: Execution, each: Callable[[Stretch], None]
) -> Iterator[Scored]:
    """An analyzer that analyses a stream in threads of its own (Kiwi's batch API) is fed the
    lines as it asks for them, and this thread matches every ``STEP`` lines as soon as they are
    analysed, while the analyzer goes on with the next ones: no second Python thread, so nothing
    waits for the interpreter lock."""
    queued: deque[Stretch] = deque()

    def sources() -> Iterator[str]:
        for stretch in stretches:
            for step in sliced(stretch.sources, stretch.systems, stretch.references, STEP, stretch.first):
                queued.append(step)
                yield from step.sources

    with closing(unit.analyse_stream(sources())) as analyses:
        for first in analyses:
            step = queued.popleft()
            analysed = [first, *islice(analyses, len(step.sources) - 1)]
            part = unit.score_stretch(step, analysed, run.name, run.details, run.outputs)
            each(step)
            yield part
