"""A Report as tables: the systems table (the text report's and a notebook's) and pandas frames.

pandas is optional (``pip install 'ktr[pandas]'``): imported only here, only when asked for.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any, NamedTuple

from ktr.errors import BackendUnavailable

if TYPE_CHECKING:
    from ktr.scoring.results import Report


def num(x: float | None, digits: int = 4) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def systems_table(report: Report) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The header and rows of the systems table, as strings: the headline score first."""
    f_first = report.headline == "f"
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
    for s in report.systems:
        d = s.summary()
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


def as_html(report: Report) -> str:
    """The systems table and the signature as HTML, for a notebook (``Report._repr_html_``)."""
    header, rows = systems_table(report)
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    sentences = report.systems[0].figures().sentences if report.systems else 0
    return (
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        f"<p>{sentences} sentences; signature: <code>{escape(report.signature.short())}</code></p>"
    )


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise BackendUnavailable("report.to_pandas() needs pandas: pip install 'ktr[pandas]'") from None
    return pandas


class Frames(NamedTuple):
    """``Report.to_pandas()``: one row per system and sentence, and one per system."""

    sentences: Any
    systems: Any


def sentence_rows(report: Report) -> list[dict[str, Any]]:
    rows = []
    for s in report.systems:
        for seg in s.sentences:
            rows.append(
                {
                    "system": s.name,
                    "index": seg.index,
                    "score": seg.score,
                    "weighted_score": seg.weighted_score,
                    "precision": seg.precision,
                    "f": seg.f(s.beta),
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
            )
    return rows


def to_pandas(report: Report) -> Frames:
    """The report as two pandas DataFrames, the signature in each one's ``attrs``."""
    pandas = _pandas()
    systems = report.to_dict()["systems"]
    frames = Frames(pandas.DataFrame(sentence_rows(report)), pandas.DataFrame(systems))
    for frame in frames:
        frame.attrs["signature"] = report.signature.short()
    return frames
