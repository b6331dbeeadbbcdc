"""``ktr score --explain``: per sentence, each keyword, what it could match, what matched and how.

Lines and names from the input are shown with their control characters escaped
(:func:`ktr.controls.shown`): an escape sequence in a line is printed as text, never obeyed.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ktr.controls import shown
from ktr.english.tokens import tokenize

if TYPE_CHECKING:
    from ktr.scoring.corpus import Report
    from ktr.scoring.sentences import KeywordResult


def _width(text: str) -> int:
    """Columns a text takes in a terminal: Hangul and other wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _how(k: KeywordResult) -> str:
    """The stage that matched a keyword (with its confidence, for one that weighs evidence), or why none did."""
    if k.how is None:
        return "missed" if k.in_lexicon or k.tried else "no entry"
    return k.how if k.confidence is None else f"{k.how} {k.confidence:.2f}"


def _tried_text(k: KeywordResult, limit: int = 5) -> str:
    """What a keyword could match, short: equivalents, synonym count, number, sound."""
    if not k.in_lexicon and not k.tried:
        return "(not in the lexicon)"
    parts = list(k.equivalents[:limit])
    if len(k.equivalents) > limit:
        parts.append(f"+{len(k.equivalents) - limit} more")
    if k.synonyms:
        parts.append(f"+{len(k.synonyms)} synonyms")
    derived = sum(t.startswith("derived ") for t in k.tried)
    if derived:
        parts.append(f"+{derived} derived")
    parts += [t for t in k.tried if not t.startswith("derived ")]
    note = (
        f" [{k.lookup}: {k.entry}]"
        if k.lookup not in (None, "entry", "idiom", "construction", "digits", "number")
        else ""
    )
    return "; ".join(parts) + note


def _matched(k: KeywordResult, tokens: Sequence[str]) -> str:
    """The output words that carried the keyword, and the equivalent they matched if different."""
    if k.span is None:
        return "—"
    found = " ".join(tokens[k.span[0] : k.span[1]])
    return found if found == k.matched else f"{found} ({k.matched})"


def as_explain(
    report: Report, sources: Sequence[str], outputs: Mapping[str, Sequence[str]], signature: bool = True
) -> str:
    """Per sentence and system, a table like the paper's Fig. 4: each keyword, the equivalents
    tried, the output words that matched (with the equivalent, when inflected or a synonym) and
    by which stage, and the sentence score; then the signature (without ``signature``: nothing
    after the last sentence's blank line, for ``ktr score --explain``, which prints the corpus
    table after it)."""
    lines: list[str] = []
    for system in report.systems:
        hyps = outputs[system.name]
        for seg in system.sentences:
            score = "-" if seg.score is None else f"{seg.score:.2f}"
            precision = "-" if seg.precision is None else f"{seg.precision:.2f}"
            lines.append(
                f"── {shown(system.name)} · sentence {seg.index + 1} · KTR {score} "
                f"({seg.transferred} of {seg.counted} keywords) · precision {precision} "
                f"({seg.traced} of {seg.content} content words traced)"
            )
            lines.append(f"source  {shown(sources[seg.index])}")
            lines.append(f"output  {shown(hyps[seg.index])}")
            tokens = tokenize(hyps[seg.index])
            rows = [("keyword", "class", "equivalents tried", "matched", "how")]
            for k in seg.keywords:
                rows.append(
                    (  # shown: a lexicon's text could hold control characters too
                        shown(f"{k.keyword.lemma}/{k.keyword.tag}"),
                        k.keyword.cls,
                        shown(_tried_text(k)),
                        shown(_matched(k, tokens)),
                        _how(k),
                    )
                )
            if len(rows) == 1:
                lines.append("  (no keywords)")
            else:
                widths = [max(_width(r[i]) for r in rows) for i in range(4)]
                lines += [
                    "  " + "  ".join(c + " " * (w - _width(c)) for c, w in zip(r[:4], widths)) + "  " + r[4]
                    for r in rows
                ]
            if seg.added:
                lines.append("  added (traced to no keyword): " + ", ".join(word for _, word in seg.added))
            lines.append("")
    if signature:
        lines.append(f"signature: {report.signature.short()}")
    return "\n".join(lines) + "\n"
