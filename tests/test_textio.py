import pytest

from ktr.errors import InputError
from ktr.textio import read_lines, split_lines


@pytest.mark.parametrize("data, expected", [
    (b"a\nb\n", ["a", "b"]),
    (b"a\nb", ["a", "b"]),                       # no final newline
    (b"a\r\nb\r\n", ["a", "b"]),                 # CRLF
    (b"\xef\xbb\xbfa\nb\n", ["a", "b"]),         # BOM
    (b"a\n\nb\n", ["a", "", "b"]),               # empty line kept: one result per line
    ("a\u2028b\x0bc\x0cd\x1ce\x85f\n".encode(), ["a\u2028b\x0bc\x0cd\x1ce\x85f"]),  # only \n splits
    (b"\n", [""]),
])
def test_split_lines(data, expected):
    assert split_lines(data, "x") == expected


def test_invalid_utf8_names_file_line_and_byte():
    with pytest.raises(InputError, match=r"^f\.txt:2: invalid UTF-8 at byte 3 "):
        split_lines(b"ok\nabc\xffdef\n", "f.txt")


def test_missing_empty_and_directory(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_lines(tmp_path / "nope.txt")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match="empty.txt: file is empty"):
        read_lines(empty)
    assert read_lines(empty, allow_empty=True) == []
    with pytest.raises(InputError, match="is a directory"):
        read_lines(tmp_path)
