"""Lexicon tools behind ``ktr lexicon``: lookup, stats, coverage, dump."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ktr.korean.keywords import CLASSES, Keyword
from ktr.lexicon.format import LEXICON_CLASSES, Lexicon

#: classes left out of the coverage headline: names and digits need no lexicon entry to be scored
UNCOVERED_BY_DESIGN = ("proper_noun", "digits")


def stats(lexicon: Lexicon) -> dict[str, Any]:
    """Entries by class and equivalents per entry (a JSON document)."""
    by_class = Counter(e.cls for e in lexicon)
    n_eq = [len(e.equivalents) for e in lexicon]
    multiword = sum(1 for e in lexicon for q in e.equivalents if " " in q)
    return {
        "entries": len(lexicon),
        "lemmas": len({e.lemma for e in lexicon}),
        "by_class": {c: by_class.get(c, 0) for c in LEXICON_CLASSES},
        "equivalents": sum(n_eq),
        "equivalents_per_entry": round(sum(n_eq) / len(n_eq), 3) if n_eq else 0.0,
        "multiword_equivalents": multiword,
        "hash": lexicon.digest,
    }


@dataclass
class Coverage:
    """Share of keyword tokens with a lexicon entry, by class, and the missing lemmas."""

    tokens: Counter[str] = field(default_factory=Counter)  # class -> count
    covered: Counter[str] = field(default_factory=Counter)  # class -> count
    missing: Counter[tuple[str, str]] = field(default_factory=Counter)  # (lemma, class) -> count

    def add(self, keyword: Keyword, found: bool) -> None:
        self.tokens[keyword.cls] += 1
        if found:
            self.covered[keyword.cls] += 1
        else:
            self.missing[(keyword.lemma, keyword.cls)] += 1

    def rate(self, classes: Iterable[str]) -> float | None:
        classes = list(classes)
        total = sum(self.tokens[c] for c in classes)
        return sum(self.covered[c] for c in classes) / total if total else None

    def to_dict(self, top: int = 30) -> dict[str, Any]:  # a JSON document
        headline = [c for c in CLASSES if c not in UNCOVERED_BY_DESIGN]
        return {
            "coverage": self.rate(headline),
            "coverage_all_classes": self.rate(CLASSES),
            "keyword_tokens": sum(self.tokens.values()),
            "by_class": {
                c: {"tokens": self.tokens[c], "covered": self.covered[c], "rate": self.rate([c])}
                for c in CLASSES
                if self.tokens[c]
            },
            "missing_types": len(self.missing),
            "top_missing": [
                {"lemma": lemma, "class": c, "count": n}
                for (lemma, c), n in self.missing.most_common(top)
                if c not in UNCOVERED_BY_DESIGN
            ],
        }


def coverage(rows: Iterable[tuple[Sequence[Keyword], Sequence[bool]]]) -> Coverage:
    """Coverage of the keywords of each line, with whether each has a lexicon entry (the rows
    may come a stretch of a file at a time)."""
    cov = Coverage()
    for kws, hits in rows:
        for k, hit in zip(kws, hits):
            cov.add(k, hit)
    return cov


def dump_jsonl(lexicon: Lexicon) -> Iterable[str]:
    for e in lexicon:
        yield json.dumps(
            {"lemma": e.lemma, "class": e.cls, "equivalents": list(e.equivalents), "source": e.where},
            ensure_ascii=False,
        )
