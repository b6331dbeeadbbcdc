"""``ktr score --sentences`` in the text format (issue 40, item 10): a table for people, a row per
sentence and system aligned in terminal columns, not the raw TSV block it appended (``-f tsv``
keeps every column for programs). On the hand-worked case of tests/test_outputs.py."""

import pytest

from ktr.controls import columns
from tests.cli.test_commands import ktr
from tests.conftest import write
from tests.reports.test_formats import LEXICON, OUTPUT, SOURCE


@pytest.fixture
def files(tmp_path):
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "out.en", "\n".join(OUTPUT) + "\n")
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n")
    return src, hyp, cfg


def test_sentences_are_a_table_for_people(capsys, files):
    src, hyp, cfg = files
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", f"출력={hyp}", "-c", cfg, "--sentences")
    table = out.split("\n\n")[-1].splitlines()
    assert code == 0 and "\t" not in out
    assert table == [
        "line  system     KTR       F    prec  keywords  transferred  missed    added",
        "----  ------  ------  ------  ------  --------  -----------  --------  ------",
        "   1  출력    0.6667  0.6667  0.6667         3            2  책/NNG    letter",
        "   2  출력    1.0000  1.0000  1.0000         2            2",
        "   3  출력    0.5000  0.8333  1.0000         2            1  철수/NNP",
        "   4  출력         -       -       -         0            0",
    ]
    # Hangul counted as two columns: the missed keywords start under their header
    assert columns(table[2][: table[2].index("책")]) == columns(table[0][: table[0].index("missed")])


def test_tsv_still_has_every_column(capsys, files):
    src, hyp, cfg = files
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-f", "tsv")
    assert code == 0 and out.splitlines()[0].split("\t")[:3] == ["index", "system", "score"]
