"""Inputs that scale: files checked once and read by line ranges (fsspec paths), and tables
(Parquet, JSON Lines, TSV) read by column, each giving what plain files give."""

from __future__ import annotations

import json

import pytest

from ktr.errors import InputError
from ktr.execution.ranges import GRANULE, TASK_LINES, index_file, ranges, read_range, task_lines
from ktr.textio import read_lines, scan
from tests.cli.test_main import assert_clean_error, ktr
from tests.execution.test_dask_engine import written

pytestmark = pytest.mark.filterwarnings("ignore::ktr.errors.InputWarning")

ODD = [  # what a line can be: a byte-order mark first, CRLF, blank, long, no final newline
    b"\xef\xbb\xbf\xec\x95\x88\xeb\x85\x95\r\n",
    b"\n",
    b"   \n",
    "가나다 ".encode() * 500 + b"\n",
]


def odd_file(tmp_path, lines: int, final_newline: bool) -> str:
    body = b"".join(ODD[i % len(ODD)] if i else ODD[0] for i in range(lines))
    body += "마지막".encode()
    if final_newline:
        body += b"\r\n"
    path = tmp_path / "odd.ko"
    path.write_bytes(body)
    return str(path)


@pytest.mark.parametrize(
    "lines, final_newline",
    [(0, True), (GRANULE - 1, False), (GRANULE, True), (5 * GRANULE + 7, True), (5 * GRANULE + 7, False)],
)
def test_ranges_read_the_lines_textio_reads(monkeypatch, tmp_path, lines, final_newline):
    from ktr.execution import ranges as module

    monkeypatch.setattr(module, "READ", 2)  # a whole file read two granules at a time
    path = odd_file(tmp_path, lines, final_newline)
    expected = read_lines(path)
    for name in (path, f"file://{path}"):
        found = index_file(name)
        assert (found.lines, found.has_text) == (len(expected), scan(path).has_text)
        assert list(found) == expected
        for size in (GRANULE, 2 * GRANULE, 1024):
            got = []
            for item in ranges(found, {"same": found}, [found], size):
                stretch = read_range(item)
                assert stretch.first == len(got) and stretch.systems["same"] == stretch.sources
                got += stretch.sources
            assert got == expected


def test_task_sizes_are_granules_between_one_and_task_lines():
    assert [task_lines(n) for n in (1, 100, 2_400, 20_000, 10_000_000)] == [64, 64, 128, 640, TASK_LINES]
    assert all(task_lines(n) % GRANULE == 0 for n in range(1, 100_000, 997))


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\xec\x95\x88\n\xff\n", "{path}:2: invalid UTF-8 at byte 0 of the line (byte 0xff)"),
        (b"ok\n\xec\x95", "{path}:2: invalid UTF-8 at byte 0 of the line (byte 0xec)"),  # cut short at the end
        (b"", "{path}: file is empty"),
    ],
)
def test_the_check_refuses_what_textio_refuses(tmp_path, content, message):
    path = tmp_path / "bad.ko"
    path.write_bytes(content)
    expected = message.format(path=path)
    with pytest.raises(InputError) as plain:
        scan(path)
    with pytest.raises(InputError) as indexed:
        index_file(str(path))
    assert str(indexed.value) == str(plain.value) == expected


def tables(tmp_path, rows):
    """The same rows as a Parquet, a JSON Lines and a TSV table (columns ko, mt, en)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    ko, mt, en = (list(c) for c in zip(*rows))
    out = {"parquet": tmp_path / "t.parquet", "jsonl": tmp_path / "t.jsonl", "tsv": tmp_path / "t.tsv"}
    pq.write_table(pa.table({"ko": ko, "mt": mt, "en": en, "other": [1] * len(ko)}), out["parquet"], row_group_size=100)
    out["jsonl"].write_text(
        "".join(json.dumps({"ko": a, "mt": b, "en": c}, ensure_ascii=False) + "\n" for a, b, c in rows),
        encoding="utf-8",
    )
    out["tsv"].write_text("en\tko\tmt\n" + "".join(f"{c}\t{a}\t{b}\n" for a, b, c in rows), encoding="utf-8")
    return out


@pytest.mark.slow  # ktr in subprocesses
def test_tables_score_as_plain_files(tmp_path):
    pytest.importorskip("pyarrow")
    src, hyp, ref = written(tmp_path, copies=30)
    rows = list(zip(*(read_lines(p) for p in (src, hyp, ref))))
    plain = ktr("score", "-s", src, "-t", hyp, "-r", ref, "-f", "json", "--sentences")
    assert plain.returncode == 0
    for fmt, table in tables(tmp_path, rows).items():
        run = ktr(
            "score",
            "-s",
            table,
            "--source-column",
            "ko",
            "--system-column",
            "mt",
            "--reference-column",
            "en",
            "-f",
            "json",
            "--sentences",
        )
        assert run.returncode == 0, run.stderr
        # warnings name the table's rows where they named the source's lines
        assert run.stdout == plain.stdout.replace(json.dumps(str(src))[1:-1], json.dumps(str(table))[1:-1]), fmt
        assert run.stderr == plain.stderr.replace(str(src), str(table))


@pytest.mark.slow  # a Dask cluster
def test_a_table_scores_on_a_cluster_as_plain_files(tmp_path):
    pytest.importorskip("distributed")
    src, hyp, ref = written(tmp_path, copies=10)
    rows = list(zip(*(read_lines(p) for p in (src, hyp, ref))))
    table = tables(tmp_path, rows)["parquet"]
    plain = ktr("score", "-s", src, "-t", hyp, "-r", ref, "-f", "json")
    run = ktr(
        "score",
        "-s",
        table,
        "--source-column",
        "ko",
        "--system-column",
        "mt",
        "--reference-column",
        "en",
        "-f",
        "json",
        "--engine",
        "dask",
        "--workers",
        "2",
    )
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc.pop("engine")["name"] == "dask"
    assert json.dumps(doc, ensure_ascii=False, indent=2) + "\n" == plain.stdout.replace(str(src), str(table))


@pytest.mark.slow  # ktr in subprocesses
def test_bad_tables_are_refused_naming_file_and_row(tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq

    t = tables(tmp_path, [("사과를 먹었다.", "I ate an apple.", "I ate an apple.")] * 3)
    columns = ["--source-column", "ko", "--system-column", "mt"]
    assert_clean_error(
        ktr("score", "-s", t["tsv"], "--source-column", "ko", "--system-column", "nope"),
        f"{t['tsv']}: no column 'nope'; its columns: en, ko, mt",
    )
    assert_clean_error(
        ktr("score", "-s", t["parquet"], "--source-column", "other", "--system-column", "mt"),
        f"{t['parquet']}: row 1: column 'other' is not text (int)",
    )
    pq.write_table(pa.table({"ko": ["가", None], "mt": ["a", "b"]}), tmp_path / "null.parquet")
    assert_clean_error(
        ktr("score", "-s", tmp_path / "null.parquet", *columns),
        f"{tmp_path / 'null.parquet'}: row 2: column 'ko' is empty (null)",
    )
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"ko": "가", "mt": "a"}\n["가", "a"]\n', encoding="utf-8")
    assert_clean_error(ktr("score", "-s", bad, *columns), f"{bad}:2: expected a JSON object, got list")
    bad.write_text('{"ko": "가", "mt": "a"}\n{"ko": "가"\n', encoding="utf-8")
    assert_clean_error(
        ktr("score", "-s", bad, *columns), f"{bad}:2: not JSON (Expecting ',' delimiter at character 11)"
    )
    short = tmp_path / "short.tsv"
    short.write_text("ko\tmt\n가\ta\n가\n", encoding="utf-8")
    assert_clean_error(ktr("score", "-s", short, *columns), f"{short}:3: 1 fields, the header has 2")
    assert_clean_error(ktr("score", "-s", tmp_path / "t.xlsx", *columns), "a table must be Parquet")  # .csv is one
    assert_clean_error(ktr("score", "-s", t["tsv"], "-t", t["tsv"], *columns), "not files")


def test_a_local_table_needs_no_fsspec_and_parquet_only_pyarrow(tmp_path):
    # issue 40: tables needed the dask extra (fsspec) even on a local disk; Parquet needs pyarrow
    # alone (the parquet extra). fsspec made unimportable in a fresh process: every local
    # table still scores, and a URL says what to install
    pytest.importorskip("pyarrow")
    import subprocess
    import sys

    src, hyp, ref = written(tmp_path, copies=2)
    rows = list(zip(*(read_lines(p) for p in (src, hyp, ref))))
    code = "import sys; sys.modules['fsspec'] = None\nfrom ktr.cli.main import main\nsys.exit(main(sys.argv[1:]))\n"
    columns = ["--source-column", "ko", "--system-column", "mt", "-q", "-b"]
    for fmt, table in tables(tmp_path, rows).items():
        run = subprocess.run(
            [sys.executable, "-c", code, "score", "-s", str(table), *columns], capture_output=True, text=True
        )
        assert run.returncode == 0 and run.stdout.strip(), (fmt, run.stderr)
    run = subprocess.run(
        [sys.executable, "-c", code, "score", "-s", "s3://bucket/pairs.parquet", *columns],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr == 'ktr: error: reading a table at a URL needs fsspec: pip install "ktr[dask]"\n'
