"""``ktr keywords``: each source line's keywords as lemma/tag."""

from __future__ import annotations

import argparse
import sys

from ktr.cli.common import EXIT_FAILED_LINES, EXIT_OK, add_engine_arguments, config_from, engine_from, warn_of_language


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("keywords", help="print each source line's keywords as lemma/tag")
    p.add_argument("-s", "--src", required=True, help="Korean source file")
    p.add_argument("-c", "--config", help="YAML config")
    p.add_argument("-a", "--analyzer", help="override the config's analyzer")
    add_engine_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ktr.execution.ranges import check_file
    from ktr.scoring.scorer import Scorer

    engine = engine_from(args)
    source = check_file(args.src, distributed=engine.distributed)  # checked whole before anything is written
    scorer = Scorer(config_from(args), engine=engine)
    warn_of_language(source)
    failed = False
    for kws, why in scorer.keywords_file(source):
        sys.stdout.write(" ".join(f"{k.lemma}/{k.tag}" for k in kws) + "\n")
        failed = failed or bool(why)
    return EXIT_FAILED_LINES if failed else EXIT_OK
