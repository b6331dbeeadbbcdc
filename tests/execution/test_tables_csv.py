"""CSV tables as columnar input (issue 40, item 10): ``ktr score -s table.csv --source-column
... --system-column ...`` scores what the same columns of a TSV table score; quoted fields may
hold commas and doubled quotes; a row with other fields than the header is an error naming its
line."""

import json

import pytest

from tests.cli.test_commands import ktr
from tests.conftest import write
from tests.reports.test_formats import LEXICON, OUTPUT, SOURCE

OUTPUTS = ['He said, "The student reads a letter."', *OUTPUT[1:]]


@pytest.fixture
def cfg(tmp_path):
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    return write(tmp_path / "c.yaml", f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n")


def quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def scored(capsys, table, cfg):
    code, out, err = ktr(
        capsys,
        "score",
        "-s",
        table,
        "--source-column",
        "ko",
        "--system-column",
        "mt",
        "-c",
        cfg,
        "-f",
        "json",
        "--sentences",
    )
    assert code == 0, err
    found = json.loads(out)
    return [(s["index"], s["score"], s["keywords_counted"]) for s in found["systems"][0]["segments"]], found["systems"][
        0
    ]["ktr"]


def test_a_csv_table_scores_as_the_same_tsv_table(capsys, tmp_path, cfg):
    tsv = write(tmp_path / "t.tsv", "ko\tmt\n" + "".join(f"{s}\t{o}\n" for s, o in zip(SOURCE, OUTPUTS)))
    csv = write(tmp_path / "t.csv", "ko,mt\n" + "".join(f"{quoted(s)},{quoted(o)}\n" for s, o in zip(SOURCE, OUTPUTS)))
    assert scored(capsys, csv, cfg) == scored(capsys, tsv, cfg)


def test_a_row_with_other_fields_is_an_error_naming_its_line(capsys, tmp_path, cfg):
    csv = write(tmp_path / "bad.csv", 'ko,mt\n학생이 책을 읽었다.,"A, B"\n물을 마셨다.,He drank,water.\n')
    code, out, err = ktr(capsys, "score", "-s", csv, "--source-column", "ko", "--system-column", "mt", "-c", cfg)
    assert (code, out, err) == (1, "", f"ktr: error: {csv}:3: 3 fields, the header has 2\n")


def test_a_missing_column_names_the_columns_there_are(capsys, tmp_path, cfg):
    csv = write(tmp_path / "t.csv", "source,mt\n학생이 책을 읽었다.,The student reads.\n")
    code, _, err = ktr(capsys, "score", "-s", csv, "--source-column", "ko", "--system-column", "mt", "-c", cfg)
    assert (code, err) == (1, f"ktr: error: {csv}: no column 'ko'; its columns: source, mt\n")
