"""Command line: ``ktr score``, ``ktr keywords``. Thin: parse, call the library, report errors."""
from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from . import __version__
from .config import Config
from .errors import InputWarning, KtrError

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
EXIT_FAILED_LINES = 3  # the run finished, but the analyzer failed on some lines (not scored)
#: input warnings printed one by one; the rest are counted (all are in the JSON output)
SHOWN_WARNINGS = 20


def _config(args: argparse.Namespace) -> Config:
    config = Config.from_yaml(args.config) if args.config else Config()
    if getattr(args, "analyzer", None):
        config = config.replace(analyzer=args.analyzer)
    return config


def _system_name(path: str, taken: set[str]) -> str:
    name = Path(path).name
    for suffix in (".en", ".txt"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    base, n = name, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    taken.add(name)
    return name


def cmd_score(args: argparse.Namespace) -> int:
    from .report import as_json, as_text, as_tsv
    from .scorer import Scorer
    from .textio import check_counts, scan

    if args.sample:
        from . import sample

        files = sample.paths()
        source_path = str(files["source"])
        hyp_paths = [str(files[n]) for n in sample.SYSTEMS]
        ref_paths = args.ref or [str(files["reference"])]
    else:
        if not args.src or not args.hyp:
            raise KtrError("ktr score needs -s SOURCE and -t HYPOTHESIS (or --sample)")
        source_path, hyp_paths, ref_paths = args.src, args.hyp, args.ref or []
    _check_bootstrap(args, len(hyp_paths))
    # every file checked (encoding, line counts) before the scorer is built; then read as scored
    scanned = {source_path: scan(source_path)}
    for path in [*hyp_paths, *ref_paths]:
        scanned.setdefault(path, scan(path, allow_empty=True))
    check_counts([(path, scanned[path].lines) for path in [source_path, *hyp_paths, *ref_paths]])
    taken: set[str] = set()
    systems = {_system_name(path, taken): scanned[path] for path in hyp_paths}
    scorer = Scorer(_config(args), jobs=args.jobs)
    details = bool(args.explain or args.sentences or args.format == "tsv")   # per-sentence keywords shown
    bootstrap = args.confidence or args.paired_bs
    report = scorer.score_files(scanned[source_path], systems, [scanned[path] for path in ref_paths],
                                details=details, statistics=bootstrap)
    if bootstrap:
        from .significance import bootstrap_report

        report.estimates = bootstrap_report(report, args.bootstrap_resamples, args.seed, paired=args.paired_bs)
    if args.explain:
        from .report import as_explain

        sys.stdout.write(as_explain(report, list(scanned[source_path]), {n: list(f) for n, f in systems.items()}))
    elif args.format == "json":
        text = as_json(report, sentences=args.sentences)
        sys.stdout.write(text + "\n")
    elif args.format == "tsv":
        sys.stdout.write(as_tsv(report))
    else:
        sys.stdout.write(as_text(report, sentences=args.sentences))
    return EXIT_FAILED_LINES if report.systems[0].summary()["sentences_failed"] else EXIT_OK


def _check_bootstrap(args: argparse.Namespace, systems: int) -> None:
    if not (args.confidence or args.paired_bs):
        return
    if args.format == "tsv":
        raise KtrError("--confidence and --paired-bs report corpus scores: use -f text or -f json")
    if args.paired_bs and systems < 2:
        raise KtrError("--paired-bs needs at least two systems (the first is the baseline)")
    if args.bootstrap_resamples < 1:
        raise KtrError(f"--bootstrap-resamples must be at least 1, got {args.bootstrap_resamples}")


def cmd_keywords(args: argparse.Namespace) -> int:
    from .scorer import Scorer
    from .textio import scan

    source = scan(args.src)     # checked whole before anything is written
    failed = False
    for prepared in Scorer(_config(args)).prepare_file(source):
        for kws in prepared.keywords:
            sys.stdout.write(" ".join(f"{k.lemma}/{k.tag}" for k in kws) + "\n")
        failed = failed or any(prepared.failed)
    return EXIT_FAILED_LINES if failed else EXIT_OK


def cmd_lexicon(args: argparse.Namespace) -> int:
    import json

    from .lexicon import load_lexicon
    from .lexicon import tools

    config = _config(args)
    lexicons = tuple(args.lexicon) if args.lexicon else config.lexicons
    if args.action == "import":
        from .lexicon import importers

        if len(args.words) != 2 or not args.output:
            raise KtrError(f"usage: ktr lexicon import FORMAT FILE -o OUT.tsv (FORMAT: {', '.join(importers.FORMATS)})")
        fmt, path = args.words
        result = importers.import_file(fmt, path)
        written = importers.write_tsv(result.entries, args.output)
        skipped = ", ".join(f"{reason}: {n}" for reason, n in sorted(result.skipped.items())) or "none"
        print(f"{written} entries written to {args.output}; skipped records: {skipped}", file=sys.stderr)
        return EXIT_OK
    if args.action == "coverage":
        from .scorer import Scorer
        from .textio import scan

        if not args.src:
            raise KtrError("ktr lexicon coverage needs -s SOURCE")
        source = scan(args.src)
        stretches = Scorer(config.replace(lexicons=lexicons)).prepare_file(source)
        cov = tools.coverage((kws, [lk is not None for lk in looked])
                             for prepared in stretches for kws, looked in zip(prepared.keywords, prepared.lookups))
        doc = cov.to_dict(top=args.top)
        if args.format == "json":
            print(json.dumps(doc, ensure_ascii=False, indent=2))
        else:
            print(f"coverage (keyword tokens other than proper nouns and digits): {doc['coverage']:.4f}")
            print(f"coverage (all keyword tokens): {doc['coverage_all_classes']:.4f}  "
                  f"of {doc['keyword_tokens']} keyword tokens")
            for cls, row in doc["by_class"].items():
                print(f"  {cls:<12} {row['rate']:.4f}  ({row['covered']}/{row['tokens']})")
            print("most frequent missing lemmas: " + ", ".join(
                f"{m['lemma']}/{m['class']}×{m['count']}" for m in doc["top_missing"]))
        return EXIT_OK
    lexicon = load_lexicon(lexicons)
    if args.action == "stats":
        doc = tools.stats(lexicon)
        if args.format == "json":
            print(json.dumps(doc, ensure_ascii=False, indent=2))
        else:
            print(f"{doc['entries']} entries ({doc['lemmas']} lemmas), "
                  f"{doc['equivalents_per_entry']} equivalents per entry, "
                  f"{doc['multiword_equivalents']} multiword equivalents, hash {doc['hash'][:12]}")
            for cls, n in doc["by_class"].items():
                print(f"  {cls:<12} {n}")
    elif args.action == "lookup":
        if not args.words:
            raise KtrError("ktr lexicon lookup needs one or more Korean lemmas")
        status = EXIT_OK
        for word in args.words:
            entries = [e for e in lexicon if e.lemma == word]
            if not entries:
                print(f"{word}\t(not in the lexicon)")
                status = EXIT_ERROR
            for e in entries:
                print(f"{e.lemma}\t{e.cls}\t{'; '.join(e.equivalents)}\t{e.where}")
        return status
    elif args.action == "dump":
        for line in tools.dump_jsonl(lexicon):
            sys.stdout.write(line + "\n")
    return EXIT_OK


def cmd_run(args: argparse.Namespace) -> int:
    from .experiment import load_experiment
    from .parallel import resolve_jobs
    from .reports import prepare_output, summary_text, write_reports
    from .run import run_experiment

    jobs = resolve_jobs(args.jobs)
    experiment = load_experiment(args.config)
    folder = Path(args.output) if args.output else experiment.output_dir()
    prepare_output(folder, args.overwrite)      # refuse before spending minutes on the run
    run = run_experiment(experiment, quiet=args.quiet, jobs=jobs)
    written = write_reports(run, folder, overwrite=args.overwrite)
    sys.stdout.write(summary_text(run))
    print(f"\nwritten to {folder}/: {', '.join(p.name for p in written)} ({run.seconds:.1f} s)")
    return EXIT_FAILED_LINES if any(v.failed for v in run.variants) else EXIT_OK


def cmd_meta_eval(args: argparse.Namespace) -> int:
    from . import metaeval
    from .scorer import Scorer
    from .textio import check_same_length, read_lines

    files = {args.src: read_lines(args.src)}
    files.setdefault(args.ref, read_lines(args.ref))
    check_same_length(files, args.src)
    if args.output:
        metaeval.check_folder(args.output)
    if len(files[args.src]) < 2:
        raise KtrError(f"{args.src}: one line; meta-eval needs at least 2 (each line is also "
                       "scored against another line's translation)")
    result = metaeval.run(Scorer(_config(args)), files[args.src], files[args.ref], seed=args.seed)
    if args.output:
        for path in metaeval.write(result, args.output):
            print(f"wrote {path}", file=sys.stderr)
    else:
        sys.stdout.write(metaeval.to_markdown(result))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ktr", description="Keyword transfer rate (KTR) for Korean→English machine translation.")
    parser.add_argument("--version", action="version", version=f"ktr {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("score", help="score MT outputs against a Korean source")
    p.add_argument("-s", "--src", help="Korean source file, one sentence per line")
    p.add_argument("-t", "--hyp", nargs="+", help="English MT output file(s), one per system")
    p.add_argument("-r", "--ref", nargs="+", help="reference translation(s): adds BLEU and chrF")
    p.add_argument("-c", "--config", help="YAML config (see configs/default.yaml)")
    p.add_argument("-a", "--analyzer", help="override the config's analyzer")
    p.add_argument("-f", "--format", choices=("text", "json", "tsv"), default="text")
    p.add_argument("--sentences", action="store_true", help="include per-sentence detail")
    p.add_argument("--explain", action="store_true",
                   help="per sentence, each keyword: equivalents tried, what matched and how (like the paper's Fig. 4)")
    p.add_argument("--sample", action="store_true", help="score the embedded travel-domain sample")
    p.add_argument("--confidence", action="store_true", help="95%% confidence intervals by bootstrap resampling")
    p.add_argument("--paired-bs", action="store_true",
                   help="paired bootstrap test of each system against the first (adds intervals)")
    p.add_argument("--bootstrap-resamples", type=int, default=1000, metavar="N", help="resamples (default 1000)")
    p.add_argument("--seed", type=int, default=12345, help="random seed of the resampling (default 12345)")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="cores to score with: Kiwi's own threads, two per process, or a process per "
                        "core for other analyzers (0: every core; default 1)")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("run", help="run an experiment config: systems x variants, compared, with reports")
    p.add_argument("config", help="experiment YAML (see configs/README.md)")
    p.add_argument("-o", "--output", help="output folder (default: the config's output.dir, else runs/NAME)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    p.add_argument("--overwrite", action="store_true", help="write into an output folder that is not empty")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="cores to analyse the source with: Kiwi's own threads, or a process per core "
                        "for other analyzers (0: every core; default 1)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("keywords", help="print each source line's keywords as lemma/tag")
    p.add_argument("-s", "--src", required=True, help="Korean source file")
    p.add_argument("-c", "--config", help="YAML config")
    p.add_argument("-a", "--analyzer", help="override the config's analyzer")
    p.set_defaults(func=cmd_keywords)

    p = sub.add_parser("lexicon", help="lexicons: lookup, stats, coverage, dump, import")
    p.add_argument("action", choices=("lookup", "stats", "coverage", "dump", "import"))
    p.add_argument("words", nargs="*", help="lemmas to look up (lookup); FORMAT FILE (import)")
    p.add_argument("-o", "--output", help="output lexicon TSV (import)")
    p.add_argument("-s", "--src", help="Korean text to measure coverage on (coverage)")
    p.add_argument("-l", "--lexicon", nargs="+", help="lexicons (names or paths); default: the config's")
    p.add_argument("-c", "--config", help="YAML config")
    p.add_argument("-a", "--analyzer", help="override the config's analyzer")
    p.add_argument("-f", "--format", choices=("text", "json", "jsonl"), default="text")
    p.add_argument("--top", type=int, default=30, help="missing lemmas to list (coverage)")
    p.set_defaults(func=cmd_lexicon)

    p = sub.add_parser("meta-eval", help="check KTR, BLEU and chrF on controlled variants of human translations")
    p.add_argument("-s", "--src", required=True, help="Korean source file")
    p.add_argument("-r", "--ref", required=True, help="its human English translation, line by line")
    p.add_argument("-c", "--config", help="YAML config")
    p.add_argument("-a", "--analyzer", help="override the config's analyzer")
    p.add_argument("-o", "--output", help="folder for meta-eval.json, .md and .svg (default: Markdown on stdout)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random variants (default 1)")
    p.set_defaults(func=cmd_meta_eval)
    return parser


class _InputWarnings:
    """Prints input warnings as ``ktr: warning: ...`` lines, the first SHOWN_WARNINGS of them."""

    def __init__(self):
        self.count = 0
        self._default = warnings.showwarning

    def show(self, message, category, filename, lineno, file=None, line=None):
        if not issubclass(category, InputWarning):
            return self._default(message, category, filename, lineno, file, line)
        self.count += 1
        if self.count <= SHOWN_WARNINGS:
            print(f"ktr: warning: {message}", file=sys.stderr)

    def close(self) -> None:
        if self.count > SHOWN_WARNINGS:
            print(f"ktr: warning: {self.count - SHOWN_WARNINGS} more warnings not shown "
                  "(-f json lists every one under \"warnings\")", file=sys.stderr)


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
        return args.func(args)
    except KtrError as exc:
        print(f"ktr: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("ktr: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
