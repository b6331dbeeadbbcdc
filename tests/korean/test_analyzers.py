"""Every backend, real, on real sentences: same Morpheme type, sensible lemmas and classes."""

import pytest

from ktr.errors import BackendUnavailable, ConfigError
from ktr.korean.analyzers import Analyzer, Morpheme, available_analyzers, get_analyzer
from ktr.korean.keywords import extract, load_tagset
from tests.conftest import analyzer, requires_java

SENTENCE = "그 사람이 옷을 사서 저한테 선물로 줬어요."
JVM = {"okt", "komoran", "hannanum", "kkma"}


def params():
    return [pytest.param(name, marks=[requires_java] if name in JVM else [], id=name) for name in available_analyzers()]


# How each backend reads 사서 ("bought and"): the right reading is the verb 사다.
# These are the analyzers' own errors, pinned so a change of version shows up here.
SASEO = {
    "kiwi": "사다",
    "hannanum": "사다",
    "kkma": "사다",
    "mecab": "살다",  # mecab-ko-dic: 살/VV (to live)
    "okt": "사서",  # Okt: a noun (librarian)
    "komoran": "사서",
}  # Komoran: NNP


@pytest.mark.parametrize("name", params())
def test_backend_yields_morphemes_with_offsets(name):
    a = analyzer(name)
    assert isinstance(a, Analyzer) and a.version
    morphemes = a.analyze(SENTENCE)
    assert morphemes and all(isinstance(m, Morpheme) for m in morphemes)
    for m in morphemes:
        assert 0 <= m.start <= m.end <= len(SENTENCE)
    assert a.analyze("   ") == [] and a.analyze("") == []
    assert a.analyze_many(["", SENTENCE]) == [[], morphemes]


@pytest.mark.parametrize("name", params())
def test_backend_keywords(name):
    a = analyzer(name)
    table = load_tagset(a.tagset)
    from ktr.korean.keywords import CLASSES

    kws = extract(a.analyze(SENTENCE), table, frozenset(CLASSES))
    lemmas = {k.lemma for k in kws}
    assert {"사람", "옷", "선물"} <= lemmas
    # particles and endings never become keywords
    assert not lemmas & {"이", "을", "한테", "로", "어요"}
    assert SASEO[name] in lemmas
    assert all(k.cls for k in kws)


def test_mecab_splits_inflected_tokens():
    a = analyzer("mecab")
    ms = a.analyze("학교에 왔다")
    assert ("오다", "VV") in {(m.lemma, m.tag) for m in ms}
    kws = extract(ms, load_tagset("sejong"), frozenset({"verb", "noun"}))
    assert [(k.lemma, k.cls) for k in kws] == [("학교", "noun"), ("오다", "verb")]


def test_kiwi_roots_and_noun_suffixes_join(kiwi):
    kws = extract(kiwi.analyze("깨끗한 방과 손님"), load_tagset("sejong"), frozenset({"noun", "adjective"}))
    assert [(k.lemma, k.cls) for k in kws][-1] == ("손님", "noun")
    digits = extract(kiwi.analyze("1,000명이 왔다"), load_tagset("sejong"), frozenset({"digits"}))
    assert [k.lemma for k in digits] == ["1000"]


def test_unknown_backend_names_the_choices():
    with pytest.raises(ConfigError, match="unknown analyzer 'mecab-ko'; choose one of: hannanum, kiwi"):
        get_analyzer("mecab-ko")


def test_missing_package_names_what_to_install(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("mecab_ko"):
            raise ImportError("no mecab", name="mecab_ko")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(BackendUnavailable, match=r"analyzer 'mecab' needs .*mecab_ko.*pip install 'ktr\[mecab\]'"):
        get_analyzer("mecab")
