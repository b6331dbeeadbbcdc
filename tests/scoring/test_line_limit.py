"""A time limit over the whole of a line's work (``timeout``): not only the analyzer's.

A line whose keywords and matching take longer than ``timeout`` seconds is not scored: it is
reported failed in its place, with a warning naming it, and the other lines score as without a
limit. The slow line is built (the same two words a few hundred times: each of its keywords
matched against an output as long), the limit small; before the limit covered the matching, the
line was scored whatever it took.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import warnings

import pytest

from ktr import KTR
from ktr.config import Config
from ktr.deadline import Budget, TimedOut, within

SOURCE = ["대통령은 서울에서 기자들을 만났다.", " ".join(["미국 백화점"] * 600), "나는 사과를 먹었다."]
OUTPUT = [
    "The president met reporters in Seoul.",
    " ".join(["the department store of the United States"] * 600),
    "I ate an apple.",
]
WHY = "its keywords and matching took longer than timeout=1s"


def test_within_stops_python_work_and_lets_quick_work_be():
    def forever() -> None:
        while True:
            pass

    start = time.monotonic()
    with pytest.raises(TimedOut):
        within(0.2, forever)
    assert time.monotonic() - start < 5
    assert within(5, lambda: 42) == 42
    time.sleep(0.3)  # a deadline withdrawn is never raised later
    budget = Budget(0.2, 2)
    with pytest.raises(TimedOut):
        budget.spend(1, forever)
    assert budget.expired == {1} and budget.spend(0, lambda: "ok") == "ok"
    with pytest.raises(TimedOut):  # a line's time is spent once
        budget.spend(1, lambda: None)


def test_a_line_past_the_limit_fails_in_its_place():
    metric = KTR(Config(timeout=1))
    start = time.monotonic()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lines = metric.score_lines(SOURCE, OUTPUT)
    took = time.monotonic() - start
    assert [line.failed for line in lines] == [None, WHY, None]
    assert [(line.counted, line.transferred) for line in lines] == [(4, 4), (0, 0), (3, 3)]
    assert [str(w.message) for w in caught] == [f"source:2: not scored, {WHY}"]
    assert took < 10  # without the limit, the line alone takes about 6 s here


def test_the_command_goes_on_and_exits_3(tmp_path):
    (tmp_path / "src.ko").write_text("\n".join(SOURCE) + "\n", encoding="utf-8")
    (tmp_path / "mt.en").write_text("\n".join(OUTPUT) + "\n", encoding="utf-8")
    (tmp_path / "c.yaml").write_text("timeout: 1\n", encoding="utf-8")
    args = ["-s", "src.ko", "-t", "mt.en", "-c", "c.yaml", "-f", "json", "--sentences", "--jobs", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "ktr", "score", *args], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 3
    assert done.stderr.splitlines() == [f"ktr: warning: src.ko:2: not scored, {WHY}"]
    (system,) = json.loads(done.stdout)["systems"]
    assert [s.get("failed") for s in system["segments"]] == [None, WHY, None]
    assert [s["index"] for s in system["segments"]] == [0, 1, 2]


def test_a_source_prepared_once_and_matched_system_after_system(tmp_path):
    """``ktr run`` and ``ktr meta-eval`` prepare the source once (``Scorer.prepare``) and match
    each system in turn (``Scorer.score_prepared``): the line's time is spent by both, and once
    it has run out the line is failed for that system and every one after."""
    from ktr import Scorer
    from ktr.errors import InputWarning

    scorer = Scorer(Config(timeout=1))
    prepared = scorer.prepare(SOURCE, "src.ko")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InputWarning)
        first = scorer.score_prepared(prepared, "a", OUTPUT)
        second = scorer.score_prepared(prepared, "b", OUTPUT)
    assert [s.failed for s in first.sentences] == [None, WHY, None] == [s.failed for s in second.sentences]
    assert [s.index for s in second.sentences] == [0, 1, 2]
    assert [str(w.message) for w in caught] == [f"src.ko:2: not scored, {WHY}"]  # said once
    assert prepared.warnings == [f"src.ko:2: not scored, {WHY}"]
