"""Progress bars on stderr for long runs (tqdm), silenced with ``-q``."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class _Bar:
    def __init__(self, bar: Any = None) -> None:
        self._bar = bar

    def update(self, n: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def set(self, done: int, total: int) -> None:
        """Absolute position (when the total is only known once work starts)."""
        if self._bar is not None:
            self._bar.total = total
            self._bar.update(done - self._bar.n)

    def note(self, text: str) -> None:
        if self._bar is not None:
            self._bar.set_postfix_str(text, refresh=True)


class Progress:
    """Bars on a terminal; on a log file or pipe, one line per finished step; nothing when
    ``quiet``. Always on stderr, so stdout stays free for results."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet

    @contextmanager
    def bar(self, description: str, total: int) -> Iterator[_Bar]:
        if self.quiet:
            yield _Bar()
            return
        if not sys.stderr.isatty():
            started = time.perf_counter()
            yield _Bar()
            print(f"{description}: done in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
            return
        from tqdm import tqdm

        with tqdm(
            total=total,
            desc=description,
            file=sys.stderr,
            leave=True,
            dynamic_ncols=True,
            mininterval=0.5,
            bar_format="{desc:<24} {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}]",
        ) as t:
            yield _Bar(t)
