#!/usr/bin/env python3
"""The most frequent grammatical patterns of a Korean text, and which the construction table covers.

    python scripts/grammar_patterns.py [--data ../shared/data] [--sets news-dev jhe-dev] [--top 60] [-a kiwi]

A grammatical pattern is a keyword that often carries grammar rather than content (a bound noun,
a pronoun, or a predicate used as an auxiliary or light verb: 있다, 없다, 하다, 되다, 주다, 보다,
같다, 대하다, 위하다, 따르다, 통하다, 의하다) seen with the morpheme before it and the one after
it, as TAG(form) triples: ``ETM(ᆯ) 수/NNB VA(있)``. The table counts each pattern over the sets'
source lines and says whether the construction stage takes the keyword there (the keyword is
gone from the line's keywords with the stage on). Needs the parallel data (skips with a message
when the folder is absent).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ktr import Config, Scorer  # noqa: E402
from ktr.textio import read_lines  # noqa: E402

GRAMMATICAL = {"있다", "없다", "하다", "되다", "주다", "보다", "같다", "대하다", "위하다", "따르다", "통하다", "의하다"}
#: forms kept in a pattern (endings and particles say which construction it is); others by tag
KEEP_FORM = ("ET", "EC", "JK", "JX", "VC", "XS")


def _side(m) -> str:
    if m is None:
        return "-"
    return f"{m.tag}({m.form})" if m.tag.startswith(KEEP_FORM) or m.tag in ("VA", "VV", "VX", "NNB") else m.tag


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    parser.add_argument("--sets", nargs="+", default=["news-dev", "jhe-dev"])
    parser.add_argument("--top", type=int, default=60)
    parser.add_argument("-a", "--analyzer", default="kiwi")
    args = parser.parse_args()
    if not (args.data / f"{args.sets[0]}.ko").is_file():
        print(f"skipped: parallel data not found in {args.data}")
        return 0
    stages = Config().matching
    plain = Scorer(Config(analyzer=args.analyzer, matching=tuple(s for s in stages if s != "construction")))
    with_cx = Scorer(Config(analyzer=args.analyzer, matching=stages), analyzer=plain.analyzer)
    counts: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    for name in args.sets:
        lines = read_lines(args.data / f"{name}.ko")
        analysed = plain.analyse(lines)
        before = plain.prepare_analysed(analysed).keywords
        after = with_cx.prepare_analysed(analysed).keywords
        for (_, analysis), kws, kept in zip(analysed, before, after):
            spans = {(k.start, k.end) for k in kept if k.cls != "construction"}
            morphemes = analysis.morphemes
            for k in kws:
                if k.cls not in ("bound_noun", "pronoun") and k.lemma not in GRAMMATICAL:
                    continue
                i = next((n for n, m in enumerate(morphemes) if m.start == k.start), None)
                if i is None:
                    continue
                pattern = (
                    f"{_side(morphemes[i - 1] if i else None)} {k.lemma}/{k.tag} "
                    f"{_side(morphemes[i + 1] if i + 1 < len(morphemes) else None)}"
                )
                counts[pattern] += 1
                taken[pattern] += (k.start, k.end) not in spans
    print("| rank | pattern | occurrences | taken by a construction |\n|---:|---|---:|---:|")
    for rank, (pattern, n) in enumerate(counts.most_common(args.top), 1):
        print(f"| {rank} | `{pattern}` | {n} | {taken[pattern]} |")
    top = counts.most_common(args.top)
    covered = sum(1 for p, _ in top if taken[p])
    print(
        f"\n{covered} of the {len(top)} most frequent patterns are taken by a construction at least once; "
        f"{sum(taken[p] for p, _ in top)} of their {sum(n for _, n in top)} occurrences."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
