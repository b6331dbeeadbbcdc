"""ktr's cache folder (docs/configuration.md, "The cache folder"): ``$KTR_CACHE_DIR``, else
``$XDG_CACHE_HOME/ktr``, else ``~/.cache/ktr``; ``ktr cache`` says where it is and what it holds,
``ktr cache clear`` removes the files ktr wrote there and nothing else."""

from __future__ import annotations

from pathlib import Path

from ktr.cache import cache_dir
from tests.cli.test_commands import ktr
from tests.conftest import write


def test_the_folder_is_ktr_cache_dir_then_xdg_cache_home_then_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("KTR_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("KTR_CACHE_DIR")
    assert cache_dir() == tmp_path / "xdg" / "ktr"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # the specification: ignored
    assert cache_dir() == tmp_path / "home" / ".cache" / "ktr"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == tmp_path / "home" / ".cache" / "ktr"


def fill(folder: Path) -> None:
    write(folder / "lexicon-0123.json", "x" * 2000)
    write(folder / "inflection-4567.json", "{}")
    write(folder / "relations-89ab.sqlite", "y" * 100)
    write(folder / "embeddings" / "cdef.sqlite", "z" * 1024)
    write(folder / "analyses" / "kiwi-01.json", "{}")
    write(folder / "tmpabc.tmp-journal", "")


def test_ktr_cache_says_where_and_how_much(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("KTR_CACHE_DIR", str(folder))
    assert ktr(capsys, "cache") == (0, f"{folder}: 0 bytes (not made yet)\n", "")
    fill(folder)
    code, out, err = ktr(capsys, "cache")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"{folder}: 3.1 KB",
        "  lexicons                        1 files     2.0 KB",
        "  inflections                     1 files    2 bytes",
        "  WordNet's relations             1 files  100 bytes",
        "  vectors (semantic stage)        1 files     1.0 KB",
        "  analyses (ktr run)              1 files    2 bytes",
        "  temporary files                 1 files    0 bytes",
    ]


def test_ktr_cache_clear_removes_only_what_ktr_wrote(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("KTR_CACHE_DIR", str(folder))
    fill(folder)
    mine = write(folder / "notes.txt", "the user's")
    (folder / "lexicon-link.json").symlink_to(mine)  # not a file ktr wrote: left
    assert ktr(capsys, "cache", "clear") == (0, f"removed 6 files (3.1 KB) from {folder}\n", "")
    assert sorted(p.name for p in folder.rglob("*")) == ["lexicon-link.json", "notes.txt"]
    assert ktr(capsys, "cache") == (0, f"{folder}: 0 bytes\n", "")
