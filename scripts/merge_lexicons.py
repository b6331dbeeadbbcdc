#!/usr/bin/env python3
"""Merge lexicon files into one sorted lexicon.

    python scripts/merge_lexicons.py -o lexicons/core.tsv lexicons/core.tsv new-batch.tsv ...

Entries with the same (lemma, class) are merged: the equivalents of the first file that has the
entry come first, later files add theirs in order. Every input line is validated with the same
parser ``ktr`` uses, so a bad line stops the merge with its file and line. The output is sorted
by lemma then class (code-point order, as ``LC_ALL=C sort``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ktr.errors import LexiconError  # noqa: E402
from ktr.lexicon.format import read_entries  # noqa: E402

HEADER = "# ktr-lexicon/1\n"


def merge(paths: list[str]) -> dict[tuple[str, str], list[str]]:
    merged: dict[tuple[str, str], list[str]] = {}
    for path in paths:
        for entry in read_entries(path):
            eqs = merged.setdefault((entry.lemma, entry.cls), [])
            eqs.extend(e for e in entry.equivalents if e not in eqs)
    return merged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--header", help="file whose leading comment lines head the output")
    args = parser.parse_args()
    try:
        merged = merge(args.inputs)
    except LexiconError as exc:
        print(f"merge_lexicons: {exc}", file=sys.stderr)
        return 1
    header = HEADER
    if args.header:
        lines = Path(args.header).read_text(encoding="utf-8").splitlines(keepends=True)
        header = "".join(lines[: next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))])
    out = [header]
    for lemma, cls in sorted(merged):
        out.append(f"{lemma}\t{cls}\t{';'.join(merged[(lemma, cls)])}\n")
    Path(args.output).write_text("".join(out), encoding="utf-8")
    print(f"{len(merged)} entries written to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
