"""`ktr lexicon` tools and the lint of every shipped lexicon."""

import json
import unicodedata

import pytest

from ktr.lexicon import load_lexicon
from ktr.lexicon.format import read_entries
from ktr.resources import lexicons_dir
from tests.cli.test_main import ktr

SHIPPED = sorted(
    p for p in lexicons_dir().glob("*.tsv") if p.name not in ("idioms.tsv", "constructions.tsv", "periphrases.tsv")
)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_lint_shipped_lexicon(path):
    """Every line parses (format, class, equivalents, NFC); one line per key; sorted; clean equivalents."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ktr-lexicon/1\n")
    assert unicodedata.normalize("NFC", text) == text
    entries = list(read_entries(path))  # raises LexiconError with file:line on a bad line
    keys = [(e.lemma, e.cls) for e in entries]
    assert len(set(keys)) == len(keys), "duplicate (lemma, class)"
    assert keys == sorted(keys), "entries must be sorted by lemma, then class"
    # equivalents trimmed, single-spaced, none twice (matching folds case, so not even in another case)
    bad = [
        e.where
        for e in entries
        if any(x != x.strip() or "  " in x for x in e.equivalents)
        or len({x.casefold() for x in e.equivalents}) != len(e.equivalents)
    ]
    assert bad == []


def test_stats_counts_by_class(tmp_path):
    p = tmp_path / "l.tsv"
    p.write_text(
        "# ktr-lexicon/1\n방\tnoun\troom\n사다\tverb\tbuy;purchase\n호실\tbound_noun\troom number\n", encoding="utf-8"
    )
    doc = json.loads(ktr("lexicon", "stats", "-l", p, "-f", "json").stdout)
    assert doc["entries"] == 3 and doc["by_class"]["noun"] == 1 and doc["by_class"]["verb"] == 1
    assert doc["equivalents_per_entry"] == pytest.approx(4 / 3, abs=1e-3)
    assert doc["multiword_equivalents"] == 1


def test_lookup_and_dump():
    proc = ktr("lexicon", "lookup", "백화점", "-l", "paper")
    assert proc.returncode == 0 and proc.stdout.startswith("백화점\tnoun\tdepartment store\t")
    missing = ktr("lexicon", "lookup", "없는낱말", "-l", "paper")
    assert missing.returncode == 1 and "not in the lexicon" in missing.stdout
    rows = [json.loads(line) for line in ktr("lexicon", "dump", "-l", "paper", "-f", "jsonl").stdout.splitlines()]
    assert len(rows) == len(load_lexicon("paper"))
    assert {"lemma": "호실", "class": "bound_noun", "equivalents": ["room number"]}.items() <= rows[-1].items()


def test_coverage_by_hand(tmp_path):
    src = tmp_path / "s.ko"
    src.write_text("방 열쇠 여기 있습니다.\n서울 314호실\n", encoding="utf-8")
    doc = json.loads(ktr("lexicon", "coverage", "-s", src, "-l", "paper", "-f", "json").stdout)
    # kiwi keywords: 방 열쇠 여기/NP 있다/VA | 서울/NNP 314/SN 호실 -> non-name, non-digit: 5, covered: 방 열쇠 호실
    assert doc["keyword_tokens"] == 7
    assert doc["coverage"] == pytest.approx(3 / 5)
    assert {m["lemma"] for m in doc["top_missing"]} == {"여기", "있다"}
    assert doc["by_class"]["digits"]["rate"] == 1.0
