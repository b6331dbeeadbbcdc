"""Every command's exit codes (0 success, 1 user error, 2 usage error, 3 lines the analyzer failed
on) and the documented options, run in this process through ``ktr.cli.main`` (as the ``ktr``
script runs it; tests/cli/test_main.py runs it as a subprocess).

A line fails without Java: Kiwi with a ``timeout`` runs in a child process, and a line of 600,000
characters analysed in one piece (``max_chars``) takes it several seconds (0.7 s per 100,000 on
the machine this was written on), so it gives no result within 1 s and is not scored.
"""

import json
import os

import pytest

from ktr.cli.main import main
from tests.conftest import requires_dask, requires_mecab, write
from tests.reports.test_formats import LEXICON, MACRO, OUTPUT, SOURCE

LONG = "학생이 책을 읽었다 " * 60_000


def ktr(capsys, *args):
    """(exit code, stdout, stderr) of ``ktr ARGS``; argparse's usage errors exit through SystemExit."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def case(tmp_path):
    """The hand-worked case of tests/reports/test_formats.py as files, with a config for its lexicon."""
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "out.en", "\n".join(OUTPUT) + "\n")
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n")
    return src, hyp, cfg


@pytest.fixture
def failing(tmp_path):
    """Three lines whose second Kiwi cannot analyse within the time limit, and a config for it."""
    src = write(tmp_path / "long.ko", f"방 열쇠\n{LONG}\n방 열쇠\n")
    hyp = write(tmp_path / "long.en", "room key\n" * 3)
    cfg = write(tmp_path / "slow.yaml", "analyzer: kiwi\ntimeout: 1\nmax_chars: 1000000\nmatching: [exact]\n")
    return src, hyp, cfg


def error_is(err, message):
    assert err == f"ktr: error: {message}\n"


def one_line_error(err, *fragments):
    assert err.startswith("ktr: error: ") and err.count("\n") == 1, err
    for f in fragments:
        assert f in err, err


# ktr score ------------------------------------------------------------------------------------


def test_score_exits_0_and_the_policies_reach_the_scores(capsys, case, tmp_path):
    src, hyp, cfg = case
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-f", "json")
    assert (code, err) == (0, "")
    assert json.loads(out)["systems"][0]["ktr"] == pytest.approx(MACRO)
    policies = write(
        tmp_path / "p.yaml", cfg.read_text(encoding="utf-8") + "no_keywords: one\nmissing_in_lexicon: exclude\n"
    )
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", policies, "-f", "json")
    system = json.loads(out)["systems"][0]
    assert code == 0 and system["ktr"] == pytest.approx((2 / 3 + 1 + 1 + 1) / 4)  # 철수 left out; 네. counts 1
    assert system["keywords_counted"] == 6
    assert json.loads(out)["signature"]["full"]["no_keywords"] == "one"


@pytest.mark.parametrize(
    "options, ktr_value",
    [
        ("no_keywords: exclude", MACRO),
        ("no_keywords: zero", (2 / 3 + 1 + 1 / 2) / 4),
        ("no_keywords: one", (2 / 3 + 1 + 1 / 2 + 1) / 4),
        ("missing_in_lexicon: miss", MACRO),
        ("missing_in_lexicon: exclude", (2 / 3 + 1 + 1) / 3),
        ("aggregation: macro", MACRO),
        ("aggregation: micro", 5 / 7),
        ("aggregation: weighted", MACRO),
        ("classes: [noun, verb]", (2 / 3 + 1 + 1) / 3),
    ],
)  # 철수, a proper noun, not a keyword
def test_each_policy_value_through_the_command(capsys, case, tmp_path, options, ktr_value):
    src, hyp, cfg = case
    chosen = write(tmp_path / "chosen.yaml", cfg.read_text(encoding="utf-8") + options + "\n")
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", chosen, "-f", "json")
    doc = json.loads(out)
    assert code == 0 and doc["systems"][0]["ktr"] == pytest.approx(ktr_value)
    key, value = options.split(": ")
    if key != "classes":
        assert doc["signature"]["full"][key] == value


def test_score_exits_1_on_user_errors(capsys, case, tmp_path):
    src, hyp, _ = case
    code, out, err = ktr(capsys, "score", "-s", tmp_path / "nope.ko", "-t", hyp)
    assert (code, out) == (1, "")
    one_line_error(err, "nope.ko: no such file")
    code, _, err = ktr(capsys, "score", "-t", hyp)
    assert code == 2  # a usage error: a required argument missing
    error_is(err, "ktr score needs -s SOURCE and -t HYPOTHESIS (or --sample)")
    empty = write(tmp_path / "empty.en", "")
    code, _, err = ktr(capsys, "score", "-s", src, "-t", empty)
    assert code == 1  # an empty output is a short one, not a broken file
    one_line_error(err, "src.ko has 4 lines", "empty.en has 0")
    code, _, err = ktr(capsys, "score", "-s", src, "-t", hyp, "--jobs", "-2")
    assert code == 1
    error_is(err, "jobs must be a whole number, 0 (one per core) or more, got -2")
    code, _, err = ktr(capsys, "score", "-s", src, "-t", hyp, "--paired-bs")
    assert code == 1
    error_is(err, "--paired-bs needs at least two systems (the first is the baseline)")
    code, _, err = ktr(capsys, "score", "-s", src, "-t", hyp, hyp, "--paired-bs", "--bootstrap-resamples", "0")
    assert code == 1
    error_is(err, "--bootstrap-resamples must be from 1 to 1000000, got 0")
    code, out, _ = ktr(
        capsys, "score", "-s", src, "-t", hyp, hyp, "--paired-bs", "--bootstrap-resamples", "1", "-f", "json"
    )
    assert code == 0 and json.loads(out)["systems"][1]["ktr_p"] is not None  # one resample is enough to run


def test_score_exits_2_on_usage_errors(capsys, case):
    src, hyp, _ = case
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-f", "xml")
    assert (code, out) == (2, "") and "invalid choice: 'xml'" in err
    code, _, err = ktr(capsys, "score", "-s", src, "-t", hyp, "--jobs", "many")
    assert code == 2 and "invalid int value: 'many'" in err


@pytest.mark.slow  # worker processes
def test_score_jobs_zero_uses_every_core(capsys, case):
    src, hyp, cfg = case
    code, one, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-f", "json", "--sentences")
    assert code == 0
    code, every, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-f", "json", "--sentences", "--jobs", "0")
    assert code == 0 and json.loads(every) == json.loads(one)


def test_score_formats_and_headline(capsys, case):
    src, hyp, cfg = case
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-f", "tsv")
    rows = out.splitlines()
    assert code == 0 and len(rows) == 5 and rows[1].split("\t")[:7] == ["0", "out", "0.6667", "3", "2", "0", "책/NNG"]
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "--headline", "f")
    assert code == 0 and out.splitlines()[0].split()[:3] == ["system", "F", "KTR"]
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "--sentences")
    assert (
        code == 0 and "\nline  system" in out and "\n   3  out     0.5000  0.8333  1.0000  " in out
    )  # cli/test_score_sentences.py
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "--explain")
    assert code == 0 and out.startswith("── out · sentence 1 · KTR 0.67 (2 of 3 keywords)")
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-f", "json")
    assert "segments" not in json.loads(out)["systems"][0]  # only with --sentences
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-f", "json", "--sentences")
    segments = json.loads(out)["systems"][0]["segments"]
    assert code == 0 and [(s["index"], s["score"]) for s in segments] == [(0, 2 / 3), (1, 1.0), (2, 0.5), (3, None)]


def test_score_two_files_of_one_name_are_two_systems(capsys, case, tmp_path):
    src, hyp, cfg = case
    other = tmp_path / "b"
    other.mkdir()
    copy = write(other / "out.en", hyp.read_text(encoding="utf-8"))
    (tmp_path / "c").mkdir()
    third = write(tmp_path / "c" / "out.txt", hyp.read_text(encoding="utf-8"))
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, copy, third, "-c", cfg, "-f", "json")
    assert code == 0 and [s["name"] for s in json.loads(out)["systems"]] == ["out", "out-2", "out-3"]


def test_score_confidence_fields(capsys, case):
    src, hyp, cfg = case
    code, out, _ = ktr(
        capsys,
        "score",
        "-s",
        src,
        "-t",
        hyp,
        "-c",
        cfg,
        "-f",
        "json",
        "--confidence",
        "--bootstrap-resamples",
        "50",
        "--seed",
        "3",
    )
    system = json.loads(out)["systems"][0]
    assert code == 0 and json.loads(out)["signature"]["short"].endswith("|bs:50|seed:3")
    for metric in ("ktr", "precision", "f"):
        low, high = system[f"{metric}_ci"]
        assert low <= system[metric] <= high and system[f"{metric}_p"] is None
    # against a reference (itself) BLEU gets an interval too; --paired-bs adds p for the second system
    code, out, _ = ktr(
        capsys,
        "score",
        "-s",
        src,
        "-t",
        hyp,
        hyp,
        "-r",
        hyp,
        "-c",
        cfg,
        "-f",
        "json",
        "--paired-bs",
        "--bootstrap-resamples",
        "50",
    )
    baseline, second = json.loads(out)["systems"]
    low, high = baseline["bleu_ci"]
    assert code == 0 and low <= baseline["bleu"] == 100.0 <= high and baseline["ktr_p"] is None
    assert second["ktr_p"] == 1.0 and second["bleu_p"] == 1.0  # the same output: no difference


def test_score_a_table_by_its_columns(capsys, case, tmp_path):
    # the same lines as files and as a TSV table's columns: the same report, systems named by column
    src, hyp, cfg = case
    table = write(tmp_path / "t.tsv", "ko\tout\tref\n" + "".join(f"{s}\t{o}\t{o}\n" for s, o in zip(SOURCE, OUTPUT)))
    code, files, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-r", hyp, "-c", cfg, "-f", "json")
    assert code == 0
    columns = ["--source-column", "ko", "--system-column", "out", "--reference-column", "ref"]
    code, out, _ = ktr(capsys, "score", "-s", table, *columns, "-c", cfg, "-f", "json")
    assert code == 0 and out == files.replace(str(src), str(table))
    code, out, _ = ktr(capsys, "score", "-s", table, "--source-column", "ko", "--system-column", "out", "ko", "-c", cfg)
    assert code == 0 and [row.split()[0] for row in out.splitlines()[2:4]] == ["out", "ko"]
    for args, status, message in [
        (
            ["--source-column", "ko", "--system-column", "out"],
            2,  # a required argument missing: a usage error
            "a table needs -s TABLE, --source-column and --system-column",
        ),
        (["-s", table, "--system-column", "out"], 2, "a table needs -s TABLE, --source-column and --system-column"),
        (["-s", table, "--source-column", "ko"], 2, "a table needs -s TABLE, --source-column and --system-column"),
        (
            ["-s", table, "-r", hyp, "--source-column", "ko", "--system-column", "out"],
            1,
            "with a table, systems and references are its columns (--system-column, --reference-column), not files",
        ),
        (
            ["-s", table, "--source-column", "ko", "--system-column", "out", "out"],
            1,
            "--system-column: each system once",
        ),
        (
            ["-s", table, "--source-column", "ko", "--system-column", "out", "--paired-bs"],
            1,
            "--paired-bs needs at least two systems (the first is the baseline)",
        ),
    ]:
        code, out, err = ktr(capsys, "score", *args)
        assert (code, out) == (status, ""), args
        error_is(err, message)


# ktr keywords ---------------------------------------------------------------------------------


def test_keywords_exit_codes(capsys, case, failing, tmp_path):
    src, _, _ = case
    code, out, err = ktr(capsys, "keywords", "-s", src)
    assert (code, err) == (0, "")
    assert out == "학생/NNG 책/NNG 읽다/VV\n물/NNG 마시다/VV\n철수/NNP 오다/VV\n\n"
    code, out, err = ktr(capsys, "keywords", "-s", tmp_path / "nope.ko")
    assert (code, out) == (1, "")
    one_line_error(err, "nope.ko: no such file")
    code, _, err = ktr(capsys, "keywords")
    assert code == 2 and "the following arguments are required: -s/--src" in err
    long_src, _, slow = failing
    code, out, err = ktr(capsys, "keywords", "-s", long_src, "-c", slow)
    assert code == 3 and out == "방/NNG 열쇠/NNG\n\n방/NNG 열쇠/NNG\n"  # one line per input line
    assert f"{long_src}:2: not scored" in err


# ktr run --------------------------------------------------------------------------------------


def experiment(tmp_path, src, hyp, pipeline, name="exp"):
    return write(
        tmp_path / f"{name}.yaml",
        f"data: {{source: {src}, systems: {{mt: {hyp}}}}}\npipeline: {pipeline}\ncompare: {{resamples: 0}}\n",
    )


@requires_dask  # its --engine dask case
def test_run_exit_codes_and_output_folder(capsys, case, failing, tmp_path, monkeypatch):
    src, hyp, _ = case
    lexicon = tmp_path / "six.tsv"
    config = experiment(tmp_path, src, hyp, f"{{lexicons: [{lexicon}], matching: [exact, inflection]}}")
    monkeypatch.chdir(tmp_path)
    code, out, err = ktr(capsys, "run", config, "-q")
    assert err == ""  # -q: no progress
    folder = tmp_path / "runs" / "exp"  # no output.dir: runs/NAME in the current folder
    assert code == 0 and "\nwritten to runs/exp/: results.json, segments.tsv, report.md, report.html (" in out
    assert sorted(p.name for p in folder.iterdir()) == ["report.html", "report.md", "results.json", "segments.tsv"]
    code, out, err = ktr(capsys, "run", config, "-q")
    assert (code, out) == (1, "")
    one_line_error(err, "runs/exp: output folder exists and is not empty; use --overwrite")
    code, _, _ = ktr(capsys, "run", config, "-q", "--overwrite")
    assert code == 0
    code, _, err = ktr(capsys, "run")
    assert code == 2 and "the following arguments are required: config" in err
    code, _, err = ktr(capsys, "run", config, "-q", "--overwrite", "--jobs", "-2")
    assert code == 1
    one_line_error(err, "jobs must be a whole number, 0 (one per core) or more, got -2")
    code, _, err = ktr(capsys, "run", config, "-q", "--engine", "dask", "--jobs", "2")
    assert code == 1
    error_is(err, "--jobs is this machine's cores (--engine local); a Dask cluster's are its --workers")
    code, _, err = ktr(capsys, "run", config, "-q", "--engine", "dask", "--jobs", "1")  # one core: allowed,
    assert code == 1  # and the full output folder is refused before a cluster starts
    one_line_error(err, "runs/exp: output folder exists and is not empty; use --overwrite")
    long_src, long_hyp, _ = failing
    slow = experiment(
        tmp_path, long_src, long_hyp, "{analyzer: kiwi, timeout: 1, max_chars: 1000000, matching: [exact]}", name="slow"
    )
    code, out, err = ktr(capsys, "run", slow, "-q", "-o", tmp_path / "slow-out")
    assert (
        code == 3
        and "NOT SCORED: 1 sentence(s) on which the analyzer failed or the time limit ran out:\n  line 2: kiwi gave no result"
        in out
    )
    assert sorted(p.name for p in (tmp_path / "slow-out").iterdir()) == sorted(p.name for p in folder.iterdir())


# ktr lexicon ----------------------------------------------------------------------------------


def test_lexicon_exit_codes(capsys, case, tmp_path):
    _, _, cfg = case
    code, out, _ = ktr(capsys, "lexicon", "lookup", "물", "-c", cfg)
    assert code == 0 and out == f"물\tnoun\twater\t{tmp_path / 'six.tsv'}:5\n"
    code, out, _ = ktr(capsys, "lexicon", "lookup", "물", "불", "-c", cfg)
    assert code == 1 and out.splitlines()[1] == "불\t(not in the lexicon)"
    code, _, err = ktr(capsys, "lexicon", "coverage", "-c", cfg)
    assert code == 2  # a usage error: a required argument missing
    one_line_error(err, "ktr lexicon coverage needs -s SOURCE")
    code, _, err = ktr(capsys, "lexicon", "list")
    assert code == 2 and "invalid choice: 'list'" in err


def test_lexicon_coverage_top(capsys, tmp_path):
    lexicon = write(tmp_path / "one.tsv", "# ktr-lexicon/1\n물\tnoun\twater\n")
    src = write(tmp_path / "s.ko", "책과 책과 책과 펜과 물.\n책과 펜.\n")  # 책 ×4, 펜 ×2, 물 ×1 (covered)
    code, out, _ = ktr(capsys, "lexicon", "coverage", "-s", src, "-l", lexicon, "-f", "json", "--top", "1")
    doc = json.loads(out)
    assert code == 0 and doc["top_missing"] == [{"lemma": "책", "class": "noun", "count": 4}]
    assert (doc["keyword_tokens"], doc["coverage"]) == (7, pytest.approx(1 / 7))
    code, out, _ = ktr(capsys, "lexicon", "coverage", "-s", src, "-l", lexicon, "--top", "2")
    assert code == 0 and out.splitlines()[-1] == "most frequent missing lemmas: 책/noun×4, 펜/noun×2"


# ktr meta-eval --------------------------------------------------------------------------------


def test_meta_eval_exit_codes(capsys, tmp_path):
    src = write(tmp_path / "s.ko", "방 열쇠가 여기 있습니다.\n물을 마셨다.\n")
    ref = write(tmp_path / "r.en", "Here is the room key.\nI drank water.\n")
    code, out, _ = ktr(capsys, "meta-eval", "-s", src, "-r", ref)
    assert code == 0 and out.startswith("# ")
    one = write(tmp_path / "one.ko", "방 열쇠\n")
    code, out, err = ktr(capsys, "meta-eval", "-s", one, "-r", write(tmp_path / "one.en", "room key\n"))
    assert (code, out) == (1, "")
    one_line_error(err, "one line; meta-eval needs at least 2")
    code, _, err = ktr(capsys, "meta-eval", "-s", src)
    assert code == 2 and "the following arguments are required: -r/--ref" in err


# what every command shares ------------------------------------------------------------------


def test_the_first_20_input_warnings_are_printed_and_the_rest_counted(capsys, tmp_path):
    src = write(tmp_path / "s.ko", "방\x01 열쇠\n" * 22)
    hyp = write(tmp_path / "h.en", "room key\n" * 22)
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-f", "json")
    lines = err.splitlines()
    assert code == 0 and len(lines) == 21
    assert lines[0] == f"ktr: warning: {src}:1: cleaned 1 control or surrogate character(s) before analysis (U+0001)"
    assert lines[19].startswith(f"ktr: warning: {src}:20: cleaned")
    assert lines[20] == 'ktr: warning: 2 more warnings not shown (-f json lists them under "warnings")'
    # exactly 20: all printed, no count
    src = write(tmp_path / "s20.ko", "방\x01 열쇠\n" * 20)
    code, _, err = ktr(capsys, "score", "-s", src, "-t", write(tmp_path / "h20.en", "room key\n" * 20))
    assert code == 0 and len(err.splitlines()) == 20 and "not shown" not in err
    assert len(json.loads(out)["warnings"]) == 22


def test_system_names_drop_en_and_txt(capsys, case, tmp_path):
    src, hyp, cfg = case
    names = [write(tmp_path / name, hyp.read_text(encoding="utf-8")) for name in ("a.txt", "b.en.txt", ".en", "c.ko")]
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", *names, "-c", cfg, "-f", "json")
    assert code == 0 and [s["name"] for s in json.loads(out)["systems"]] == ["a", "b.en", ".en", "c.ko"]


def test_sample_takes_another_reference(capsys, tmp_path):
    from ktr.sample import paths

    code, out, _ = ktr(capsys, "score", "--sample", "-f", "json")
    doc = json.loads(out)
    assert code == 0 and doc["sacrebleu"] is not None  # the sample's own reference
    assert [s["bleu"] for s in doc["systems"]] == [pytest.approx(b, abs=0.005) for b in (32.74, 10.41, 2.33)]  # README

    code, out, _ = ktr(capsys, "score", "--sample", "-f", "json", "-r", paths()["literal"])
    systems = json.loads(out)["systems"]
    assert code == 0 and [s["name"] for s in systems] == ["travel.fluent", "travel.literal", "travel.wordsalad"]
    assert systems[1]["bleu"] == 100.0  # the literal output is its own reference
    code, _, err = ktr(capsys, "score", "--sample", "--confidence", "-f", "tsv")
    assert code == 1
    error_is(err, "--confidence, --paired-bs and --paired-ar report corpus scores: use -f text or -f json")


def stdin_of(monkeypatch, data: bytes = b"", tty: bool = False):
    """Standard input holding ``data``, or a terminal (a pseudo-terminal: nothing is piped in)."""
    import io
    import sys

    if tty:
        master, slave = os.openpty()
        stream = open(slave, encoding="utf-8")  # noqa: SIM115 (closed with the test)
        monkeypatch.setattr(sys, "stdin", stream)
        return stream, master
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    return None, None


def test_hypotheses_from_standard_input(capsys, case, monkeypatch):
    src, hyp, cfg = case
    stdin_of(monkeypatch, hyp.read_bytes())
    code, out, _ = ktr(capsys, "score", "-s", src, "-c", cfg, "-f", "json")  # no -t: standard input
    system = json.loads(out)["systems"][0]
    assert code == 0 and (system["name"], system["ktr"]) == ("stdin", pytest.approx(MACRO))
    stream, master = stdin_of(monkeypatch, tty=True)
    try:
        code, out, err = ktr(capsys, "score", "-s", src, "-c", cfg)
    finally:
        stream.close(), os.close(master)
    assert (code, out) == (2, "")  # a usage error: no hypotheses given
    error_is(
        err, "ktr score needs -t HYPOTHESIS, or the hypotheses on standard input (cat out.en | ktr score -s src.ko)"
    )
    code, _, err = ktr(capsys, "score", "-s", "-", "-t", "-", "-c", cfg)
    assert code == 1
    error_is(err, "standard input (-) can stand for one file only")


@requires_mecab
def test_analyzer_option_overrides_the_config(capsys, case):
    src, hyp, cfg = case
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-a", "mecab", "-f", "json")
    full = json.loads(out)["signature"]["full"]
    assert code == 0 and (full["analyzer"], full["lexicons"]) == ("mecab", [str(src.parent / "six.tsv")])
    code, out, _ = ktr(capsys, "keywords", "-s", src, "-a", "mecab")
    assert code == 0 and out.splitlines()[0] == "학생/NNG 책/NNG 읽다/VV"


def test_run_shows_progress_unless_quiet(capsys, case, tmp_path):
    src, hyp, _ = case
    config = experiment(tmp_path, src, hyp, "{matching: [exact]}", name="loud")
    code, out, err = ktr(capsys, "run", config, "-o", tmp_path / "loud-out", "--jobs", "2")
    assert code == 0 and "analysing (kiwi): done in" in err
    assert "1 system, 1 variant." in out


def test_other_warnings_go_on_to_python_s_own_display(capsys):
    import warnings

    from ktr.cli.main import _InputWarnings
    from ktr.errors import InputWarning

    with warnings.catch_warnings(record=True) as shown:  # Python's display, recorded
        printer = _InputWarnings()
        printer.show("not about the input", UserWarning, "somewhere.py", 7, None, "the line")
        printer.show("src.ko:3: cleaned", InputWarning, "textio.py", 1)
    (other,) = shown
    assert (str(other.message), other.category, other.filename, other.lineno, other.line) == (
        "not about the input",
        UserWarning,
        "somewhere.py",
        7,
        "the line",
    )
    assert capsys.readouterr().err == "ktr: warning: src.ko:3: cleaned\n" and printer.count == 1


def test_interrupted_and_closed_pipe(capsys):
    import argparse

    from ktr.cli.main import _run

    def raising(exc):
        def func(args):
            raise exc

        return argparse.Namespace(func=func)

    assert _run(raising(KeyboardInterrupt())) == 130
    assert capsys.readouterr().err == "ktr: interrupted\n"
    assert _run(raising(BrokenPipeError())) == 0 and capsys.readouterr() == ("", "")


# the slowest last: the analyzer's child process, its time limit and restart -----------------


@pytest.mark.slow  # waits on a time limit (LONG)
def test_score_exits_3_when_a_line_is_not_scored(capsys, failing):
    src, hyp, cfg = failing
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg)
    assert code == 3
    assert err == f"ktr: warning: {src}:2: not scored, the analysis failed: kiwi gave no result within timeout=1s\n"
    assert "NOT SCORED: 1 sentence(s) on which the analyzer failed or the time limit ran out (see the warnings)" in out
    row = out.splitlines()[2].split()
    assert row[:2] == ["long", "1.0000"]  # the other two lines, both transferred


@pytest.mark.slow  # waits on a time limit (LONG)
def test_lexicon_coverage_exits_3_when_a_line_is_not_analysed(capsys, failing):
    src, _, cfg = failing
    code, out, err = ktr(capsys, "lexicon", "coverage", "-s", src, "-c", cfg, "-f", "json")
    assert code == 3
    assert err == f"ktr: warning: {src}:2: not scored, the analysis failed: kiwi gave no result within timeout=1s\n"
    doc = json.loads(out)  # the report of the other two lines: 방 and 열쇠 twice, all in the core lexicon
    assert (doc["keyword_tokens"], doc["coverage"], doc["top_missing"]) == (4, 1.0, [])


@pytest.mark.slow  # waits on a time limit (LONG)
def test_meta_eval_exits_3_when_a_line_is_not_scored(capsys, failing, tmp_path):
    src, ref, cfg = failing
    code, out, err = ktr(capsys, "meta-eval", "-s", src, "-r", ref, "-c", cfg)
    assert code == 3 and out.startswith("# ")  # the report of the other lines, then the exit code
    # the failed line is left out as not scored, not as a line without keywords
    assert "1 of 3 sentences were not scored (the analyzer failed on them)" in out and "no keyword" not in out
    assert f"{src}:2: not scored, the analysis failed: kiwi gave no result within timeout=1s\n" in err
    gold = write(
        tmp_path / "gold.tsv",
        "# ktr judged keywords, version 1\nline\tstart\tend\tlemma\tlabel\n1\t0\t1\t방\tT\n2\t0\t2\t학생\tT\n",
    )
    code, _, err = ktr(capsys, "meta-eval", "-s", src, "-r", ref, "-c", cfg, "--gold", gold, "-o", tmp_path / "agreed")
    assert code == 3 and "not scored, the analysis failed: kiwi gave no result within timeout=1s\n" in err
    assert sorted(p.name for p in (tmp_path / "agreed").iterdir()) == ["agreement.json", "agreement.md"]


@pytest.mark.slow  # waits on a time limit (LONG)
def test_meta_eval_gold_names_the_failed_source_line(capsys, tmp_path):
    """Judged lines 1 and 3 of the source, the analyzer failing on line 3: the warning names the
    source file and its line 3 (as ``ktr score`` does), not the gold file nor the line's place
    (2nd) among the judged lines."""
    src = write(tmp_path / "src.ko", f"방 열쇠\n방 열쇠\n{LONG}\n")
    ref = write(tmp_path / "ref.en", "room key\n" * 3)
    cfg = write(tmp_path / "slow.yaml", "analyzer: kiwi\ntimeout: 1\nmax_chars: 1000000\nmatching: [exact]\n")
    gold = write(
        tmp_path / "gold.tsv",
        "# ktr judged keywords, version 1\nline\tstart\tend\tlemma\tlabel\n1\t0\t1\t방\tT\n3\t0\t2\t학생\tT\n",
    )
    code, _, err = ktr(capsys, "meta-eval", "-s", src, "-r", ref, "-c", cfg, "--gold", gold, "-o", tmp_path / "out")
    assert code == 3
    assert err.splitlines()[0] == (
        f"ktr: warning: {src}:3: not scored, the analysis failed: kiwi gave no result within timeout=1s"
    )
    assert str(gold) not in err
    doc = json.loads((tmp_path / "out" / "agreement.json").read_text(encoding="utf-8"))
    # line 1: 방 matched "room", credited; line 3: no keyword over 학생, a judged T missed
    assert (doc["keywords"]["true_positive"], doc["keywords"]["false_negative"]) == (1, 1)
    assert (doc["sentences"]["sentences"], doc["sentences"]["ktr"]) == (1, 1.0)  # line 3 has no score


@requires_dask
def test_the_engine_options_make_the_engine_and_its_json_field(capsys):
    # what --engine, --scheduler, --workers, --shards, --resume and -q make, without a cluster
    # (tests/execution/test_dask_engine.py runs one through the command)
    from ktr.cli.common import engine_field, engine_from
    from ktr.cli.main import build_parser
    from ktr.execution.dask_engine import DEFAULT_WORKERS

    def engine(*options):
        return engine_from(build_parser().parse_args(["score", "-s", "a.ko", "-t", "b.en", *options]))

    dask = engine("--engine", "dask", "--workers", "3", "--shards", "d", "--resume")
    assert (dask.name, dask.scheduler, dask.workers, dask.shards, dask.resume, dask.progress) == (
        "dask",
        None,
        3,
        "d",
        True,
        True,
    )
    dask.announce("dashboard at http://h:8787/status")
    assert capsys.readouterr().err == "ktr: dashboard at http://h:8787/status\n"
    assert engine_field(dask) == {"name": "dask", "scheduler": None, "workers": 3}
    # a LocalCluster has the default number of workers; a scheduler's own are not known
    assert engine_field(engine("--engine", "dask")) == {"name": "dask", "scheduler": None, "workers": DEFAULT_WORKERS}
    remote = engine("--engine", "dask", "--scheduler", "tcp://h:8786")
    assert engine_field(remote) == {"name": "dask", "scheduler": "tcp://h:8786", "workers": None}
    # the local engine: no bar of its own, no news, nothing to resume
    local = engine()
    assert (local.name, local.scheduler, local.workers, local.shards, local.resume) == (
        "local",
        None,
        None,
        None,
        False,
    )
    assert (local.progress, local.announce) == (False, None)
    # ktr run -q: no progress bar on the cluster either
    quiet = engine_from(build_parser().parse_args(["run", "configs/demo.yaml", "--engine", "dask", "-q"]))
    assert (quiet.name, quiet.progress) == ("dask", False)
