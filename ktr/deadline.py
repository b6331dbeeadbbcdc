"""A time limit on a piece of Python work, in whatever thread runs it.

A line's keywords and matching are Python code in the scoring thread (the main thread, a worker
process's, a Dask worker's thread), which no signal can reach everywhere. :func:`within` runs the
work with a deadline kept by one watchdog thread per process; when the deadline passes, the
watchdog raises :class:`_Expired` in the working thread (``PyThreadState_SetAsyncExc``), which
takes effect at the next Python instruction: a call into compiled code (a numpy product, an
SQLite query) finishes first. ``_Expired`` is a ``BaseException``, so that no ``except
Exception`` of the work takes it for an error of its own; :func:`within` turns it into
:class:`TimedOut`. A deadline that passes as the work returns is withdrawn before it can be
delivered: the work's result stands.
"""

from __future__ import annotations

import ctypes
import heapq
import os
import threading
import time
from collections.abc import Callable
from itertools import count
from typing import TypeVar

T = TypeVar("T")


class _Expired(BaseException):
    """Raised in the working thread by the watchdog: the work ran past its deadline."""


class TimedOut(Exception):
    """The work given to :func:`within` ran past its limit (``seconds``)."""

    def __init__(self, seconds: float):
        super().__init__(f"took longer than {seconds:g} s")
        self.seconds = seconds


def _raise_in(thread: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` in ``thread`` at its next Python instruction (``None``: withdraw one not yet raised)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(exc) if exc else None)


class _Watchdog:
    """The deadlines armed in this process, and the thread that enforces them. Disarming takes
    no lock: the exception may arrive in the disarming thread at any instruction, and one that
    arrived while it held a lock would leave the lock held (and the watchdog waiting on it for
    ever). A token is taken out of ``_armed`` by whichever comes first, atomically (``dict.pop``):
    the work's end, or the watchdog, which then raises and notes it in ``_fired``."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._armed: dict[int, int] = {}  # token -> the thread to interrupt
        self._fired: set[int] = set()  # tokens whose exception has been raised
        self._queue: list[tuple[float, int]] = []  # (deadline, token), the earliest first
        self._tokens = count()
        self._thread: threading.Thread | None = None

    def arm(self, seconds: float) -> int:
        with self._lock:
            token = next(self._tokens)
            self._armed[token] = threading.get_ident()
            heapq.heappush(self._queue, (time.monotonic() + seconds, token))
            if self._thread is None or not self._thread.is_alive():  # none yet, or a fork's parent's
                self._thread = threading.Thread(target=self._watch, name="ktr-deadline", daemon=True)
                self._thread.start()
            self._lock.notify()
        return token

    def disarm(self, token: int) -> None:
        if self._armed.pop(token, None) is not None:
            return  # in time: the watchdog will drop the token
        while token not in self._fired:  # the watchdog took it: it is raising it now
            time.sleep(0.0001)
        _raise_in(threading.get_ident(), None)  # withdrawn, if it has not arrived yet
        self._fired.discard(token)

    def _watch(self) -> None:
        with self._lock:
            while True:
                while self._queue and self._queue[0][1] not in self._armed:
                    heapq.heappop(self._queue)  # disarmed in time
                if not self._queue:
                    self._lock.wait()
                    continue
                deadline, token = self._queue[0]
                left = deadline - time.monotonic()
                if left > 0:
                    self._lock.wait(left)
                    continue
                heapq.heappop(self._queue)
                thread = self._armed.pop(token, None)
                if thread is not None:
                    _raise_in(thread, _Expired)
                    self._fired.add(token)


_watchdog = _Watchdog()


def _after_fork() -> None:  # a child starts with no deadline and its own watchdog
    global _watchdog
    _watchdog = _Watchdog()


os.register_at_fork(after_in_child=_after_fork)


def within(seconds: float, work: Callable[[], T]) -> T:
    """``work()``, or :class:`TimedOut` once it has run ``seconds`` (0: no limit)."""
    if not seconds:
        return work()
    watchdog = _watchdog
    token = watchdog.arm(seconds)
    try:
        try:
            return work()
        finally:
            watchdog.disarm(token)
    except _Expired:
        watchdog._fired.discard(token)  # if it arrived while disarming
        raise TimedOut(seconds) from None


class Budget:
    """Each line's time left of ``seconds`` (0: no limit), spent by the pieces of its work, and
    the lines that ran out (``expired``). :meth:`of` gives the lines ``rows`` of it, numbered
    from 0, sharing its time and its record."""

    def __init__(self, seconds: float, lines: int):
        self.seconds = seconds
        self.left = [float(seconds)] * lines
        self.expired: set[int] = set()  # in the whole's numbering
        self._rows: list[int] | None = None

    def of(self, rows: list[int]) -> Budget:
        part = Budget(self.seconds, 0)
        part.left, part.expired, part._rows = self.left, self.expired, [self._row(r) for r in rows]
        return part

    def _row(self, line: int) -> int:
        return line if self._rows is None else self._rows[line]

    def ran_out(self, line: int) -> bool:
        """Whether ``line`` ran out of time."""
        return self._row(line) in self.expired

    def spend(self, line: int, work: Callable[[], T]) -> T:
        """``work()`` for ``line`` within the time the line has left (:class:`TimedOut` past it,
        and the line marked expired)."""
        return self.together([line], work)

    def together(self, lines: list[int], work: Callable[[], T]) -> T:
        """``work()`` for ``lines`` together within the least time any of them has left, each
        charged an equal share of what it took; past it, :class:`TimedOut` (and with a single
        line, the line marked expired)."""
        if not self.seconds:
            return work()
        rows = [self._row(line) for line in lines]
        left = min(self.left[r] for r in rows)
        start = time.monotonic()
        try:
            if left <= 0:
                raise TimedOut(self.seconds)
            return within(left, work)
        except TimedOut:
            if len(rows) == 1:
                self.expired.add(rows[0])
            raise TimedOut(self.seconds) from None
        finally:
            share = (time.monotonic() - start) / len(rows)
            for r in rows:
                self.left[r] -= share
