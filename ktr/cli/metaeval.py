"""``ktr meta-eval``: KTR, BLEU and chrF on controlled variants of human translations; with
``--gold``, ktr's keyword decisions against words judged by bilingual readers."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ktr.cli.common import EXIT_OK, config_from
from ktr.errors import KtrError


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("meta-eval", help="check KTR, BLEU and chrF on controlled variants of human translations")
    p.add_argument("-s", "--src", required=True, help="Korean source file")
    p.add_argument("-r", "--ref", required=True, help="its human English translation, line by line")
    p.add_argument("-c", "--config", help="YAML config")
    p.add_argument("-a", "--analyzer", help="override the config's analyzer")
    p.add_argument(
        "-o",
        "--output",
        help="folder for meta-eval.json, .md and .svg, or with --gold agreement.json "
        "and .md (default: Markdown on stdout)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the random variants (default 1)")
    p.add_argument(
        "--gold",
        metavar="FILE",
        help="judged keywords of lines of -s/-r (docs/judging.md): report ktr's agreement with them "
        "instead of the variants",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ktr.experiments import metaeval
    from ktr.reports import metaeval as report
    from ktr.reports.common import check_folder
    from ktr.scoring.scorer import Scorer
    from ktr.textio import check_same_length, read_lines

    files = {args.src: read_lines(args.src)}
    files.setdefault(args.ref, read_lines(args.ref))
    check_same_length(files, args.src)
    if args.output:
        check_folder(args.output)
    if args.gold:
        return _agreement(args, files[args.src], files[args.ref])
    if len(files[args.src]) < 2:
        raise KtrError(
            f"{args.src}: one line; meta-eval needs at least 2 (each line is also "
            "scored against another line's translation)"
        )
    result = metaeval.run(Scorer(config_from(args)), files[args.src], files[args.ref], seed=args.seed)
    return _report(args, report, result)


def _report(args: argparse.Namespace, report: Any, result: Any) -> int:
    """The report module's files into ``-o``, or its Markdown on stdout."""
    if args.output:
        for path in report.write(result, args.output):
            print(f"wrote {path}", file=sys.stderr)
    else:
        sys.stdout.write(report.to_markdown(result))
    return EXIT_OK


def _agreement(args: argparse.Namespace, sources: list[str], translations: list[str]) -> int:
    from ktr.experiments.judged import agreement, read_gold
    from ktr.reports import agreement as report
    from ktr.scoring.scorer import Scorer

    gold = read_gold(args.gold)
    return _report(args, report, agreement(Scorer(config_from(args)), sources, translations, gold, args.gold))
