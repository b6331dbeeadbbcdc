"""The ``ktr`` command: one parser with a subcommand per module of this package; errors become
one-line messages and exit codes (see :mod:`ktr.cli.common`). Messages show control characters
escaped (:func:`ktr.controls.shown`): a file name or a line quoted in one cannot drive the
terminal, nor break the message's line.

SIGTERM and SIGHUP stop a command as Ctrl-C does: they raise :class:`Stopped`, a
KeyboardInterrupt, where the command is, so that everything on the way out runs; then every
worker process and analyzer child process is stopped, one line says why, and the exit status is
128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP). A signal that was
ignored when ktr started (``nohup``) stays ignored.
"""

from __future__ import annotations

import argparse
import atexit
import os
import signal
import sys
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn, TextIO

from ktr.cli import cache, keywords, lexicon, meta_eval, run, score
from ktr.cli.common import EXIT_ERROR, EXIT_OK, EXIT_USAGE
from ktr.controls import bounded, shown
from ktr.errors import CacheWarning, InputWarning, KtrError, UsageError
from ktr.version import __version__

#: input warnings printed one by one; the rest are counted (the JSON output lists the first 100,000)
SHOWN_WARNINGS = 20
#: the signals that stop a command, and what it then says
STOPPING: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated", signal.SIGHUP: "hung up"}


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP (``signum``), raised as Ctrl-C raises KeyboardInterrupt."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors (exit status 2) show control characters escaped
    (``unrecognized arguments`` quotes them as given). Subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        super().error(shown(message))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ktr", description="Keyword transfer rate (KTR) for Korean→English machine translation.")
    parser.add_argument("--version", action="version", version=f"ktr {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for command in (score, run, keywords, lexicon, meta_eval, cache):
        command.add_parser(subparsers)
    return parser


class _InputWarnings:
    """Prints input warnings as ``ktr: warning: ...`` lines, the first SHOWN_WARNINGS of them, and
    a cache that cannot be written (said once) as one such line too."""

    def __init__(self) -> None:
        self.count = 0
        self._default = warnings.showwarning

    def show(
        self,
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        if issubclass(category, CacheWarning):
            print(f"ktr: warning: {shown(bounded(str(message)))}", file=sys.stderr)  # the folder's name as text
            return None
        if not issubclass(category, InputWarning):
            return self._default(message, category, filename, lineno, file, line)
        self.count += 1
        if self.count <= SHOWN_WARNINGS:
            print(f"ktr: warning: {shown(bounded(str(message)))}", file=sys.stderr)

    def close(self) -> None:
        if self.count > SHOWN_WARNINGS:
            print(
                f"ktr: warning: {self.count - SHOWN_WARNINGS} more warnings not shown "
                '(-f json lists them under "warnings")',
                file=sys.stderr,
            )


def main(argv: list[str] | None = None) -> int:
    """The ``ktr`` command with ``argv``; without (the program itself: the console script,
    ``python -m ktr``), a stopping signal that comes once the command is done, while the
    interpreter waits for worker processes to exit, still stops them and says so (:func:`_late`)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    shown = _InputWarnings()
    if argv is None:
        atexit.register(_exit_now)  # registered first of what the command registers: run last
    with warnings.catch_warnings(), _stopping(lasting=argv is None):
        warnings.simplefilter("always", InputWarning)
        warnings.showwarning = shown.show
        try:
            code = _run(args)
        finally:
            shown.close()
    _exit_code.append(code)
    if argv is None and _stopped:  # before the interpreter waits for threads the stop cut short
        for s in STOPPING:
            signal.signal(s, signal.SIG_IGN)  # stopped once, said once
        _exit_now(within=LAST_STEPS)
    return code


#: the program's exit status, once its command is done (:func:`_exit_now`)
_exit_code: list[int] = []
#: the signal that stopped the command, if one did
_stopped: list[int] = []
#: seconds the last steps at exit may take once a signal has stopped the program: the signal
#: raised where the command was, and a library's thread may be left waiting for ever on a lock it
#: cut short (a worker pool's manager thread on a future's lock, taken by ``wait()`` one future
#: at a time when the signal came), which the interpreter would join at exit
LAST_STEPS = 5.0


def _exit_now(within: float | None = None) -> None:
    """The program's last step at exit, once the interpreter has waited for worker processes and
    run what the command registered (or, ``within`` seconds at most, as soon as a stopped command
    returns): multiprocessing's and logging's own steps at exit, the standard streams flushed,
    then the process ends with the command's status, without tearing down every table (a fifth
    of a second or more, during which a stopping signal found Python's handlers gone: exit 143
    without a word, the workers' semaphores left to the resource tracker's warning)."""
    if not _exit_code:
        return
    _last_steps(within)
    os._exit(_exit_code[-1])


def _last_steps(within: float | None = None) -> None:
    """multiprocessing's steps at exit (its finalizers: the workers' semaphores unlinked) and
    logging's, then the standard streams flushed; the steps in a thread of their own given at most
    ``within`` seconds, when given (see :data:`LAST_STEPS`)."""

    def steps() -> None:
        if "multiprocessing.util" in sys.modules:
            sys.modules["multiprocessing.util"]._exit_function()
        if "logging" in sys.modules:
            sys.modules["logging"].shutdown()

    if within is None:
        steps()
    else:
        aside = threading.Thread(target=steps, name="ktr-last-steps", daemon=True)
        try:
            aside.start()
        except RuntimeError:  # no new thread while the interpreter shuts down (Python 3.12)
            steps()
        else:
            aside.join(within)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a pipe closed, a stream closed
            pass


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.func(args))
    except UsageError as exc:  # a required argument missing: a usage error, as argparse's own
        print(f"ktr: error: {shown(bounded(str(exc)))}", file=sys.stderr)
        return EXIT_USAGE
    except KtrError as exc:  # each error is said here, on one line of bounded length
        print(f"ktr: error: {shown(bounded(str(exc)))}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt as exc:
        signum = exc.signum if isinstance(exc, Stopped) else signal.SIGINT
        _stopped.append(signum)
        with _held():
            from ktr.execution.processes import stop_children

            stop_children()
            try:
                print(f"ktr: {STOPPING[signum]}", file=sys.stderr)
            except OSError:  # a terminal that hung up
                pass
        return 128 + signum
    except BrokenPipeError:
        return EXIT_OK


def _stop(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


@contextmanager
def _stopping(lasting: bool = False) -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` meanwhile (in the main thread, unless ignored);
    ``lasting``: after, they and Ctrl-C stop the process by :func:`_late` until it exits."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    for s, handler in previous.items():
        if handler == signal.SIG_DFL:
            signal.signal(s, _stop)
    try:
        yield
    finally:
        if lasting and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _late)
        for s, handler in previous.items():
            if handler == signal.SIG_DFL:
                signal.signal(s, _late if lasting else handler)


def _late(signum: int, frame: FrameType | None) -> None:
    """A stopping signal once the command is done (its output written), while the interpreter
    waits for worker processes to exit: raising then would be a traceback of the interpreter's
    own exit, and the default action left the workers' semaphores to the resource tracker's
    warning, without a word. So the workers are stopped, one line says why, what multiprocessing
    does at exit is done, and the process exits with 128 + the signal's number."""
    for s in STOPPING:
        signal.signal(s, signal.SIG_IGN)
    from ktr.execution.processes import stop_children

    stop_children()
    try:
        sys.stdout.flush()
        print(f"ktr: {STOPPING[signum]}", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # a terminal that hung up, a stream closed
        pass
    _last_steps(within=LAST_STEPS)
    os._exit(128 + signum)


@contextmanager
def _held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP ignored meanwhile (a second one cannot cut the stopping short)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, signal.SIG_IGN) for s in STOPPING}
    try:
        yield
    finally:
        for s, handler in previous.items():
            if handler is not None:  # None: a handler set outside Python, which ignoring replaced
                signal.signal(s, handler)
