"""``ktr score``'s progress (issue 40, item 2): a bar of lines scored on standard error when it is
a terminal, one line when a first run builds the cache's tables, nothing when standard error is
piped or with ``-q``; standard output the same in every case."""

import io
import os
import subprocess
import sys

import pytest

from tests.cli.test_commands import ktr
from tests.conftest import ROOT, write
from tests.reports.test_formats import LEXICON, OUTPUT, SOURCE


class Terminal(io.StringIO):
    """Standard error as a terminal: what ktr prints there is kept, and ``isatty()`` is true."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def files(tmp_path):
    """(source, output, config): the hand-worked case of tests/reports/test_formats.py, its lexicon, and
    the inflection stage, whose table is built from WordNet into the cache."""
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "out.en", "\n".join(OUTPUT) + "\n")
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n")
    return src, hyp, cfg


def on_terminal(capsys, monkeypatch, *args):
    """(exit code, stdout, what went to the terminal) of ``ktr ARGS`` with standard error a terminal."""
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code, out, _ = ktr(capsys, *args)
    return code, out, terminal.getvalue()


def test_a_terminal_shows_a_bar_of_lines_scored(capsys, monkeypatch, files):
    src, hyp, cfg = files
    code, out, shown = on_terminal(capsys, monkeypatch, "score", "-s", src, "-t", hyp, "-c", cfg)
    assert code == 0 and out.startswith("system")
    last = shown.rstrip("\n").split("\r")[-1]
    assert last.startswith("scoring") and "100%" in last and "4/4" in last, repr(shown)


def test_quiet_or_piped_shows_nothing_and_prints_the_same(capsys, monkeypatch, files):
    src, hyp, cfg = files
    code, shown_out, _ = on_terminal(capsys, monkeypatch, "score", "-s", src, "-t", hyp, "-c", cfg)
    code_q, quiet_out, quiet = on_terminal(capsys, monkeypatch, "score", "-s", src, "-t", hyp, "-c", cfg, "-q")
    monkeypatch.undo()
    code_p, piped_out, piped = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg)
    assert (code, code_q, code_p) == (0, 0, 0)
    assert quiet == "" and piped == ""
    assert shown_out == quiet_out == piped_out


def test_a_first_run_says_in_one_line_what_it_builds_and_a_second_says_nothing(capsys, monkeypatch, files, tmp_path):
    src, hyp, cfg = files
    cache = tmp_path / "cache"
    monkeypatch.setenv("KTR_CACHE_DIR", str(cache))
    _, _, first = on_terminal(capsys, monkeypatch, "score", "-s", src, "-t", hyp, "-c", cfg)
    _, _, second = on_terminal(capsys, monkeypatch, "score", "-s", src, "-t", hyp, "-c", cfg)
    said = [line for line in first.replace("\r", "\n").splitlines() if line.startswith("ktr: ")]
    assert said == [
        f"ktr: a first run: building the tables ktr keeps in {cache} from the lexicons and WordNet "
        "(once; later runs read them)"
    ]
    assert not any(line.startswith("ktr: ") for line in second.replace("\r", "\n").splitlines())
    assert "scoring" in second  # the bar still


@pytest.mark.slow  # ktr in a subprocess, on a pseudo-terminal
def test_a_real_terminal_shows_the_bar_and_a_pipe_nothing(files):
    import fcntl
    import pty
    import struct
    import termios

    src, hyp, cfg = files
    command = [sys.executable, "-m", "ktr", "score", "-s", str(src), "-t", str(hyp), "-c", str(cfg)]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal 100 columns wide
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        shown += chunk
    out = proc.stdout.read()
    assert proc.wait() == 0
    os.close(master)
    assert "100%" in shown.decode() and "4/4" in shown.decode()
    piped = subprocess.run(command, cwd=ROOT, env=env, capture_output=True)
    assert piped.returncode == 0 and piped.stderr == b"" and piped.stdout == out
