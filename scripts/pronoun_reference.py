#!/usr/bin/env python3
"""What crediting a source noun to a pronoun of the output would do, on both sides.

    python scripts/pronoun_reference.py [--data ../shared/data] [--sets news-dev jhe-dev]

Readers credit a noun the translation carries by a pronoun (남편 → "he"; judging rule 1 in
docs/judging.md). This measures a reference stage before building one: after matching, each noun
or name that is still missed may take a pronoun of the output that no keyword matched, if the
pronoun agrees with it (he, she... for a person: the WordNet lexicographer file of the entry's
first equivalents is noun.person; it, its... for anything else; a name with no entry takes
either). Two rules:

- ``any``: every missed noun or name, every personal pronoun that agrees;
- ``subject``: only persons and names marked as the sentence's topic or subject (은, 는, 이, 가
  right after the word) and only the subject pronouns he, she and they;
- ``guarded`` (issue 39): a subject pronoun (he, she, it, they) nobody took, credited to a noun or
  name marked as topic or subject only where the source has no other candidate of that person
  and number (he, she: one person or name without an entry, the same lemma however often said,
  and no 그 or 그녀; it: one thing or name; they: one noun marked plural, 들), and only in a line
  where the other stages transferred at least 35 % of the keywords (the semantic stage's gate:
  an output of another sentence shares a word or two by chance).

Printed per set: keywords credited on the human translations (``true``) and on mismatched pairs
(each source against the translation half the corpus away, as scripts/discrimination.py pairs
them), and on the judged lines, how many of the credited words the readers judged T and how many
A. Needs the parallel data (skips with a message when the folder is absent).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ktr import Config, Scorer  # noqa: E402
from ktr.english import wordnet  # noqa: E402
from ktr.english.tokens import tokenize  # noqa: E402
from ktr.experiments.judged import read_gold  # noqa: E402
from ktr.textio import read_lines  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from discrimination import JUDGED, mismatched  # noqa: E402  (the same pairs and judged files)

PERSON = frozenset({"he", "him", "his", "she", "her", "they", "them", "their"})
THING = frozenset({"it", "its", "they", "them", "their"})
SUBJECT = frozenset({"he", "she", "they"})
TOPIC = ("은", "는", "이", "가")
#: the guarded rule: which candidates each subject pronoun may stand for, and the source's
#: pronouns that are a candidate of their own
GUARDED = {
    "he": ("person", "그", "그녀"),
    "she": ("person", "그", "그녀"),
    "it": ("thing", "그것", "이것"),
    "they": ("plural", "그들", ""),
}
#: the share of a line's keywords the other stages must have transferred (the semantic stage's)
GATE = 0.35


def _kind(result, wn) -> str | None:
    """person, thing, any (a name without an entry) or None (not a noun WordNet knows)."""
    if result.keyword.cls == "proper_noun" and not result.in_lexicon:
        return "any"
    for equivalent in result.equivalents[:3]:
        synsets = wn.synsets(equivalent.replace(" ", "_"), "n")
        if synsets:
            return "person" if synsets[0].lexname() == "noun.person" else "thing"
    return None


def guarded(sentence, tokens: list[str], used: set[int], source: str, wn) -> list:
    """The ``guarded`` rule (module doc)."""
    ks = sentence.keywords
    counted = [r for r in ks if r.counts is not False]
    if not counted or sum(r.transferred for r in counted) / len(counted) < GATE:
        return []
    kinds = {}
    for n, r in enumerate(ks):
        after = source[r.keyword.end : r.keyword.end + 2]
        if r.keyword.cls in ("noun", "proper_noun") and (after[:1] in TOPIC or after in ("들은", "들이")):
            kind = _kind(r, wn)
            if kind is not None:
                kinds[n] = "plural" if after[:1] == "들" else kind
    pronouns = {r.keyword.lemma for r in ks if r.keyword.cls == "pronoun"}
    found: list = []
    for i, token in enumerate(tokens):
        if token not in GUARDED or i in used:
            continue
        wanted, *own = GUARDED[token]
        if pronouns.intersection(own):
            continue
        candidates = [n for n, kind in kinds.items() if kind == wanted or kind == "any" and wanted != "plural"]
        if len({ks[n].keyword.lemma for n in candidates}) != 1:
            continue
        missed = [n for n in candidates if not ks[n].transferred and ks[n] not in found]
        if missed:
            found.append(ks[missed[0]])
    return found


def credited(sentence, output: str, source: str, rule: str, wn) -> list:
    """The missed keywords of ``sentence`` that a free, agreeing pronoun of ``output`` would carry."""
    tokens = tokenize(output)
    used = {t for r in sentence.keywords if r.span for t in range(*r.span)}
    if rule == "guarded":
        return guarded(sentence, tokens, used, source, wn)
    free = [i for i, t in enumerate(tokens) if t in PERSON | THING and i not in used]
    found = []
    for r in sentence.keywords:
        if r.transferred or r.keyword.cls not in ("noun", "proper_noun"):
            continue
        kind = _kind(r, wn)
        if kind is None:
            continue
        if rule == "subject":
            if kind == "thing" or source[r.keyword.end : r.keyword.end + 1] not in TOPIC:
                continue
            wanted = SUBJECT
        else:
            wanted = {"person": PERSON, "thing": THING}.get(kind, PERSON | THING)
        agreeing = [i for i in free if tokens[i] in wanted]
        if agreeing:
            free.remove(agreeing[0])
            found.append(r)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    parser.add_argument("--sets", nargs="+", default=["news-dev", "jhe-dev"])
    args = parser.parse_args()
    if not (args.data / f"{args.sets[0]}.ko").is_file():
        print(f"skipped: parallel data not found in {args.data}")
        return 0
    wn = wordnet.load()
    scorer = Scorer(Config())
    print("| set | rule | keywords | credited, true | credited, mismatched | judged T credited | judged A credited |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name in args.sets:
        sources = read_lines(args.data / f"{name}.ko")
        references = read_lines(args.data / f"{name}.en")
        others = mismatched(references)
        prepared = scorer.prepare(sources, name)
        true = scorer.score_prepared(prepared, "true", references)
        wrong = scorer.score_prepared(prepared, "mismatched", others)
        gold = read_gold(JUDGED / f"{name}.tsv") if (JUDGED / f"{name}.tsv").is_file() else []
        labels = {(j.line, j.start, j.end, j.lemma): j.label for j in gold}
        keywords = sum(len(s.keywords) for s in true.sentences)
        for rule in ("any", "subject", "guarded"):
            counts = []
            judged: Counter[str] = Counter()
            for system, outputs in ((true, references), (wrong, others)):
                n = 0
                for s, output, source in zip(system.sentences, outputs, sources):
                    found = credited(s, output, source, rule, wn)
                    n += len(found)
                    if system is true:
                        for r in found:
                            label = labels.get((s.index + 1, r.keyword.start, r.keyword.end, r.keyword.lemma))
                            if label:
                                judged[label] += 1
                counts.append(n)
            print(f"| {name} | {rule} | {keywords} | {counts[0]} | {counts[1]} | {judged['T']} | {judged['A']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
