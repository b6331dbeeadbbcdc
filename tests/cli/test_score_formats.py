"""``ktr score``'s formats for papers and scripts (issue 40, item 10): ``-f md`` and ``-f latex``
(the systems table), ``-b`` (the scores alone), ``-w`` (decimals), and ``-f``'s help; options
that would be dropped by a format are a usage error. On the hand-worked case of
tests/reports/test_formats.py, whose KTR is MACRO."""

import json

import pytest

from tests.cli.test_commands import ktr
from tests.cli.test_help import help_text
from tests.conftest import write
from tests.reports.test_formats import LEXICON, MACRO, OUTPUT, SOURCE


@pytest.fixture
def files(tmp_path):
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "out.en", "\n".join(OUTPUT) + "\n")
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n")
    return src, hyp, cfg


def run(capsys, files, *options):
    src, hyp, cfg = files
    return ktr(capsys, "score", "-s", src, "-c", cfg, *options)


def test_score_only_prints_each_systems_headline_score(capsys, files):
    _, hyp, _ = files
    assert run(capsys, files, "-t", hyp, "-b") == (0, f"{MACRO:.4f}\n", "")
    assert run(capsys, files, "-t", hyp, hyp, "-b", "-w", "2") == (0, f"{MACRO:.2f}\n" * 2, "")
    code, out, _ = run(capsys, files, "-t", hyp, "-f", "json")
    f = json.loads(out)["systems"][0]["f"]
    assert run(capsys, files, "-t", hyp, "-b", "--headline", "f") == (0, f"{f:.4f}\n", "")


def test_width_sets_the_decimals_of_the_scores_not_of_bleu(capsys, files):
    _, hyp, _ = files
    code, out, _ = run(capsys, files, "-t", hyp, "-r", hyp, "-w", "2")
    header, _, row = out.splitlines()[:3]
    cells = dict(zip(header.replace("no-entry", "no_entry").replace("no-kw sents", "no_kw").split(), row.split()))
    assert code == 0 and cells["KTR"] == f"{MACRO:.2f}" and cells["BLEU"] == "100.00"
    assert all(len(cells[c].split(".")[1]) == 2 for c in ("KTR", "F", "micro", "weighted", "prec"))


def test_markdown_table(capsys, files, tmp_path):
    _, hyp, _ = files
    odd = write(tmp_path / "a|b.en", hyp.read_text(encoding="utf-8"))
    code, out, _ = run(capsys, files, "-t", hyp, odd, "-f", "md")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("| system | KTR | F | micro |") and lines[0].endswith("| BLEU | chrF |")
    assert lines[1] == "|---|" + "---:|" * 12
    assert lines[2].startswith(f"| out | {MACRO:.4f} | ") and lines[3].startswith("| a\\|b | ")
    assert lines[4] == "" and lines[5].startswith("signature: `ktr:") and lines[5].endswith("`")


def test_latex_table(capsys, files, tmp_path):
    _, hyp, _ = files
    odd = write(tmp_path / "a_b&c.en", hyp.read_text(encoding="utf-8"))
    code, out, _ = run(capsys, files, "-t", odd, "-f", "latex", "-w", "3")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("% signature: ktr:")
    start = lines.index(r"\begin{tabular}{lrrrrrrrrrrrr}")
    assert lines[start + 1 : start + 4] == [
        r"\toprule",
        r"system & KTR & F & micro & weighted & prec & keywords & transferred & added & no-entry & no-kw sents & BLEU & chrF \\",
        r"\midrule",
    ]
    assert lines[start + 4].startswith(rf"a\_b\&c & {MACRO:.3f} & ") and lines[start + 4].endswith(r" & - & - \\")
    assert lines[-2:] == [r"\bottomrule", r"\end{tabular}"]


@pytest.mark.parametrize(
    "options, message",
    [
        (["-b", "-f", "json"], "-b prints the scores alone: not with -f json"),
        (["-b", "--sentences"], "-b prints the scores alone: not with --sentences"),
        (["-b", "--confidence"], "-b prints the scores alone: not with --confidence"),
        (
            ["-f", "md", "--sentences"],
            "-f md is the systems table alone: --explain, --sentences, --confidence, "
            "--paired-bs and --paired-ar go with -f text or -f json",
        ),
        (
            ["-f", "latex", "--confidence"],
            "-f latex is the systems table alone: --explain, --sentences, --confidence, "
            "--paired-bs and --paired-ar go with -f text or -f json",
        ),
        (["-w", "2", "-f", "tsv"], "-w sets the decimals of the tables and -b: -f tsv writes every digit"),
        (["-w", "11"], "-w: decimals from 0 to 10, got 11"),
    ],
)
def test_options_a_format_would_drop_are_usage_errors(capsys, files, options, message):
    _, hyp, _ = files
    code, out, err = run(capsys, files, "-t", hyp, *options)
    assert code == 2 and out == "" and err == f"ktr: error: {message}\n"


def test_format_has_help():
    text = " ".join(help_text("score").split())
    assert "-f {text,json,tsv,md,latex}, --format {text,json,tsv,md,latex} text: the systems table for people;" in text


def test_the_samples_text_output_fits_100_columns_and_json_keeps_the_full_signature(capsys):
    # issue 40: the table was 125 columns and the signature line 547 characters
    code, out, _ = ktr(capsys, "score", "--sample")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 100
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("signature: "))
    wrapped = [lines[at], *(line for line in lines[at + 1 :] if line.startswith("  "))]
    assert len(wrapped) > 3  # the signature whole, wrapped at its fields
    code, out, _ = ktr(capsys, "score", "--sample", "--full-signature")
    full = next(line for line in out.splitlines() if line.startswith("signature: "))
    code, out, _ = ktr(capsys, "score", "--sample", "-f", "json")
    signature = json.loads(out)["signature"]
    assert "".join(line.removeprefix("  ") for line in wrapped) == f"signature: {signature['short']}"
    assert full == f"signature: {signature['short']}" and len(full) > 400
    assert signature["full"]["matching"][:2] == ["exact", "inflection"]


@pytest.mark.parametrize(
    "options, message",
    [
        (["-f", "json"], "--full-signature is the text table's: -f json has the signature in full"),
        (["-b"], "--full-signature is the text table's: -b prints the scores alone"),
    ],
)
def test_full_signature_outside_the_text_table_is_a_usage_error(capsys, options, message):
    code, out, err = ktr(capsys, "score", "--sample", "--full-signature", *options)
    assert (code, out, err) == (2, "", f"ktr: error: {message}\n")
