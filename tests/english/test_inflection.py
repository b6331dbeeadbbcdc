"""Inflected matching with forms generated from the real WordNet."""

import pytest

from ktr import Config, Scorer
from ktr.english.inflection import adjective_forms, build, noun_forms, verb_forms


@pytest.mark.parametrize(
    "fn, word, forms",
    [
        (verb_forms, "wait", {"waits", "waited", "waiting"}),
        (verb_forms, "stop", {"stops", "stopped", "stopping"}),
        (verb_forms, "study", {"studies", "studied", "studying"}),
        (verb_forms, "like", {"likes", "liked", "liking"}),
        (verb_forms, "die", {"dies", "died", "dying"}),
        (noun_forms, "room", {"rooms"}),
        (noun_forms, "box", {"boxes"}),
        (noun_forms, "city", {"cities"}),
        (noun_forms, "leaf", {"leafs", "leaves"}),
        (noun_forms, "woman", {"women"}),  # WordNet's -man/-men rule: noun.exc does not list it
        (noun_forms, "chairman", {"chairmen"}),
        (noun_forms, "human", {"humans"}),
        (adjective_forms, "big", {"biger", "bigest", "bigger", "biggest"}),
        (adjective_forms, "happy", {"happier", "happiest"}),
    ],
)
def test_regular_forms(fn, word, forms):
    assert forms <= fn(word)


def test_irregular_and_pos_gated_forms():
    table = build(["go", "child", "good", "buy", "new", "wait"])
    assert table["went"] == ["go"] and table["gone"] == ["go"]
    assert table["children"] == ["child"] and table["better"] == ["good"] and table["bought"] == ["buy"]
    assert "news" not in table  # new is not a noun: no plural is generated
    assert table["waiting"] == ["wait"]
    assert build(["woman"])["women"] == ["woman"]


def test_thank_you_for_waiting_transfers_both_keywords(tmp_path, monkeypatch, kiwi):
    monkeypatch.setenv("KTR_CACHE_DIR", str(tmp_path))
    src, hyp = ["기다려 주셔서 감사합니다."], ["Thank you for waiting."]
    exact = (
        Scorer(Config(lexicons=("paper",), matching=("exact",)), analyzer=kiwi).score(src, hyp).systems[0].sentences[0]
    )
    inflected = Scorer(Config(lexicons=("paper",), matching=("exact", "inflection")), analyzer=kiwi)
    seg = inflected.score(src, hyp).systems[0].sentences[0]
    assert exact.score == 0.5 and seg.score == 1.0
    assert [(k.keyword.lemma, k.matched, k.how) for k in seg.keywords] == [
        ("기다리다", "wait", "inflection"),
        ("감사하다", "thank you", "exact"),
    ]


def test_phrases_match_with_an_inflected_word(tmp_path, monkeypatch, kiwi):
    monkeypatch.setenv("KTR_CACHE_DIR", str(tmp_path))
    lex = tmp_path / "l.tsv"
    lex.write_text("# ktr-lexicon/1\n백화점\tnoun\tdepartment store\n", encoding="utf-8")
    scorer = Scorer(Config(lexicons=(str(lex),), matching=("exact", "inflection")), analyzer=kiwi)
    kw = scorer.score(["백화점"], ["Two department stores."]).systems[0].sentences[0].keywords[0]
    assert (kw.matched, kw.how, kw.span) == ("department store", "inflection", (1, 3))
