#!/usr/bin/env python3
"""Peak memory of ``ktr score`` as a corpus's vocabulary grows: the semantic stage's vectors.

    python scripts/bench_vocabulary.py [--lines 1000,20000] [--new 10] [--folder DIR]

For each count, a corpus of that many lines is written to ``--folder`` (each line 학생이 책을
읽고 사과를 먹었다 and an output that transfers all but 사과, then ``--new`` words never seen
before: made-up words of 6 to 9 letters, so that the semantic stage embeds each of them once)
and scored by ``ktr score -f json`` in a fresh process, first with the cache folder empty (every
vector computed and stored), then again (every vector read back from the store); the table gives
the wall time and the process's peak resident memory (``ru_maxrss`` of that process alone) of
each run, and whether the two runs printed the same scores (``--save``: each run's scores written to the
folder, to compare two versions of ktr). Speed belongs here, not in tests.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONSONANTS, VOWELS = "bcdfgklmnprstvz", "aeiou"


def words(count: int, seed: int = 7) -> list[str]:
    """``count`` distinct made-up words (consonant-vowel syllables, 6 to 9 letters)."""
    rng, found = random.Random(seed), dict[str, None]()
    while len(found) < count:
        size = rng.randint(3, 4)
        word = "".join(rng.choice(CONSONANTS) + rng.choice(VOWELS) for _ in range(size))
        found[word[: rng.randint(6, len(word))]] = None
    return list(found)


def corpus(folder: Path, lines: int, new: int) -> tuple[Path, Path]:
    vocabulary = iter(words(lines * new))
    src, out = folder / f"vocab-{lines}.ko", folder / f"vocab-{lines}.en"
    src.write_text("학생이 책을 읽고 사과를 먹었다.\n" * lines, encoding="utf-8")
    out.write_text(
        "".join(
            f"The student read a book and ate {' '.join(next(vocabulary) for _ in range(new))}.\n" for _ in range(lines)
        ),
        encoding="utf-8",
    )
    return src, out


def run(src: Path, out: Path, cache: Path) -> tuple[float, float, str]:
    """Wall seconds, peak MB (``ru_maxrss`` of that process alone, ``os.wait4``) and the scores
    printed (the JSON without its signature) of ``ktr score`` on ``src`` and ``out``."""
    command = [sys.executable, "-m", "ktr", "score", "-s", str(src), "-t", str(out), "-f", "json", "-q"]
    with tempfile.TemporaryFile("w+") as stdout:
        start = time.perf_counter()
        proc = subprocess.Popen(
            command, cwd=ROOT, stdout=stdout, stderr=subprocess.DEVNULL, env={**os.environ, "KTR_CACHE_DIR": str(cache)}
        )
        _, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status):
            sys.exit(f"ktr exited with {os.waitstatus_to_exitcode(status)}")
        stdout.seek(0)
        text = stdout.read()
    return took, usage.ru_maxrss / 1024, text.split('"signature"')[0] + text.split('"systems"')[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", default="1000,20000")
    parser.add_argument("--new", type=int, default=10)
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--save", action="store_true", help="write each run's scores to --folder (to compare versions)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="ktr-vocab-"))
    folder.mkdir(parents=True, exist_ok=True)
    print("| lines | new words | empty cache: s, MB | stored: s, MB | same scores |")
    print("|---|---|---|---|---|")
    for lines in map(int, args.lines.split(",")):
        src, out = corpus(folder, lines, args.new)
        cache = Path(tempfile.mkdtemp(prefix="ktr-vocab-cache-"))
        cold, warm = run(src, out, cache), run(src, out, cache)
        if args.save:
            for kind, (_, _, scores) in (("empty", cold), ("stored", warm)):
                (folder / f"scores-{lines}-{kind}.json").write_text(scores, encoding="utf-8")
        figures = [f"{t:.1f} s, {m:.0f} MB" for t, m, _ in (cold, warm)]
        print(f"| {lines:,} | {lines * args.new:,} | {figures[0]} | {figures[1]} | {cold[2] == warm[2]} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
