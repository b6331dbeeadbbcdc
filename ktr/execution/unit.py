"""The unit of work every engine runs, and the stretches it runs on.

A corpus comes as stretches of up to ``STRETCH`` lines (:class:`Stretch`: sliced from lists, or
read from files as they are needed, :mod:`ktr.textio`). A :class:`Unit` scores one stretch:
analysed, looked up and matched against every system. Engines put the stretches' results back
together in line order, so the result is exactly that of scoring the lines one by one.
:class:`ktr.scoring.pipeline.Pipeline` is the unit ktr scores with.
"""

from __future__ import annotations

import gc
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple, Protocol

#: lines per unit of work at most: small enough to keep every process busy to the end, large
#: enough that handing a stretch over costs little next to scoring it
STRETCH = 256
#: a shorter corpus is cut into this many stretches (of at least ``MIN_STRETCH`` lines), so that
#: analysis and matching overlap from early on: the first stretch is analysed with nothing to
#: match beside it (300 lines in stretches of 256 left Hannanum's analysis and matching one
#: after the other)
PIECES, MIN_STRETCH = 16, 16

#: per system, the results of a stretch's lines; and the stretch's input warnings
Scored = tuple[dict[str, list[Any]], list[str]]


class Stretch(NamedTuple):
    """Lines ``first`` to ``first + len(sources)`` of a corpus: the source's, each system's and
    each reference stream's."""

    first: int
    sources: Sequence[str]
    systems: Mapping[str, Sequence[str]]
    references: Sequence[Sequence[str]] = ()


class Analysed(NamedTuple):
    """A stretch with its lines' analyses, made where the corpus was analysed once (``ktr run``
    analyses its source once for all variants): its unit of work scores it without analysing."""

    stretch: Stretch
    analysed: Sequence[Any]


class Unit(Protocol):
    """What an engine needs of the thing that scores a stretch."""

    @property
    def streams(self) -> bool:
        """The analyzer takes a stream of lines in threads of its own (:meth:`analyse_stream`)."""

    @property
    def concurrent(self) -> bool:
        """The analyzer works outside the interpreter lock, so analysing ahead in a thread pays."""

    def analyse(self, sources: Sequence[str]) -> list[Any]:
        """The analyses of a stretch's source lines."""

    def analyse_stream(self, sources: Iterable[str]) -> Generator[Any, None, None]:
        """Each line's analysis as soon as it is ready, the lines read as the analyzer asks; a
        generator, closed when the caller stops early."""

    def score_stretch(
        self,
        stretch: Stretch,
        analysed: Sequence[Any] | None = None,
        name: str = "source",
        details: bool = True,
        outputs: Mapping[str, str] | None = None,
    ) -> Scored:
        """A stretch scored, from its analyses if given; its warnings name the source ``name``
        and each system by its name in ``outputs`` (its file)."""

    def pack(self, part: Scored) -> Any:
        """A stretch's results as plain data that pickles fast (for worker processes)."""

    def unpack(self, packed: Any) -> Scored:
        """:meth:`pack` undone; also of its data read back from JSON (a shard,
        :mod:`ktr.execution.shards`), whose tuples are lists."""


def stretch_size(lines: int) -> int:
    """Lines per stretch for a corpus of ``lines`` lines."""
    return min(STRETCH, max(MIN_STRETCH, -(-lines // PIECES)))


def sliced(
    sources: Sequence[str],
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    size: int,
    first: int = 0,
) -> Iterator[Stretch]:
    """Lists of lines cut into stretches of ``size`` lines; their line indexes count from
    ``first`` (the lists being a stretch of a longer corpus)."""
    for a in range(0, len(sources), size):
        b = a + size
        yield Stretch(
            first + a, sources[a:b], {name: lines[a:b] for name, lines in systems.items()}, [r[a:b] for r in references]
        )


@contextmanager
def fewer_gc_pauses() -> Iterator[None]:
    """Python's cycle collector run less often for the duration. Scoring allocates millions of
    small objects, none in reference cycles, and keeps most of them; at the default threshold
    the collector walks the kept ones again and again (a fifth of the scoring time). Switching
    it off instead would leave one long collection of everything for the end. Restored after."""
    old = gc.get_threshold()
    gc.set_threshold(50_000, 50, 10)
    try:
        yield
    finally:
        gc.set_threshold(*old)
