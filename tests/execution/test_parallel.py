"""Speed must not change a result: ``--jobs N``, the look-ahead analysis thread and the analysis
cache give exactly what scoring the lines one after another gives (issue cases 6.3 and 7.11)."""

from __future__ import annotations

import json

import pytest

from ktr import Config, Scorer
from ktr.errors import ConfigError, InputWarning
from ktr.execution import local, unit
from ktr.execution.analyzer_pool import AnalyzerPool
from ktr.execution.jobs import resolve_jobs, split_jobs
from ktr.sample import SYSTEMS, paths
from ktr.scoring.analysis_cache import CachedAnalyzer
from ktr.scoring.scorer import RunOptions
from ktr.textio import read_lines
from tests.cli.test_main import assert_clean_error, ktr

pytestmark = pytest.mark.filterwarnings("ignore::ktr.errors.InputWarning")


def corpus(copies: int) -> tuple[list[str], dict[str, list[str]], list[str]]:
    """The embedded sample, ``copies`` times: each copy numbered, every third line with stray
    control characters to clean (so there are warnings whose order must be kept)."""
    p = paths()
    source, reference = read_lines(p["source"]), read_lines(p["reference"])
    systems = {name: read_lines(p[name]) for name in SYSTEMS}
    n = len(source)
    src = [source[i % n] + f" {i // n}" + ("\x00" if i % 3 == 0 else "") for i in range(copies * n)]
    out = {name: [lines[i % n] + f" {i // n}" for i in range(copies * n)] for name, lines in systems.items()}
    return src, out, [reference[i % n] + f" {i // n}" for i in range(copies * n)]


def serial(scorer: Scorer, source, systems) -> dict:
    """The plain way: the whole source prepared at once, each system matched in turn."""
    prepared = scorer.prepare(source)
    return {
        name: [s.to_dict() for s in scorer.score_prepared(prepared, name, lines).sentences]
        for name, lines in systems.items()
    }


def segments(report) -> dict:
    return {s.name: [seg.to_dict() for seg in s.sentences] for s in report.systems}


@pytest.mark.parametrize("path", ["stream", "look-ahead thread"])
def test_stretches_streams_and_look_ahead_thread_give_the_plain_result(kiwi, monkeypatch, tmp_path, path):
    source, systems, _ = corpus(3)
    # Kiwi in this process streams; wrapped in an analysis cache, it is analysed in a thread
    analyzer = kiwi if path == "stream" else CachedAnalyzer(kiwi, directory=tmp_path)
    assert analyzer.concurrent and (getattr(analyzer, "stream", None) is not None) == (path == "stream")
    scorer = Scorer(Config(), analyzer=analyzer)
    monkeypatch.setattr(unit, "STRETCH", 7)
    monkeypatch.setattr(local, "STEP", 3)
    report = scorer.score(source, systems)
    assert segments(report) == serial(scorer, source, systems)
    assert [seg.index for seg in report.systems[0].sentences] == list(range(len(source)))
    expected = [
        f"source:{n}: cleaned 1 control or surrogate character(s) before analysis (U+0000 NUL)"
        for n in range(1, len(source) + 1, 3)
    ]
    assert report.warnings == expected


def test_files_read_stretch_by_stretch_give_the_lists_result(kiwi, tmp_path, monkeypatch):
    from sacrebleu.metrics import BLEU, CHRF

    from ktr.scoring.significance import bootstrap_report

    source, systems, references = corpus(3)
    monkeypatch.setattr(unit, "STRETCH", 7)
    monkeypatch.setattr(local, "STEP", 3)  # Kiwi streams: BLEU and chrF summed 3 lines at a time
    scorer = Scorer(Config(), analyzer=kiwi)
    src = tmp_path / "src.ko"
    src.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(source).encode())  # BOM, CRLF, no final newline
    files = {name: tmp_path / f"{name}.en" for name in systems}
    for name, path in files.items():
        path.write_text("\n".join(systems[name]) + "\n", encoding="utf-8")
    ref = tmp_path / "ref.en"
    ref.write_text("\n".join(references) + "\n", encoding="utf-8")
    listed = scorer.score(
        source, systems, [references, systems["fluent"]], source_name=str(src), options=RunOptions(statistics=True)
    )
    with pytest.warns(InputWarning) as caught:
        streamed = scorer.score_files(src, files, [ref, files["fluent"]], options=RunOptions(statistics=True))
    assert [str(w.message) for w in caught] == listed.warnings and len(listed.warnings) == 20
    assert streamed.to_dict(sentences=True) == listed.to_dict(sentences=True)
    for system in streamed.systems:
        refs = [references, systems["fluent"]]
        assert system.bleu == round(BLEU().corpus_score(systems[system.name], refs).score, 4)
        assert system.chrf == round(CHRF().corpus_score(systems[system.name], refs).score, 4)
    for report in (streamed, listed):
        report.estimates = bootstrap_report(report, 100, 3, paired=True)
    assert streamed.to_dict() == listed.to_dict()
    assert set(streamed.estimates) == {"ktr", "precision", "f", "bleu", "chrf"}
    with pytest.raises(ValueError, match="score with statistics=True"):  # BLEU cannot be resampled
        bootstrap_report(scorer.score(source, systems, [references]))


def test_bleu_and_chrf_summed_by_stretch_are_sacrebleu_s_corpus_scores(monkeypatch):
    from sacrebleu.metrics import BLEU, CHRF

    from ktr.scoring import reference as metrics

    source, systems, references = corpus(3)
    fluent, other = systems["fluent"], systems["wordsalad"]
    found = metrics.ReferenceScores(keep=True)
    for a in range(0, len(fluent), 7):
        found.add("fluent", fluent[a : a + 7], [references[a : a + 7], other[a : a + 7]])
    for name, metric in (("bleu", BLEU()), ("chrf", CHRF())):
        whole = metric.corpus_score(fluent, [references, other])
        assert found.scores("fluent")[name] == (round(whole.score, 4), str(metric.get_signature()))
        monkeypatch.setattr(metrics, "STRETCH", 5)
        stats, _ = metrics.sentence_statistics(name, fluent, [references, other])
        assert (
            stats == found.statistics("fluent", name) == metric._extract_corpus_statistics(fluent, [references, other])
        )


@pytest.mark.slow  # worker processes
@pytest.mark.parametrize(
    "analyzer, jobs, processes, threads",
    [
        ("mecab", 2, 2, 1),  # two processes
        ("kiwi", 2, 1, 2),  # one process, Kiwi analysing in two threads
        ("kiwi", 3, 2, 2),  # two processes, each with two Kiwi threads
    ],
)
def test_more_jobs_give_the_one_job_result(monkeypatch, analyzer, jobs, processes, threads):
    source, systems, references = corpus(4)
    monkeypatch.setattr(unit, "STRETCH", 16)  # the parent cuts; many stretches for two processes
    one = Scorer(Config(analyzer=analyzer)).score(source, systems, [references])
    more = Scorer(Config(analyzer=analyzer), jobs=jobs)
    assert (more.processes, more.threads) == (processes, threads)
    with pytest.warns(InputWarning) as caught:
        report = more.score(source, systems, [references])
    assert report.to_dict(sentences=True) == one.to_dict(sentences=True)
    assert [str(w.message) for w in caught] == one.warnings  # reported once, in line order


def test_jobs_are_split_into_processes_and_analyzer_threads():
    assert split_jobs(1, Config()) == (1, 1)
    assert split_jobs(4, Config()) == (2, 2)
    assert split_jobs(4, Config(analyzer="mecab")) == (4, 1)
    assert split_jobs(2, Config(timeout=30)) == (2, 1)  # Kiwi in a child process: no threads


@pytest.mark.slow  # ktr in subprocesses, with worker processes
@pytest.mark.parametrize("analyzer", ["kiwi", "mecab"])  # Kiwi threads; mecab processes
def test_cli_jobs_two_prints_what_jobs_one_prints(tmp_path, analyzer):
    source, systems, _ = corpus(30)  # more lines than one stretch
    assert len(source) > unit.STRETCH
    src, hyp = tmp_path / "src.ko", tmp_path / "fluent.en"
    src.write_text("\n".join(source) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(systems["fluent"]) + "\n", encoding="utf-8")
    runs = [
        ktr("score", "-s", src, "-t", hyp, "-a", analyzer, "-f", "json", "--sentences", "--jobs", jobs)
        for jobs in ("1", "2")
    ]
    assert [r.returncode for r in runs] == [0, 0], runs[1].stderr
    assert runs[1].stdout == runs[0].stdout
    assert runs[1].stderr == runs[0].stderr and "180 more warnings not shown" in runs[0].stderr  # 200 in all
    assert len(json.loads(runs[0].stdout)["systems"][0]["segments"]) == len(source)


def test_rescoring_from_the_disk_cache_gives_the_plain_result(kiwi, tmp_path):
    source, systems, _ = corpus(2)
    plain = Scorer(Config(), analyzer=kiwi).score(source, systems)
    first = CachedAnalyzer(kiwi, directory=tmp_path)
    assert segments(Scorer(Config(), analyzer=first).score(source, systems)) == segments(plain)
    again = CachedAnalyzer(kiwi, directory=tmp_path)
    assert segments(Scorer(Config(), analyzer=again).score(source, systems)) == segments(plain)
    assert again.analysed == 0 and again.loaded > 0


@pytest.mark.parametrize("jobs", [-1, 1.5, "2"])
def test_jobs_must_be_a_whole_number(jobs):
    with pytest.raises(ConfigError, match="jobs must be a whole number"):
        Scorer(Config(), jobs=jobs)


def test_jobs_cannot_share_an_analyzer_object(kiwi):
    with pytest.raises(ConfigError, match="jobs > 1 builds an analyzer and a lexicon in each process"):
        Scorer(Config(), analyzer=kiwi, jobs=2)


def test_cli_rejects_negative_jobs(tmp_path):
    p = paths()
    proc = ktr("score", "-s", p["source"], "-t", p["fluent"], "--jobs", "-2")
    assert_clean_error(proc, "jobs must be a whole number, 0 (one per core) or more, got -2")


def test_jobs_zero_means_one_per_core():
    import os

    assert resolve_jobs(0) == len(os.sched_getaffinity(0))  # the cores this process may use
    assert (resolve_jobs(None), resolve_jobs(1), resolve_jobs(3)) == (1, 1, 3)


@pytest.mark.slow  # worker processes on 1,000 lines
def test_optional_news_dev_in_two_processes(shared_data):
    source = read_lines(shared_data / "news-dev.ko")
    output = read_lines(shared_data / "news-dev.en")
    one = Scorer(Config(analyzer="mecab")).score(source, output)
    two = Scorer(Config(analyzer="mecab"), jobs=2).score(source, output)
    assert two.to_dict(sentences=True) == one.to_dict(sentences=True)


@pytest.mark.slow  # worker processes
def test_analyzer_pool_gives_the_analyzer_s_own_analyses(kiwi):
    from ktr.korean.guard import outcomes

    source, _, _ = corpus(1)
    pool = AnalyzerPool("kiwi", 2)
    try:
        assert (pool.name, pool.tagset, pool.version) == (kiwi.name, kiwi.tagset, kiwi.version)
        assert pool.outcomes(source) == outcomes(kiwi, source)
        assert pool.analyze("방 열쇠") == kiwi.analyze("방 열쇠")
    finally:
        pool.close()


@pytest.mark.slow  # ktr run in a subprocess, with an empty cache
def test_ktr_run_analysing_with_two_jobs_writes_the_same_results(demo_run, tmp_path):
    import os
    import subprocess
    import sys

    from conftest import ROOT

    out, first = demo_run
    assert first.returncode == 0, first.stderr
    env = {**os.environ, "KTR_CACHE_DIR": str(tmp_path / "cache")}  # nothing stored: all analysed
    proc = subprocess.run(
        [sys.executable, "-m", "ktr.cli", "run", "configs/demo.yaml", "-o", str(tmp_path / "r"), "-q", "--jobs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "r" / "results.json").read_text()) == json.loads((out / "results.json").read_text())
    assert list((tmp_path / "cache" / "analyses").iterdir())  # the two threads' analyses were stored


@pytest.mark.slow  # worker processes
@pytest.mark.parametrize("analyzer, jobs", [("kiwi", 1), ("mecab", 1), ("mecab", 2)])
def test_counts_without_keyword_details_give_the_same_summary(monkeypatch, analyzer, jobs):
    source, systems, references = corpus(3)
    monkeypatch.setattr(unit, "STRETCH", 16)
    full = Scorer(Config(analyzer=analyzer)).score(source, systems, [references])
    lean = Scorer(Config(analyzer=analyzer), jobs=jobs).score(
        source, systems, [references], options=RunOptions(details=False)
    )
    assert lean.to_dict() == full.to_dict()
    summary = lean.systems[0].summary()
    detailed = full.systems[0].sentences  # the lean counts are those of the kept keywords
    assert summary["keywords"] == sum(len(s.keywords) for s in detailed)
    assert summary["keywords_not_in_lexicon"] == sum(not k.in_lexicon for s in detailed for k in s.keywords)
    for kept, whole in zip(lean.systems[0].sentences, full.systems[0].sentences):
        assert kept.keywords == () and kept.keyword_count == len(whole.keywords) and kept.missing == whole.missing
        assert (kept.counted, kept.transferred, kept.score) == (whole.counted, whole.transferred, whole.score)
