"""The style set: source lines each translated three ways (four from version 2), and whether a
score ranks them as a reader would (``ktr meta-eval --style``).

A style file (``tests/data/style/*.tsv``; docs/meta-evaluation.md) holds, for lines of a Korean
source, three complete translations written by careful translators: **literal** (close to word
for word), **fluent** (idiomatic, freely reworded, nothing dropped or added) and **degraded** (the
fluent one with one content element dropped or changed, and which). A reader ranks them fluent ≈
literal > degraded; a score that measures meaning should too: the fluent translation close to
the literal one (``fluent / literal``), the degraded one below the fluent one on (almost) every
line and by a margin over the corpus (``fluent − degraded``).

Version 2 adds a fourth translation, **near_miss**: the fluent one with exactly one content word
replaced by a closely related but different word (a sister term, a part for its whole, a
converse, a narrower or broader word, another intensity or polarity, a name that sounds or looks
close, another number or date: :data:`NEAR_MISS_KINDS`), the kind, and the change in the form
``LEMMA "fluent word" -> "near-miss word"``, LEMMA the dictionary form of the source keyword the
near miss betrays. Beside the near miss's rank, the figures say on how many lines that keyword
is still credited in the near-miss line, and by which matching stage: a credit of a word that
means something else.

Format: UTF-8, tab-separated, ``#`` comment lines, a header ``line source_hash literal fluent
degraded change`` (version 1) or the same followed by ``near_miss near_miss_kind
near_miss_change`` (version 2) (``source_hash``: the first 10 hex digits of the source line's
SHA-256, as the judged-keyword files have it, so a style file is never applied to other text;
may be empty).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ktr.errors import InputError
from ktr.experiments.judged import line_hash
from ktr.scoring.corpus import SystemResult
from ktr.scoring.scorer import Scorer
from ktr.scoring.sentences import KeywordResult, SentenceResult
from ktr.textio import read_whole

#: the three translations of every line, in the file's order
STYLES = ("literal", "fluent", "degraded")
#: the fourth translation of a version 2 file
NEAR_MISS = "near_miss"
COLUMNS = ("line", "source_hash", *STYLES, "change")
COLUMNS_2 = (*COLUMNS, NEAR_MISS, "near_miss_kind", "near_miss_change")
#: the kinds of near miss, in the order reports list them
NEAR_MISS_KINDS = ("sister", "part_whole", "converse", "scope", "polarity", "name", "number")
_CHANGE = re.compile(r'(\S+) "([^"]+)" -> "([^"]+)"')


@dataclass(frozen=True)
class StyleLine:
    """One source line's translations, what the degraded one changed and, from version 2, the
    near miss, its kind and its change (``LEMMA "fluent word" -> "near-miss word"``)."""

    line: int  # in the source, from 1
    source_hash: str
    literal: str
    fluent: str
    degraded: str
    change: str = ""
    near_miss: str = ""
    near_miss_kind: str = ""
    near_miss_change: str = ""

    @property
    def changed_lemma(self) -> str | None:
        """The dictionary form of the keyword the near miss changes (None without a near miss)."""
        found = _CHANGE.fullmatch(self.near_miss_change)
        return found.group(1) if found else None


def read_style(path: str | Path) -> list[StyleLine]:
    """The lines of a style file (version 1 or 2); an error names the file and line of anything
    malformed."""
    name = str(path)
    try:
        text = read_whole(path).decode("utf-8")
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: invalid UTF-8 at byte {exc.start}") from None
    found: list[StyleLine] = []
    columns: tuple[str, ...] = ()
    for number, row in enumerate(text.splitlines(), 1):
        if not row.strip() or row.startswith("#"):
            continue
        fields = row.split("\t")
        if not columns:
            if tuple(fields) not in (COLUMNS, COLUMNS_2):
                raise InputError(
                    f"{name}:{number}: expected the header {' '.join(COLUMNS)} (version 1) or "
                    f"{' '.join(COLUMNS_2)} (version 2), tab-separated"
                )
            columns = tuple(fields)
            continue
        if len(fields) != len(columns):
            raise InputError(f"{name}:{number}: expected {len(columns)} tab-separated fields, found {len(fields)}")
        if not fields[0].isdigit() or int(fields[0]) < 1:
            raise InputError(f"{name}:{number}: line must be a line number (from 1), got {fields[0]!r}")
        if not all(fields[2:5]):
            raise InputError(f"{name}:{number}: each of literal, fluent and degraded needs a translation")
        if columns == COLUMNS_2:
            _check_near_miss(fields, f"{name}:{number}")
        found.append(StyleLine(int(fields[0]), *fields[1:]))
    if not found:
        raise InputError(f"{name}: no style lines")
    return found


def _check_near_miss(fields: list[str], where: str) -> None:
    near_miss, kind, change = fields[6:9]
    if not near_miss:
        raise InputError(f"{where}: near_miss needs a translation")
    if near_miss == fields[3]:
        raise InputError(f"{where}: the near miss is the fluent translation unchanged")
    if kind not in NEAR_MISS_KINDS:
        raise InputError(f"{where}: near_miss_kind {kind!r} is not one of {', '.join(NEAR_MISS_KINDS)}")
    if not _CHANGE.fullmatch(change):
        raise InputError(f'{where}: near_miss_change must read LEMMA "fluent word" -> "near-miss word", got {change!r}')


def changed_keyword(sentence: SentenceResult, lemma: str) -> KeywordResult | None:
    """The sentence's keyword of ``lemma`` that is credited (the first, if it occurs more than
    once), else its first keyword of ``lemma`` (not credited), else None (no such keyword). A
    keyword made of ``lemma`` and what joins it counts as ``lemma``: a number and its counter
    (1970 of 1970년, which the number stage reads as one), a noun and its suffix (전국 of 전국적)."""
    of_lemma = [k for k in sentence.keywords if lemma in (k.keyword.lemma, k.keyword.base)]
    return next((k for k in of_lemma if k.transferred), of_lemma[0] if of_lemma else None)


def _ranked(lower: SystemResult, upper: SystemResult, rows: Sequence[int] | None = None) -> dict[str, Any]:
    """How ``lower`` ranks against ``upper`` (the fluent translations) on the lines ``rows`` (all
    when None): the difference of their corpus KTR over those lines, and on how many of the
    lines where both have a score ``lower`` scores below ``upper``."""
    if rows is not None:
        lower, upper = (SystemResult(r.name, [r.sentences[i] for i in rows], r.averaging) for r in (lower, upper))
    pairs = [(a.score, b.score) for a, b in zip(lower.sentences, upper.sentences, strict=True)]
    scored = [(a, b) for a, b in pairs if a is not None and b is not None]
    below, above = lower.ktr, upper.ktr
    return {
        "difference": above - below if above is not None and below is not None else None,
        "below": sum(a < b for a, b in scored),
        "scored_pairs": len(scored),
    }


@dataclass
class StyleResult:
    """Each style's result on the style lines, and the figures of the ranking."""

    lines: list[StyleLine]
    systems: dict[str, SystemResult]  # style -> its result
    signature: str
    stages: tuple[str, ...] = ()  # the matching stages, in cascade order

    @property
    def styles(self) -> tuple[str, ...]:
        return (*STYLES, NEAR_MISS) if NEAR_MISS in self.systems else STYLES

    def figures(self) -> dict[str, Any]:
        """Corpus KTR and F per style; fluent / literal and fluent − degraded (KTR); on how many
        lines the degraded translation scores below the fluent one, and on how many both have a
        score; with near misses, their figures (:meth:`near_miss_figures`)."""
        ktr = {style: s.ktr for style, s in self.systems.items()}
        degraded = _ranked(self.systems["degraded"], self.systems["fluent"])
        fluent, literal = ktr["fluent"], ktr["literal"]
        found = {
            "lines": len(self.lines),
            "ktr": ktr,
            "f": {style: s.f for style, s in self.systems.items()},
            "fluent_over_literal": fluent / literal if fluent is not None and literal else None,
            "fluent_minus_degraded": degraded["difference"],
            "degraded_below_fluent": degraded["below"],
            "scored_pairs": degraded["scored_pairs"],
        }
        if NEAR_MISS in self.systems:
            found["near_miss"] = self.near_miss_figures()
        return found

    def near_miss_lines(self) -> list[dict[str, Any]]:
        """Per line: the kind, the changed keyword's lemma, whether it is a keyword of the source,
        the stage and word it is credited by in the near-miss line (None: refused), and the
        fluent and near-miss scores."""
        rows = []
        for i, s in enumerate(self.lines):
            lemma = s.changed_lemma or ""
            fluent, near = self.systems["fluent"].sentences[i], self.systems[NEAR_MISS].sentences[i]
            credit = changed_keyword(near, lemma)
            rows.append(
                {
                    "line": s.line,
                    "kind": s.near_miss_kind,
                    "change": s.near_miss_change,
                    "lemma": lemma,
                    "keyword": credit is not None,
                    "credited_by": credit.how if credit is not None and credit.transferred else None,
                    "credited_as": credit.matched if credit is not None else None,
                    "fluent": fluent.score,
                    "near_miss": near.score,
                }
            )
        return rows

    def near_miss_figures(self) -> dict[str, Any]:
        """Fluent − near miss (corpus KTR); on how many lines the near miss scores below the
        fluent translation; on how many the changed keyword is still credited in the near-miss
        line, and by which stage; the lines whose named lemma is no keyword of the source; the
        keywords each stage credits in the fluent and in the near-miss lines; and the same
        figures for each kind of near miss."""
        fluent, near = self.systems["fluent"], self.systems[NEAR_MISS]
        rows = self.near_miss_lines()
        ranked = _ranked(near, fluent)
        by_stage = Counter(r["credited_by"] for r in rows if r["credited_by"])
        credits = {
            style: Counter(
                k.how for s in self.systems[style].sentences for k in s.keywords if k.transferred and k.how is not None
            )
            for style in ("fluent", NEAR_MISS)
        }
        kinds = {}
        for kind in NEAR_MISS_KINDS:
            picked = [i for i, r in enumerate(rows) if r["kind"] == kind]
            if picked:
                of_kind = _ranked(near, fluent, picked)
                kinds[kind] = {
                    "lines": len(picked),
                    "changed_keyword_credited": sum(rows[i]["credited_by"] is not None for i in picked),
                    "near_miss_below_fluent": of_kind["below"],
                    "scored_pairs": of_kind["scored_pairs"],
                    "fluent_minus_near_miss": of_kind["difference"],
                }
        return {
            "fluent_minus_near_miss": ranked["difference"],
            "near_miss_below_fluent": ranked["below"],
            "scored_pairs": ranked["scored_pairs"],
            "changed_keyword_credited": sum(by_stage.values()),
            "changed_keyword_by_stage": {stage: by_stage[stage] for stage in self._order(by_stage)},
            "changed_keyword_not_a_keyword": [r["line"] for r in rows if not r["keyword"]],
            "credits_by_stage": {
                stage: {style: credits[style][stage] for style in credits}
                for stage in self._order(credits["fluent"] + credits[NEAR_MISS])
            },
            "by_kind": kinds,
        }

    def _order(self, counts: Counter[str]) -> list[str]:
        """The stages of ``counts`` in cascade order (any other after them)."""
        return [s for s in self.stages if s in counts] + sorted(s for s in counts if s not in self.stages)

    def to_dict(self) -> dict[str, Any]:
        found = {"signature": self.signature, **self.figures()}
        if NEAR_MISS in self.systems:
            found["near_miss_lines"] = self.near_miss_lines()
        return found


def run(scorer: Scorer, sources: Sequence[str], lines: Sequence[StyleLine], name: str = "style") -> StyleResult:
    """Score the translations of each style line against its source line (``sources``: the
    whole source file; ``name``, the style file, names errors): three, or four when every line
    has a near miss."""
    for s in lines:
        if s.line > len(sources):
            raise InputError(f"{name}: line {s.line} is past the source's {len(sources)} lines")
        if s.source_hash and s.source_hash != line_hash(sources[s.line - 1]):
            raise InputError(f"{name}: source line {s.line} is not the line that was translated (hash differs)")
    prepared = scorer.prepare([sources[s.line - 1] for s in lines], name)
    styles = (*STYLES, NEAR_MISS) if lines and all(s.near_miss for s in lines) else STYLES
    systems = {style: scorer.score_prepared(prepared, style, [getattr(s, style) for s in lines]) for style in styles}
    return StyleResult(list(lines), systems, scorer.signature.short(), tuple(scorer.config.matching))
