"""The style set: source lines each translated three ways, and whether a score ranks them as a
reader would (``ktr meta-eval --style``).

A style file (``tests/data/style/*.tsv``; docs/meta-evaluation.md) holds, for lines of a Korean
source, three complete translations written by careful translators: **literal** (close to word
for word), **fluent** (idiomatic, freely reworded, nothing dropped or added) and **degraded** (the
fluent one with one content element dropped or changed, and which). A reader ranks them fluent ≈
literal > degraded; a score that measures meaning should too: the fluent translation close to
the literal one (``fluent / literal``), the degraded one below the fluent one on (almost) every
line and by a margin over the corpus (``fluent − degraded``).

Format: UTF-8, tab-separated, ``#`` comment lines, a header ``line source_hash literal fluent
degraded change`` (``source_hash``: the first 10 hex digits of the source line's SHA-256, as the
judged-keyword files have it, so a style file is never applied to other text; may be empty).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ktr.errors import InputError
from ktr.experiments.judged import line_hash
from ktr.scoring.corpus import SystemResult
from ktr.scoring.scorer import Scorer
from ktr.textio import read_whole

#: the three translations of a line, in the file's order
STYLES = ("literal", "fluent", "degraded")
COLUMNS = ("line", "source_hash", *STYLES, "change")


@dataclass(frozen=True)
class StyleLine:
    """One source line's three translations and what the degraded one changed."""

    line: int  # in the source, from 1
    source_hash: str
    literal: str
    fluent: str
    degraded: str
    change: str = ""


def read_style(path: str | Path) -> list[StyleLine]:
    """The lines of a style file; an error names the file and line of anything malformed."""
    name = str(path)
    try:
        text = read_whole(path).decode("utf-8")
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: invalid UTF-8 at byte {exc.start}") from None
    found: list[StyleLine] = []
    header = False
    for number, row in enumerate(text.splitlines(), 1):
        if not row.strip() or row.startswith("#"):
            continue
        fields = row.split("\t")
        if not header:
            if tuple(fields[: len(COLUMNS)]) != COLUMNS:
                raise InputError(f"{name}:{number}: expected the header {' '.join(COLUMNS)} (tab-separated)")
            header = True
            continue
        if len(fields) != len(COLUMNS):
            raise InputError(f"{name}:{number}: expected {len(COLUMNS)} tab-separated fields, found {len(fields)}")
        if not fields[0].isdigit() or int(fields[0]) < 1:
            raise InputError(f"{name}:{number}: line must be a line number (from 1), got {fields[0]!r}")
        if not all(fields[2:5]):
            raise InputError(f"{name}:{number}: each of literal, fluent and degraded needs a translation")
        found.append(StyleLine(int(fields[0]), *fields[1:]))
    if not found:
        raise InputError(f"{name}: no style lines")
    return found


@dataclass
class StyleResult:
    """Each style's result on the style lines, and the figures of the ranking."""

    lines: list[StyleLine]
    systems: dict[str, SystemResult]  # style -> its result
    signature: str

    def figures(self) -> dict[str, Any]:
        """Corpus KTR and F per style; fluent / literal and fluent − degraded (KTR); on how many
        lines the degraded translation scores below the fluent one, and on how many both have a score."""
        ktr = {style: s.ktr for style, s in self.systems.items()}
        pairs = [
            (d.score, f.score)
            for d, f in zip(self.systems["degraded"].sentences, self.systems["fluent"].sentences)
            if d.score is not None and f.score is not None
        ]
        fluent, literal, degraded = ktr["fluent"], ktr["literal"], ktr["degraded"]
        return {
            "lines": len(self.lines),
            "ktr": ktr,
            "f": {style: s.f for style, s in self.systems.items()},
            "fluent_over_literal": fluent / literal if fluent is not None and literal else None,
            "fluent_minus_degraded": fluent - degraded if fluent is not None and degraded is not None else None,
            "degraded_below_fluent": sum(d < f for d, f in pairs),
            "scored_pairs": len(pairs),
        }

    def to_dict(self) -> dict[str, Any]:
        return {"signature": self.signature, **self.figures()}


def run(scorer: Scorer, sources: Sequence[str], lines: Sequence[StyleLine], name: str = "style") -> StyleResult:
    """Score the three translations of each style line against its source line (``sources``:
    the whole source file; ``name``, the style file, names errors)."""
    for s in lines:
        if s.line > len(sources):
            raise InputError(f"{name}: line {s.line} is past the source's {len(sources)} lines")
        if s.source_hash and s.source_hash != line_hash(sources[s.line - 1]):
            raise InputError(f"{name}: source line {s.line} is not the line that was translated (hash differs)")
    prepared = scorer.prepare([sources[s.line - 1] for s in lines], name)
    systems = {style: scorer.score_prepared(prepared, style, [getattr(s, style) for s in lines]) for style in STYLES}
    return StyleResult(list(lines), systems, scorer.signature.short())
