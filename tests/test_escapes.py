"""Text from the user's files and arguments reaches the terminal escaped (docs/input-handling.md,
"Terminal escapes and markup from the input"): ``ktr lexicon lookup`` (the word looked up and an
entry's fields) and the cache folder's warning (its name). Before, both printed them raw, so a
window title or a cleared screen in them was obeyed."""

from __future__ import annotations

from ktr import cache as ktr_cache
from tests.cli.test_commands import ktr
from tests.conftest import write

TITLE = "\x1b]0;pwned\x07"
CSI = "\x9b2J"  # the 8-bit CSI: clear the screen


def test_a_word_looked_up_is_shown_escaped(capsys):
    code, out, err = ktr(capsys, "lexicon", "lookup", f"방{TITLE}{CSI}")
    assert (code, out, err) == (1, "방\\x1b]0;pwned\\x07\\x9b2J\t(not in the lexicon)\n", "")


def test_an_entry_is_shown_escaped(capsys, tmp_path):
    lexicon = write(tmp_path / f"lex{CSI}.tsv", "방\tnoun\troom;chamber\n")
    code, out, err = ktr(capsys, "lexicon", "lookup", "방", "-l", lexicon)
    shown_name = str(lexicon).replace(CSI, "\\x9b2J")
    assert (code, err) == (0, "") and out == f"방\tnoun\troom; chamber\t{shown_name}:1\n"


def test_the_cache_folder_s_name_is_shown_escaped(capsys, tmp_path, monkeypatch):
    blocker = write(tmp_path / f"file{TITLE}", "")  # a folder cannot be made under a file
    monkeypatch.setenv("KTR_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(ktr_cache, "_warned", False)
    src = write(tmp_path / "src.ko", "방\n")
    hyp = write(tmp_path / "out.en", "room\n")
    lexicon = write(tmp_path / "lex.tsv", "방\tnoun\troom\n")
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{lexicon}]\nmatching: [exact]\n")
    code, _, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg)
    folder = str(blocker / "cache").replace(TITLE, "\\x1b]0;pwned\\x07")
    assert code == 0 and err == (
        f"ktr: warning: cannot write the cache in {folder} (Not a directory): going on without it, "
        "so what it holds is built again on every run (KTR_CACHE_DIR names another folder)\n"
    )
    assert "\x1b" not in err
