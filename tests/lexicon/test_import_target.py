"""``ktr lexicon import -o`` writes only a regular file, or standard output (docs/input-handling.md,
"Configs, the cache and the files ktr writes", 5): a device, a pipe or a socket named by ``-o``
is refused before it is opened, with or without ``--overwrite``. Before, a pipe hung the command
(its content was read to see whether ktr wrote it), and with ``--overwrite`` a device node was
replaced by a regular file (run as root, the node was gone)."""

from __future__ import annotations

import os
import socket
import stat

import pytest

from ktr.lexicon.importers import HEADER
from tests.cli.test_commands import ktr
from tests.conftest import write

MUSE = "방 room\n열쇠 key\n"


@pytest.fixture
def muse(tmp_path):
    return write(tmp_path / "muse.txt", MUSE)


def a_pipe(path):
    os.mkfifo(path)


def a_socket(path):
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()


def a_device(path):
    if os.geteuid() != 0:
        pytest.skip("needs root to make a device node")
    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # as /dev/null


@pytest.mark.parametrize(
    "make, what",
    [(a_pipe, "a pipe"), (a_socket, "a socket"), (a_device, "a character device")],
    ids=["pipe", "socket", "device"],
)
@pytest.mark.parametrize("overwrite", [(), ("--overwrite",)], ids=["", "overwrite"])
def test_an_output_that_is_no_regular_file_is_refused_and_left_as_it_is(capsys, muse, tmp_path, make, what, overwrite):
    target = tmp_path / "out.tsv"
    make(target)
    before = target.lstat()
    code, out, err = ktr(capsys, "lexicon", "import", "muse", muse, "-o", target, *overwrite)
    message = f"{target}: is {what}, expected a regular file: -o names the lexicon written (- for standard output)"
    assert (code, out, err) == (1, "", f"ktr: error: {message}\n")
    after = target.lstat()
    assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev)


def test_a_folder_as_output_is_refused(capsys, muse, tmp_path):
    code, _, err = ktr(capsys, "lexicon", "import", "muse", muse, "-o", tmp_path)
    assert (code, err) == (
        1,
        f"ktr: error: {tmp_path}: is a folder, expected a regular file: -o names the lexicon written (- for standard output)\n",
    )


def test_the_lexicon_goes_to_standard_output_with_o_dash(capsys, muse, tmp_path):
    code, out, err = ktr(capsys, "lexicon", "import", "muse", muse, "-o", "-")
    written = tmp_path / "out.tsv"
    assert ktr(capsys, "lexicon", "import", "muse", muse, "-o", written)[0] == 0
    assert (code, out, err) == (
        0,
        written.read_text(encoding="utf-8"),
        "2 entries written to standard output; skipped records: none\n",
    )
    assert out.startswith(HEADER + "\n") and "방\tnoun\troom\n" in out
