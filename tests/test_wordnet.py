"""Synonym expansion with the real WordNet, its cache, and the error when WordNet is absent."""
import pytest

from ktr import Config, Scorer
from ktr.errors import BackendUnavailable
from ktr.lexicon import load_lexicon
from ktr.lexicon.expand import synonym_table, synonyms_of


@pytest.fixture(scope="module")
def wn():
    from ktr.english import wordnet
    return wordnet.load()


def test_synonyms_follow_part_of_speech_and_senses(wn):
    assert "tell" in synonyms_of(wn, "say", "v", 1)
    assert synonyms_of(wn, "say", "n", 1) != synonyms_of(wn, "say", "v", 1)
    assert set(synonyms_of(wn, "buy", "v", 1)) < set(synonyms_of(wn, "buy", "v", 3))
    assert synonyms_of(wn, "department store", "n", 1) == ["emporium"]


def test_table_is_cached_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("KTR_CACHE_DIR", str(tmp_path))
    lexicon = load_lexicon("paper")
    first = synonym_table(lexicon, 1)
    files = list(tmp_path.glob("synonyms-*.json"))
    assert len(files) == 1
    assert synonym_table(lexicon, 1) == first               # read back from the file
    synonym_table(lexicon, 2)
    assert len(list(tmp_path.glob("synonyms-*.json"))) == 2  # the options are part of the key
    assert first[("사다", "verb")] == ("purchase",)


def test_synonym_stage_matches_a_synonym_only_when_enabled(tmp_path, monkeypatch, kiwi):
    monkeypatch.setenv("KTR_CACHE_DIR", str(tmp_path))
    lex = tmp_path / "lex.tsv"
    lex.write_text("# ktr-lexicon/1\n사다\tverb\tbuy\n", encoding="utf-8")
    exact = Scorer(Config(lexicons=(str(lex),), classes=("verb",), matching=("exact",)), analyzer=kiwi)
    both = Scorer(Config(lexicons=(str(lex),), classes=("verb",), matching=("exact", "synonym")), analyzer=kiwi)
    src, hyp = ["그가 옷을 산다."], ["He will purchase clothes."]
    assert exact.score(src, hyp).systems[0].sentences[0].score == 0.0
    kw = both.score(src, hyp).systems[0].sentences[0].keywords[0]
    assert (kw.matched, kw.how) == ("purchase", "synonym")
    assert "syn:wn3.0" in both.signature.short()


def test_missing_wordnet_is_a_clear_error(tmp_path, monkeypatch):
    import nltk

    from ktr.english import wordnet
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path / "empty")])
    with pytest.raises(BackendUnavailable, match=r"WordNet .* not installed; looked in: .*empty.* scripts/setup_wordnet\.py"):
        wordnet.wordnet_dir()
