"""Tracebacks left by the first hardening pass, now one line each (docs/input-handling.md, "Configs,
the cache and the files ktr writes"): a ``timeout`` past what the system can wait for, and a
scheduler address Dask cannot read. Each runs ``ktr`` in this process."""

from __future__ import annotations

import pytest

from tests.cli.test_commands import ktr
from tests.conftest import write


@pytest.fixture
def pair(tmp_path):
    return write(tmp_path / "src.ko", "학생이 책을 읽었다.\n"), write(tmp_path / "out.en", "The student read a book.\n")


@pytest.mark.slow  # the analyzer in a child process
def test_a_timeout_past_what_the_system_waits_for_is_waited_a_week_at_most(capsys, pair, tmp_path):
    """Before: OverflowError (the system's poll counts milliseconds in a C int)."""
    src, hyp = pair
    cfg = write(tmp_path / "c.yaml", "timeout: 1.0e+300\nmatching: [exact]\n")
    plain = write(tmp_path / "plain.yaml", "matching: [exact]\n")
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-f", "json")
    _, usual, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", plain, "-f", "json")
    assert (code, err) == (0, "") and out.split('"signature"')[0] == usual.split('"signature"')[0]


@pytest.mark.slow  # Dask imported
@pytest.mark.parametrize(
    "address, why",
    [
        ("inproc://x", "not enough values to unpack (expected 3, got 1)"),
        ("garbage::!", "invalid address 'garbage::!'; maybe: ipv6 needs brackets like [::1]"),
    ],
)
def test_a_scheduler_address_dask_cannot_read_is_one_line(capsys, pair, address, why):
    """Before: ValueError's traceback."""
    pytest.importorskip("distributed")
    src, hyp = pair
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "--engine", "dask", "--scheduler", address)
    message = f"{address}: not a Dask scheduler's address ({why}): give tcp://host:8786"
    assert (code, out, err) == (1, "", f"ktr: error: {message}\n")
