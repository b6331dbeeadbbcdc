"""``ktr meta-eval``: KTR, BLEU and chrF on controlled variants of human translations; with
``--gold``, ktr's keyword decisions against words judged by bilingual readers; with ``--style``,
how KTR ranks literal, fluent and degraded translations of the same lines, and near misses."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ktr.cli.common import EXIT_FAILED_LINES, EXIT_OK, config_from
from ktr.errors import KtrError

if TYPE_CHECKING:
    from ktr.scoring.pipeline import Prepared
    from ktr.scoring.scorer import Scorer


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
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="write into an output folder that is not empty (its report files are replaced)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the random variants (default 1)")
    p.add_argument(
        "--gold",
        metavar="FILE",
        help="judged keywords of lines of -s/-r (docs/judging.md): report ktr's agreement with them "
        "instead of the variants",
    )
    p.add_argument(
        "--style",
        metavar="FILE",
        help="literal, fluent and degraded translations of lines of -s, and near misses "
        "(docs/meta-evaluation.md): report how KTR ranks them, and whether a near miss's changed "
        "keyword is still credited, instead of the variants",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ktr.experiments import metaeval
    from ktr.reports import metaeval_report as report
    from ktr.reports.files import prepare_output
    from ktr.reports.run_tables import check_folder
    from ktr.textio import check_same_length, read_lines

    files = {args.src: read_lines(args.src)}
    files.setdefault(args.ref, read_lines(args.ref))
    check_same_length(files, args.src)
    if args.output:
        check_folder(args.output)
        # as ktr run: into a folder that holds something only with --overwrite
        prepare_output(Path(args.output), args.overwrite)
    if args.gold:
        return _agreement(args, files)
    if args.style:
        return _style(args, files)
    if len(files[args.src]) < 2:
        raise KtrError(
            f"{args.src}: one line; meta-eval needs at least 2 (each line is also "
            "scored against another line's translation)"
        )
    scorer, failed = _scorer(args, files)
    result = metaeval.run(scorer, files[args.src], files[args.ref], seed=args.seed, source_name=args.src)
    return _report(args, report, result, failed())


def _scorer(args: argparse.Namespace, files: dict[str, list[str]]) -> tuple[Scorer, Callable[[], int]]:
    """The config's scorer, and how many source lines its analyzer has failed on so far: they are
    not scored, a warning names each, and the command exits with EXIT_FAILED_LINES. A source
    without Hangul, or a translation in Korean, is warned of once it is built."""
    from ktr.cli.common import warn_of_language
    from ktr.scoring.scorer import Scorer
    from ktr.textio import TextFile

    failed = 0

    class Counting(Scorer):
        def prepare(self, sources: Sequence[str], name: str = "source", first_line: int = 1) -> Prepared:
            nonlocal failed
            prepared = super().prepare(sources, name, first_line)
            failed += sum(1 for why in prepared.failed if why)
            return prepared

    scorer = Counting(config_from(args))
    src, ref = (TextFile(name, len(files[name]), True, tuple(files[name])) for name in (args.src, args.ref))
    warn_of_language(src, [ref])
    return scorer, lambda: failed


def _report(args: argparse.Namespace, report: Any, result: Any, failed: int) -> int:
    """The report module's files into ``-o``, or its Markdown on stdout."""
    if args.output:
        for path in report.write(result, args.output):
            print(f"wrote {path}", file=sys.stderr)
    else:
        sys.stdout.write(report.to_markdown(result))
    return EXIT_FAILED_LINES if failed else EXIT_OK


def _agreement(args: argparse.Namespace, files: dict[str, list[str]]) -> int:
    from ktr.experiments.judged import agreement, read_gold
    from ktr.reports import agreement as report

    gold = read_gold(args.gold)
    scorer, failed = _scorer(args, files)
    result = agreement(scorer, files[args.src], files[args.ref], gold, args.gold, args.src)
    return _report(args, report, result, failed())


def _style(args: argparse.Namespace, files: dict[str, list[str]]) -> int:
    from ktr.experiments.style import read_style
    from ktr.experiments.style import run as style_run
    from ktr.reports import style_report as report

    lines = read_style(args.style)
    scorer, failed = _scorer(args, files)
    return _report(args, report, style_run(scorer, files[args.src], lines, args.style), failed())
