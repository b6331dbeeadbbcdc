import pytest

from ktr.errors import LexiconError
from ktr.lexicon import load_lexicon
from ktr.lexicon.format import parse_line
from tests.conftest import write as write_file


def write(tmp_path, text, name="lex.tsv"):
    """A lexicon in ``tmp_path`` (lex.tsv by default), its path as a string as a config gives it
    to ``load_lexicon``: so this file keeps its own ``write`` over conftest's."""
    return str(write_file(tmp_path / name, text))


@pytest.mark.parametrize(
    "line, message",
    [
        ("방\tnoun", "expected 3 tab-separated columns"),
        ("방\tthing\troom", "unknown class 'thing'"),
        ("사\tverb\tbuy", "ends in 다"),
        ("방\tnoun\troom;;chamber", "empty English equivalent"),
        ("방\tnoun\troom;room", "duplicate equivalent"),
        ("room\tnoun\troom", "NFC Hangul"),
        ("방\tnoun\t방 room", "contains Hangul"),
        ("방\tnoun\tliving  room", "extra spaces"),
    ],
)
def test_parse_errors_quote_file_and_line(line, message):
    with pytest.raises(LexiconError, match=message) as info:
        parse_line(line, "lex.tsv:7")
    assert str(info.value).startswith("lex.tsv:7: ")


def test_nfd_lemma_rejected():
    import unicodedata

    with pytest.raises(LexiconError, match="NFC"):
        parse_line(unicodedata.normalize("NFD", "방") + "\tnoun\troom", "x:1")


def test_load_reports_line_number_of_bad_line(tmp_path):
    path = write(tmp_path, "# ktr-lexicon/1\n방\tnoun\troom\n\n열쇠\tnoun\n")
    with pytest.raises(LexiconError, match=r"lex\.tsv:4: expected 3"):
        load_lexicon(path)


def test_duplicate_entry_in_one_file(tmp_path):
    path = write(tmp_path, "방\tnoun\troom\n방\tnoun\tchamber\n")
    with pytest.raises(LexiconError, match=r"lex\.tsv:2: duplicate entry 방/noun \(first at .*lex\.tsv:1\)"):
        load_lexicon(path)


def test_stacking_adds_equivalents_and_changes_hash(tmp_path):
    a = write(tmp_path, "방\tnoun\troom\n", "a.tsv")
    b = write(tmp_path, "방\tnoun\tchamber;room\n열쇠\tnoun\tkey\n", "b.tsv")
    one, both = load_lexicon(a), load_lexicon([a, b])
    assert both.get("방", "noun").equivalents == ("room", "chamber")
    assert len(both) == 2 and one.digest != both.digest


def test_lookup_fallbacks(tmp_path):
    lex = load_lexicon(write(tmp_path, "여기\tpronoun\there\n유명하다\tadjective\tfamous\n공부\tnoun\tstudy\n"))
    assert lex.lookup("여기", "pronoun").via == "entry"
    assert lex.lookup("여기", "adverb").via == "other-class"
    found = lex.lookup("유명", "noun")
    assert (found.via, found.equivalents) == ("derived", ("famous",))
    assert lex.lookup("공부하다", "verb").equivalents == ("study",)
    assert lex.lookup("314", "digits").equivalents == ("314",)
    assert lex.lookup("없는말", "noun") is None


def test_shipped_lexicons_have_the_entries_the_docs_give():
    import re

    from tests.conftest import ROOT

    text = (ROOT / "docs" / "lexicons.md").read_text(encoding="utf-8")
    core, senses = (int(n.replace(",", "")) for n in re.findall(r"([\d,]+) entries", text)[:2])
    assert (len(load_lexicon("core")), len(load_lexicon("senses"))) == (core, senses)
    rows = [
        line
        for line in (ROOT / "lexicons" / "paper.tsv").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert len(load_lexicon("paper")) == len(rows)  # one entry per line: none lost or merged


def test_unknown_shipped_name():
    with pytest.raises(LexiconError, match="no shipped lexicon named 'nope'"):
        load_lexicon("nope")


def test_senses_complements_core_entries_and_stacks_after_them():
    core, senses = load_lexicon("core"), load_lexicon("senses")
    assert {(e.lemma, e.cls) for e in senses} <= {(e.lemma, e.cls) for e in core}
    both = load_lexicon(("core", "senses"))
    for entry in senses:
        own = core.lookup(entry.lemma, entry.cls).equivalents
        stacked = both.lookup(entry.lemma, entry.cls).equivalents
        assert stacked[: len(own)] == own and set(stacked) == set(own) | set(entry.equivalents)
