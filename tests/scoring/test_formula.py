"""One source of a line's figures (:func:`ktr.scoring.formula.line_figures`): every table, JSON
row and DataFrame shows the figures the corpus scores are means of, under every aggregation and
missing-entry policy."""

from __future__ import annotations

import pytest

from ktr import Config, Scorer
from ktr.experiments.runner import class_rates
from ktr.reports.formats import as_tsv
from ktr.sample import paths as sample_paths
from ktr.scoring.formula import Aggregation
from ktr.scoring.layout import sentence_rows
from ktr.textio import read_lines


@pytest.fixture(scope="module")
def sample():
    files = sample_paths()
    return read_lines(files["source"]), read_lines(files["wordsalad"])


@pytest.mark.parametrize("aggregation", ["macro", "weighted"])
def test_each_lines_f_is_the_one_the_corpus_f_averages(kiwi, sample, aggregation):
    """Under the weighted aggregation the corpus F is the mean of the lines' F of their
    class-weighted KTR: the F of each row (TSV, sentence rows, DataFrame) is that one too (it was
    the unweighted F, whose rows averaged 0.8084 against a corpus F of 0.8251 on the sample's word
    salad)."""
    sources, salad = sample
    report = Scorer(Config(aggregation=aggregation), analyzer=kiwi).score(sources, {"salad": salad})
    (system,) = report.systems
    rows = sentence_rows(system.name, system.averaging, system.sentences)
    fs = [row["f"] for row in rows if row["f"] is not None]
    assert sum(fs) / len(fs) == pytest.approx(system.f, abs=1e-12)
    tsv = as_tsv(report).splitlines()
    column = tsv[0].split("\t").index("f")
    assert [float(line.split("\t")[column]) for line in tsv[1:]] == pytest.approx([round(f, 4) for f in fs])
    if aggregation == "weighted":  # the two Fs differ on this output: the test tells them apart
        unweighted = [s.figures(Aggregation("macro", beta=system.averaging.beta)).f for s in system.sentences]
        assert [f for f in unweighted if f is not None] != pytest.approx(fs)


def test_the_per_class_table_counts_what_the_lines_count(kiwi):
    """Under ``missing_in_lexicon: exclude``, a name without an entry that transfers by sound
    counts in its line: the per-class table of ``ktr run`` counts it too (it left the proper nouns
    out: 7/7 against the lines' 10/10 or more)."""
    sources = ["케빈은 어제 서울에 왔다.", "테네시 타이탄스가 경기에서 이겼다.", "클린턴 대통령이 연설했다."]
    outputs = [
        "Kevin came to Seoul yesterday.",
        "The Tennessee Titans won the game.",
        "President Clinton gave a speech.",
    ]
    report = Scorer(Config(missing_in_lexicon="exclude"), analyzer=kiwi).score(sources, {"human": outputs})
    (system,) = report.systems
    rates = class_rates(system)
    assert sum(n for n, _ in rates.values()) == sum(s.counted for s in system.sentences)
    assert sum(t for _, t in rates.values()) == sum(s.transferred for s in system.sentences)
    no_entry = [k for s in system.sentences for k in s.keywords if not k.in_lexicon and k.transferred]
    assert no_entry and all(k.keyword.cls == "proper_noun" for k in no_entry)
    assert rates["proper_noun"][0] >= len(no_entry)
