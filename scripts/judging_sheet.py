#!/usr/bin/env python3
"""A sheet to judge keywords on: the keywords of sampled lines in the gold-file format, labels empty.

    python scripts/judging_sheet.py -s test.ko -t test.en [--lines 150] [--seed NAME] [-c CONFIG] -o sheet.tsv

Lines are drawn with ``random.Random(SEED).sample(range(1, n + 1), LINES)`` (all lines when the
file has no more), in order; each line's keywords come from the config's analyzer. Before each
line's rows a comment shows the source and the translation; fill ``label`` (T, A, G or E) and,
for T, ``carried_by`` by the rules of docs/judging.md, then run
``ktr meta-eval -s test.ko -r test.en --gold sheet.tsv``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ktr import Config, Scorer  # noqa: E402
from ktr.experiments.judged import COLUMNS, FORMAT, line_hash  # noqa: E402
from ktr.textio import check_same_length, read_lines  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-s", "--src", required=True)
    parser.add_argument("-t", "--translation", required=True)
    parser.add_argument("--lines", type=int, default=150)
    parser.add_argument("--seed", default="ktr-judged")
    parser.add_argument("-c", "--config")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    sources, translations = read_lines(args.src), read_lines(args.translation)
    check_same_length({args.src: sources, args.translation: translations}, args.src)
    n = len(sources)
    lines = sorted(random.Random(args.seed).sample(range(1, n + 1), min(args.lines, n)))
    scorer = Scorer(Config.from_yaml(args.config) if args.config else Config())
    keywords = scorer.keywords([sources[i - 1] for i in lines])
    columns = ["line", "start", "end", "lemma", "tag", "label", "carried_by", "source_hash", "translation_hash"]
    assert set(columns) <= set(COLUMNS)
    rows = [
        FORMAT,
        f"# {args.src} / {args.translation}: lines drawn with random.Random({args.seed!r})"
        f".sample(range(1, {n} + 1), {len(lines)}); signature {scorer.signature.short()}",
        "\t".join(columns),
    ]
    for line, kws in zip(lines, keywords):
        src, tr = sources[line - 1], translations[line - 1]
        rows.append(f"# {line} | {src} | {tr}")
        rows += [
            "\t".join(map(str, (line, k.start, k.end, k.lemma, k.tag, "", "", line_hash(src), line_hash(tr))))
            for k in kws
        ]
    Path(args.output).write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"{sum(map(len, keywords))} keywords of {len(lines)} lines written to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
