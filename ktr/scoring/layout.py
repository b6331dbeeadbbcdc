"""The table layout of a report, in one place: a row per sentence and system, and the systems
table, as plain values; and the forms they take outside the text reports (pandas frames, a
notebook's HTML). The TSV of ``ktr score -f tsv`` (:mod:`ktr.reports.formats`) picks its columns
from the same sentence rows.

pandas is optional (``pip install 'ktr[pandas]'``): imported only here, only when asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any, NamedTuple

from ktr.errors import BackendUnavailable
from ktr.scoring.formula import Aggregation
from ktr.scoring.sentences import SentenceResult


def num(x: float | None, digits: int = 4) -> str:
    """How every report writes a score: ``digits`` places, ``-`` for none."""
    return "-" if x is None else f"{x:.{digits}f}"


def sentence_rows(system: str, averaging: Aggregation, sentences: Iterable[SentenceResult]) -> list[dict[str, Any]]:
    """A row per sentence of ``system``: its figures under ``how`` (:meth:`SentenceResult.figures`),
    counts, missed keywords and added words."""
    return [
        {
            "system": system,
            "index": seg.index,
            **seg.figures(averaging)._asdict(),
            "keywords": seg.keyword_count,
            "keywords_counted": seg.counted,
            "transferred": seg.transferred,
            "not_in_lexicon": seg.missing,
            "missed": [f"{k.keyword.lemma}/{k.keyword.tag}" for k in seg.keywords if not k.transferred],
            "content_words": seg.content,
            "traced": seg.traced,
            "added": [word for _, word in seg.added],
            "failed": seg.failed,
            "empty_hypothesis": seg.empty_hypothesis,
        }
        for seg in sentences
    ]


#: the TSV's columns (``ktr score -f tsv``): its header, and the field of a sentence row each shows
TSV_COLUMNS = (
    ("index", "index"),
    ("system", "system"),
    ("score", "score"),
    ("keywords", "keywords_counted"),
    ("transferred", "transferred"),
    ("not_in_lexicon", "not_in_lexicon"),
    ("missed", "missed"),
    ("precision", "precision"),
    ("content_words", "content_words"),
    ("traced", "traced"),
    ("f", "f"),
    ("added", "added"),
)
#: the sentence rows' fields that hold a score (written with :func:`num`)
SCORES = frozenset({"score", "weighted_score", "precision", "f"})


def cell(field: str, value: Any) -> str:
    """A sentence row's value as a table cell: a score by :func:`num`, a list space-separated."""
    if field in SCORES:
        return num(value)
    if isinstance(value, list):
        return " ".join(value)
    return str(value)


def systems_table(summaries: Sequence[dict[str, Any]], headline: str) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The header and rows of the systems table, as strings, from the systems' summaries
    (:meth:`~ktr.scoring.corpus.SystemResult.summary`): the ``headline`` score first."""
    f_first = headline == "f"
    scores = ("F", "KTR") if f_first else ("KTR", "F")
    header = (
        "system",
        *scores,
        "micro",
        "weighted",
        "prec",
        "keywords",
        "transferred",
        "added",
        "no-entry",
        "no-kw sents",
        "BLEU",
        "chrF",
    )
    rows: list[tuple[str, ...]] = []
    for d in summaries:
        pair = (num(d["f"]), num(d["ktr"]))
        rows.append(
            (
                d["name"],
                *(pair if f_first else pair[::-1]),
                num(d["ktr_micro"]),
                num(d["ktr_weighted"]),
                num(d["precision"]),
                str(d["keywords"]),
                str(d["transferred"]),
                str(d["added"]),
                str(d["keywords_not_in_lexicon"]),
                str(d["sentences_without_keywords"]),
                num(d["bleu"], digits=2),
                num(d["chrf"], digits=2),
            )
        )
    return header, rows


def as_html(summaries: Sequence[dict[str, Any]], headline: str, sentences: int, signature: str) -> str:
    """The systems table and the signature as HTML, for a notebook (``Report._repr_html_``)."""
    header, rows = systems_table(summaries, headline)
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return (
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        f"<p>{sentences} sentences; signature: <code>{escape(signature)}</code></p>"
    )


class Frames(NamedTuple):
    """``Report.to_pandas()``: one row per system and sentence, and one per system."""

    sentences: Any
    systems: Any


def frames(sentences: list[dict[str, Any]], systems: list[dict[str, Any]], signature: str) -> Frames:
    """Sentence rows and system summaries as two pandas DataFrames, the signature in each one's ``attrs``."""
    try:
        import pandas
    except ImportError:
        raise BackendUnavailable("report.to_pandas() needs pandas: pip install 'ktr[pandas]'") from None
    found = Frames(pandas.DataFrame(sentences), pandas.DataFrame(systems))
    for frame in found:
        frame.attrs["signature"] = signature
    return found
