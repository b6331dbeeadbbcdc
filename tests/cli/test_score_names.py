"""System names on ``ktr score``'s command line (issue 40, item 8): ``-t NAME=FILE`` names a
system, and the text tables line up however wide a name's characters are (Hangul takes two
columns of a terminal)."""

import json

import pytest

from ktr.controls import columns, padded
from tests.cli.test_commands import ktr
from tests.conftest import write
from tests.reports.test_formats import LEXICON, OUTPUT, SOURCE


@pytest.fixture
def files(tmp_path):
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    a = write(tmp_path / "a" / "out.en", "\n".join(OUTPUT) + "\n")
    b = write(tmp_path / "b" / "out.en", "\n".join(["The student read a book.", *OUTPUT[1:]]) + "\n")
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n")
    return src, a, b, cfg


def names(capsys, *args):
    code, out, err = ktr(capsys, "score", *args, "-f", "json")
    assert code == 0, err
    return [s["name"] for s in json.loads(out)["systems"]]


def test_name_equals_file_names_a_system(capsys, files):
    src, a, b, cfg = files
    assert names(capsys, "-s", src, "-t", a, b, "-c", cfg) == ["out", "out-2"]  # named after the files
    assert names(capsys, "-s", src, "-t", f"base={a}", f"new={b}", "-c", cfg) == ["base", "new"]
    assert names(capsys, "-s", src, "-t", f"base={a}", b, a, "-c", cfg) == ["base", "out", "out-2"]


def test_a_file_whose_name_holds_an_equals_sign_is_a_file(capsys, files, tmp_path):
    src, a, _, cfg = files
    odd = write(tmp_path / "x=y.en", a.read_text(encoding="utf-8"))
    assert names(capsys, "-s", src, "-t", odd, "-c", cfg) == ["x=y"]


@pytest.mark.parametrize(
    "spec, message",
    [
        ("same={a} same={b}", "-t: the system name 'same' is given twice"),
        ("={a}", "NAME=PATH needs a name"),
        ("name=", "NAME=PATH needs a name"),
    ],
)
def test_a_bad_name_is_a_usage_error(capsys, files, spec, message):
    src, a, b, cfg = files
    code, out, err = ktr(capsys, "score", "-s", src, "-t", *spec.format(a=a, b=b).split(), "-c", cfg)
    assert code == 2 and out == "" and err.startswith("ktr: error: ") and message in err and err.count("\n") == 1


def test_korean_names_line_up_in_the_text_table(capsys, files):
    src, a, b, cfg = files
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", f"기준={a}", f"새 시스템={b}", f"base={a}", "-c", cfg)
    table = out.split("\n\n")[0].splitlines()
    assert code == 0 and [row.split()[0] for row in table[2:]] == ["기준", "새", "base"]
    assert len({columns(row) for row in table}) == 1  # every row as wide, in terminal columns
    header = table[0]
    ktr_ends = columns(header[: header.index("KTR") + 3])
    for row in table[2:]:  # each system's KTR ends under the header's
        name_cols = columns(row.split("  ")[0])
        rest = row[len(row.split("  ")[0]) :]
        assert name_cols + len(rest[: rest.index(".") + 5]) == ktr_ends, row


def test_columns_count_wide_characters_twice():
    assert [columns(t) for t in ("abc", "한국어", "ＡＢ", "e\u0301", "")] == [3, 6, 4, 1, 0]
    assert padded("한", 4) == "한  " and padded("한", 4, right=True) == "  한" and padded("long", 2) == "long"
