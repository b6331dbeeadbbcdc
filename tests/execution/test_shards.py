"""Shard folders (``--shards``, ``--resume``) as data, never as code, and whole after a resume.

A shard folder may be shared (an NFS mount, a bucket): nothing in it may run code when a run is
resumed, and a shard that is missing, cut short or changed is named and scored again, so that a
resumed run ends with every row in the folder and the output of an uninterrupted run. Each run
here is the command as a user runs it, on a real LocalCluster, with real Kiwi and sacreBLEU.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
import shutil
from pathlib import Path

import pytest

from ktr import Config, Scorer
from ktr.execution.shards import MANIFEST
from ktr.execution.unit import Stretch
from ktr.scoring.reference import ReferenceScores, stretch_statistics
from tests.cli.test_main import assert_clean_error, ktr
from tests.conftest import ROOT, local_cluster
from tests.execution.test_dask_engine import LINES, written
from tests.scoring.test_preflight import requires_unshare

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow  # a Dask cluster and ktr in subprocesses

#: the lines of test_dask without the one with a control character (whose warnings would mix
#: with the shards' own), numbered: 700 lines, 11 tasks of 64 (the last of 60)
COPIES = 100
TASKS = 11


def corpus(folder: Path) -> tuple[Path, Path, Path]:
    return written(folder, COPIES, [(ko, en) for ko, en in LINES if "\x07" not in ko])


class Finished:
    """A run finished with shards: its corpus, its untouched shard folder and its output."""

    def __init__(self, root: Path, scheduler: str):
        self.root = root
        self.scheduler = scheduler
        self.src, self.hyp, self.ref = corpus(root)
        self.pristine = root / "pristine"
        self.run = ktr(*self.args(self.pristine))
        assert self.run.returncode == 0 and warned(self.run) == [], self.run.stderr

    def args(self, folder: Path) -> list:
        """Two systems, a reference, each keyword's result and each line's BLEU and chrF
        statistics (for the paired bootstrap): everything a shard holds."""
        return [
            *("score", "-s", self.src, "-t", self.hyp, self.ref, "-r", self.ref, "-f", "json", "--sentences"),
            *("--paired-bs", "--engine", "dask", "--scheduler", self.scheduler, "--shards", folder),
        ]

    def copy(self, folder: Path) -> Path:
        shutil.copytree(self.pristine, folder)
        return folder

    def resume(self, folder: Path):
        return ktr(*self.args(folder), "--resume")


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    with local_cluster() as cluster:
        yield Finished(tmp_path_factory.mktemp("finished"), cluster.scheduler_address)


def resumed_again_scores_nothing(finished, folder: Path) -> None:
    """A further resume of a folder made whole warns of nothing, reports the whole run, and
    rewrites no shard."""
    mtimes = {p.name: p.stat().st_mtime_ns for p in folder.glob("part-*")}
    again = finished.resume(folder)
    assert warned(again) == []
    assert_whole(finished, folder, again)
    assert {p.name: p.stat().st_mtime_ns for p in folder.glob("part-*")} == mtimes  # nothing scored


def warned(proc) -> list[str]:
    return [line for line in proc.stderr.splitlines() if line.startswith("ktr: warning:")]


def results_file(folder: Path, task: int) -> Path:
    """The file a task's results are read back from (whatever its format)."""
    (found,) = [p for p in folder.glob(f"part-{task:07d}.*") if p.suffix != ".tsv"]
    return found


def tsv_files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("part-*.tsv"))}


def task_entries(folder: Path) -> tuple[str, list[dict]]:
    head, *tasks = (folder / MANIFEST).read_text(encoding="utf-8").splitlines()
    return head, [json.loads(line) for line in tasks]


def assert_whole(finished: Finished, folder: Path, resumed) -> None:
    """The resumed run printed what the uninterrupted one did, and the folder holds every row
    and every shard as that run wrote them."""
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == finished.run.stdout
    assert tsv_files(folder) == tsv_files(finished.pristine)
    rows = b"".join(tsv_files(folder).values()).decode("utf-8").splitlines()
    assert len(rows) == 1 + 2 * COPIES * 7  # the header, a row per line and system
    for task in range(TASKS):
        name = f"part-{task:07d}.jsonl"
        assert (folder / name).read_bytes() == (finished.pristine / name).read_bytes()


class Planted:
    """Unpickled, it creates a file: what anyone who can write to a shared folder could plant."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return open, (str(self.marker), "w")


# -- item 1: no code from the shards folder ------------------------------------------------------


def test_an_older_ktrs_pickle_shards_are_never_loaded(finished, tmp_path):
    """A folder as ktr wrote it before its shards were JSON: a pickle per task, the manifest's
    task lines without checksums. Each pickle here creates a file when it is loaded."""
    folder = finished.copy(tmp_path / "shards")
    marker = tmp_path / "planted"
    head, tasks = task_entries(folder)
    (folder / MANIFEST).write_text(
        head + "\n" + "".join(json.dumps({"task": t["task"], "lines": t["lines"]}) + "\n" for t in tasks),
        encoding="utf-8",
    )
    for task in range(TASKS):
        for old in folder.glob(f"part-{task:07d}.*"):
            if old.suffix != ".tsv":
                old.unlink()
        (folder / f"part-{task:07d}.pickle").write_bytes(pickle.dumps(Planted(marker)))
    resumed = finished.resume(folder)
    assert not marker.exists()
    assert warned(resumed) == [
        f"ktr: warning: {folder / MANIFEST}: 11 tasks were finished by an older ktr, whose shards "
        "(part-*.pickle) are not read: they are scored again"
    ]
    assert_whole(finished, folder, resumed)
    assert (folder / "part-0000000.pickle").read_bytes() == pickle.dumps(Planted(marker))  # left, never read


def test_a_planted_json_shard_is_refused_by_name_and_scored_again(finished, tmp_path):
    """A shard replaced by JSON that would create a file if it were loaded as objects
    (jsonpickle's form): refused, not being what the manifest recorded; and, with the manifest
    forged to record it, refused as no task's results. Both tasks are scored again, their
    shards rewritten."""
    folder = finished.copy(tmp_path / "shards")
    marker = tmp_path / "planted"
    payload = json.dumps({"py/reduce": [{"py/function": "builtins.open"}, {"py/tuple": [str(marker), "w"]}]})

    def planted(task: int) -> bytes:  # a shard's header, and the payload where its results and side go
        header = json.dumps({"first": 64 * task, "format": "ktr-shard", "task": task, "version": 1})
        return f"{header}\n{payload}\n{payload}\n".encode()

    for task in (1, 6):
        (folder / f"part-{task:07d}.jsonl").write_bytes(planted(task))
    head, tasks = task_entries(folder)
    for entry in tasks:
        if entry["task"] == 6:  # a manifest forged to vouch for the planted shard
            entry.setdefault("files", {})["part-0000006.jsonl"] = {
                "bytes": len(planted(6)),
                "sha256": hashlib.sha256(planted(6)).hexdigest(),
            }
    (folder / MANIFEST).write_text(head + "\n" + "".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
    size = results_file(finished.pristine, 1).stat().st_size
    resumed = finished.resume(folder)
    assert not marker.exists()
    assert warned(resumed) == [
        f"ktr: warning: {folder / 'part-0000001.jsonl'}: {len(planted(1))} bytes where the manifest "
        f"recorded {size}: task 1 is scored again",
        f"ktr: warning: {folder / 'part-0000006.jsonl'}: not a ktr shard (line 2: not the results "
        "of a task): task 6 is scored again",
    ]
    assert_whole(finished, folder, resumed)


def test_a_shard_reads_back_as_exactly_what_was_written(tmp_path):
    """A JSON shard's results, unpacked, are the results the worker had, with every type (tuples
    stay tuples, integers integers, floats the same floats), and its BLEU and chrF statistics
    sum to the same scores: so a resumed run prints what an uninterrupted run prints. Its first
    line says what it is; the manifest gets each file's size and SHA-256."""
    from ktr.execution.shards import read_shard, write_shard

    scorer = Scorer(Config())
    stretch = Stretch(
        128,
        [ko for ko, _ in LINES],
        {"a": [en for _, en in LINES], "b": [en.lower() + " indeed" for _, en in LINES]},
        [[en.upper() for _, en in LINES]],
    )
    packed = scorer.pipeline.pack(scorer.pipeline.score_stretch(stretch, name="src.ko", details=True))
    side = stretch_statistics(stretch.systems, stretch.references, keep=True)
    files = write_shard(str(tmp_path), 2, 128, packed, side)
    assert sorted(files) == ["part-0000002.jsonl", "part-0000002.tsv"]
    for name, recorded in files.items():
        data = (tmp_path / name).read_bytes()
        assert recorded == {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    assert (
        (tmp_path / "part-0000002.jsonl")
        .read_bytes()
        .startswith(b'{"first":128,"format":"ktr-shard","task":2,"version":1}\n')
    )
    packed_back, side_back = read_shard(tmp_path / "part-0000002.jsonl", 2)

    def typed(value):  # the value with the type of everything in it
        if dataclasses.is_dataclass(value):
            return type(value).__name__, [typed(getattr(value, f.name)) for f in dataclasses.fields(value)]
        if isinstance(value, (list, tuple)):
            return type(value).__name__, [typed(v) for v in value]
        if isinstance(value, dict):
            return "dict", [(typed(k), typed(v)) for k, v in value.items()]
        return type(value).__name__, value

    results, messages = scorer.pipeline.unpack(packed)
    assert typed(scorer.pipeline.unpack(packed_back)) == typed((results, messages))
    # what the comparison covers: keywords matched (a span), added words, an input warning
    assert any(k.span for s in results["a"] for k in s.keywords) and any(s.added for s in results["b"])
    assert messages == ["src.ko:130: cleaned 1 control or surrogate character(s) before analysis (U+0007)"]
    sums = [ReferenceScores(keep=True), ReferenceScores(keep=True)]
    sums[0].merge(side)
    sums[1].merge(side_back)
    for name in stretch.systems:
        assert sums[1].scores(name) == sums[0].scores(name)
        for metric in ("bleu", "chrf"):
            assert sums[1].statistics(name, metric) == sums[0].statistics(name, metric)


# -- item 10: a resume finishes every run it can, and names what it cannot read ---------------------


def test_a_deleted_tsv_is_written_again(finished, tmp_path):
    folder = finished.copy(tmp_path / "shards")
    (folder / "part-0000003.tsv").unlink()
    resumed = finished.resume(folder)
    assert warned(resumed) == [
        f"ktr: warning: {folder / 'part-0000003.tsv'}: missing: task 3 is scored again",
    ]
    assert_whole(finished, folder, resumed)


def test_a_cut_changed_or_missing_shard_is_scored_again_and_named(finished, tmp_path):
    """Task 2's results cut short, task 4's changed in place (the same size), task 5's gone: each
    named, scored again and rewritten; a second resume then reads every task back, silently."""
    folder = finished.copy(tmp_path / "shards")
    cut = results_file(folder, 2)
    size = cut.stat().st_size
    cut.write_bytes(cut.read_bytes()[:1000])
    changed = results_file(folder, 4)
    data = bytearray(changed.read_bytes())
    at = data.index(b'"', 200)
    data[at + 1 : at + 2] = b"Q" if data[at + 1 : at + 2] != b"Q" else b"R"
    changed.write_bytes(bytes(data))
    results_file(folder, 5).unlink()
    resumed = finished.resume(folder)
    assert warned(resumed) == [
        f"ktr: warning: {folder / 'part-0000002.jsonl'}: 1000 bytes where the manifest recorded {size}: "
        "task 2 is scored again",
        f"ktr: warning: {folder / 'part-0000005.jsonl'}: missing: task 5 is scored again",
        f"ktr: warning: {folder / 'part-0000004.jsonl'}: its checksum is not the manifest's: task 4 is scored again",
    ]
    assert_whole(finished, folder, resumed)
    _, tasks = task_entries(folder)
    assert sorted(t["task"] for t in tasks[TASKS:]) == [2, 4, 5]  # each task scored again noted once more
    resumed_again_scores_nothing(finished, folder)


def test_a_manifest_line_cut_short_is_ended_before_the_next(finished, tmp_path):
    """The client stopped while noting task 7: the manifest ends in half a line, and task 7 is
    scored again (silently: its note was never whole). The resume's first note starts a line of
    its own, so that the next resume finds every task and scores nothing."""
    folder = finished.copy(tmp_path / "shards")
    head, *tasks = (folder / MANIFEST).read_text(encoding="utf-8").splitlines(keepends=True)
    (seven,) = [line for line in tasks if json.loads(line)["task"] == 7]
    cut = seven[: len(seven) // 2]
    (folder / MANIFEST).write_text(head + "".join(t for t in tasks if t != seven) + cut, encoding="utf-8")
    resumed = finished.resume(folder)
    assert warned(resumed) == []
    assert_whole(finished, folder, resumed)
    notes = (folder / MANIFEST).read_text(encoding="utf-8").splitlines()
    assert notes[TASKS] == cut and [json.loads(n)["task"] for n in notes[TASKS + 1 :]] == [7]
    resumed_again_scores_nothing(finished, folder)


def test_a_resume_that_stops_counts_every_task_kept_and_goes_on_after(finished, tmp_path):
    """Task 3's results gone (scored again), task 10 never finished and its shard's place taken
    by a folder, so that its worker cannot write it: the run stops with one line that counts the
    tasks kept in the folder, task 3 among them, and leaves no half-written file; once the
    obstacle is gone, the next resume finishes the run."""
    folder = finished.copy(tmp_path / "shards")
    results_file(folder, 3).unlink()
    head, tasks = task_entries(folder)
    (folder / MANIFEST).write_text(
        head + "\n" + "".join(json.dumps(t) + "\n" for t in tasks if t["task"] != 10), encoding="utf-8"
    )
    obstacle = folder / results_file(finished.pristine, 10).name
    for old in folder.glob("part-0000010.*"):
        old.unlink()
    obstacle.mkdir()
    stopped = finished.resume(folder)
    assert stopped.returncode == 1 and stopped.stdout == "" and "Traceback" not in stopped.stderr
    error = stopped.stderr.splitlines()[-1]
    assert error.startswith("ktr: error: a Dask worker failed (IsADirectoryError: [Errno 21] Is a directory: ")
    assert error.endswith(f" -> '{obstacle}'); 10 finished tasks are kept in {folder}: run again with --resume")
    assert warned(stopped) == [f"ktr: warning: {folder / 'part-0000003.jsonl'}: missing: task 3 is scored again"]
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []
    obstacle.rmdir()
    resumed = finished.resume(folder)
    assert warned(resumed) == []
    assert_whole(finished, folder, resumed)


def test_shards_that_are_a_file_or_cannot_be_made_are_one_line_errors(finished, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n", encoding="utf-8")
    base = ["score", "-s", finished.src, "-t", finished.hyp, "--engine", "dask", "--workers", "1", "--shards"]
    for folder, resume, message in (
        (afile, [], f"{afile}: not a folder: --shards names the folder the shards are written in"),
        (afile, ["--resume"], f"{afile}: not a folder: --shards names the folder the shards are written in"),
        (afile / "sub", [], f"{afile / 'sub'}: cannot write the shards there (Not a directory)"),
    ):
        proc = ktr(*base, folder, *resume)
        assert_clean_error(proc)
        assert proc.stderr == f"ktr: error: {message}\n"
    assert afile.read_text(encoding="utf-8") == "not a folder\n"


@requires_unshare
def test_shards_in_a_read_only_folder_are_one_line_errors(finished, tmp_path):
    """A folder mounted read-only (in a mount namespace of its own): a new run, a new folder
    inside it, and a resume of a finished run kept there, each refused before anything is scored."""
    import subprocess
    import sys

    readonly = tmp_path / "ro"
    readonly.mkdir()
    finished.copy(readonly / "done")
    runs = [
        ("score", "-s", finished.src, "-t", finished.hyp, "--engine", "dask", "--workers", "1", "--shards", readonly),
        (
            "score",
            "-s",
            finished.src,
            "-t",
            finished.hyp,
            "--engine",
            "dask",
            "--workers",
            "1",
            "--shards",
            readonly / "new",
        ),
        (*finished.args(readonly / "done"), "--resume"),
    ]
    for args in runs:
        command = " ".join(f"'{a}'" for a in [sys.executable, "-m", "ktr.cli", *map(str, args)])
        proc = subprocess.run(
            [
                "unshare",
                "-m",
                "sh",
                "-c",
                f"mount --bind '{readonly}' '{readonly}' && mount -o remount,ro,bind '{readonly}' && exec {command}",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        folder = args[args.index("--shards") + 1]
        assert_clean_error(proc)
        assert proc.stderr == f"ktr: error: {folder}: cannot write the shards there (Read-only file system)\n"
    assert sorted(p.name for p in readonly.iterdir()) == ["done"]


# -- what the checksums cannot see: a shard rewritten with its manifest, a .tsv changed in place --


def forged(folder: Path, task: int, change) -> None:
    """Task ``task``'s results file rewritten by ``change`` (its three JSON lines in, out), and
    the manifest forged to record the new file's size and SHA-256: what only the contents can
    give away."""
    path = results_file(folder, task)
    data = ("".join(json.dumps(v) + "\n" for v in change(*map(json.loads, path.read_text().splitlines())))).encode()
    path.write_bytes(data)
    head, tasks = task_entries(folder)
    for entry in tasks:
        if entry["task"] == task:
            entry["files"][path.name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    (folder / MANIFEST).write_text(head + "\n" + "".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")


def test_a_tsv_changed_in_place_is_named_and_written_again(finished, tmp_path):
    """A row's score changed, the file's size kept: its checksum gives it away."""
    folder = finished.copy(tmp_path / "shards")
    rows = folder / "part-0000003.tsv"
    text = rows.read_text(encoding="utf-8")
    at = text.index("\t0.")  # a score, one digit of it changed
    rows.write_text(text[: at + 3] + ("1" if text[at + 3] != "1" else "2") + text[at + 4 :], encoding="utf-8")
    assert rows.stat().st_size == (finished.pristine / rows.name).stat().st_size
    resumed = finished.resume(folder)
    assert warned(resumed) == [
        f"ktr: warning: {rows}: its checksum is not the manifest's: task 3 is scored again",
    ]
    assert_whole(finished, folder, resumed)


def test_a_shard_forged_with_its_manifest_is_refused_by_name_and_scored_again(finished, tmp_path):
    """Task 2's results say a line transferred more keywords than it counts (its KTR past 1);
    task 7's BLEU statistics say more 1-grams matched than the output has. Both are refused, and
    scored again: the output is the uninterrupted run's (before, task 7's BLEU was summed in)."""
    folder = finished.copy(tmp_path / "shards")

    def more_than_counted(header, packed, side):
        line = packed[1][0][1][0]  # the first system's first line: index, counted, transferred, ...
        line[2] = line[1] + 5
        return header, packed, side

    def more_matched(header, packed, side):
        for stats in side.values():
            stats["bleu"][0][2] = stats["bleu"][0][6] + 1000
        return header, packed, side

    forged(folder, 2, more_than_counted)
    forged(folder, 7, more_matched)
    resumed = finished.resume(folder)
    assert warned(resumed) == [
        f"ktr: warning: {folder / 'part-0000002.jsonl'}: not a ktr shard (line 2: not the results of a task): "
        "task 2 is scored again",
        f"ktr: warning: {folder / 'part-0000007.jsonl'}: not a ktr shard (line 3: 'mt': bleu: statistics no "
        "sentence can have): task 7 is scored again",
    ]
    assert_whole(finished, folder, resumed)


def test_bleu_and_chrf_statistics_are_checked_for_what_they_can_be():
    from ktr.scoring.reference import statistics_problem

    side = stretch_statistics({"a": ["the cat sat .", "hi"]}, [["the cat sat .", "hello"]], keep=True)
    assert statistics_problem(side, {"a": 2}) is None
    assert statistics_problem(side, {"b": 2}) == "not the statistics of the task's systems"
    assert statistics_problem(side, {"a": 3}) == "'a': bleu: not the statistics of 3 lines"
    cases = [
        (lambda s: s["a"]["bleu"][1][0].__setitem__(0, -1), "'a': bleu: statistics no sentence can have"),
        (lambda s: s["a"]["chrf"][1][0].__setitem__(0, 1.5), "'a': chrf: statistics no sentence can have"),
        (lambda s: s["a"]["chrf"][1][0].__setitem__(2, 10**6), "'a': chrf: statistics no sentence can have"),
        (
            lambda s: s["a"]["bleu"][0].__setitem__(0, 10**6),
            "'a': bleu: the lines' statistics do not add up to their sum",
        ),
        (lambda s: s["a"]["chrf"][1].pop(), "'a': chrf: not the statistics of 2 lines"),
        (lambda s: s["a"].__setitem__("tokenized", 3), "'a': counts out of range"),
        (lambda s: s["a"].__setitem__("references", "1"), "'a': counts out of range"),
        (lambda s: s["a"].pop("chrf"), "'a': not a system's statistics"),
        (lambda s: s["a"].__setitem__("bleu", None), "'a': bleu: not statistics"),
    ]
    for change, why in cases:
        copy = json.loads(json.dumps(side))
        change(copy)
        assert statistics_problem(copy, {"a": 2}) == why, why
