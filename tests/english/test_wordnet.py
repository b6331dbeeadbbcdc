"""Synonym and derivation expansion with the real WordNet, their cache, and the error when WordNet is absent."""

from pathlib import Path

import pytest

from ktr import Config, Scorer
from ktr.errors import BackendUnavailable
from ktr.lexicon import load_lexicon
from ktr.lexicon.expand import derivation_table, derivations_of, synonym_table, synonyms_of


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
    assert synonym_table(lexicon, 1) == first  # read back from the file
    synonym_table(lexicon, 2)
    assert len(list(tmp_path.glob("synonyms-*.json"))) == 2  # the options are part of the key
    assert first[("사다", "verb")] == ("purchase",)


def test_only_the_first_equivalents_are_expanded_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("KTR_CACHE_DIR", str(tmp_path))
    path = tmp_path / "lex.tsv"
    path.write_text("# ktr-lexicon/1\n사다\tverb\tbuy;get\n", encoding="utf-8")
    lexicon = load_lexicon(str(path))
    every, first = synonym_table(lexicon, 1, 0)[("사다", "verb")], synonym_table(lexicon, 1, 1)[("사다", "verb")]
    assert first == ("purchase",)  # buy's first sense only
    assert every[:1] == first and len(every) > 1  # get's synonyms after it
    assert len(list(tmp_path.glob("synonyms-*.json"))) == 2  # the option is part of the key
    signature = Scorer(Config(lexicons=(str(path),), expanded_equivalents=1)).signature.short()
    assert "syn:wn3.0-" in signature and "/senses2/eq1" in signature


def test_derivations_are_wordnet_s_own_links_in_the_first_senses_then_suffixes(wn):
    # WordNet's links first, in its order; then the words a suffix or two away (ktr.english.derivation)
    assert derivations_of(wn, "criticism", "n", 2) == ["critical", "criticise", "criticize", "critic"]
    assert derivations_of(wn, "decision", "n", 2) == ["decide"]
    assert derivations_of(wn, "create", "v", 2)[:3] == ["creature", "creative", "creation"]
    assert {"creator", "creatively"} <= set(derivations_of(wn, "create", "v", 2))
    assert "president" not in derivations_of(wn, "present", "a", 2)  # a shared spelling is no link
    assert derivations_of(wn, "department store", "n", 2) == []
    assert derivations_of(wn, "silent", "a", 2) == ["silence", "silently"]


def test_suffix_families_undo_suffixes_with_english_spelling_and_parts_of_speech():
    from ktr.english.derivation import Families

    vocabulary = {
        "research": "nv",
        "researcher": "n",
        "differ": "v",
        "different": "a",
        "differently": "r",
        "inform": "v",
        "information": "n",
        "informal": "a",
        "happy": "a",
        "happiness": "n",
        "gentle": "a",
        "gently": "r",
        "office": "n",
        "officer": "n",
        "part": "nv",
        "party": "n",
        "state": "nv",
        "station": "n",
        "statement": "n",
        "create": "v",
        "creation": "n",
    }
    families = Families(vocabulary)
    assert families.related("researcher") == ["research"]
    assert families.related("differ") == ["different", "differently"]  # two suffixes down
    assert families.related("differently") == ["different", "differ"]  # nearest ancestor first
    assert families.related("happiness") == ["happy"] and families.related("gently") == ["gentle"]
    assert families.related("creation") == ["create"]  # the e restored
    assert "informal" not in families.related("information")  # siblings are not related
    assert families.related("office") == []  # -er makes nouns of verbs; office is no verb
    assert families.related("part") == []  # -y makes adjectives; party is a noun
    assert families.related("state") == ["statement"]  # stat + e is too short a stem: not station


def test_derivation_table_is_cached_and_keyed_by_senses(tmp_path, monkeypatch):
    monkeypatch.setenv("KTR_CACHE_DIR", str(tmp_path))
    lexicon = load_lexicon("core")
    one, two = derivation_table(lexicon, 1), derivation_table(lexicon, 2)
    assert len(list(tmp_path.glob("derivations-*.json"))) == 2
    assert derivation_table(lexicon, 2) == two
    assert "criticize" in two[("비난", "noun")] and set(one[("비난", "noun")]) <= set(two[("비난", "noun")])


def test_derivation_stage_matches_a_word_of_the_family_in_any_form(kiwi):
    stages = ("exact", "inflection", "synonym")  # core alone: senses.tsv lists criticize for 비난 itself
    plain = Scorer(Config(lexicons=("core",), matching=stages), analyzer=kiwi)
    derived = Scorer(Config(lexicons=("core",), matching=(*stages, "derivation")), analyzer=kiwi)
    src, hyp = ["그 결정은 많은 비난을 받았다."], ["The decision was widely criticized."]
    lemma = "비난"
    assert not next(
        k for k in plain.score(src, hyp).systems[0].sentences[0].keywords if k.keyword.lemma == lemma
    ).transferred
    kw = next(k for k in derived.score(src, hyp).systems[0].sentences[0].keywords if k.keyword.lemma == lemma)
    assert (kw.matched, kw.how) == ("criticize", "derivation")
    assert "derived criticize" in kw.tried
    assert "der:wn3.0" in derived.signature.short() and "der:" not in plain.signature.short()


def test_be_and_a_participle_matches_the_participle_and_its_verb_in_any_form(tmp_path, monkeypatch, kiwi, wn):
    from ktr.english.derivation import participle

    assert participle("be banned", wn.morphy) == ("banned", "ban")
    assert participle("get held", wn.morphy) == ("held", "hold")
    assert participle("be ready", wn.morphy) == () and participle("banned", wn.morphy) == ()
    monkeypatch.setenv("KTR_CACHE_DIR", str(tmp_path))
    lex = tmp_path / "lex.tsv"
    lex.write_text("# ktr-lexicon/1\n금지되다\tverb\tbe banned\n약물\tnoun\tdrug\n", encoding="utf-8")
    src = ["그 약물은 금지되었다."]
    for stages, hyp, found in (
        (("exact", "inflection"), "The drug was banned.", ("be banned", "inflection")),
        (("exact", "inflection"), "They are banning the drug.", None),
        (("exact", "inflection", "derivation"), "They are banning the drug.", ("ban", "derivation")),
    ):  # "banning" as a form of ban
        scorer = Scorer(Config(lexicons=(str(lex),), matching=stages), analyzer=kiwi)
        kw = next(k for k in scorer.score(src, [hyp]).systems[0].sentences[0].keywords if k.keyword.lemma == "금지되다")
        assert ((kw.matched, kw.how) if kw.transferred else None) == found


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

    monkeypatch.setattr(wordnet, "SHIPPED", tmp_path / "gone" / "wordnet.zip")
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path / "empty")])
    with pytest.raises(
        BackendUnavailable,
        match=r"WordNet is missing: .*reinstall ktr.*looked in: .*empty.* "
        r"scripts/setup_wordnet\.py, and named by KTR_WORDNET",
    ):
        wordnet.wordnet_dir()
    monkeypatch.setenv("KTR_WORDNET", str(tmp_path / "nowhere"))
    with pytest.raises(BackendUnavailable, match=r"KTR_WORDNET=.*nowhere: no such WordNet folder or zip"):
        wordnet.wordnet_dir()


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory):
    """The shipped zip unpacked into an NLTK data folder, as setup_wordnet.py installs one."""
    import zipfile

    from ktr.english import wordnet

    root = tmp_path_factory.mktemp("nltk_data")
    with zipfile.ZipFile(wordnet.SHIPPED) as archive:
        archive.extractall(root / "corpora")
    return root / "corpora" / "wordnet"


def test_the_shipped_wordnet_comes_before_nltk_s_data_path(unpacked, monkeypatch):
    import nltk

    from ktr.english import wordnet

    monkeypatch.delenv("KTR_WORDNET", raising=False)
    monkeypatch.setattr(nltk.data, "path", [str(unpacked.parent.parent)])
    assert nltk.data.find("corpora/wordnet")  # NLTK would read the unpacked one
    assert wordnet.wordnet_dir() == wordnet.SHIPPED
    assert wordnet.wordnet_dir().is_relative_to(Path(wordnet.__file__).parent)
    assert "LICENSE-WordNet" in {p.name for p in wordnet.SHIPPED_DATA.iterdir()}


def test_zipped_or_unpacked_the_same_wordnet_gives_the_same_signature_and_tables(unpacked, monkeypatch):
    """The signature's WordNet part is the one scores were published with before WordNet shipped
    inside ktr (Debian's WordNet 3.0 files in a folder): the zip changes no score and no signature."""
    from ktr.english import inflection, wordnet

    words = {"go", "child", "wait", "new", "woman", "criticize"}
    monkeypatch.delenv("KTR_WORDNET", raising=False)
    wordnet.fingerprint.cache_clear()
    zipped = wordnet.fingerprint(), inflection.build(words)
    monkeypatch.setenv("KTR_WORDNET", str(unpacked))
    wordnet.fingerprint.cache_clear()
    try:
        assert wordnet.wordnet_dir() == unpacked
        assert (wordnet.fingerprint(), inflection.build(words)) == zipped
    finally:
        wordnet.fingerprint.cache_clear()
    assert zipped[0] == "3.0-21744920"
    assert zipped[1]["went"] == ["go"] and zipped[1]["children"] == ["child"] and zipped[1]["women"] == ["woman"]


def test_nltk_reads_the_synsets_from_the_zip(wn, unpacked, monkeypatch):
    import nltk

    from ktr.english import wordnet

    assert wordnet.wordnet_dir().suffix == ".zip" and wn.get_version() == "3.0"
    count = wn.synsets("dog")[0].lemmas()[0].count()
    monkeypatch.setenv("KTR_WORDNET", str(unpacked))
    monkeypatch.setattr(nltk.data, "path", [])  # no other WordNet for NLTK to look up
    from_folder = wordnet.load()
    assert from_folder is not wn
    for word, pos in (("dog", "n"), ("say", "v"), ("quick", "a")):
        assert [s.name() for s in wn.synsets(word, pos)] == [s.name() for s in from_folder.synsets(word, pos)]
        assert [s.definition() for s in wn.synsets(word, pos)] == [
            s.definition() for s in from_folder.synsets(word, pos)
        ]
    assert count == from_folder.synsets("dog")[0].lemmas()[0].count() > 0
