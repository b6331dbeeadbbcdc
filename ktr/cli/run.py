"""``ktr run``: an experiment config, systems × variants, compared, with reports."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ktr.cli.common import EXIT_FAILED_LINES, EXIT_OK, NamedFile, add_engine_arguments, engine_from, warn_of_language
from ktr.errors import KtrError


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("run", help="run an experiment config: systems x variants, compared, with reports")
    p.add_argument("config", help="experiment YAML (see configs/README.md)")
    p.add_argument("-o", "--output", help="output folder (default: the config's output.dir, else runs/NAME)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    p.add_argument("--overwrite", action="store_true", help="write into an output folder that is not empty")
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="cores to analyse the source with: Kiwi's own threads, or a process per core "
        "for other analyzers (0: every core; default 1)",
    )
    add_engine_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ktr.execution.jobs import capped_jobs, resolve_jobs
    from ktr.experiments.experiment import load_experiment
    from ktr.experiments.runner import run_experiment
    from ktr.reports.files import prepare_output, summary_text, write_reports

    jobs = resolve_jobs(args.jobs)
    engine = engine_from(args)
    if engine.distributed and jobs > 1:
        raise KtrError("--jobs is this machine's cores (--engine local); a Dask cluster's are its --workers")
    jobs, capped = capped_jobs(jobs)
    if capped:
        print(f"ktr: warning: {capped}", file=sys.stderr)
    experiment = load_experiment(args.config)
    folder = Path(args.output) if args.output else experiment.output_dir()
    prepare_output(folder, args.overwrite)  # refuse before spending minutes on the run
    data = experiment.data
    warn_of_language(NamedFile(data.source), [NamedFile(path) for path in data.systems.values()])
    run = run_experiment(experiment, quiet=args.quiet, jobs=jobs, engine=engine)
    written = write_reports(run, folder, overwrite=args.overwrite)
    sys.stdout.write(summary_text(run))
    print(f"\nwritten to {folder}/: {', '.join(p.name for p in written)} ({run.seconds:.1f} s)")
    return EXIT_FAILED_LINES if any(v.failed for v in run.variants) else EXIT_OK
