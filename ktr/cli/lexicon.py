"""``ktr lexicon``: look up, count, measure, dump and import lexicons."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ktr.cli.common import EXIT_ERROR, EXIT_FAILED_LINES, EXIT_OK, config_from, warn_of_language
from ktr.controls import shown
from ktr.errors import UsageError

if TYPE_CHECKING:
    from ktr.korean.keywords import Keyword


#: the actions of ``ktr lexicon``, each with its one-line help
ACTIONS = {
    "lookup": "the entries of Korean lemmas: class, equivalents, file:line",
    "stats": "entries, lemmas, equivalents per entry, entries per class",
    "coverage": "the share of a Korean text's keywords that the lexicons have an entry for",
    "dump": "every entry as JSON Lines",
    "import": "a dictionary (kengdic, krdict, muse, tsv) into a ktr lexicon TSV",
}


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "lexicon",
        help="lexicons: lookup, stats, coverage, dump, import",
        description="The lexicons: ktr lexicon ACTION --help shows an action's options.",
    )
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION", title="actions")
    parsers = {
        name: actions.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        for name, text in ACTIONS.items()
    }
    parsers["lookup"].add_argument("words", nargs="*", metavar="LEMMA", help="Korean lemmas to look up")
    parsers["import"].add_argument("words", nargs="*", metavar="FORMAT FILE", help="the dictionary's format and file")
    parsers["import"].add_argument(
        "-o", "--output", help="the ktr lexicon TSV to write: a regular file, or - for standard output"
    )
    parsers["import"].add_argument(
        "--overwrite",
        action="store_true",
        help="replace -o even if ktr lexicon import did not write it (or it was changed since)",
    )
    parsers["coverage"].add_argument("-s", "--src", help="Korean text to measure coverage on")
    for name in ("lookup", "stats", "coverage", "dump"):
        q = parsers[name]
        q.add_argument("-l", "--lexicon", nargs="+", help="lexicons (names or paths); default: the config's")
        q.add_argument("-c", "--config", help="YAML config")
    parsers["coverage"].add_argument("-a", "--analyzer", help="override the config's analyzer")
    for name in ("stats", "coverage"):
        parsers[name].add_argument("-f", "--format", choices=("text", "json"), default="text")
    parsers["dump"].add_argument("-f", "--format", choices=("jsonl",), help="JSON Lines, the only one")
    parsers["coverage"].add_argument("--top", type=int, default=30, help="missing lemmas to list")
    for q in parsers.values():  # what run() reads, for the actions without it
        q.set_defaults(func=run)
    p.set_defaults(
        func=run,
        words=[],
        output=None,
        overwrite=False,
        src=None,
        lexicon=None,
        config=None,
        analyzer=None,
        format="text",
        top=30,
    )


def run(args: argparse.Namespace) -> int:
    import json

    from ktr.lexicon import importers, load_lexicon, tools

    # what the command line lacks, before anything is read
    if args.action == "lookup" and not args.words:
        raise UsageError("ktr lexicon lookup needs one or more Korean lemmas")
    if args.action == "coverage" and not args.src:
        raise UsageError("ktr lexicon coverage needs -s SOURCE")
    if args.action == "import" and (len(args.words) != 2 or not args.output):
        raise UsageError(f"usage: ktr lexicon import FORMAT FILE -o OUT.tsv (FORMAT: {', '.join(importers.FORMATS)})")
    config = config_from(args)
    lexicons = tuple(args.lexicon) if args.lexicon else config.lexicons
    if args.action == "import":
        fmt, path = args.words
        if args.output != "-":
            importers.check_target(args.output, args.overwrite)  # refused before the dictionary is read
        result = importers.import_file(fmt, path)
        if args.output == "-":
            written, text = importers.lexicon_text(result.entries)
            sys.stdout.write(text)
        else:
            written = importers.write_tsv(result.entries, args.output, overwrite=args.overwrite)
        skipped = ", ".join(f"{reason}: {n}" for reason, n in sorted(result.skipped.items())) or "none"
        where = "standard output" if args.output == "-" else args.output
        print(f"{written} entries written to {where}; skipped records: {skipped}", file=sys.stderr)
        return EXIT_OK
    if args.action == "coverage":
        from ktr.scoring.scorer import Scorer
        from ktr.textio import scan

        source = scan(args.src)
        warn_of_language(source)
        failed = 0  # lines the analyzer failed on: no keywords, so not counted (a warning names each)

        def keyword_lines() -> Iterator[tuple[list[Keyword], list[bool]]]:
            nonlocal failed
            for prepared in Scorer(config.replace(lexicons=lexicons)).prepare_file(source):
                failed += sum(1 for why in prepared.failed if why)
                for kws, looked in zip(prepared.keywords, prepared.lookups):
                    yield kws, [lk is not None for lk in looked]

        cov = tools.coverage(keyword_lines())
        doc = cov.to_dict(top=args.top)
        if args.format == "json":
            print(json.dumps(doc, ensure_ascii=False, indent=2))
        else:
            print(f"coverage (keyword tokens other than proper nouns and digits): {doc['coverage']:.4f}")
            print(
                f"coverage (all keyword tokens): {doc['coverage_all_classes']:.4f}  "
                f"of {doc['keyword_tokens']} keyword tokens"
            )
            for cls, row in doc["by_class"].items():
                print(f"  {cls:<12} {row['rate']:.4f}  ({row['covered']}/{row['tokens']})")
            print(
                "most frequent missing lemmas: "
                + ", ".join(f"{m['lemma']}/{m['class']}×{m['count']}" for m in doc["top_missing"])
            )
        return EXIT_FAILED_LINES if failed else EXIT_OK
    lexicon = load_lexicon(lexicons)
    if args.action == "stats":
        doc = tools.stats(lexicon)
        if args.format == "json":
            print(json.dumps(doc, ensure_ascii=False, indent=2))
        else:
            print(
                f"{doc['entries']} entries ({doc['lemmas']} lemmas), "
                f"{doc['equivalents_per_entry']} equivalents per entry, "
                f"{doc['multiword_equivalents']} multiword equivalents, hash {doc['hash'][:12]}"
            )
            for cls, n in doc["by_class"].items():
                print(f"  {cls:<12} {n}")
    elif args.action == "lookup":
        status = EXIT_OK
        for word in args.words:
            entries = [e for e in lexicon if e.lemma == word]
            if not entries:
                print(f"{shown(word)}\t(not in the lexicon)")
                status = EXIT_ERROR
            for e in entries:  # a lexicon's text shown escaped: a terminal never obeys it
                print("\t".join(shown(f) for f in (e.lemma, e.cls, "; ".join(e.equivalents), e.where)))
        return status
    elif args.action == "dump":
        for line in tools.dump_jsonl(lexicon):
            sys.stdout.write(line + "\n")
    return EXIT_OK
