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
    parser = build_parser()
    args = parser.parse_args(argv)
    shown = _InputWarnings()
    with warnings.catch_warnings(), _stopping():
        warnings.simplefilter("always", InputWarning)
        warnings.showwarning = shown.show
        try:
            return _run(args)
        finally:
            shown.close()


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
def _stopping() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` meanwhile (in the main thread, unless ignored)."""
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
        for s, handler in previous.items():
            if handler == signal.SIG_DFL:
                signal.signal(s, handler)


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
