"""Columnar input: the source, each system and each reference as columns of one table.

A table is a Parquet file, JSON Lines (one object per line), or a TSV or CSV file (RFC 4180:
fields in double quotes may hold commas, quotes doubled and line breaks) whose first line names
its columns, told apart by the file's extension; a local file opens as it is, a URL through
fsspec (NFS, ``s3://`` with s3fs); Parquet needs pyarrow (the ``parquet`` extra). :func:`check_table` reads the columns asked for once, before anything is
scored, as :func:`ktr.textio.scan` reads a text file: it counts the rows, refuses a missing
column, a null or non-text value, a row that is not an object or has the wrong number of
fields, naming the file and the row (counted from 1, the TSV's header not counted) and the
column. Each column is then a :class:`Column`, which any engine reads like a checked text file,
a stretch of rows at a time: memory does not grow with the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ktr.errors import InputError
from ktr.execution.ranges import cannot_read

#: file extensions → table formats
FORMATS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".csv": "csv",
}
#: Parquet rows read at a time
BATCH = 4096


def table_format(name: str) -> str:
    for suffix, fmt in FORMATS.items():
        if name.lower().endswith(suffix):
            return fmt
    raise InputError(
        f"{name}: a table must be Parquet (.parquet), JSON Lines (.jsonl), TSV (.tsv) or CSV (.csv); "
        "plain text files take -s/-t/-r without columns"
    )


@dataclass(frozen=True)
class Column:
    """One column of a checked table, read as a checked text file is (its ``name`` the table's)."""

    name: str
    column: str
    lines: int
    has_text: bool
    held = None

    def __iter__(self) -> Iterator[str]:
        for row in _rows(self.name, [self.column]):
            yield row[0]


def check_table(name: str, columns: Sequence[str]) -> list[Column]:
    """Every column of ``columns`` read once and checked; the first is the source."""
    if not columns:
        raise InputError(f"{name}: no column named to read")
    rows, has_text = 0, False
    for values in _rows(name, list(columns)):
        rows += 1
        has_text = has_text or bool(values[0].strip())
    if not rows:
        raise InputError(f"{name}: the table has no rows")
    return [Column(name, c, rows, has_text if i == 0 else True) for i, c in enumerate(columns)]


#: what reading needs that ktr does not install by itself: the module, what it reads, its extra
_NEEDS = {
    "fsspec": ("a table at a URL", "dask"),
    "pyarrow.parquet": ("a Parquet table", "parquet"),
}


def _need(module: str) -> Any:
    """``module`` (fsspec, pyarrow.parquet), or an error saying how to install it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        what, extra = _NEEDS[module]
        raise InputError(f'reading {what} needs {module.split(".")[0]}: pip install "ktr[{extra}]"') from None


def _open(name: str) -> Any:
    """The table's bytes: a local file opened as it is (no package needed), a URL by fsspec."""
    if "://" not in name:
        from ktr.textio import _checked

        _checked(name)
        try:
            return open(name, "rb")
        except OSError as exc:
            raise cannot_read(name, exc) from None
    fsspec = _need("fsspec")
    try:
        return fsspec.open(name, "rb").open()
    except Exception as exc:
        raise cannot_read(name, exc) from None


def _rows(name: str, columns: list[str]) -> Iterator[list[str]]:
    """Per row, the values of ``columns``, checked."""
    reader = {"parquet": _parquet, "jsonl": _jsonl, "tsv": _tsv, "csv": _csv}[table_format(name)]
    for row, values in enumerate(reader(name, columns), 1):
        for column, value in zip(columns, values):
            if not isinstance(value, str):
                what = "empty (null)" if value is None else f"not text ({type(value).__name__})"
                raise InputError(f"{name}: row {row}: column {column!r} is {what}")
        yield values


def _parquet(name: str, columns: list[str]) -> Iterator[list[Any]]:
    pq = _need("pyarrow.parquet")

    with _open(name) as fh:
        try:
            table = pq.ParquetFile(fh)
        except Exception as exc:  # pyarrow's errors have no common base beyond its own
            raise InputError(f"{name}: not a Parquet file ({exc})") from None
        _require(name, columns, table.schema_arrow.names)
        for batch in table.iter_batches(batch_size=BATCH, columns=list(dict.fromkeys(columns))):
            data = batch.to_pydict()
            yield from zip(*(data[c] for c in columns))


def _lines(name: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of a JSONL or TSV file, decoded as :mod:`ktr.textio` decodes lines."""
    from ktr.textio import BOM, _decode

    with _open(name) as fh:
        for number, raw in enumerate(fh, 1):
            if number == 1 and raw.startswith(BOM):
                raw = raw[len(BOM) :]
            yield number, _decode(raw[:-1] if raw.endswith(b"\n") else raw, name, number)


def _jsonl(name: str, columns: list[str]) -> Iterator[list[Any]]:
    for number, line in _lines(name):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{name}:{number}: not JSON ({exc.msg} at character {exc.colno})") from None
        if not isinstance(record, dict):
            raise InputError(f"{name}:{number}: expected a JSON object, got {type(record).__name__}")
        missing = [c for c in columns if c not in record]
        if missing:
            raise InputError(f"{name}:{number}: no column {missing[0]!r}; this row's: {', '.join(record)}")
        yield [record[c] for c in columns]


def _tsv(name: str, columns: list[str]) -> Iterator[list[Any]]:
    lines = _lines(name)
    header = next(lines, (1, ""))[1].split("\t")
    _require(name, columns, header)
    where = [header.index(c) for c in columns]
    for number, line in lines:
        fields = line.split("\t")
        if len(fields) != len(header):
            raise InputError(f"{name}:{number}: {len(fields)} fields, the header has {len(header)}")
        yield [fields[i] for i in where]


def _csv(name: str, columns: list[str]) -> Iterator[list[Any]]:
    """The rows of a CSV file (Python's csv module, its default dialect: RFC 4180's); a row is
    numbered by the line it ends on."""
    import csv

    reader = csv.reader(line + "\n" for _, line in _lines(name))
    try:
        header = next(reader, [])
        _require(name, columns, header)
        where = [header.index(c) for c in columns]
        for fields in reader:
            if len(fields) != len(header):
                raise InputError(f"{name}:{reader.line_num}: {len(fields)} fields, the header has {len(header)}")
            yield [fields[i] for i in where]
    except csv.Error as exc:
        raise InputError(f"{name}:{reader.line_num}: not CSV ({exc})") from None


def _require(name: str, columns: Sequence[str], present: Iterable[Any]) -> None:
    for c in columns:
        if c not in present:
            raise InputError(f"{name}: no column {c!r}; its columns: {', '.join(map(str, present))}")
