"""Files ktr reads whole are read with a bound (docs/input-handling.md, "Limits, signals and worker
processes", 2): a config (``-c``), an experiment (``ktr run``), judged keywords (``--gold``), a
style file (``--style``), a lexicon, a dictionary to import. A device or a named pipe is refused
before anything is read, naming it and what it is; a regular file is read to 256 MiB at most.
Before, ``/dev/zero`` ran each of them to a ``MemoryError`` and a named pipe hung them.

Each command runs in this process (tests/test_commands.py's helper) with a pipe that no one
writes and /dev/zero; a regression would hang or fill the memory, so the cases run in a thread
that must finish within a minute."""

from __future__ import annotations

import os
import threading

import pytest

from tests.cli.test_commands import ktr
from tests.conftest import write

PIPE = "is a pipe, expected a regular file"
DEVICE = "is a character device, expected a regular file"


@pytest.fixture
def files(tmp_path):
    src = write(tmp_path / "src.ko", "학생이 책을 읽었다.\n")
    hyp = write(tmp_path / "out.en", "The student read a book.\n")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    return src, hyp, pipe


def within_a_minute(capsys, *args):
    done: list[tuple[int, str, str]] = []
    thread = threading.Thread(target=lambda: done.append(ktr(capsys, *args)), daemon=True)
    thread.start()
    thread.join(60)
    assert done, f"ktr {' '.join(map(str, args))} did not finish within a minute"
    return done[0]


@pytest.mark.parametrize("bad, what", [("/dev/zero", DEVICE), (None, PIPE)], ids=["/dev/zero", "pipe"])
def test_a_config_that_is_no_regular_file_is_refused(capsys, files, bad, what):
    src, hyp, pipe = files
    name = bad or pipe
    code, out, err = within_a_minute(capsys, "score", "-s", src, "-t", hyp, "-c", name)
    assert (code, out, err) == (1, "", f"ktr: error: {name}: cannot read config: {what}\n")


@pytest.mark.parametrize("bad, what", [("/dev/zero", DEVICE), (None, PIPE)], ids=["/dev/zero", "pipe"])
def test_an_experiment_that_is_no_regular_file_is_refused(capsys, files, tmp_path, bad, what):
    name = bad or files[2]
    code, out, err = within_a_minute(capsys, "run", name, "-q", "-o", tmp_path / "out")
    assert (code, out, err) == (1, "", f"ktr: error: {name}: cannot read config: {what}\n")


@pytest.mark.parametrize("bad, what", [("/dev/zero", DEVICE), (None, PIPE)], ids=["/dev/zero", "pipe"])
def test_a_dictionary_to_import_that_is_no_regular_file_is_refused(capsys, files, tmp_path, bad, what):
    name = bad or files[2]
    code, out, err = within_a_minute(capsys, "lexicon", "import", "tsv", name, "-o", tmp_path / "out.tsv")
    assert (code, out, err) == (1, "", f"ktr: error: {name}: cannot read dictionary: {what}\n")
    assert not (tmp_path / "out.tsv").exists()


@pytest.mark.parametrize("bad", ["/dev/zero", None], ids=["/dev/zero", "pipe"])
def test_a_lexicon_that_is_no_regular_file_is_not_found(capsys, files, tmp_path, bad):
    """A lexicon is looked for as a file: a device or a pipe is none (and is never opened)."""
    src, hyp, pipe = files
    name = bad or pipe
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{name}]\nmatching: [exact]\n")
    code, out, err = within_a_minute(capsys, "score", "-s", src, "-t", hyp, "-c", cfg)
    assert (code, out, err) == (1, "", f"ktr: error: {name}: no such lexicon file\n")


def test_judged_and_style_files_that_are_no_regular_files_are_refused(files):
    from ktr.errors import InputError
    from ktr.experiments.judged import read_gold
    from ktr.experiments.style import read_style

    pipe = files[2]
    for read, message in ((read_gold, "cannot read the gold file"), (read_style, "cannot read")):
        for name, what in (("/dev/zero", DEVICE), (pipe, PIPE)):
            with pytest.raises(InputError) as raised:
                read(name)
            assert str(raised.value) == f"{name}: {message}: {what}"


def test_a_file_past_the_bound_is_refused(tmp_path, monkeypatch):
    from ktr import textio

    big = write(tmp_path / "big.yaml", "# " + "x" * 100 + "\n")
    monkeypatch.setattr(textio, "MAX_WHOLE", 50)
    with pytest.raises(OSError, match="larger than 50 bytes"):
        textio.read_whole(big, 50)
    assert textio.read_whole(big, 200) == big.read_bytes()
