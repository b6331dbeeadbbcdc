"""``ktr score``'s options together: each pair works, or is a usage error on one line (exit 2);
none is dropped without a word (issue 40, items 1 and 9). Run in this process through
``ktr.cli.main``, on the hand-worked case of tests/reports/test_formats.py."""

import json

import pytest

from tests.cli.test_commands import ktr
from tests.conftest import write
from tests.reports.test_formats import LEXICON, OUTPUT, SOURCE

REFERENCE = ["The student read a book.", "He drank water.", "Cheolsu came.", "Yes."]


@pytest.fixture
def files(tmp_path):
    """(source, output, reference, config): the case's files, a config for its lexicon."""
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "out.en", "\n".join(OUTPUT) + "\n")
    ref = write(tmp_path / "ref.en", "\n".join(REFERENCE) + "\n")
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n")
    return src, hyp, ref, cfg


def usage_error(code, err, *fragments):
    assert code == 2 and err.startswith("ktr: error: ") and err.count("\n") == 1, (code, err)
    for f in fragments:
        assert f in err, err


def test_explain_prints_the_corpus_table_with_bleu_and_chrf_after_the_sentences(capsys, files):
    src, hyp, ref, cfg = files
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-r", ref, "-c", cfg, "--explain")
    assert code == 0 and err == ""
    assert out.startswith("── out · sentence 1 · KTR 0.67 (2 of 3 keywords)")
    explain, _, table = out.partition("\nsystem ")
    assert "── out · sentence 3 · KTR 0.50" in explain and "signature:" not in explain
    header = ("system " + table).splitlines()[0].split()
    assert header[:2] == ["system", "KTR"] and header[-2:] == ["BLEU", "chrF"]
    assert out.count("\nsignature: ") == 1 and "\nsacrebleu bleu: nrefs:1" in out


def test_explain_with_confidence_prints_the_intervals(capsys, files):
    src, hyp, _, cfg = files
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "--explain", "--confidence")
    assert code == 0 and "── out · sentence 2 · KTR 1.00" in out
    assert "95% confidence intervals from 1000 bootstrap resamples (seed 12345)" in out


def test_explain_with_json_puts_each_keywords_detail_in_the_json(capsys, files):
    src, hyp, ref, cfg = files
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-r", ref, "-c", cfg, "--explain", "-f", "json")
    data = json.loads(out)  # the JSON alone: nothing else on stdout
    system = data["systems"][0]
    first = system["segments"][0]["keywords"]
    assert code == 0 and [(k["lemma"], k["how"]) for k in first] == [
        ("학생", "exact"),
        ("책", None),
        ("읽다", "inflection"),
    ]
    assert system["bleu"] is not None and system["chrf"] is not None


def test_explain_with_tsv_is_a_usage_error(capsys, files):
    src, hyp, _, cfg = files
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "--explain", "-f", "tsv")
    usage_error(code, err, "--explain", "-f tsv")
    assert out == ""


def test_sample_with_a_source_or_an_output_is_a_usage_error(capsys, files):
    src, hyp, _, _ = files
    usage_error(*ktr(capsys, "score", "--sample", "-t", hyp)[::2], "--sample", "-t")
    usage_error(*ktr(capsys, "score", "--sample", "-s", src)[::2], "--sample", "-s")


@pytest.mark.parametrize(
    "options, named",
    [
        (["--seed", "7"], "--seed"),
        (["--bootstrap-resamples", "2000"], "--bootstrap-resamples"),
        (["--bootstrap-resamples", "2000", "--seed", "7"], "--bootstrap-resamples and --seed"),
    ],
)
def test_resampling_options_without_a_resampling_are_a_usage_error(capsys, files, options, named):
    src, hyp, _, cfg = files
    code, _, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, *options)
    usage_error(code, err, named, "--confidence or --paired-bs")


def test_resampling_options_with_confidence_are_used(capsys, files):
    src, hyp, _, cfg = files
    code, out, _ = ktr(
        capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "--confidence", "--bootstrap-resamples", "50", "--seed", "7"
    )
    assert code == 0 and "95% confidence intervals from 50 bootstrap resamples (seed 7)" in out


def test_source_and_output_swapped_warn_then_fail(capsys, files):
    src, hyp, _, cfg = files
    code, out, err = ktr(capsys, "score", "-s", hyp, "-t", src, "-c", cfg)
    lines = err.splitlines()
    assert code == 1 and out == "" and len(lines) == 3, err
    assert lines[0].startswith(f"ktr: warning: {hyp}: ") and "is this the Korean source?" in lines[0]
    assert lines[1].startswith(f"ktr: warning: {src}: ") and "is this the English output?" in lines[1]
    assert lines[2] == (
        f"ktr: error: the source and an output look swapped ({hyp} has no Hangul, {src} is mostly Hangul): "
        "-s takes the Korean source, -t the English output"
    )


def test_an_english_source_alone_still_only_warns(capsys, files):
    _, hyp, _, cfg = files
    code, out, err = ktr(capsys, "score", "-s", hyp, "-t", hyp, "-c", cfg)
    assert code == 0 and out.startswith("system") and err.count("ktr: warning: ") == 1


def test_paired_ar_prints_p_values_and_its_signature(capsys, files):
    src, hyp, ref, cfg = files
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, ref, "-c", cfg, "--paired-ar", "--full-signature")
    assert code == 0 and err == ""
    note = "p: paired approximate randomization test (10000 trials, seed 12345) against out, * where p < 0.05"
    assert note in out.splitlines()
    assert "95% CI" not in out and "bootstrap" not in out  # sacreBLEU's --paired-ar: no intervals unless asked
    assert "|ar:10000|seed:12345\n" in out and "|bs:" not in out
    header = out.split(note + "\n")[1].splitlines()[0].split()
    assert header == ["system", "KTR", "p", "prec", "p", "F", "p"]


def test_paired_ar_json_is_seeded_and_finds_no_difference_in_a_system_against_itself(capsys, files):
    src, hyp, ref, cfg = files
    options = ["-c", cfg, "-f", "json", "--paired-ar", "--paired-ar-resamples", "300", "--seed", "4"]
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, ref, *options)
    doc = json.loads(out)
    base, other = doc["systems"]
    assert code == 0 and doc["signature"]["short"].endswith("|ar:300|seed:4")
    assert base["ktr_p"] is None and other["ktr_ci"] is None and 0 < other["ktr_p"] <= 1
    assert json.loads(ktr(capsys, "score", "-s", src, "-t", hyp, ref, *options)[1]) == doc  # the same seed
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, hyp, *options)
    assert [json.loads(out)["systems"][1][f"{m}_p"] for m in ("ktr", "precision", "f")] == [1.0, 1.0, 1.0]


def test_paired_ar_with_confidence_adds_the_bootstraps_intervals(capsys, files):
    src, hyp, ref, cfg = files
    options = ["--paired-ar", "--confidence", "--full-signature"]
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, ref, "-c", cfg, *options)
    assert code == 0 and "|bs:1000|ar:10000|seed:12345\n" in out
    assert (
        "95% confidence intervals from 1000 bootstrap resamples (seed 12345); p: paired approximate "
        "randomization test (10000 trials, seed 12345) against out, * where p < 0.05"
    ) in out
    assert "95% CI" in out


def test_paired_ar_on_the_sample_gives_sacrebleus_p_values(capsys):
    # sacrebleu ktr/sample/travel.ref.en -i travel.{fluent,literal,wordsalad}.en -m bleu chrf --paired-ar:
    # BLEU p = 0.0030 and 0.0002, chrF2 p = 0.0468 and 0.0001 (10,000 trials, seed 12345)
    code, out, _ = ktr(capsys, "score", "--sample", "--paired-ar", "-f", "json")
    _, literal, wordsalad = json.loads(out)["systems"]
    assert code == 0 and [round(literal["bleu_p"], 4), round(wordsalad["bleu_p"], 4)] == [0.0030, 0.0002]
    assert [round(literal["chrf_p"], 4), round(wordsalad["chrf_p"], 4)] == [0.0468, 0.0001]
    assert literal["ktr_p"] < 0.05  # KTR 1.0000 against 0.8365 on 20 lines


@pytest.mark.parametrize(
    "options, fragments",
    [
        (["--paired-bs", "--paired-ar"], ["--paired-bs and --paired-ar", "choose one"]),
        (["--paired-ar-resamples", "50"], ["--paired-ar-resamples", "add it"]),
        (["--paired-ar", "--bootstrap-resamples", "50"], ["--bootstrap-resamples", "--paired-ar-resamples"]),
        (["--paired-ar", "-b"], ["-b prints the scores alone: not with --paired-ar"]),
        (["--paired-ar", "-f", "md"], ["-f md is the systems table alone", "--paired-ar"]),
    ],
)
def test_paired_ar_options_that_cannot_go_together_are_a_usage_error(capsys, files, options, fragments):
    src, hyp, ref, cfg = files
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, ref, "-c", cfg, *options)
    usage_error(code, err, *fragments)
    assert out == ""


@pytest.mark.parametrize(
    "options, message",
    [
        ([], "--paired-ar needs at least two systems (the first is the baseline)"),
        (["-f", "tsv"], "--confidence, --paired-bs and --paired-ar report corpus scores: use -f text or -f json"),
        (["--paired-ar-resamples", "0"], "--paired-ar-resamples must be from 1 to 1000000, got 0"),
    ],
)
def test_paired_ar_values_that_cannot_be_used_are_a_user_error(capsys, files, options, message):
    src, hyp, _, cfg = files
    systems = [hyp, hyp] if options else [hyp]
    code, out, err = ktr(capsys, "score", "-s", src, "-t", *systems, "-c", cfg, "--paired-ar", *options)
    assert (code, out, err) == (1, "", f"ktr: error: {message}\n")
