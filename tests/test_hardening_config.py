"""Configs, caches, the files ktr writes, exit codes and hints (docs/input-handling.md, "Configs,
the cache and the files ktr writes").

Everything runs as a user runs it: ``ktr`` as a subprocess (as tests/test_cli.py) or in this
process (as tests/test_commands.py), on real files, with Kiwi. Two conditions are made real for
one subprocess:

- a full disk: a file-size limit (``RLIMIT_FSIZE``) past which the kernel refuses every write
  (``EFBIG``, "File too large"), as it refuses one on a full disk (``ENOSPC``);
- a read-only folder: a read-only bind mount in a mount namespace of the subprocess's own (as
  root, who may write anywhere else), or a folder without write permission (as anyone else).

A package that is not installed is hidden from one subprocess as tests/test_frames.py hides
pandas: ``sys.modules[name] = None`` before ktr starts, so that importing it fails.
"""

from __future__ import annotations

import errno
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ktr.cli.main import main
from ktr.errors import InputError, LexiconError
from ktr.lexicon.importers import import_file
from ktr.textio import read_lines
from tests.conftest import ROOT
from tests.test_outputs import LEXICON, OUTPUT, SOURCE

OTHER = ["The student read a book.", "He drank.", "Chulsoo came.", ""]


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def case(tmp_path):
    """The hand-worked case of tests/test_outputs.py (exact and inflection matching, a lexicon of
    six entries) as files: (source, output, scoring config)."""
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "out.en", "\n".join(OUTPUT) + "\n")
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n")
    return src, hyp, cfg


def experiment(folder: Path, body: str = "", name: str = "exp") -> Path:
    """An experiment on the hand-worked case (system ``out``, and ``other`` when ``body`` names it)."""
    write(folder / "six.tsv", LEXICON)
    write(folder / "src.ko", "\n".join(SOURCE) + "\n")
    write(folder / "out.en", "\n".join(OUTPUT) + "\n")
    write(folder / "other.en", "\n".join(OTHER) + "\n")
    head = "data: {source: src.ko, systems: {out: out.en}}\npipeline: {lexicons: [six.tsv], matching: [exact, inflection]}\n"
    return write(folder / f"{name}.yaml", body or head + "compare: {resamples: 0}\n")


def ktr_in(capsys, *args):
    """(exit code, stdout, stderr) of ``ktr ARGS`` in this process."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def ktr(*args, env=None, fsize=None, hide=(), prefix=(), cwd=ROOT):
    """``ktr ARGS`` as a subprocess. ``env``: variables added; ``fsize``: the largest file it may
    write, in bytes (a full disk); ``hide``: packages it finds not installed; ``prefix``: a command
    it runs under (a mount namespace)."""
    if hide:
        code = f"import sys\nfor m in {tuple(hide)!r}:\n    sys.modules[m] = None\n"
        code += "from ktr.cli.main import main\nsys.exit(main(sys.argv[1:]))\n"
        command = [sys.executable, "-c", code, *map(str, args)]
    else:
        command = [sys.executable, "-m", "ktr.cli", *map(str, args)]

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a refused write fails, it does not kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [*prefix, *command],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONDONTWRITEBYTECODE": "1", **(env or {})},
        preexec_fn=limit if fsize is not None else None,
        stdin=subprocess.DEVNULL,
    )


def error_line(proc, message, code=1):
    """The process failed with exactly ``ktr: error: MESSAGE`` on one line, status ``code``."""
    assert (proc.returncode, proc.stdout, proc.stderr) == (code, "", f"ktr: error: {message}\n")


def files_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# 4. configs: no aliases, no key twice, finite numbers, bounded messages ------------------------


def bomb(levels: int) -> str:
    """A YAML "billion laughs": anchors, each a list of nine of the one before (six levels: 531,441
    strings, a message of 2.6 MB when printed; nine levels ran to a MemoryError)."""
    lists = [f"&{chr(97 + i)} [{', '.join(['x' if i == 0 else f'*{chr(96 + i)}'] * 9)}]" for i in range(levels)]
    return f"[{', '.join(lists)}]"


def read_only(folder: Path) -> tuple[list[str], int]:
    """(a command prefix under which ``folder`` cannot be written, the errno of a write there)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return [], errno.EACCES
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare -m to make a folder read-only for root")
    script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@"'
    return ["unshare", "-m", "sh", "-c", script, "sh", str(folder)], errno.EROFS


def cache_warning(folder: Path, code: int) -> str:
    return (
        f"ktr: warning: cannot write the cache in {folder} ({os.strerror(code)}): going on without it, "
        "so what it holds is built again on every run (KTR_CACHE_DIR names another folder)\n"
    )


DASK = ("distributed", "dask", "fsspec", "pyarrow", "bokeh")


# 9. no silent overwrites; no temporary file left ------------------------------------------------

MUSE = "방 room\n사과 apple;apology\n"


def test_utf16_and_cp949_files_name_their_encoding_and_the_conversion(case, tmp_path):
    src, hyp, _ = case
    text = "방 열쇠가 여기 있습니다.\n물을 마셨다.\n"
    utf16 = write(tmp_path / "utf16.ko", text.encode("utf-16"))
    big = write(tmp_path / "utf16be.ko", b"\xfe\xff" + text.encode("utf-16-be"))
    cp949 = write(tmp_path / "cp949.ko", text.encode("cp949"))
    euckr = write(tmp_path / "euc-kr.en", "Here is the key.\n물을 마셨다.\n".encode("euc-kr"))

    def hint(path, looks, code):
        return f"it looks like {looks}: convert it with iconv -f {code} -t UTF-8 {path} > {path}.utf8"

    bom = "UTF-16 (a UTF-16 byte-order mark)"
    error_line(
        ktr("score", "-s", utf16, "-t", hyp),
        f"{utf16}:1: invalid UTF-8 at byte 0 of the line (byte 0xff); {hint(utf16, bom, 'UTF-16')}",
    )
    error_line(
        ktr("score", "-s", big, "-t", hyp),
        f"{big}:1: invalid UTF-8 at byte 0 of the line (byte 0xfe); {hint(big, bom, 'UTF-16')}",
    )
    korean = "CP949 (EUC-KR) Korean"
    error_line(
        ktr("score", "-s", cp949, "-t", hyp),
        f"{cp949}:1: invalid UTF-8 at byte 0 of the line (byte 0xb9); {hint(cp949, korean, 'CP949')}",
    )
    two = write(tmp_path / "two.ko", "방 열쇠\n물\n")
    error_line(
        ktr("score", "-s", two, "-t", euckr),
        f"{euckr}:2: invalid UTF-8 at byte 0 of the line (byte 0xb9); {hint(euckr, korean, 'CP949')}",
    )
    with pytest.raises(InputError) as raised:
        read_lines(cp949)
    assert (
        str(raised.value)
        == f"{cp949}:1: invalid UTF-8 at byte 0 of the line (byte 0xb9); {hint(cp949, korean, 'CP949')}"
    )
    pairs = write(tmp_path / "pairs.txt", "방 room\n".encode("cp949"))
    with pytest.raises(LexiconError) as raised:
        import_file("muse", pairs)
    assert (
        str(raised.value)
        == f"{pairs}:1: invalid UTF-8 at byte 0 of the line (byte 0xb9); {hint(pairs, korean, 'CP949')}"
    )
    latin = write(tmp_path / "latin.en", "caf\xe9\n".encode("latin-1"))  # no encoding it looks like: no hint
    with pytest.raises(InputError) as raised:
        read_lines(latin)
    assert str(raised.value) == f"{latin}:1: invalid UTF-8 at byte 3 of the line (byte 0xe9)"
