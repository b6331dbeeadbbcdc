"""Sharded per-line results and their manifest: a run that can be resumed.

With a shard folder, every task's worker writes what it found as the task finishes:
``part-NNNNNNN.tsv``, one row per line and system (line, system, score, keywords counted,
transferred, precision, why the line failed) for people and other tools, and
``part-NNNNNNN.pickle``, the task's results as the engine sends them (for ``--resume``). Both
are written under a temporary name and renamed, so a shard is whole or absent. The client
appends a line to ``manifest.jsonl`` once it has a task's results: the first line describes the
run (its inputs, settings and task size), each further line a finished task. ``--resume`` reads
the manifest, refuses a folder made by another run, reads the finished tasks back in their turn
and hands out only the others: nothing is scored twice or lost.
"""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path
from typing import Any

from ktr.errors import InputError

MANIFEST = "manifest.jsonl"


def shard_name(index: int) -> str:
    return f"part-{index:07d}"


def write_shard(folder: str, index: int, first: int, packed: Any, side: Any) -> None:
    """A task's results (:meth:`ktr.execution.unit.Unit.pack`'s form) written whole into ``folder``."""
    base = Path(folder) / shard_name(index)
    _atomic(base.with_suffix(".pickle"), pickle.dumps((packed, side), protocol=pickle.HIGHEST_PROTOCOL))
    _atomic(base.with_suffix(".tsv"), _rows(first, packed).encode("utf-8"))


def _atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


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


class Manifest:
    """The manifest of a shard folder: the run it belongs to, and the tasks it has finished."""

    def __init__(self, folder: str, plan: Any, resume: bool):
        self.folder = str(folder)
        self.path = Path(folder) / MANIFEST
        self.done: set[int] = set()
        head = json.dumps({"plan": plan}, ensure_ascii=False, sort_keys=True)
        if resume:
            self._read(plan)
        else:
            Path(folder).mkdir(parents=True, exist_ok=True)
            if self.path.exists() or any(Path(folder).glob("part-*")):
                raise InputError(
                    f"{folder}: holds the shards of an earlier run; continue it with --resume, or give an empty folder"
                )
            self.path.write_text(head + "\n", encoding="utf-8")
        self._out = self.path.open("a", encoding="utf-8")

    def _read(self, plan: Any) -> None:
        if not self.path.is_file():
            raise InputError(f"{self.path}: no manifest to resume from")
        with self.path.open(encoding="utf-8") as fh:
            try:
                head = json.loads(fh.readline())
            except ValueError:
                raise InputError(f"{self.path}:1: not a ktr shard manifest") from None
            if json.loads(json.dumps(plan)) != head.get("plan"):
                raise InputError(
                    f"{self.path}: written by another run (other inputs, settings or ktr "
                    "version); resume with the same command, or give an empty folder"
                )
            for line in fh:
                try:
                    index = json.loads(line)["task"]
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short when the run stopped: that task is scored again
                if (Path(self.folder) / shard_name(index)).with_suffix(".pickle").is_file():
                    self.done.add(index)

    def finished(self, index: int, lines: int) -> None:
        """Task ``index`` is whole in its shard: noted, flushed to disk at once."""
        self._out.write(json.dumps({"task": index, "lines": lines}) + "\n")
        self._out.flush()
        os.fsync(self._out.fileno())

    def load(self, index: int) -> tuple[Any, Any]:
        """The results of a task an earlier run finished, read from its shard."""
        path = (Path(self.folder) / shard_name(index)).with_suffix(".pickle")
        packed, side = pickle.loads(path.read_bytes())
        return packed, side

    def close(self) -> None:
        self._out.close()
