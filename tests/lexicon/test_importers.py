import unicodedata
from pathlib import Path

import pytest

from ktr.errors import LexiconError
from ktr.lexicon import load_lexicon
from ktr.lexicon.importers import FORMATS, clean_english, clean_lemma, import_file, write_tsv

DATA = Path(__file__).resolve().parents[1] / "data" / "importers"
FIXTURES = {"kengdic": "kengdic.tsv", "krdict": "krdict.xml", "muse": "muse.txt", "tsv": "generic.tsv"}

EXPECTED = {
    "kengdic": (
        [
            ("방", "noun", ("room",)),
            ("사과", "noun", ("apple", "apology", "excuse")),
            ("사다", "verb", ("buy", "purchase", "get")),
            ("텔레비전", "noun", ("TV", "television", "television set")),
        ],
        {"too few columns": 1, "no English": 1, "lemma not a Hangul word": 1},
    ),
    "krdict": (
        [
            ("빨리", "adverb", ("quickly", "fast", "soon")),
            ("사과", "noun", ("apple", "apology")),
            ("사다", "verb", ("buy", "incur")),
            ("서울", "proper_noun", ("Seoul",)),
            ("층", "bound_noun", ("floor",)),
        ],
        {"unknown part of speech": 1, "no English": 1, "lemma not a Hangul word": 1, "no written form": 1},
    ),
    "muse": (
        [
            ("기다리다", "verb", ("wait",)),
            ("방", "noun", ("room",)),
            ("사과", "noun", ("apple", "apology")),
            ("사다", "verb", ("buy",)),
            ("텔레비전", "noun", ("TV",)),
        ],
        {"no English": 1, "lemma not a Hangul word": 1, "not a pair": 1},
    ),
    "tsv": (
        [
            ("가다", "verb", ("go", "leave", "walk")),
            ("그", "determiner", ("that",)),
            ("사다", "noun", ("buy",)),
            ("사람", "noun", ("person", "people", "human", "man", "individual", "someone", "fellow", "guy")),
            ("서울", "proper_noun", ("Seoul",)),
            ("우리", "pronoun", ("we", "us")),
            ("유명하다", "adjective", ("famous", "well-known")),
            ("층", "bound_noun", ("floor", "story")),
        ],
        {"unknown part of speech": 1, "wrong number of columns": 1, "predicate not in 다 form": 1},
    ),
}


def triples(entries):
    return [(e.lemma, e.cls, e.equivalents) for e in entries]


@pytest.mark.parametrize("fmt", FORMATS)
def test_import_fixture(fmt):
    result = import_file(fmt, DATA / FIXTURES[fmt])
    entries, skipped = EXPECTED[fmt]
    assert triples(result.entries) == entries
    assert result.skipped == skipped


def test_where_is_first_record():
    result = import_file("kengdic", DATA / "kengdic.tsv")
    by_lemma = {e.lemma: e for e in result.entries}
    assert by_lemma["사과"].where.endswith("kengdic.tsv:2")
    assert by_lemma["사다"].where.endswith("kengdic.tsv:4")


@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip(fmt, tmp_path):
    result = import_file(fmt, DATA / FIXTURES[fmt])
    out = tmp_path / "out.tsv"
    assert write_tsv(reversed(result.entries), out) == len(result.entries)
    assert out.read_text(encoding="utf-8").startswith("# ktr-lexicon/1\n")
    assert triples(load_lexicon(str(out))) == triples(result.entries)
    again = import_file("tsv", out)
    assert triples(again.entries) == triples(result.entries) and again.skipped == {}


def test_nfd_lemma_and_superscript_homograph(tmp_path):
    path = tmp_path / "pairs.txt"
    path.write_text(unicodedata.normalize("NFD", "사다") + "\u00b9\tTo  Buy\n", encoding="utf-8")
    assert triples(import_file("muse", path).entries) == [("사다", "verb", ("buy",))]


@pytest.mark.parametrize("raw, cleaned", [("사다01", "사다"), ("사다¹", "사다"), ("방 2", "방"), ("2월", "2월")])
def test_clean_lemma(raw, cleaned):
    assert clean_lemma(raw) == cleaned


@pytest.mark.parametrize(
    "raw, cls, cleaned",
    [
        ("  Department   Store ", "noun", "department store"),
        ("U.S. dollar", "noun", "U.S. dollar"),
        ("to be famous", "adjective", "be famous"),
        ("to", "verb", "to"),
        ("(formal)", "noun", ""),
        ("방 room", "noun", ""),
        ("New York", "proper_noun", "New York"),
    ],
)
def test_clean_english(raw, cls, cleaned):
    assert clean_english(raw, cls) == cleaned


def test_write_tsv_rejects_invalid_entry(tmp_path):
    from ktr.lexicon.format import Entry

    out = tmp_path / "bad.tsv"
    with pytest.raises(LexiconError, match="ends in 다"):
        write_tsv([Entry("사", "verb", ("buy",), "x:1")], out)
    assert not out.exists()


@pytest.mark.parametrize(
    "fmt, content, message",
    [
        ("krdict", b"<LexicalResource><Lexicon><LexicalEntry>", r"bad\.dat:1: cannot parse XML"),
        ("krdict", b"<LexicalResource/>", r"bad\.dat: no <LexicalEntry>"),
        ("krdict", b"\x00\xff\xfe garbage", r"bad\.dat:1: cannot parse XML"),
        ("kengdic", b"id\tsurface\n1\t\xff\xfe\tx\ty\n", r"bad\.dat:2: invalid UTF-8"),
        ("muse", b"\x89PNG\r\n\x1a\n\x00\x00", r"bad\.dat:1: invalid UTF-8"),
        ("tsv", "방\tnoun\troom\n".encode("utf-16"), r"bad\.dat:1: invalid UTF-8"),
    ],
)
def test_garbled_file_names_file(fmt, content, message, tmp_path):
    path = tmp_path / "bad.dat"
    path.write_bytes(content)
    with pytest.raises(LexiconError, match=message):
        import_file(fmt, path)


@pytest.mark.parametrize("fmt", FORMATS)
def test_missing_file_names_file(fmt, tmp_path):
    with pytest.raises(LexiconError, match=r"nope\.txt: cannot read"):
        import_file(fmt, tmp_path / "nope.txt")


def test_unknown_format():
    with pytest.raises(LexiconError, match="unknown dictionary format 'csv'"):
        import_file("csv", DATA / "muse.txt")


def test_cli_import_writes_a_loadable_lexicon(tmp_path):
    from tests.cli.test_main import ktr

    out = tmp_path / "out.tsv"
    proc = ktr("lexicon", "import", "muse", DATA / "muse.txt", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert "entries written to" in proc.stderr
    assert len(load_lexicon(str(out))) == int(proc.stderr.split()[0])
    bad = ktr("lexicon", "import", "nosuch", DATA / "muse.txt", "-o", out)
    assert bad.returncode == 1 and "nosuch" in bad.stderr and "Traceback" not in bad.stderr
