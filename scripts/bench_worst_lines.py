#!/usr/bin/env python3
"""Time and peak memory of ``ktr score`` on the worst single lines we can build; prints a Markdown table.

    python scripts/bench_worst_lines.py [--data ../shared/data] [--cases numbers,repeated,phrases,mega]
                                        [--limit 600]

Each case is one source line and its output line, scored by ``ktr score -f json`` in a fresh
process (the cache folder already holding the tables: a one-line run comes first); the table
gives the command's wall time, the same for a one-line file of two words (the start-up every run
pays: models, tables), the difference (what the line costs), and the process's peak resident
memory (``ru_maxrss`` of that process alone). The lines:

- ``numbers``: the numbers 0 ... 999 separated by spaces, as source and output (3.9 KB);
- ``repeated``: 사과를 먹었다 1,000 times, against "I ate an apple" 1,000 times (2,000
  keywords competing for the same words);
- ``phrases``: 미국 백화점 (United States, department store: equivalents of two words) 1,000
  times, against "the department store of the United States" 1,000 times;
- ``digits``: 999,999,...,999 (100,000 digits) followed by 7명, against the same (one number
  of 100,000 digits);
- ``mega``: news-dev's lines joined with spaces, repeated until the line holds 1 MB, against their
  translation joined the same way (from ``--data``; left out when the folder is absent).

A case past ``--limit`` seconds is stopped and shown as such; the exit status is ktr's (0, or
3 when the line was not scored; 1 is an error). Speed belongs here, not in tests.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def numbers() -> tuple[str, str]:
    line = " ".join(str(n) for n in range(1000))
    return line, line


def repeated() -> tuple[str, str]:
    return " ".join(["사과를 먹었다."] * 1000), " ".join(["I ate an apple."] * 1000)


def phrases() -> tuple[str, str]:
    return " ".join(["미국 백화점"] * 1000), " ".join(["the department store of the United States"] * 1000)


def digits() -> tuple[str, str]:
    number = ",".join(["999"] * 33_334)
    return f"{number} 7명", f"{number} 7 people"


def mega(data: Path) -> tuple[str, str] | None:
    ko_file, en_file = data / "news-dev.ko", data / "news-dev.en"
    if not ko_file.exists() or not en_file.exists():
        return None
    ko = ko_file.read_text(encoding="utf-8").splitlines()
    en = en_file.read_text(encoding="utf-8").splitlines()
    source: list[str] = []
    output: list[str] = []
    size, n = 0, 0
    while size < 1_000_000:
        source.append(ko[n % len(ko)])
        output.append(en[n % len(en)])
        size += len(source[-1].encode("utf-8")) + 1
        n += 1
    return " ".join(source), " ".join(output)


def run(source: str, output: str, limit: float) -> tuple[float | None, float, int]:
    """Wall seconds (None past ``limit``), peak MB and exit status of ``ktr score`` on one line."""
    with tempfile.TemporaryDirectory() as folder:
        src, hyp = Path(folder, "src.ko"), Path(folder, "hyp.en")
        src.write_text(source + "\n", encoding="utf-8")
        hyp.write_text(output + "\n", encoding="utf-8")
        command = [sys.executable, "-m", "ktr", "score", "-s", str(src), "-t", str(hyp), "-f", "json"]
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = start + limit
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                return None, usage.ru_maxrss / 1024, -9
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--cases", default="numbers,repeated,phrases,digits,mega")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds after which a case is stopped")
    args = parser.parse_args()
    makers = {"numbers": numbers, "repeated": repeated, "phrases": phrases, "digits": digits}
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    run("사과를 먹었다.", "I ate an apple.", args.limit)  # fills the cache
    base, base_mb, _ = run("사과를 먹었다.", "I ate an apple.", args.limit)
    print(f"start-up (a one-line file): {base:.2f} s, {base_mb:.0f} MB")
    print()
    print("| line | source bytes | ktr score s | the line s | peak MB | exit status |")
    print("|---|---:|---:|---:|---:|---:|")
    for case in args.cases.split(","):
        pair = mega(args.data) if case == "mega" else makers[case]()
        if pair is None:
            print(f"| {case} | (no {args.data}) | | | | |")
            continue
        seconds, mb, status = run(*pair, args.limit)
        size = len(pair[0].encode("utf-8"))
        if seconds is None:
            print(f"| {case} | {size:,} | > {args.limit:.0f} (stopped) | | {mb:.0f} | |")
        else:
            print(f"| {case} | {size:,} | {seconds:.2f} | {seconds - (base or 0):.2f} | {mb:.0f} | {status} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
