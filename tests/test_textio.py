import pytest

from ktr import textio
from ktr.errors import InputError
from ktr.textio import aligned, check_counts, read_lines, scan, split_lines


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"a\nb\n", ["a", "b"]),
        (b"a\nb", ["a", "b"]),  # no final newline
        (b"a\r\nb\r\n", ["a", "b"]),  # CRLF
        (b"\xef\xbb\xbfa\nb\n", ["a", "b"]),  # BOM
        (b"a\n\nb\n", ["a", "", "b"]),  # empty line kept: one result per line
        ("a\u2028b\x0bc\x0cd\x1ce\x85f\n".encode(), ["a\u2028b\x0bc\x0cd\x1ce\x85f"]),  # only \n splits
        (b"\n", [""]),
    ],
)
def test_split_lines(data, expected):
    assert split_lines(data, "x") == expected


def test_invalid_utf8_names_file_line_and_byte():
    with pytest.raises(InputError, match=r"^f\.txt:2: invalid UTF-8 at byte 3 "):
        split_lines(b"ok\nabc\xffdef\n", "f.txt")


@pytest.mark.parametrize("read", [read_lines, scan])
@pytest.mark.parametrize("nothing", [b"", b"\xef\xbb\xbf"])  # no bytes; a byte-order mark only
def test_missing_empty_and_directory(tmp_path, read, nothing):
    with pytest.raises(InputError, match="nope.txt: no such file"):
        read(tmp_path / "nope.txt")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(nothing)
    with pytest.raises(InputError, match="empty.txt: file is empty"):
        read(empty)
    assert list(read(empty, allow_empty=True)) == []
    with pytest.raises(InputError, match="is a directory"):
        read(tmp_path)


@pytest.mark.parametrize("block", [1, 2, 5, 1 << 20])  # multibyte characters cut between blocks
@pytest.mark.parametrize(
    "data",
    [
        b"a\nb\n",
        b"a\nb",
        b"a\r\nb\r\n",
        b"\xef\xbb\xbfa\nb\n",
        b"a\n\nb\n",
        "\ubc29\n\uc5f4\uc1e0 \u2028\n".encode(),
        b"\n",
        b"  \n\t\n",
        b"\xef\xbb\xbf",
        b"",
    ],
)
def test_scan_and_stream_agree_with_reading_whole(tmp_path, monkeypatch, block, data):
    monkeypatch.setattr(textio, "BLOCK", block)
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    whole = split_lines(data, str(path))
    found = scan(path, allow_empty=True)
    assert (found.lines, found.has_text, list(found)) == (len(whole), any(s.strip() for s in whole), whole)


@pytest.mark.parametrize("block", [3, 1 << 20])
@pytest.mark.parametrize("data, line", [(b"ok\nabc\xffdef\n", 2), (b"ok\nfine\n\xec\x97", 3)])  # bad; cut short
def test_scan_names_the_line_of_invalid_utf8(tmp_path, monkeypatch, block, data, line):
    monkeypatch.setattr(textio, "BLOCK", block)
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    with pytest.raises(InputError, match=rf"f\.txt:{line}: invalid UTF-8 at byte"):
        scan(path)


def test_aligned_reads_files_in_step(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("".join(f"a{i}\n" for i in range(5)))
    b.write_text("".join(f"b{i}\r\n" for i in range(5)))
    files = [scan(a), scan(b), scan(a)]
    assert list(aligned(files, 2)) == [
        [["a0", "a1"], ["b0", "b1"], ["a0", "a1"]],
        [["a2", "a3"], ["b2", "b3"], ["a2", "a3"]],
        [["a4"], ["b4"], ["a4"]],
    ]
    check_counts([(f.name, f.lines) for f in files])
    c = tmp_path / "c"
    c.write_text("c\n")
    with pytest.raises(InputError, match=r"line counts differ: .*a has 5 lines, .*c has 1; nothing was scored"):
        check_counts([(f.name, f.lines) for f in (scan(a), scan(c))])
    b.write_text("b\n")  # changed after it was checked
    with pytest.raises(InputError, match="b: ended early, it changed while it was read"):
        list(aligned(files, 2))
