"""A run that keeps no line's result: the corpus figures are summed as the tasks' results arrive
(ktr/scoring/corpus.py), BLEU and chrF from their sufficient statistics, and the bootstrap
resamples each line's counts kept as arrays of numbers. Each is checked against a run on one
machine that keeps every sentence, on a real LocalCluster of 2 worker processes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ktr import Config, Scorer
from ktr.execution.engines import Engine
from ktr.scoring.corpus import PerLine, SystemResult, Totals
from ktr.scoring.formula import Aggregation
from ktr.scoring.scorer import RunOptions
from ktr.scoring.sentences import SentenceResult
from ktr.scoring.significance import FIGURES, bootstrap, bootstrap_report, system_statistics
from tests.cli.test_main import ktr
from tests.execution.test_dask_engine import without_engine, written

distributed = pytest.importorskip("distributed")
# slow: a Dask cluster of worker processes
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::ktr.errors.InputWarning")]


def scored(config: Config, engine: Engine | None, files, keep: bool, paired: bool = True):
    src, hyp, ref = files
    report = Scorer(config, engine=engine).score_files(
        str(src),
        {"a": str(hyp), "b": str(ref)},
        [str(hyp)],
        options=RunOptions(details=False, statistics=True, keep_sentences=keep),
    )
    text = json.dumps(report.to_dict())  # before the bootstrap adds its fields to the signature
    report.estimates = bootstrap_report(report, resamples=200, seed=7, paired=paired)
    return report, text, json.dumps(report.to_dict())


@pytest.mark.parametrize(
    "config",
    [Config(), Config(aggregation="micro"), Config(aggregation="weighted", no_keywords="one")],
    ids=["macro", "micro", "weighted-one"],
)
def test_figures_summed_on_the_way_are_those_of_every_sentence_kept(tmp_path, scheduler, config):
    files = written(tmp_path, copies=30)
    kept, kept_summary, kept_bootstrap = scored(config, None, files, keep=True)
    streamed, summary, with_bootstrap = scored(config, Engine("dask", scheduler=scheduler), files, keep=False)
    assert [s.sentences for s in streamed.systems] == [[], []]  # no line's result held
    assert [len(s.lines()) for s in streamed.systems] == [240, 240]  # each line's counts, as numbers
    assert summary == kept_summary and with_bootstrap == kept_bootstrap
    first = json.loads(summary)["systems"][0]
    assert first["sentences"] == 240 and first["sentences_without_keywords"] == 30 and first["bleu"] == 100.0
    assert json.loads(with_bootstrap)["systems"][1]["ktr_p"] is not None  # the paired test ran


def test_a_streamed_run_without_statistics_keeps_no_line(tmp_path, scheduler):
    src, hyp, _ = written(tmp_path, copies=5)
    report = Scorer(Config(), engine=Engine("dask", scheduler=scheduler)).score_files(
        str(src), {"mt": str(hyp)}, options=RunOptions(details=False, keep_sentences=False)
    )
    assert report.systems[0].sentences == [] and report.systems[0].per_line is None
    with pytest.raises(ValueError, match="mt: each line's counts were not kept"):
        bootstrap_report(report)


def test_the_command_line_streams_and_reports_as_on_one_machine(tmp_path, scheduler):
    """ktr score without per-sentence output keeps no sentence, with either engine: the same
    JSON (bootstrap included) and the same text table."""
    src, hyp, ref = written(tmp_path, copies=20)
    for extra in (["-f", "json", "--paired-bs", "--bootstrap-resamples", "100"], ["-f", "text"]):
        args = ["score", "-s", src, "-t", hyp, ref, "-r", ref, *extra]
        local = ktr(*args)
        dask = ktr(*args, "--engine", "dask", "--scheduler", scheduler)
        assert local.returncode == dask.returncode == 0, dask.stderr
        if "json" in extra:
            assert without_engine(dask.stdout, scheduler) == local.stdout
            assert json.loads(local.stdout)["systems"][1]["ktr_p"] is not None
        else:
            assert dask.stdout == local.stdout and "; 160 sentences\n" in local.stdout


@pytest.mark.parametrize("aggregation", ["macro", "micro", "weighted"])
def test_a_bootstrap_leaves_out_the_lines_the_analyzer_failed_on(aggregation):
    """Regression: the KTR statistic left a failed line out of its arrays (macro, micro), which
    were then shorter than the resamples (a ValueError), or counted it (weighted, as a line
    without keywords). Resampling every line once gives the corpus score, kept or streamed."""
    lines = [
        SentenceResult(0, (), 2, 1, 2.0, 0.5, content=4, traced=3),
        SentenceResult(1, (), 0, 0, failed="the analyzer timed out"),
        SentenceResult(2, (), 0, 0, content=2, traced=1),
        SentenceResult(3, (), 3, 3, 1.5, 1.5, content=3, traced=3),
    ]
    how = Aggregation(aggregation, "one")
    kept = SystemResult("mt", lines, how)
    streamed = SystemResult(
        "mt", [], how, totals=Totals.of(lines, how), per_line=PerLine.of(lines, aggregation == "weighted")
    )
    once = [stat.scores(np.ones((1, 4)))[0] for stat in system_statistics(kept).values()]
    assert once == [kept.ktr, kept.precision, kept.f] == [streamed.ktr, streamed.precision, streamed.f]
    drawn = bootstrap([system_statistics(kept)[f] for f in FIGURES], 4, 50, seed=5)
    again = bootstrap([system_statistics(streamed)[f] for f in FIGURES], 4, 50, seed=5)
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(drawn, again))
    assert all(np.isfinite(a).sum() > 40 for a in drawn)  # most resamples hold a line that scores
