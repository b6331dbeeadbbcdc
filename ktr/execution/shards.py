"""Sharded per-line results and their manifest: a run that can be resumed.

With a shard folder, every task's worker writes what it found as the task finishes:
``part-NNNNNNN.tsv``, one row per line and system (line, system, score, keywords counted,
transferred, precision, why the line failed) for people and other tools, and
``part-NNNNNNN.jsonl``, the task's results as the engine sends them (for ``--resume``). Both
are written under a temporary name and renamed, so a shard is whole or absent. The client
appends a line to ``manifest.jsonl`` once it has a task's results: the first line describes the
run (its inputs, settings and task size), each further line a finished task with the size and
SHA-256 of both its files. ``--resume`` reads the manifest, refuses a folder made by another
run, reads the finished tasks back in their turn and hands out only the others: nothing is
scored twice or lost. A task whose files are missing, of another size or another checksum than
the manifest recorded, or not a shard at all, is named in a warning and scored again (its files
rewritten), so a resumed run always ends with every row in the folder.

A shard folder may be shared (an NFS mount, a bucket), so a shard is data that cannot run code
when it is read: JSON Lines, never pickles. Its first line is a header
(``{"first":128,"format":"ktr-shard","task":2,"version":1}``), the second the task's results
as the unit packs them (:meth:`ktr.execution.unit.Unit.pack`: tuples, strings and numbers; JSON
gives the tuples back as lists, and :meth:`~ktr.execution.unit.Unit.unpack` takes either), the
third what the engine computed beside them (BLEU's and chrF's statistics, also plain data). A
shard is read back only if both its files have the size and the SHA-256 the manifest recorded,
and its results only if the unit can unpack them. The pickles an older ktr wrote
(``part-NNNNNNN.pickle``) are never read.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ktr.errors import InputError, InputWarning

MANIFEST = "manifest.jsonl"
#: what the first line of a shard says it is
FORMAT, VERSION = "ktr-shard", 1
#: the results of a task, and its rows for people
RESULTS, ROWS = ".jsonl", ".tsv"


def shard_name(index: int) -> str:
    return f"part-{index:07d}"


def write_shard(folder: str, index: int, first: int, packed: Any, side: Any) -> dict[str, dict[str, Any]]:
    """A task's results (:meth:`ktr.execution.unit.Unit.pack`'s form, and ``side``) written whole
    into ``folder``: each file's name, with its size and SHA-256 for the manifest."""
    base = Path(folder) / shard_name(index)
    header = {"first": first, "format": FORMAT, "task": index, "version": VERSION}
    # a lone surrogate (possible through the Python API) is kept as it is, and read back so
    results = "".join(_line(value) for value in (header, packed, side)).encode("utf-8", "surrogatepass")
    written = {}
    for path, data in ((base.with_suffix(RESULTS), results), (base.with_suffix(ROWS), _rows(first, packed).encode())):
        _atomic(path, data)
        written[path.name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    return written


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


def read_shard(path: Path, index: int) -> tuple[Any, Any]:
    """The results (as JSON gives them back: tuples as lists) and the side of task ``index``
    from its shard at ``path``; ValueError, with the line and the reason, for a file that is not
    that shard."""
    return _parsed(path.read_bytes(), index)


def _parsed(data: bytes, index: int) -> tuple[Any, Any]:
    lines = data.split(b"\n")
    found = []
    for number, line in enumerate(lines[:3], 1):
        try:
            found.append(json.loads(line.decode("utf-8", "surrogatepass")))
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"line {number}: {exc}") from None
    if len(lines) != 4 or lines[3]:
        raise ValueError(f"{len(lines) - 1} line ends where a shard has 3")
    header, packed, side = found
    first = header.get("first") if isinstance(header, dict) else None
    if header != {"first": first, "format": FORMAT, "task": index, "version": VERSION} or type(first) is not int:
        raise ValueError(f"line 1: not the header of task {index}")
    return packed, side


def _atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # nothing half-written left behind
        raise


def _rows(first: int, packed: Any) -> str:
    """Per line and system: line number, system, score, counted, transferred, precision, failure."""
    _, systems, _ = packed
    out = ["line\tsystem\tscore\tkeywords\ttransferred\tprecision\tfailed\n"] if first == 0 else []
    for name, lines in systems:
        for index, counted, transferred, _w, _wt, failed, _e, _s, _n, content, traced, *_ in lines:
            score = "" if failed or not counted else f"{transferred / counted:.4f}"
            precision = "" if failed or not content else f"{traced / content:.4f}"
            out.append(f"{index + 1}\t{name}\t{score}\t{counted}\t{transferred}\t{precision}\t{failed or ''}\n")
    return "".join(out)


def _cannot_write(folder: str, exc: OSError) -> InputError:
    return InputError(f"{folder}: cannot write the shards there ({exc.strerror or exc})")


def _unpacked(
    data: bytes, index: int, unpack: Callable[[Any], Any], check: Callable[[Any, Any], str | None] | None = None
) -> tuple[Any, Any]:
    """A shard's results unpacked, and its side (believed only if ``check`` finds nothing wrong
    with it); ValueError saying why it is no ktr shard."""
    try:
        packed, side = _parsed(data, index)
    except ValueError as exc:
        raise ValueError(f"not a ktr shard ({exc})") from None
    try:
        results = unpack(packed)
    except Exception:  # whatever JSON holds that is no task's results
        raise ValueError("not a ktr shard (line 2: not the results of a task)") from None
    problem = check(results, side) if check is not None else None
    if problem:
        raise ValueError(f"not a ktr shard (line 3: {problem})")
    return results, side


def _recorded(index: int, files: Any) -> tuple[tuple[Any, Any], bytes] | None:
    """A manifest's record of task ``index``'s files: their sizes and their SHA-256 digests, one
    after the other (32 zero bytes for one that is none: it matches no file); None when it
    records no files (an older ktr's, whose results were a pickle)."""
    if not isinstance(files, dict):
        return None
    sizes, digests = [], b""
    for suffix in (RESULTS, ROWS):
        found = files.get(shard_name(index) + suffix)
        found = found if isinstance(found, dict) else {}
        sizes.append(found.get("bytes"))
        try:
            digest = bytes.fromhex(found.get("sha256", ""))
        except (TypeError, ValueError):
            digest = b""
        digests += digest if len(digest) == 32 else bytes(32)
    return (sizes[0], sizes[1]), digests


class Manifest:
    """The manifest of a shard folder: the run it belongs to, and the tasks whose shards an
    earlier run left whole (``done``; each is checked again when it is read back, :meth:`load`)."""

    def __init__(self, folder: str, plan: Any, resume: bool):
        self.folder = str(folder)
        self.path = Path(folder) / MANIFEST
        #: the tasks an earlier run finished whose files are there, each with its files' digests
        #: (SHA-256 of the results, then of the rows: 64 bytes), until it is read back
        self.done: dict[int, bytes] = {}
        #: tasks whose shards are in the folder: the earlier runs' and this one's
        self.kept = 0
        self._cut = False  # the manifest's last line has no end
        if Path(folder).exists() and not Path(folder).is_dir():
            raise InputError(f"{folder}: not a folder: --shards names the folder the shards are written in")
        head = json.dumps({"plan": plan}, ensure_ascii=False, sort_keys=True)
        try:
            if resume:
                self._read(plan)
                for stale in Path(folder).glob(".part-*.tmp"):  # a shard a killed worker was writing
                    stale.unlink(missing_ok=True)
            else:
                Path(folder).mkdir(parents=True, exist_ok=True)
                if self.path.exists() or any(Path(folder).glob("part-*")):
                    raise InputError(
                        f"{folder}: holds the shards of an earlier run; continue it with --resume, or give an empty folder"
                    )
                self.path.write_text(head + "\n", encoding="utf-8")
            self._out = self.path.open("a", encoding="utf-8")
            if self._cut:  # the line the stopped run was writing is ended, not joined to the next
                self._out.write("\n")
        except OSError as exc:
            raise _cannot_write(self.folder, exc) from None

    def _read(self, plan: Any) -> None:
        if not self.path.is_file():
            raise InputError(f"{self.path}: no manifest to resume from")
        # per task, from its last line (a task scored again has several): its files' sizes and
        # SHA-256 digests (None: noted by an older ktr, its results a pickle)
        entries: dict[int, tuple[tuple[Any, Any], bytes] | None] = {}
        with self.path.open(encoding="utf-8") as fh:
            try:
                head = json.loads(fh.readline())
            except ValueError:
                raise InputError(f"{self.path}:1: not a ktr shard manifest") from None
            if not isinstance(head, dict) or json.loads(json.dumps(plan)) != head.get("plan"):
                raise InputError(
                    f"{self.path}: written by another run (other inputs, settings or ktr "
                    "version); resume with the same command, or give an empty folder"
                )
            for line in fh:
                self._cut = not line.endswith("\n")
                try:
                    entry = json.loads(line)
                    index = entry["task"]
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short when the run stopped: that task is scored again
                if isinstance(index, int) and not isinstance(index, bool):
                    entries[index] = _recorded(index, entry.get("files"))
        older = sum(entry is None for entry in entries.values())
        for index, recorded in sorted(entries.items()):
            if recorded is not None and self._whole(index, recorded[0]):
                self.done[index] = recorded[1]
        if older:
            warnings.warn(
                f"{self.path}: {older} tasks were finished by an older ktr, whose shards (part-*.pickle) "
                "are not read: they are scored again",
                InputWarning,
                stacklevel=2,
            )
        self.kept = len(self.done)

    def _whole(self, index: int, sizes: tuple[Any, Any]) -> bool:
        """Task ``index``'s files are there with the sizes the manifest recorded; else a warning
        names the first that is not."""
        for suffix, size in zip((RESULTS, ROWS), sizes):
            path = (Path(self.folder) / shard_name(index)).with_suffix(suffix)
            try:
                found = path.stat().st_size
            except FileNotFoundError:
                return self._again(path, index, "missing")
            except OSError as exc:
                return self._again(path, index, f"cannot be read ({exc.strerror or exc})")
            if found != size:
                return self._again(path, index, f"{found} bytes where the manifest recorded {size}")
        return True

    def _again(self, path: Path, index: int, why: str) -> bool:
        warnings.warn(f"{path}: {why}: task {index} is scored again", InputWarning, stacklevel=4)
        return False

    def finished(self, index: int, lines: int, files: dict[str, dict[str, Any]]) -> None:
        """Task ``index`` is whole in its shard (``files``, as :func:`write_shard` gives them):
        noted, flushed to disk at once."""
        try:
            self._out.write(json.dumps({"task": index, "lines": lines, "files": files}, sort_keys=True) + "\n")
            self._out.flush()
            os.fsync(self._out.fileno())
        except OSError as exc:
            raise _cannot_write(self.folder, exc) from None
        self.kept += 1

    def load(
        self, index: int, unpack: Callable[[Any], Any], check: Callable[[Any, Any], str | None] | None = None
    ) -> tuple[Any, Any] | None:
        """The results of a task an earlier run finished, read from its shard and unpacked with
        ``unpack``, and its side; None (and a warning naming the file) when a file of it is not
        what the manifest recorded, its results cannot be unpacked, or ``check`` finds something
        wrong with its side (given the results)."""
        digests = self.done.pop(index)
        base = Path(self.folder) / shard_name(index)
        found: tuple[Any, Any] | None = None
        for n, suffix in enumerate((RESULTS, ROWS)):
            path = base.with_suffix(suffix)
            try:
                data = path.read_bytes()
                if hashlib.sha256(data).digest() != digests[32 * n : 32 * n + 32]:
                    raise ValueError("its checksum is not the manifest's")
                if suffix == RESULTS:
                    found = _unpacked(data, index, unpack, check)
            except (OSError, ValueError) as exc:
                why = f"cannot be read ({exc.strerror or exc})" if isinstance(exc, OSError) else str(exc)
                self.kept -= 1
                self._again(path, index, why)
                return None
        return found

    def close(self) -> None:
        self._out.close()
