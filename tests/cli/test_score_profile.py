"""``ktr score --profile``: each step's time and each matching stage's, on stderr after the scores
(ktr/matching/timing.py counts only when asked)."""

from __future__ import annotations

from ktr.matching import timing
from tests.cli.test_commands import case, ktr  # noqa: F401 (a fixture)


def test_the_profile_names_each_stage_of_the_cascade_and_adds_up(capsys, case):  # noqa: F811
    src, hyp, cfg = case
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "--profile", "-q")
    assert code == 0 and out.startswith("system")
    lines = err.splitlines()
    assert lines[0].startswith("profile: 4 lines in ")
    rows = {line[:42].strip(): float(line[42:].split()[0]) for line in lines[2:]}
    assert {"stage exact", "stage inflection", "keywords and targets", "tracing and counts"} <= set(rows)
    assert not any(name.startswith("stage") and name not in ("stage exact", "stage inflection") for name in rows)
    assert all(seconds >= 0 for seconds in rows.values())
    total = float(lines[0].split(" in ")[1].split()[0])
    assert abs(sum(rows.values()) - total) < 0.01  # the steps share the run, nothing counted twice


def test_the_profile_is_of_this_process_only(capsys, case):  # noqa: F811
    src, hyp, cfg = case
    code, _, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "--profile", "--jobs", "2")
    assert code == 2 and "--profile times the steps in this process: use it with --jobs 1" in err


def test_the_counting_stops_with_the_run(capsys, case):  # noqa: F811
    src, hyp, cfg = case
    ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "--profile", "-q")
    assert not timing.on()  # later runs in this process are not timed
