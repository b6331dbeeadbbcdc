"""The ``ktr`` command: one parser with a subcommand per module of this package; errors become
one-line messages and exit codes (see :mod:`ktr.cli.common`)."""

from __future__ import annotations

import argparse
import sys
import warnings
from typing import TextIO

from ktr import __version__
from ktr.cli import keywords, lexicon, meta_eval, run, score
from ktr.cli.common import EXIT_ERROR, EXIT_OK, EXIT_USAGE
from ktr.errors import CacheWarning, InputWarning, KtrError, UsageError

#: input warnings printed one by one; the rest are counted (the JSON output lists the first 100,000)
SHOWN_WARNINGS = 20


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ktr", description="Keyword transfer rate (KTR) for Korean→English machine translation."
    )
    parser.add_argument("--version", action="version", version=f"ktr {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for command in (score, run, keywords, lexicon, meta_eval):
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
            print(f"ktr: warning: {message}", file=sys.stderr)
            return None
        if not issubclass(category, InputWarning):
            return self._default(message, category, filename, lineno, file, line)
        self.count += 1
        if self.count <= SHOWN_WARNINGS:
            print(f"ktr: warning: {message}", file=sys.stderr)

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
    with warnings.catch_warnings():
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
        print(f"ktr: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KtrError as exc:
        print(f"ktr: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("ktr: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
