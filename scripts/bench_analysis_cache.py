#!/usr/bin/env python3
"""How fast stored analyses come back, next to sacreBLEU's BLEU on the same number of lines.

    python scripts/bench_analysis_cache.py [--data ../shared/data] [--lines 10000] [-a kiwi]

Builds a corpus of distinct lines from news-dev (each copy gets a numbered suffix, so none is
served from memory twice), analyses it once into a temporary cache folder, then times a fresh
CachedAnalyzer reading it back, and sacreBLEU's corpus BLEU on as many English lines. Skips
with a message when the parallel data is absent.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ktr.analysis_cache import CachedAnalyzer  # noqa: E402
from ktr.analyzers import get_analyzer  # noqa: E402
from ktr.textio import read_lines  # noqa: E402


def corpus(lines: list[str], n: int) -> list[str]:
    return [lines[i % len(lines)] + (f" {i // len(lines)}" if i >= len(lines) else "") for i in range(n)]


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("-a", "--analyzer", default="kiwi")
    args = parser.parse_args()
    if not (args.data / "news-dev.ko").is_file():
        print(f"skipped: parallel data not found in {args.data}")
        return 0
    source = corpus(read_lines(args.data / "news-dev.ko"), args.lines)
    english = corpus(read_lines(args.data / "news-dev.en"), args.lines)
    analyzer = get_analyzer(args.analyzer)
    with tempfile.TemporaryDirectory() as folder:
        first = CachedAnalyzer(analyzer, directory=folder)
        _, analyse = timed(lambda: first.analyze_many(source, label="bench"))
        size = sum(p.stat().st_size for p in Path(folder).iterdir())
        again = CachedAnalyzer(analyzer, directory=folder)
        loaded, load = timed(lambda: again.analyze_many(source, label="bench"))
    assert again.analysed == 0 and again.loaded == len(set(source))
    from sacrebleu.metrics import BLEU

    reference = english[len(english) // 2:] + english[:len(english) // 2]
    _, bleu = timed(lambda: BLEU().corpus_score(english, [reference]))
    morphemes = sum(len(m) for m in loaded)
    print(f"{args.lines} lines, {morphemes} morphemes ({analyzer.name} {analyzer.version})")
    print(f"analyse and store:        {analyse:7.2f} s")
    print(f"read back from the cache: {load:7.2f} s  ({size / 1e6:.1f} MB, one file)")
    print(f"sacreBLEU BLEU:           {bleu:7.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
