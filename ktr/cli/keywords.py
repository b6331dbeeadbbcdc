"""``ktr keywords``: each source line's keywords as lemma/tag."""
from __future__ import annotations

import argparse
import sys

from ktr.cli.common import EXIT_FAILED_LINES, EXIT_OK, config_from


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("keywords", help="print each source line's keywords as lemma/tag")
    p.add_argument("-s", "--src", required=True, help="Korean source file")
    p.add_argument("-c", "--config", help="YAML config")
    p.add_argument("-a", "--analyzer", help="override the config's analyzer")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ktr.scoring.scorer import Scorer
    from ktr.textio import scan

    source = scan(args.src)     # checked whole before anything is written
    failed = False
    for prepared in Scorer(config_from(args)).prepare_file(source):
        for kws in prepared.keywords:
            sys.stdout.write(" ".join(f"{k.lemma}/{k.tag}" for k in kws) + "\n")
        failed = failed or any(prepared.failed)
    return EXIT_FAILED_LINES if failed else EXIT_OK
