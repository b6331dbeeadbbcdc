"""``ktr score``: score MT outputs against a Korean source."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ktr.cli.common import (
    EXIT_FAILED_LINES,
    EXIT_OK,
    add_engine_arguments,
    add_stage_arguments,
    building_said,
    config_from,
    engine_field,
    engine_from,
    on_terminal,
    warn_of_language,
)
from ktr.controls import shown
from ktr.errors import KtrError, UsageError
from ktr.matching import timing
from ktr.scoring.resampling import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    DEFAULT_TRIALS,
    MAX_RESAMPLES,
    check_resamples,
    check_seed,
)

if TYPE_CHECKING:
    from ktr.execution.inputs import Inputs
    from ktr.execution.ranges import CheckedFile as Checked


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("score", help="score MT outputs against a Korean source")
    p.add_argument("-s", "--src", help="Korean source file, one sentence per line")
    p.add_argument(
        "-t",
        "--hyp",
        nargs="+",
        metavar="[NAME=]FILE",
        help="English MT output file(s), one per system, named NAME or after the file "
        "(- or none given: standard input)",
    )
    p.add_argument("-r", "--ref", nargs="+", help="reference translation(s): adds BLEU and chrF")
    p.add_argument("-c", "--config", help="YAML config (see configs/default.yaml)")
    p.add_argument("-a", "--analyzer", help="override the config's analyzer")
    add_stage_arguments(p)
    p.add_argument(
        "-f",
        "--format",
        choices=FORMATS,
        default="text",
        help="text: the systems table for people; json: everything, for programs (docs/json.md); tsv: a row "
        "per sentence and system; md, latex: the systems table in Markdown or LaTeX (booktabs)",
    )
    p.add_argument(
        "-b",
        "--score-only",
        action="store_true",
        help="print only each system's headline score (KTR, or F with --headline f), a line each",
    )
    p.add_argument(
        "-w",
        "--width",
        type=int,
        metavar="N",
        help=f"decimals of the 0-1 scores in the text, md and latex tables and -b (default {DECIMALS})",
    )
    p.add_argument("--sentences", action="store_true", help="include per-sentence detail")
    p.add_argument(
        "--full-signature",
        action="store_true",
        help="the text output's signature on one line, as it is, not wrapped at its fields to 100 columns",
    )
    p.add_argument(
        "--headline",
        choices=("ktr", "f"),
        help="the score the table leads with: ktr, or f (KTR and precision); default: the config's",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="per sentence, each keyword: equivalents tried, what matched and how (like the paper's Fig. 4)",
    )
    p.add_argument("--sample", action="store_true", help="score the embedded travel-domain sample")
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress on a terminal (a bar of lines scored, a line when a first run builds tables)",
    )
    p.add_argument(
        "--profile",
        action="store_true",
        help="after the scores, on stderr: the time of each step and matching stage, in seconds per 1,000 "
        "lines (in this process: with --jobs 1)",
    )
    p.add_argument("--confidence", action="store_true", help="95%% confidence intervals by bootstrap resampling")
    p.add_argument(
        "--paired-bs",
        action="store_true",
        help="paired bootstrap test of each system against the first (adds intervals)",
    )
    p.add_argument(
        "--paired-ar",
        action="store_true",
        help="paired approximate randomization test of each system against the first (not with --paired-bs; "
        "--confidence adds intervals)",
    )
    p.add_argument(
        "--bootstrap-resamples",
        type=int,
        metavar="N",
        help=f"resamples of --confidence or --paired-bs (at most {MAX_RESAMPLES}; default {DEFAULT_RESAMPLES})",
    )
    p.add_argument(
        "--paired-ar-resamples",
        type=int,
        metavar="N",
        help=f"trials of --paired-ar (at most {MAX_RESAMPLES}; default {DEFAULT_TRIALS})",
    )
    p.add_argument(
        "--seed",
        type=int,
        help=f"random seed of --confidence, --paired-bs or --paired-ar (default {DEFAULT_SEED})",
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="cores to score with: Kiwi's own threads, two per process, or a process per "
        "core for other analyzers (0: every core; default 1)",
    )
    g = p.add_argument_group("columnar input: -s names a Parquet, JSON Lines or TSV table")
    g.add_argument("--source-column", metavar="NAME", help="the table's column of Korean sources")
    g.add_argument("--system-column", nargs="+", metavar="NAME", help="its columns of MT outputs, one per system")
    g.add_argument("--reference-column", nargs="+", metavar="NAME", help="its columns of references")
    add_engine_arguments(p, shards=True)
    p.set_defaults(func=run)


#: ktr score's output formats (-f)
FORMATS = ("text", "json", "tsv", "md", "latex")
#: decimals of a 0-1 score in the tables unless -w says otherwise (ktr.reports.paper_tables.DECIMALS)
DECIMALS = 4


def _resampled(args: argparse.Namespace) -> bool:
    """Whether the run resamples: intervals, or a paired test."""
    return bool(args.confidence or args.paired_bs or args.paired_ar)


def _check_options(args: argparse.Namespace) -> None:
    """Options that cannot go together, or that do nothing without another: a usage error each,
    before anything is read."""
    tables = args.format in ("md", "latex")
    if args.paired_bs and args.paired_ar:
        raise UsageError("--paired-bs and --paired-ar are two tests of the same question: choose one")
    resampling = [o for o, on in (("--confidence", args.confidence), ("--paired-bs", args.paired_bs)) if on]
    resampling += ["--paired-ar"] if args.paired_ar else []
    if args.full_signature and (args.format != "text" or args.score_only):
        raise UsageError(
            "--full-signature is the text table's: "
            + ("-b prints the scores alone" if args.score_only else f"-f {args.format} has the signature in full")
        )
    if args.score_only:
        other = [o for o, on in (("--explain", args.explain), ("--sentences", args.sentences)) if on] + resampling
        if args.format != "text" or other:
            raise UsageError(f"-b prints the scores alone: not with {other[0] if other else '-f ' + args.format}")
    if tables and (args.explain or args.sentences or resampling):
        raise UsageError(
            f"-f {args.format} is the systems table alone: --explain, --sentences, --confidence, "
            "--paired-bs and --paired-ar go with -f text or -f json"
        )
    if args.width is not None:
        if args.format in ("json", "tsv"):
            raise UsageError(f"-w sets the decimals of the tables and -b: -f {args.format} writes every digit")
        if not 0 <= args.width <= 10:
            raise UsageError(f"-w: decimals from 0 to 10, got {args.width}")
    else:
        args.width = DECIMALS
    if args.explain and args.format == "tsv":
        raise UsageError(
            "--explain is a text report, and -f tsv has a row per sentence already: drop one "
            "(or -f json --explain: every keyword's detail in the JSON)"
        )
    if args.sample and (args.src or args.hyp):
        raise UsageError("--sample scores the embedded sample: -s and -t go without it (-r may replace its reference)")
    if not _resampled(args):
        given = [
            o for o, v in (("--bootstrap-resamples", args.bootstrap_resamples), ("--seed", args.seed)) if v is not None
        ]
        if given:
            raise UsageError(
                f"{' and '.join(given)} set the resampling of --confidence or --paired-bs: add one of them"
            )
    elif args.bootstrap_resamples is not None and not (args.confidence or args.paired_bs):
        raise UsageError(
            "--bootstrap-resamples sets the bootstrap of --confidence or --paired-bs: --paired-ar's trials "
            "are --paired-ar-resamples"
        )
    if args.paired_ar_resamples is not None and not args.paired_ar:
        raise UsageError("--paired-ar-resamples sets the trials of --paired-ar: add it")
    if args.bootstrap_resamples is None:
        args.bootstrap_resamples = DEFAULT_RESAMPLES
    if args.paired_ar_resamples is None:
        args.paired_ar_resamples = DEFAULT_TRIALS
    if args.seed is None:
        args.seed = DEFAULT_SEED


def _system_name(path: str, taken: set[str]) -> str:
    name = "stdin" if path == "-" else Path(path).name
    for suffix in (".en", ".txt"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    base, n = name, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    taken.add(name)
    return name


def run(args: argparse.Namespace) -> int:
    from ktr.execution.jobs import capped_jobs
    from ktr.progress import Progress
    from ktr.reports.formats import as_json, as_text, as_tsv
    from ktr.reports.paper_tables import as_latex, as_markdown, headline_scores
    from ktr.scoring.resampling import Resampling
    from ktr.scoring.scorer import RunOptions, Scorer

    _check_options(args)
    engine = engine_from(args)
    if args.source_column or args.system_column or args.reference_column:
        inputs = _table(args)
    else:
        inputs = _files(args, engine.distributed)
    jobs = args.jobs
    if not engine.distributed:  # a cluster's cores are its workers' (--jobs above 1 is refused there)
        jobs, capped = capped_jobs(args.jobs)
        if capped:
            print(f"ktr: warning: {capped}", file=sys.stderr)
    warned = warn_of_language(inputs.source, inputs.systems.values())
    if any(korean for _, korean in warned) and any(not korean for _, korean in warned):
        raise KtrError(
            f"the source and an output look swapped ({shown(inputs.source.name)} has no Hangul, "
            f"{shown(next(n for n, korean in warned if not korean))} is mostly Hangul): "
            "-s takes the Korean source, -t the English output"
        )
    show = on_terminal(args.quiet) and not engine.distributed  # the Dask engine shows its own bar
    with building_said(show):
        scorer = Scorer(config_from(args), jobs=jobs, engine=engine)
    details = bool(args.explain or args.sentences or args.format == "tsv")  # per-sentence keywords shown
    bootstrap = None
    if args.paired_ar:  # sacreBLEU's --paired-ar: p-values, and intervals only with --confidence
        bootstrap = Resampling(
            args.bootstrap_resamples, args.seed, paired=True, trials=args.paired_ar_resamples, intervals=args.confidence
        )
    elif args.confidence or args.paired_bs:
        bootstrap = Resampling(args.bootstrap_resamples, args.seed, paired=args.paired_bs)
    if args.profile:
        if jobs != 1 or engine.distributed:
            raise UsageError("--profile times the steps in this process: use it with --jobs 1, without --engine dask")
        timing.start()
    began = time.perf_counter()
    try:
        with Progress(quiet=not show).bar("scoring", inputs.source.lines) as bar, building_said(show):
            options = RunOptions(details=details, keep_sentences=details, bootstrap=bootstrap, progress=bar.update)
            report = scorer.score_inputs(inputs, options)
    finally:
        timing.stop()
    if args.profile:
        sys.stderr.write(profile_table(timing.times(), time.perf_counter() - began, inputs.source.lines))
    if args.explain and args.format == "text":  # each sentence's keywords, then the corpus table
        from ktr.reports.explain import as_explain

        systems = {n: list(f) for n, f in inputs.systems.items()}
        sys.stdout.write(as_explain(report, list(inputs.source), systems, signature=False))
        sys.stdout.write(
            as_text(report, sentences=args.sentences, decimals=args.width, full_signature=args.full_signature)
        )
    elif args.format == "json":  # --explain: each keyword's detail is the sentences'
        extra = {"engine": engine_field(engine)} if engine.distributed else None  # and where it ran
        sys.stdout.write(as_json(report, sentences=args.sentences or args.explain, extra=extra) + "\n")
    elif args.format == "tsv":
        sys.stdout.write(as_tsv(report))
    elif args.score_only:
        sys.stdout.write(headline_scores(report, args.width))
    elif args.format == "md":
        sys.stdout.write(as_markdown(report, args.width))
    elif args.format == "latex":
        sys.stdout.write(as_latex(report, args.width))
    else:
        sys.stdout.write(
            as_text(report, sentences=args.sentences, decimals=args.width, full_signature=args.full_signature)
        )
    return EXIT_FAILED_LINES if report.systems[0].summary()["sentences_failed"] else EXIT_OK


def profile_table(steps: dict[str, float], total: float, lines: int) -> str:
    """``--profile``'s table: each step's seconds, per 1,000 lines, and share of the run; the
    matching stages' own time inside "matching", the rest of it (views, the assignment) beside."""
    stages = {k: v for k, v in steps.items() if k not in ("keywords and targets", "matching", "tracing and counts")}
    rows = [("keywords and targets", steps.get("keywords and targets", 0.0))]
    rows += [(f"  stage {name}", seconds) for name, seconds in stages.items()]
    rows.append(("  matching: the assignment and the rest", steps.get("matching", 0.0) - sum(stages.values())))
    rows.append(("tracing and counts", steps.get("tracing and counts", 0.0)))
    counted = steps.get("keywords and targets", 0.0) + steps.get("matching", 0.0) + steps.get("tracing and counts", 0.0)
    rows.append(("analysis, reading, the rest", total - counted))
    per = 1000 / max(lines, 1)
    out = [f"profile: {lines} lines in {total:.2f} s", f"{'step':<42} {'s':>8} {'s/1k lines':>11} {'share':>6}"]
    out += [f"{name:<42} {s:>8.3f} {s * per:>11.3f} {s / total if total else 0:>6.1%}" for name, s in rows]
    return "\n".join(out) + "\n"


def _files(args: argparse.Namespace, distributed: bool) -> Inputs:
    """The source, systems and references, every file checked once (encoding, line counts)
    before the scorer is built, then read as scored; with a cluster, by its workers (the check
    notes where their lines begin)."""
    from ktr.execution.inputs import check_inputs

    if args.sample:
        from ktr import sample

        files = sample.paths()
        source_path = str(files["source"])
        hyp_paths = [str(files[n]) for n in sample.SYSTEMS]
        ref_paths = args.ref or [str(files["reference"])]
    else:
        if not args.src:
            raise UsageError("ktr score needs -s SOURCE and -t HYPOTHESIS (or --sample)")
        if not args.hyp and sys.stdin.isatty():
            raise UsageError(
                "ktr score needs -t HYPOTHESIS, or the hypotheses on standard input (cat out.en | ktr score -s src.ko)"
            )
        source_path, hyp_paths, ref_paths = args.src, args.hyp or ["-"], args.ref or []
        if [source_path, *hyp_paths, *ref_paths].count("-") > 1:
            raise KtrError("standard input (-) can stand for one file only")
    _check_bootstrap(args, len(hyp_paths))
    return check_inputs(source_path, _systems(hyp_paths), ref_paths, distributed=distributed)


def _systems(specs: list[str]) -> dict[str, str]:
    """Each system's name and file: ``NAME=PATH`` names it (unless a file of that whole name
    exists), else it is named after its file (stdin for -). A name given twice is an error."""
    named: list[tuple[str | None, str]] = []
    for spec in specs:
        name, sep, path = spec.partition("=")
        if sep and not Path(spec).exists() and spec != "-":
            if not name or not name.isprintable() or not path:
                raise UsageError(f"-t {spec}: NAME=PATH needs a name (printable, without tabs) and a file")
            named.append((name, path))
        else:
            named.append((None, spec))
    given = [n for n, _ in named if n is not None]
    if twice := sorted({n for n in given if given.count(n) > 1}):
        raise UsageError(f"-t: the system name {twice[0]!r} is given twice")
    taken: set[str] = set(given)
    return {name if name is not None else _system_name(path, taken): path for name, path in named}


def _table(args: argparse.Namespace) -> Inputs:
    """The columns of the table -s (:mod:`ktr.execution.tables`), checked: systems named by their columns."""
    from ktr.execution.inputs import Inputs
    from ktr.execution.tables import check_table

    if not (args.src and args.source_column and args.system_column):
        raise UsageError("a table needs -s TABLE, --source-column and --system-column")
    if args.hyp or args.ref:
        raise KtrError(
            "with a table, systems and references are its columns (--system-column, --reference-column), not files"
        )
    _check_bootstrap(args, len(args.system_column))
    names = [args.source_column, *args.system_column, *(args.reference_column or [])]
    columns = check_table(args.src, names)
    n = len(args.system_column)
    if len(set(args.system_column)) < n:
        raise KtrError("--system-column: each system once")
    checked: list[Checked] = list(columns)
    return Inputs(checked[0], dict(zip(args.system_column, checked[1 : 1 + n])), checked[1 + n :])


def _check_bootstrap(args: argparse.Namespace, systems: int) -> None:
    if not _resampled(args):
        return
    check_seed(args.seed, "--seed")
    if args.format == "tsv":
        raise KtrError("--confidence, --paired-bs and --paired-ar report corpus scores: use -f text or -f json")
    for test, on in (("--paired-bs", args.paired_bs), ("--paired-ar", args.paired_ar)):
        if on and systems < 2:
            raise KtrError(f"{test} needs at least two systems (the first is the baseline)")
    check_resamples(args.bootstrap_resamples, "--bootstrap-resamples")  # why at most: see MAX_RESAMPLES
    if args.paired_ar:
        check_resamples(args.paired_ar_resamples, "--paired-ar-resamples")
