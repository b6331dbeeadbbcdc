"""Judged keywords: the gold-judgment file, and how ktr's decisions agree with it.

A gold file (docs/judging.md) says, for source words of some lines of a parallel corpus, whether
a careful bilingual reader finds the word's meaning in the translation: ``T`` (transferred, by
any means), ``A`` (absent or mistranslated), ``G`` (grammar: nothing a translation would show on
its own), ``E`` (analyzer error: not a real word of the sentence). A judgment points at the
source by line, character span and lemma, so it survives changes in keyword extraction; each
line's source and translation are identified by a short hash, so a gold file is never applied to
other text by mistake. The text itself stays in the corpus's own files.

:func:`agreement` scores the judged translations with a scorer and lines ktr's keywords up with
the judgments by span: a judged word counts as credited when the ktr keyword over it was
transferred.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ktr.english.tokens import FUNCTION_WORDS, tokenize
from ktr.errors import InputError
from ktr.experiments.statistics import average, pearson, wilson
from ktr.textio import read_whole

if TYPE_CHECKING:
    from ktr.scoring.scorer import Scorer
    from ktr.scoring.sentences import KeywordResult, SentenceResult

LABELS = ("T", "A", "G", "E")
#: columns of a gold file: the first five are required, the rest optional, in any order
REQUIRED = ("line", "start", "end", "lemma", "label")
COLUMNS = (*REQUIRED, "source_hash", "translation_hash", "tag", "carried_at", "carried_by", "note")
FORMAT = "# ktr judged keywords, version 1"
_SPANS = re.compile(r"\d+-\d+(?:,\d+-\d+)*")


def line_hash(text: str) -> str:
    """A line's identity in a gold file: the first 10 hex digits of its UTF-8 SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


@dataclass(frozen=True)
class Judgment:
    """One judged source word: ``line`` counts from 1, ``start``/``end`` are character offsets
    into that source line as given."""

    line: int
    start: int
    end: int
    lemma: str
    label: str
    source_hash: str = ""
    translation_hash: str = ""
    tag: str = ""
    carried_at: str = ""  # where the translation carries a T word: "start-end" spans, comma-separated
    carried_by: str = ""  # or the words themselves (a gold file of your own data may quote them)
    note: str = ""


def read_gold(path: str | Path) -> list[Judgment]:
    """The judgments of a gold file; every format error names ``file:line``."""
    path = Path(path)
    try:
        lines = read_whole(path).decode("utf-8").split("\n")
    except OSError as exc:
        raise InputError(f"{path}: cannot read the gold file: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 (byte {exc.start})") from None
    header: list[str] | None = None
    out: list[Judgment] = []
    for n, text in enumerate(lines, 1):
        if not text.strip() or text.startswith("#"):
            continue
        cells = text.split("\t")
        if header is None:
            unknown = [c for c in cells if c not in COLUMNS]
            missing = [c for c in REQUIRED if c not in cells]
            if unknown or missing:
                raise InputError(
                    f"{path}:{n}: the header must name columns among {', '.join(COLUMNS)} "
                    f"(required: {', '.join(REQUIRED)}); "
                    + (f"unknown: {', '.join(unknown)}" if unknown else f"missing: {', '.join(missing)}")
                )
            header = cells
            continue
        if len(cells) != len(header):
            raise InputError(f"{path}:{n}: {len(cells)} columns, the header has {len(header)}")
        row = dict(zip(header, cells))
        try:
            numbers = {k: int(row[k]) for k in ("line", "start", "end")}
        except ValueError:
            raise InputError(f"{path}:{n}: line, start and end must be whole numbers") from None
        if numbers["line"] < 1 or not 0 <= numbers["start"] < numbers["end"]:
            raise InputError(f"{path}:{n}: needs line >= 1 and 0 <= start < end")
        if row.get("carried_at") and not _SPANS.fullmatch(row["carried_at"]):
            raise InputError(
                f"{path}:{n}: carried_at must be start-end spans separated by commas, got {row['carried_at']!r}"
            )
        if row["label"] not in LABELS:
            raise InputError(f"{path}:{n}: label {row['label']!r} is not one of {', '.join(LABELS)}")
        rest = {k: v for k, v in row.items() if k not in numbers}
        out.append(Judgment(numbers["line"], numbers["start"], numbers["end"], **rest))
    if not out:
        raise InputError(f"{path}: no judgments")
    return out


def write_gold(judgments: Sequence[Judgment], path: str | Path, comments: Sequence[str] = ()) -> None:
    """A gold file with the columns any judgment fills, one judgment per row, in line and span order."""
    columns = [c for c in COLUMNS if c in REQUIRED or any(getattr(j, c) for j in judgments)]
    rows = [FORMAT, *(f"# {c}" for c in comments), "\t".join(columns)]
    for j in sorted(judgments, key=lambda j: (j.line, j.start, j.end)):
        values = [str(getattr(j, c)) for c in columns]
        if any("\t" in v or "\n" in v for v in values):
            raise InputError(f"line {j.line}: a judgment's text holds a tab or a line break")
        rows.append("\t".join(values))
    Path(path).write_text("\n".join(rows) + "\n", encoding="utf-8")


def check_lines(
    judgments: Sequence[Judgment], sources: Sequence[str], translations: Sequence[str], name: str = "gold"
) -> None:
    """InputError unless every judged line exists and, where the gold file has hashes, holds the
    text that was judged."""
    for j in judgments:
        if j.line > len(sources):
            raise InputError(f"{name}: judges line {j.line}, the source has {len(sources)} lines")
        if j.source_hash and j.source_hash != line_hash(sources[j.line - 1]):
            raise InputError(f"{name}: source line {j.line} is not the line that was judged (hash differs)")
        if j.translation_hash and j.translation_hash != line_hash(translations[j.line - 1]):
            raise InputError(f"{name}: translation line {j.line} is not the line that was judged (hash differs)")


@dataclass
class Item:
    """A judgment beside what ktr decided about the same word."""

    judgment: Judgment
    result: KeywordResult | None  # the ktr keyword over the judged span, if any counts there
    counted: bool  # ktr counts that keyword in the line's score
    kind: str = ""  # the kind of disagreement, "" where ktr agrees
    carried: str = ""  # the translation's words that carry a T word, as judged

    @property
    def credited(self) -> bool:
        return self.result is not None and self.counted and self.result.transferred


@dataclass
class Agreement:
    """Keyword- and sentence-level agreement of ktr with a gold file."""

    items: list[Item]
    ktr_scores: dict[int, float | None]  # line -> ktr's sentence score
    signature: str
    lines: list[int] = field(default_factory=list)  # the judged lines, in order

    def _judged(self, *labels: str) -> list[Item]:
        return [i for i in self.items if i.judgment.label in labels]

    def counts(self) -> dict[str, int]:
        return dict(Counter(i.judgment.label for i in self.items))

    def keyword_agreement(self) -> dict[str, float | int | None]:
        """Over the words judged T or A: ktr says "transferred" when it credited the word."""
        ta = self._judged("T", "A")
        tp = sum(i.credited and i.judgment.label == "T" for i in ta)
        fp = sum(i.credited and i.judgment.label == "A" for i in ta)
        fn = sum(not i.credited and i.judgment.label == "T" for i in ta)
        tn = len(ta) - tp - fp - fn
        return {
            "judged": len(ta),
            "true_positive": tp,
            "false_positive": fp,
            "false_negative": fn,
            "true_negative": tn,
            "accuracy": _ratio(tp + tn, len(ta)),
            "precision": _ratio(tp, tp + fp),
            "recall": _ratio(tp, tp + fn),
        }

    def other_labels(self) -> dict[str, dict[str, int]]:
        """How ktr treats the words judged G and E: not a keyword that counts, counted and
        missed (a penalty), counted and credited."""
        out = {}
        for label in ("G", "E"):
            items = self._judged(label)
            out[label] = {
                "judged": len(items),
                "not_counted": sum(not i.counted for i in items),
                "counted_missed": sum(i.counted and not i.credited for i in items),
                "counted_credited": sum(i.credited for i in items),
            }
        return out

    def gold_rates(self) -> dict[int, float]:
        """Per judged line with a word judged T or A: T / (T + A)."""
        by_line: dict[int, list[str]] = {}
        for i in self._judged("T", "A"):
            by_line.setdefault(i.judgment.line, []).append(i.judgment.label)
        return {n: labels.count("T") / len(labels) for n, labels in by_line.items()}

    def sentence_agreement(self) -> dict[str, Any]:
        """The gold rate and ktr's score per line, over the lines that have both."""
        gold = self.gold_rates()
        both = [(gold[n], s) for n in self.lines if n in gold and (s := self.ktr_scores.get(n)) is not None]
        g, k = [a for a, _ in both], [b for _, b in both]
        mean_g, mean_k = average(g), average(k)
        none = sum(1 for rate in gold.values() if rate == 0)  # every word judged A: misaligned, as a rule
        interval = wilson(none, len(gold))
        return {
            "sentences": len(both),
            "gold_rate": mean_g,
            "ktr": mean_k,
            "difference": None if mean_k is None or mean_g is None else mean_k - mean_g,
            "mean_absolute_difference": average([abs(a - b) for a, b in zip(k, g)]),
            "pearson": pearson(k, g),
            "all_absent": none,
            # AUC of true against mismatched pairs for a score that agreed with the readers, a
            # mismatched pair being judged all A: the lines they judged all A tie with those pairs;
            # with the 95 % (Wilson) interval of the share of such lines in the corpus
            "auc_ceiling": 1 - none / len(gold) / 2 if gold else None,
            "auc_ceiling_interval": None if interval is None else [1 - interval[1] / 2, 1 - interval[0] / 2],
        }

    def disagreements(self) -> dict[str, int]:
        """The disagreements by kind (:data:`KINDS`, in its order)."""
        found = Counter(i.kind for i in self.items if i.kind)
        return {kind: found[kind] for kind in KINDS if found[kind]}

    def to_dict(self, examples: int = 0) -> dict[str, Any]:
        out: dict[str, Any] = {
            "signature": self.signature,
            "lines": len(self.lines),
            "labels": self.counts(),
            "keywords": self.keyword_agreement(),
            "grammar_and_errors": self.other_labels(),
            "sentences": self.sentence_agreement(),
            "disagreements": self.disagreements(),
        }
        if examples:
            out["examples"] = {
                kind: [_example(i) for i in self.items if i.kind == kind][:examples] for kind in self.disagreements()
            }
        return out


def _example(item: Item) -> dict[str, Any]:
    j, r = item.judgment, item.result
    return {
        "line": j.line,
        "lemma": j.lemma,
        "label": j.label,
        "carried_by": item.carried or None,
        "ktr": None if r is None else f"{r.keyword.lemma}/{r.keyword.tag}",
        "matched": None if r is None else r.matched,
        "how": None if r is None else r.how,
    }


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


#: kinds of disagreement, in the order reports list them
KINDS = {
    "grammar counted": "judged G (grammar), counted by ktr and not credited",
    "analyzer error counted": "judged E (not a real word here), counted by ktr",
    "carried by grammar": "judged T, carried only by function words or grammar (n't, will, they, for...)",
    "derivation": "judged T, carried by a word sharing a stem with an equivalent (criticism / criticized)",
    "number": "judged T, a number ktr did not find",
    "name": "judged T, a proper noun ktr did not find",
    "missing entry": "judged T, no lexicon entry",
    "missing sense": "judged T, carried by a word none of the keyword's targets reaches",
    "not counted (T)": "judged T, no keyword of ktr counts over it",
    "false match": "judged A, credited by ktr",
    "synonym false match": "judged A, credited by a WordNet synonym",
    "transliteration false match": "judged A, credited by sound",
    "number false match": "judged A, credited by a number",
}


def _stem_shared(words: Sequence[str], equivalents: Sequence[str]) -> bool:
    """A carried word and a different word of an equivalent share their first five letters, or
    one is the other's start (create / creation, criticism / criticized, seem / seemingly)."""
    for w in words:
        for e in (x for eq in equivalents for x in tokenize(eq)):
            n = min(len(w), len(e))
            if w != e and n >= 4 and (w[:5] == e[:5] if n >= 5 else w == e[:n] or e == w[:n]):
                return True
    return False


def _kind(item: Item) -> str:
    """What kind of disagreement a judged word is, or "" where ktr agrees with the reader."""
    label, result, counted, credited = item.judgment.label, item.result, item.counted, item.credited
    if label == "T":
        if credited:
            return ""
        if result is None or not counted:
            return "not counted (T)"
        words = list(tokenize(item.carried))
        if words and all(w in FUNCTION_WORDS or w in _GRAMMAR_PIECES for w in words):
            return "carried by grammar"
        if result.keyword.tag == "number" or result.keyword.cls in ("digits", "numeral"):
            return "number"
        if result.keyword.cls == "proper_noun":
            return "name"
        if not result.in_lexicon:
            return "missing entry"
        if _stem_shared(words, (*result.equivalents, *result.synonyms)):
            return "derivation"
        return "missing sense"
    if label == "A":
        if not credited or result is None:  # a credited word always has a result
            return ""
        return {
            "synonym": "synonym false match",
            "transliteration": "transliteration false match",
            "number": "number false match",
        }.get(result.how or "", "false match")
    if label == "G":
        return "grammar counted" if counted and not credited else ""
    return "analyzer error counted" if counted else ""


#: pieces of contractions, which carry negation, tense or modality ("n't" is tokenized "n", "t")
_GRAMMAR_PIECES = frozenset({"n", "t", "s", "d", "ll", "m", "re", "ve"})


def agreement(
    scorer: Scorer,
    sources: Sequence[str],
    translations: Sequence[str],
    judgments: Sequence[Judgment],
    name: str = "gold",
    source_name: str = "source",
) -> Agreement:
    """Score the judged lines' translations and set ktr's decision on each judged word beside it.
    ``name`` (the gold file) prefixes errors in the judgments, ``source_name`` warnings on source lines."""
    check_lines(judgments, sources, translations, name)
    lines = sorted({j.line for j in judgments})
    sentences: list[SentenceResult] = []
    for _, run in groupby(enumerate(lines), lambda pair: pair[1] - pair[0]):  # each run of consecutive lines
        run_lines = [n for _, n in run]  # prepared from its first line on, so warnings name the source's lines
        prepared = scorer.prepare([sources[n - 1] for n in run_lines], source_name, run_lines[0])
        sentences += scorer.score_prepared(prepared, "judged", [translations[n - 1] for n in run_lines]).sentences
    by_line = dict(zip(lines, sentences))
    policy_miss = scorer.config.missing_in_lexicon == "miss"
    items = []
    for j in judgments:
        sentence = by_line[j.line]
        result = _over(sentence.keywords, j)
        counted = result is not None and (result.in_lexicon or policy_miss or result.transferred)
        item = Item(j, result, counted, carried=j.carried_by or carried_text(j.carried_at, translations[j.line - 1]))
        item.kind = _kind(item)
        items.append(item)
    scores = {n: s.score for n, s in by_line.items()}
    return Agreement(items, scores, scorer.signature.short(), lines)


def carried_text(spans: str, translation: str) -> str:
    """The words at ``start-end`` spans (comma-separated) of a translation line, joined by " … "."""
    if not spans:
        return ""
    parts = []
    for span in spans.split(","):
        a, _, b = span.partition("-")
        parts.append(translation[int(a) : int(b)])
    return " … ".join(parts)


def _over(results: Sequence[KeywordResult], j: Judgment) -> KeywordResult | None:
    """The ktr keyword over a judged span: the same span and lemma first, then the same lemma
    overlapping it, then any keyword overlapping it (a number or idiom unit ktr made of several
    words)."""
    overlapping = [r for r in results if r.keyword.start < j.end and j.start < r.keyword.end]
    for wanted in (
        lambda r: (r.keyword.start, r.keyword.end, r.keyword.lemma) == (j.start, j.end, j.lemma),
        lambda r: r.keyword.lemma == j.lemma,
        lambda r: True,
    ):
        found = [r for r in overlapping if wanted(r)]
        if found:
            return found[0]
    return None
