#!/usr/bin/env python3
"""Time of the assignment (ktr/matching/assignment.py) on long lines of real news; prints a Markdown table.

    python scripts/bench_assignment.py [--data ../shared/data] [--keywords 25,50,100,200,400] [--samples 5] [--repeat 5]

A line of about N keywords is made by joining consecutive news-dev lines (source and translation
alike, with spaces) until the source has N keywords; ``--samples`` such lines start at different
places of the file. Each is scored once with the default config, and every call of the
assignment it makes (the keywords, then the repeats of a word) is kept and timed again alone,
``--repeat`` times, the fastest kept (as :mod:`timeit` advises). The table gives, per size, the
keywords, output tokens, candidates and largest group of keywords competing for tokens, and the
milliseconds of the assignment and of the whole matching of the line (the stages and the
assignment: ``match_lines``, the semantic stage included), the median and the largest over the samples.

It also times ``ktr score`` end to end (a fresh process, Python's start-up and the models'
loading included) on the line the issue names, ten news lines joined, twice (1,639 characters),
against a one-line file, the difference being what the long line costs. Skips with a message when
the data folder is absent. Speed belongs here, not in tests.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ktr.matching.cascade as cascade  # noqa: E402
import ktr.scoring.pipeline as pipeline  # noqa: E402
from ktr import Config, Scorer  # noqa: E402
from ktr.matching.assignment import _components, assign  # noqa: E402


def joined(lines: list[str], start: int, count: int) -> str:
    return " ".join(lines[start : start + count])


class Recorder:
    """Keeps each assignment's input (a copy, before the assignment sorts its lists) and times
    each line's matching, leaving both as they are."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.matching: list[float] = []

    def assign(self, cands, keywords=0, tokens=0, weights=None):
        self.calls.append((copy.deepcopy(cands), keywords, tokens, dict(weights or {})))
        return assign(cands, keywords, tokens, weights)

    def match_lines(self, *args, **kwargs):
        start = time.perf_counter()
        out = cascade.match_lines(*args, **kwargs)
        self.matching.append(time.perf_counter() - start)
        return out


def fastest(call: tuple, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        cands, keywords, tokens, weights = copy.deepcopy(call)
        start = time.perf_counter()
        assign(cands, keywords, tokens, weights)
        best = min(best, time.perf_counter() - start)
    return best


def line_of(scorer: Scorer, ko: list[str], en: list[str], start: int, keywords: int) -> tuple[str, str]:
    """The shortest join of lines from ``start`` whose source has at least ``keywords`` keywords."""
    count = 1
    while True:
        source = joined(ko, start, count)
        if len(scorer.keywords([source])[0]) >= keywords or start + count >= len(ko):
            return source, joined(en, start, count)
        count += 1


def end_to_end(source: str, output: str) -> float:
    with tempfile.TemporaryDirectory() as folder:
        src, hyp = Path(folder, "src.ko"), Path(folder, "hyp.en")
        src.write_text(source + "\n", encoding="utf-8")
        hyp.write_text(output + "\n", encoding="utf-8")
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "ktr.cli", "score", "-s", str(src), "-t", str(hyp)],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--keywords", default="25,50,100,200,400")
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-command", action="store_true", help="leave out the end-to-end ktr score timing")
    args = parser.parse_args()
    ko_file, en_file = args.data / "news-dev.ko", args.data / "news-dev.en"
    if not ko_file.exists() or not en_file.exists():
        print(f"bench_assignment: skipped, no {ko_file} (the shared parallel data)")
        return 0
    ko = ko_file.read_text(encoding="utf-8").splitlines()
    en = en_file.read_text(encoding="utf-8").splitlines()
    scorer = Scorer(Config())
    scorer.score(ko[:2], en[:2])  # models loaded, tables built
    recorder = Recorder()
    cascade.assign = recorder.assign  # type: ignore[assignment]
    pipeline.match_lines = recorder.match_lines  # type: ignore[assignment]
    print(
        "| keywords | tokens | candidates | largest group | assignment ms (median / max) | matching ms (median / max) |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for size in (int(n) for n in args.keywords.split(",")):
        rows = []
        for sample in range(args.samples):
            start = sample * len(ko) // args.samples
            source, output = line_of(scorer, ko, en, start, size)
            recorder.calls.clear()
            recorder.matching.clear()
            scorer.score([source], [output])
            first = recorder.calls[0]
            cands = first[0]
            largest = max((len(g) for g in _components(cands)), default=0)
            rows.append(
                (
                    len(scorer.keywords([source])[0]),
                    first[2],
                    sum(len(c) for call in recorder.calls for c in call[0].values()),
                    largest,
                    sum(fastest(call, args.repeat) for call in recorder.calls) * 1000,
                    sum(recorder.matching) * 1000,
                )
            )
        med = [statistics.median(r[i] for r in rows) for i in range(6)]
        top = [max(r[i] for r in rows) for i in range(6)]
        print(
            f"| {med[0]:.0f} | {med[1]:.0f} | {med[2]:.0f} | {med[3]:.0f} "
            f"| {med[4]:.1f} / {top[4]:.1f} | {med[5]:.1f} / {top[5]:.1f} |"
        )
    if not args.no_command:
        ten = joined(ko, 0, 10), joined(en, 0, 10)
        source, output = f"{ten[0]} {ten[0]}", f"{ten[1]} {ten[1]}"
        one = end_to_end(ko[0], en[0])
        long = end_to_end(source, output)
        print(
            f"\nktr score, one line of {len(source):,} characters (news-dev lines 1-10 joined, twice): "
            f"{long:.2f} s; a one-line file: {one:.2f} s; difference {long - one:.2f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
