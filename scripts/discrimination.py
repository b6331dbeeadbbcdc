#!/usr/bin/env python3
"""How well KTR separates true translations from translations of other sentences.

    python scripts/discrimination.py [--data ../shared/data] [--sets news-dev jhe-dev]
        [--variant NAME=KEY:VALUE[;KEY:VALUE...]] ...

For each parallel set and each config variant it prints, as one Markdown table: the mean
sentence KTR of the human translations (``true``), of mismatched pairs (each source against
the translation of the line half the file away: a derangement, fixed and reproducible), the
gap between them, of the true translation with the mismatched one appended (``addition``) and of
a gloss salad (each keyword's first three equivalents in source order, with the number of lines where it
scores above the true translation), then the precision side: precision (output words traced to
the source) and F of the same outputs, and how many keywords each matching stage credited. Where the set has judged
keywords (``tests/data/judged/<set>.tsv``, docs/judging.md), a further table gives the other side:
precision and recall of "transferred" against the readers' judgements, and the judged rate beside
KTR on the judged lines; where it has a style set (``tests/data/style/<set>.tsv``: literal, fluent
and degraded translations, :mod:`ktr.experiments.style`), one more table gives their KTR and F,
fluent / literal, fluent − degraded and on how many lines the degraded one scores below the fluent;
where the style set has near misses (version 2: the fluent translation with one content word
replaced by a closely related but different word), a table gives fluent − near miss, on how many
lines the near miss scores below the fluent, and on how many the changed keyword is still credited
in the near-miss line, by which stage (each variant adds a stage: its row shows what that stage
changes). Needs the parallel data (skips with a message when the folder is absent).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import yaml  # noqa: E402

from ktr import Config, Scorer  # noqa: E402
from ktr.experiments.judged import agreement, read_gold  # noqa: E402
from ktr.experiments.metaeval import auc, glosses  # noqa: E402
from ktr.experiments.style import read_style  # noqa: E402
from ktr.experiments.style import run as style_run  # noqa: E402
from ktr.textio import read_lines  # noqa: E402

JUDGED = Path(__file__).resolve().parent.parent / "tests" / "data" / "judged"
STYLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "style"

#: the ablation: each matching stage added in cascade order, then the default without senses.tsv
DEFAULT_VARIANTS = [
    "exact=matching:exact",
    "+ inflection=matching:exact,inflection",
    "+ synonym=matching:exact,inflection,synonym",
    "+ idiom=matching:exact,inflection,synonym,idiom",
    "+ number=matching:exact,inflection,synonym,idiom,number",
    "+ transliteration=matching:exact,inflection,synonym,idiom,number,transliteration",
    "+ derivation=matching:exact,inflection,synonym,idiom,number,transliteration,derivation",
    "+ construction=matching:exact,inflection,derivation,synonym,idiom,construction,number,transliteration",
    "+ semantic (default)=matching:exact,inflection,derivation,synonym,idiom,construction,number,transliteration,semantic",
    "default with core alone=lexicons:core",
]


def parse_variant(spec: str, base: Config) -> tuple[str, Config]:
    name, _, body = spec.partition("=")
    changes: dict = {}
    for item in filter(None, body.split(";")):
        key, _, value = item.partition(":")
        if key in ("matching", "classes", "lexicons", "idioms", "constructions"):
            changes[key] = [v for v in value.split(",") if v]
        else:
            changes[key] = yaml.safe_load(value)  # numbers as numbers
    checked = Config.from_dict(changes, where=f"variant {name}")  # the option rules, once
    return name, base.replace(**{key: getattr(checked, key) for key in changes})


def mismatched(lines: list[str]) -> list[str]:
    half = len(lines) // 2 or 1
    return [lines[(i + half) % len(lines)] for i in range(len(lines))]


def _found(result, cls: str) -> str:
    kws = [k for s in result.sentences for k in s.keywords if k.keyword.cls == cls]
    return f"{sum(k.transferred for k in kws)}/{len(kws)}"


def _near_miss_row(name: str, vname: str, figures: dict) -> str:
    """The style set's near misses under one variant: fluent and near-miss KTR, their difference,
    on how many lines the near miss scores below the fluent, and on how many the changed keyword
    is still credited in the near-miss line, by which stage."""
    n, k = figures["near_miss"], figures["ktr"]
    stages = ", ".join(f"{stage} {count}" for stage, count in n["changed_keyword_by_stage"].items()) or "-"
    lines = figures["lines"]
    return (
        f"| {name} | {vname} | {k['fluent']:.4f} | {k['near_miss']:.4f} | {n['fluent_minus_near_miss']:.4f} | "
        f"{n['near_miss_below_fluent']} / {n['scored_pairs']} ({n['near_miss_below_fluent'] / n['scored_pairs']:.0%}) | "
        f"{n['changed_keyword_credited']} / {lines} ({n['changed_keyword_credited'] / lines:.0%}) | {stages} | "
        f"{figures['f']['near_miss']:.4f} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    parser.add_argument("--sets", nargs="+", default=["news-dev", "jhe-dev"])
    parser.add_argument("--variant", action="append", help="NAME=KEY:VALUE;KEY:VALUE (repeatable)")
    parser.add_argument("-c", "--config", help="base config (default: built-in defaults)")
    args = parser.parse_args()
    if not (args.data / f"{args.sets[0]}.ko").is_file():
        print(f"skipped: parallel data not found in {args.data}")
        return 0
    base = Config.from_yaml(args.config) if args.config else Config()
    variants = [parse_variant(v, base) for v in (args.variant or DEFAULT_VARIANTS)]
    print(
        "| set | variant | true KTR | mismatched KTR | gap | addition KTR | salad KTR (lines above true) | true micro | mismatched micro | "
        "true weighted | mismatched weighted | proper nouns found (true / mismatched) | "
        "credited by stage (true / mismatched) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    analyzers: dict[str, object] = {}
    judged: list[str] = []
    styles: list[str] = []
    near_misses: list[str] = []
    precision_side: list[str] = []
    for name in args.sets:
        src = read_lines(args.data / f"{name}.ko")
        ref = read_lines(args.data / f"{name}.en")
        for vname, config in variants:
            scorer = Scorer(config, analyzer=analyzers.get(config.analyzer))
            analyzers[config.analyzer] = scorer.analyzer
            prepared = scorer.prepare(src, name)
            other = mismatched(ref)
            true, mis, added, salad = (
                scorer.score_prepared(prepared, system, lines)
                for system, lines in (
                    ("true", ref),
                    ("mismatched", other),
                    ("addition", [f"{a} {b}" for a, b in zip(ref, other)]),
                    ("salad", [" ".join(g) for g in glosses(prepared.lookups)]),
                )
            )
            above = sum(
                a.score is not None and t.score is not None and a.score > t.score
                for a, t in zip(salad.sentences, true.sentences)
            )
            stages = []
            for stage in config.matching:
                counts = [Counter(k.how for s in sysr.sentences for k in s.keywords)[stage] for sysr in (true, mis)]
                stages.append(f"{stage} {counts[0]} / {counts[1]}")
            names = [_found(sysr, "proper_noun") for sysr in (true, mis)]
            below = sum(
                s.figures(true.averaging).f is not None
                and t.figures(true.averaging).f is not None
                and s.figures(true.averaging).f < t.figures(true.averaging).f
                for s, t in zip(salad.sentences, true.sentences)
            )
            pairs = [
                (t.figures(true.averaging).f, m.figures(true.averaging).f)
                for t, m in zip(true.sentences, mis.sentences)
            ]
            f_auc = auc(
                [t for t, m in pairs if t is not None and m is not None],
                [m for t, m in pairs if t is not None and m is not None],
            )
            precision_side.append(
                f"| {name} | {vname} | {true.precision:.4f} | {mis.precision:.4f} | {salad.precision:.4f} | "
                f"{true.f:.4f} | {mis.f:.4f} | {added.f:.4f} ({added.f / true.f - 1:+.1%}) | {salad.f:.4f} ({below}) | "
                f"{f_auc:.4f} |"
            )
            print(
                f"| {name} | {vname} | {true.ktr:.4f} | {mis.ktr:.4f} | {true.ktr - mis.ktr:.4f} | "
                f"{added.ktr:.4f} | {salad.ktr:.4f} ({above}) | "
                f"{true.ktr_micro:.4f} | {mis.ktr_micro:.4f} | {true.ktr_weighted:.4f} | "
                f"{mis.ktr_weighted:.4f} | {names[0]} / {names[1]} | {', '.join(stages)} |",
                flush=True,
            )
            if (STYLE / f"{name}.tsv").is_file():
                figures = style_run(scorer, src, read_style(STYLE / f"{name}.tsv"), f"{name}.tsv").figures()
                k, f = figures["ktr"], figures["f"]
                styles.append(
                    f"| {name} | {vname} | {k['literal']:.4f} | {k['fluent']:.4f} | {k['degraded']:.4f} | "
                    f"{figures['fluent_over_literal']:.3f} | {figures['fluent_minus_degraded']:.4f} | "
                    f"{figures['degraded_below_fluent']} / {figures['scored_pairs']} | "
                    f"{f['literal']:.4f} | {f['fluent']:.4f} | {f['degraded']:.4f} |"
                )
                if "near_miss" in figures:
                    near_misses.append(_near_miss_row(name, vname, figures))
            if (JUDGED / f"{name}.tsv").is_file():
                found = agreement(scorer, src, ref, read_gold(JUDGED / f"{name}.tsv"), name, f"{name}.ko")
                k, sent = found.keyword_agreement(), found.sentence_agreement()
                judged.append(
                    f"| {name} | {vname} | {k['precision']:.4f} | {k['recall']:.4f} | "
                    f"{k['false_positive']} | {sent['gold_rate']:.4f} | {sent['ktr']:.4f} | "
                    f"{sent['mean_absolute_difference']:.4f} | {sent['pearson']:.4f} |"
                )
    print(
        "\n| set | variant | true precision | mismatched precision | salad precision | true F | mismatched F | "
        "addition F (change) | salad F (lines below true) | F AUC true vs mismatched |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(precision_side))
    if styles:
        print(
            "\n| set | variant | literal KTR | fluent KTR | degraded KTR | fluent / literal | fluent − degraded | "
            "degraded below fluent (lines) | literal F | fluent F | degraded F |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        print("\n".join(styles))
    if near_misses:
        print(
            "\n| set | variant | fluent KTR | near-miss KTR | fluent − near miss | near miss below fluent (lines) | "
            "changed keyword credited (lines) | by stage | near-miss F |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        print("\n".join(near_misses))
    if judged:
        print(
            "\n| set | variant | precision | recall | judged A credited | judged rate | KTR (judged lines) | "
            "mean abs. difference | Pearson |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        print("\n".join(judged))
    return 0


if __name__ == "__main__":
    sys.exit(main())
