"""ktr run end to end: the demo config on the embedded sample, the four report files, the
analysis cache, and the command's rules (exit codes, no overwriting)."""

import csv
import json
import shutil

import pytest

from ktr import Config, Scorer
from ktr.errors import InputWarning
from ktr.experiments.experiment import load_experiment
from ktr.experiments.runner import run_experiment
from ktr.sample import paths as sample_paths
from ktr.textio import read_lines
from tests.cli.test_main import assert_clean_error, ktr
from tests.conftest import analyzer, requires_java
from tests.test_input_handling import KKMA_OVERFLOW

# slow: ktr run end to end, in subprocesses
pytestmark = pytest.mark.slow

FILES = ["report.html", "report.md", "results.json", "segments.tsv"]


def test_demo_writes_all_four_files(demo_run):
    out, proc = demo_run
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # -q: no progress
    assert sorted(p.name for p in out.iterdir()) == FILES
    assert "fluent (baseline)" in proc.stdout and "95% CI" in proc.stdout
    assert f"written to {out}/" in proc.stdout


def test_results_match_the_scorer_and_carry_intervals(demo_run):
    out, _ = demo_run
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    (variant,) = doc["variants"]
    assert variant["signature"]["short"].endswith("|bs:1000|seed:12345")
    assert doc["metric_signatures"]["bleu"].startswith("nrefs:1|bs:1000|seed:12345|")
    p = sample_paths()
    report = Scorer(Config()).score(
        read_lines(p["source"]),
        {n: read_lines(p[n]) for n in ("fluent", "literal", "wordsalad")},
        references=[read_lines(p["reference"])],
    )
    by_name = {s["name"]: s for s in variant["systems"]}
    for expected in report.systems:
        got = by_name[expected.name]
        assert got["ktr"] == pytest.approx(expected.ktr)
        assert got["bleu"] == pytest.approx(expected.bleu) and got["chrf"] == pytest.approx(expected.chrf)
        low, high = got["ktr_ci"]
        assert low <= got["ktr"] <= high
        classes = got["classes"]
        assert sum(c["keywords"] for c in classes.values()) == got["keywords_counted"]
        assert sum(c["transferred"] for c in classes.values()) == got["transferred"]
        assert sum(got["score_histogram"]) == got["sentences_scored"]
    assert by_name["fluent"]["ktr_p"] is None  # the baseline
    assert 0 < by_name["literal"]["ktr_p"] < 0.05 and 0 < by_name["wordsalad"]["bleu_p"] < 0.05
    diffs = variant["differences"]["literal"]
    assert len(diffs) == 5 and abs(diffs[0]["delta"]) >= abs(diffs[-1]["delta"]) > 0


def test_segments_tsv_has_a_row_per_sentence_system_and_variant(demo_run):
    out, _ = demo_run
    with open(out / "segments.tsv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    assert len(rows) == 20 * 3
    assert [r["index"] for r in rows[:20]] == [str(i) for i in range(20)]
    assert {r["system"] for r in rows} == {"fluent", "literal", "wordsalad"} and {r["variant"] for r in rows} == {
        "base"
    }
    first = rows[0]
    assert int(first["transferred"]) == len(first["transferred_keywords"].split())
    # the precision side, against the run's own results
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))["variants"][0]["systems"]
    fluent = next(s for s in results if s["name"] == "fluent")
    fluent_rows = [r for r in rows if r["system"] == "fluent"]
    assert sum(len(r["added"].split()) for r in fluent_rows) == fluent["added"]
    precisions = [float(r["precision"]) for r in fluent_rows if r["precision"]]
    assert sum(precisions) / len(precisions) == pytest.approx(fluent["precision"], abs=1e-4)
    low, high = fluent["f_ci"]
    assert low <= fluent["f"] <= high and fluent["f_p"] is None


def test_markdown_report(demo_run):
    text = (demo_run[0] / "report.md").read_text(encoding="utf-8")
    fluent = json.loads((demo_run[0] / "results.json").read_text(encoding="utf-8"))["variants"][0]["systems"][0]
    low, high = fluent["ktr_ci"]
    assert text.startswith("# ktr run: demo\n")
    assert f"| fluent (baseline) | {fluent['ktr']:.4f} | [{low:.4f}, {high:.4f}] | - |" in text
    assert "## Transfer rate by keyword class" in text and "## Where systems differ most" in text


def test_refuses_to_overwrite_and_obeys_overwrite(demo_run, tmp_path):
    out = tmp_path / "again"
    shutil.copytree(demo_run[0], out)
    before = {name: (out / name).read_bytes() for name in FILES}
    (out / "results.json").write_text("{}", encoding="utf-8")
    proc = ktr("run", "configs/demo.yaml", "-o", out)
    assert_clean_error(proc, f"{out}: output folder exists and is not empty; use --overwrite")
    assert (out / "results.json").read_text(encoding="utf-8") == "{}"
    proc = ktr("run", "configs/demo.yaml", "-o", out, "--overwrite")
    assert proc.returncode == 0, proc.stderr
    assert "analysing (kiwi): done in" in proc.stderr and "bootstrap: done in" in proc.stderr
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == json.loads(before["results.json"])


def test_exit_codes():
    assert ktr("run").returncode == 2  # usage
    proc = ktr("run", "configs/default.yaml")  # a scoring config, not an experiment
    assert_clean_error(proc, "configs/default.yaml: unknown key 'analyzer': scoring options go under 'pipeline:'")


class Counting:
    """The real Kiwi analyzer, counting the sentences it is asked to analyse."""

    def __init__(self, inner):
        self.inner, self.name, self.tagset, self.version = inner, inner.name, inner.tagset, inner.version
        self.sentences = 0
        self.texts = []

    def analyze(self, text):
        return self.analyze_many([text])[0]

    def analyze_many(self, texts):
        texts = list(texts)
        self.sentences += len(texts)
        self.texts += texts
        return self.inner.analyze_many(texts)


def test_one_analysis_shared_by_variants_and_reused_from_disk(tmp_path, kiwi):
    p = sample_paths()
    source = tmp_path / "travel.ko"
    lines = read_lines(p["source"])
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = tmp_path / "exp.yaml"
    config.write_text(
        f"""
data:
  source: travel.ko
  systems: {{fluent: {p["fluent"]}, wordsalad: {p["wordsalad"]}}}
variants:
  default: {{}}
  exact: {{matching: [exact]}}
  micro: {{aggregation: micro}}
compare: {{resamples: 100}}
""",
        encoding="utf-8",
    )
    cache = tmp_path / "cache"

    def run():
        counting = Counting(kiwi)
        result = run_experiment(
            load_experiment(config), quiet=True, analyzer_factory=lambda name: counting, analysis_cache=cache
        )
        return counting.sentences, {(v.name, s.name): s.ktr for v in result.variants for s in v.systems}

    analysed, first = run()
    assert analysed == len(set(lines))  # three variants, one analysis
    assert len(list(cache.iterdir())) == 1  # one file for the corpus
    analysed, second = run()
    assert analysed == 0 and second == first  # read back, same scores
    lines[3] = "이 근처에 싼 호텔이 있나요?"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    analysed, _ = run()
    assert analysed == 1  # only the changed line


def test_meteor_as_an_option(tmp_path, kiwi):
    p = sample_paths()
    config = tmp_path / "m.yaml"
    config.write_text(
        f"""
data:
  source: {p["source"]}
  systems: {{fluent: {p["fluent"]}, literal: {p["literal"]}}}
  references: [{p["fluent"]}]
metrics: [ktr, meteor]
compare: {{resamples: 50}}
""",
        encoding="utf-8",
    )
    run = run_experiment(
        load_experiment(config), quiet=True, analyzer_factory=lambda name: kiwi, analysis_cache=tmp_path / "cache"
    )
    meteor = run.reference_metrics["meteor"]
    assert meteor["fluent"].score > 99 > meteor["literal"].score > 20  # fluent is its own reference
    assert meteor["literal"].ci[0] <= meteor["literal"].score <= meteor["literal"].ci[1]
    assert run.metric_signatures["meteor"].startswith("nltk:")


def test_score_paired_bs_agrees_with_run(demo_run):
    """ktr score --paired-bs and ktr run draw the same resamples for the same seed."""
    p = sample_paths()
    proc = ktr(
        "score",
        "-s",
        p["source"],
        "-t",
        p["fluent"],
        p["literal"],
        p["wordsalad"],
        "-r",
        p["reference"],
        "--paired-bs",
        "-f",
        "json",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["signature"]["short"].endswith("|bs:1000|seed:12345")
    assert doc["sacrebleu"]["chrf"].startswith("nrefs:1|bs:1000|seed:12345|")
    run = {
        s["name"]: s
        for s in json.loads((demo_run[0] / "results.json").read_text(encoding="utf-8"))["variants"][0]["systems"]
    }
    for scored, name in zip(doc["systems"], ("fluent", "literal", "wordsalad")):
        for key in ("ktr_ci", "ktr_p", "bleu_ci", "bleu_p", "chrf_ci", "chrf_p"):
            assert scored[key] == pytest.approx(run[name][key]), key
    assert doc["systems"][0]["ktr_p"] is None and doc["systems"][1]["ktr_p"] < 0.05


def test_score_confidence_text_and_its_errors():
    proc = ktr("score", "--sample", "--confidence", "--bootstrap-resamples", "200", "--seed", "7")
    assert proc.returncode == 0, proc.stderr
    assert "95% confidence intervals from 200 bootstrap resamples (seed 7)" in proc.stdout
    assert "|bs:200|seed:7" in proc.stdout and "paired" not in proc.stdout
    p = sample_paths()
    assert_clean_error(
        ktr("score", "-s", p["source"], "-t", p["fluent"], "--paired-bs"), "--paired-bs needs at least two systems"
    )
    assert_clean_error(ktr("score", "--sample", "--confidence", "-f", "tsv"), "use -f text or -f json")


def failing_experiment(tmp_path, pipeline):
    """Four lines; Kkma raises on the second (a stack overflow) and takes minutes on the fourth."""
    source = tmp_path / "s.ko"
    source.write_text(f"방 열쇠\n{'ㅋ' * KKMA_OVERFLOW}\n방 열쇠\n{'가' * 50}\n", encoding="utf-8")
    (tmp_path / "mt.en").write_text("room key\n" * 4, encoding="utf-8")
    config = tmp_path / "fail.yaml"
    config.write_text(
        f"data: {{source: s.ko, systems: {{mt: mt.en}}}}\npipeline: {pipeline}\ncompare: {{resamples: 0}}\n",
        encoding="utf-8",
    )
    return config, source.resolve()


@requires_java
def test_lines_the_analyzer_fails_on_are_reported_and_exit_3(tmp_path):
    config, source = failing_experiment(
        tmp_path, f"{{analyzer: kkma, max_chars: {KKMA_OVERFLOW}, timeout: 5, matching: [exact]}}"
    )
    out = tmp_path / "out"
    proc = ktr("run", config, "-o", out, "-q")
    assert proc.returncode == 3, proc.stderr
    overflow, slow = "kkma raised java.lang.StackOverflowError", "kkma gave no result within timeout=5s"
    assert proc.stderr == (
        f"ktr: warning: {source}:2: not scored, the analysis failed: {overflow}\n"
        f"ktr: warning: {source}:4: not scored, the analysis failed: {slow}\n"
    )
    note = "NOT SCORED: 2 sentence(s) on which the analyzer failed or the time limit ran out:"
    assert f"{note}\n  line 2: {overflow}\n  line 4: {slow}\n" in proc.stdout
    assert sorted(p.name for p in out.iterdir()) == FILES  # every report written
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    (variant,) = doc["variants"]
    assert variant["failed_lines"] == [{"line": 2, "reason": overflow}, {"line": 4, "reason": slow}]
    (system,) = variant["systems"]
    assert system["sentences_failed"] == 2 and system["ktr"] == 1.0  # left out, not scored 0
    assert f"**{note}**\n\n- line 2: {overflow}\n- line 4: {slow}\n" in (out / "report.md").read_text(encoding="utf-8")
    assert f"<p><strong>{note}</strong></p><ul><li>line 2: {overflow}</li><li>line 4: {slow}</li></ul>" in (
        out / "report.html"
    ).read_text(encoding="utf-8")


@requires_java
def test_a_failed_line_is_not_stored_and_the_next_run_tries_it_again(tmp_path):
    config, source = failing_experiment(tmp_path, f"{{analyzer: kkma, max_chars: {KKMA_OVERFLOW}, matching: [exact]}}")
    source.write_text("\n".join(source.read_text(encoding="utf-8").splitlines()[:3]) + "\n", encoding="utf-8")
    (tmp_path / "mt.en").write_text("room key\n" * 3, encoding="utf-8")
    cache = tmp_path / "cache"
    counting = Counting(analyzer("kkma"))
    tried = []  # after each run: how often each line was handed to Kkma
    for _ in range(2):
        with pytest.warns(InputWarning, match="s.ko:2: not scored, the analysis failed: kkma raised"):
            run = run_experiment(
                load_experiment(config), quiet=True, analyzer_factory=lambda name: counting, analysis_cache=cache
            )
        assert run.variants[0].failed == [(2, "kkma raised java.lang.StackOverflowError")]
        tried.append((counting.texts.count("방 열쇠"), counting.texts.count("ㅋ" * KKMA_OVERFLOW)))
    (good_first, bad_first), (good_second, bad_second) = tried
    assert good_second == good_first > 0  # read back from the disk
    assert bad_second > bad_first > 0  # tried again
    (stored,) = cache.iterdir()
    assert list(json.loads(stored.read_text(encoding="utf-8"))["sentences"]) == ["방 열쇠"]
