"""An analyzer in a child process, so that one slow call can be abandoned (config ``timeout``).

A running JVM (KoNLPy) or C++ (Kiwi, mecab) call cannot be interrupted from Python, so a
wall-clock limit per call needs a process that can be killed. The child builds the analyzer
once and answers one text at a time; when an answer takes longer than ``timeout`` seconds the
child is killed, the text is reported as failed, and a new child is started for the next text.
A child that dies (a crash in native code) is reported the same way. The cost: a second copy of
the analyzer in memory (and its own JVM for KoNLPy) and a start-up of a few seconds per restart.

The child is a plain ``python -m ktr.korean.analyzers.process`` talking over a socket pair (POSIX), not
a :mod:`multiprocessing` child: that would re-import the caller's main script, which breaks
scripts without an ``if __name__ == "__main__"`` guard. It exits when its connection closes (the
process that started it is gone) or on Ctrl-C; :func:`close_analyzers` stops every child of this
process at once, as a command does when it is interrupted or terminated.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import weakref
from collections.abc import Iterable, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ktr.errors import BackendUnavailable, KtrError
from ktr.korean.analyzers.base import Analyzer, Morpheme, analyzer_class
from ktr.korean.guard import Outcome, analyze_one

#: seconds the child may take to build its analyzer (a JVM and Kkma's dictionaries are slow)
START_TIMEOUT = 600.0
#: analysed once by a new child before it takes work, so that the timeout measures analysis
WARM_UP = "가방에 책을 넣고 학교에 갔다."
#: the analyzers of this process that run in a child process (:func:`close_analyzers` stops them)
_running: weakref.WeakSet[AnalyzerProcess] = weakref.WeakSet()
#: the signals whose handlers could stop the children (SIGTERM in a worker process) held back
#: while a child is started and recorded, so that none is started unrecorded
_HELD = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


def _serve(name: str, conn: Connection) -> None:
    """Child process: build the analyzer, then analyse texts until the connection closes."""
    from ktr.korean.analyzers import get_analyzer

    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # held back while it was started
    try:
        analyzer = get_analyzer(name)
        analyzer.analyze(WARM_UP)  # JVM backends load dictionaries on first use: not on the clock
    except Exception as exc:  # reported to the parent, which raises BackendUnavailable
        conn.send((False, f"{type(exc).__name__}: {exc}"))
        return
    conn.send((True, analyzer.version))
    try:
        while True:
            conn.send(analyze_one(analyzer, conn.recv()))
    except (EOFError, KeyboardInterrupt, BrokenPipeError):
        return


#: the longest a call is waited for, whatever ``timeout`` says: a week (the system's poll counts
#: milliseconds in a C int, 24.8 days: ``timeout: 1.0e+300`` raised OverflowError)
LONGEST_WAIT = 7 * 86_400.0


def effective_timeout(name: str, timeout: float | None) -> float:
    """Seconds per call the analyzer ``name`` runs under (``None``: the backend's default)."""
    return analyzer_class(name).default_timeout if timeout is None else timeout


def build_analyzer(name: str, timeout: float | None = None, threads: int = 1) -> Analyzer:
    """The analyzer ``name`` as ktr runs it: in this process, or in a child process when a time
    limit applies (``timeout`` seconds per call; ``None``: the backend's default, 0: no limit).
    ``threads``: analysis threads for a backend that has its own (``threaded``), in this process."""
    from ktr.korean.analyzers import get_analyzer

    timeout = effective_timeout(name, timeout)
    if timeout:
        return AnalyzerProcess(name, timeout)
    return get_analyzer(name, threads=threads) if threads > 1 and analyzer_class(name).threaded else get_analyzer(name)


class AnalysisFailed(KtrError, RuntimeError):
    """The analyzer raised, crashed or ran out of time on a text (the reason is the message)."""


def morphemes_or_raise(found: Sequence[Outcome]) -> list[list[Morpheme]]:
    """The morphemes of each outcome; the first failure raised as :class:`AnalysisFailed`. For
    analyzers that have ``outcomes`` (:mod:`ktr.korean.guard`) and must also offer ``analyze_many``."""
    morphemes: list[list[Morpheme]] = []
    for outcome in found:
        if isinstance(outcome, str):
            raise AnalysisFailed(outcome)
        morphemes.append(outcome)
    return morphemes


class AnalyzerProcess:
    """The analyzer ``name`` in a child process, with a time limit per text; see the module
    docstring. It is an :class:`~ktr.korean.analyzers.base.Analyzer`; the child starts right away, so a
    backend that cannot start fails here, and ``version`` is the child's."""

    concurrent = True  # the child analyses while this process waits on the socket

    def __init__(self, name: str, timeout: float):
        self.name = name
        self.tagset = analyzer_class(name).tagset
        self.timeout = timeout
        self.version = ""
        self._proc: subprocess.Popen[bytes] | None = None
        # what comes back is unpickled: the child's (ok, version or reason), then an Outcome per text
        self._conn: Connection[str, Any] | None = None
        self._start()

    def _start(self) -> tuple[subprocess.Popen[bytes], Connection[str, Any]]:
        """Start a child and wait until its analyzer is ready; its process and connection."""
        ours, theirs = socket.socketpair()
        here = str(Path(__file__).resolve().parents[2])  # the child imports this same ktr
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))}
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            with ours, theirs:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "ktr.korean.analyzers.process", self.name, str(theirs.fileno())],
                    pass_fds=[theirs.fileno()],
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                conn = Connection(ours.detach())
            self._proc, self._conn = proc, conn
            _running.add(self)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        try:
            ready = conn.poll(START_TIMEOUT)
            ok, info = conn.recv() if ready else (False, f"not ready after {START_TIMEOUT:g}s")
        except EOFError:
            ok, info = False, f"its process exited with status {proc.wait()}"
        if not ok:
            self.close()
            raise BackendUnavailable(f"analyzer {self.name!r} could not be started in a worker process: {info}")
        self.version = info
        return proc, conn

    def outcomes(self, texts: Iterable[str]) -> list[Outcome]:
        """Per text its morphemes, or the reason it failed (used by :mod:`ktr.korean.guard`)."""
        return [self._one(t) for t in texts]

    def analyze(self, text: str) -> list[Morpheme]:
        return self.analyze_many([text])[0]

    def analyze_many(self, texts: Iterable[str]) -> list[list[Morpheme]]:
        return morphemes_or_raise(self.outcomes(texts))

    def _one(self, text: str) -> Outcome:
        if not text.strip():
            return []
        if self._proc is None or self._conn is None:
            proc, conn = self._start()
        else:
            proc, conn = self._proc, self._conn
        try:
            conn.send(text)
            if conn.poll(min(self.timeout, LONGEST_WAIT)):
                outcome: Outcome = conn.recv()
                return outcome
            reason = f"{self.name} gave no result within timeout={self.timeout:g}s"
        except (EOFError, OSError):  # the child is gone: a crash in native code, or killed
            reason = f"{self.name} crashed (its process exited with status {proc.wait()})"
        self.close()  # a new process is started for the next text
        return reason

    def close(self) -> None:
        """Stop the child process (it is started again when needed)."""
        if self._proc is not None and self._conn is not None:  # the two are set together
            self._conn.close()
            self._proc.kill()
            self._proc.wait()
            self._proc = self._conn = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: the daemon child goes with us anyway
            pass


def close_analyzers() -> None:
    """Stop the child process of every analyzer of this process that has one (each starts a new
    one when it is used again)."""
    for analyzer in list(_running):
        analyzer.close()


if __name__ == "__main__":
    _serve(sys.argv[1], Connection(int(sys.argv[2])))
