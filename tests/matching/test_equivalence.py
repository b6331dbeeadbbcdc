"""Equivalence, not relatedness, in the stages that credit a word other than the lexicon entry's
own (issue 39): the synonym stage leaves out a WordNet lemma whose synset is a rare sense of its
own, the derivation stage a derived word that says the other side of what the entry says, and
each shows where the output has such a word ('refused', with the stage and the reason). On
sentences written for these tests, with Kiwi and mecab-ko."""

import pytest
from conftest import analyzer

from ktr import KTR, Config
from ktr.english.wordnet import load
from ktr.lexicon.expand import rare_synonyms_of, synonyms_of


@pytest.fixture(scope="module", params=["kiwi", "mecab"])
def metric(request):
    return KTR(Config(), analyzer=analyzer(request.param))


def keyword(found, lemma):
    (k,) = [k for k in found.keywords if k.keyword.lemma == lemma]
    return k


def test_a_synonym_must_mean_that_sense_itself():
    # teach's first synset is {teach, learn, instruct}: it is the first sense of "instruct" and
    # only the fifth of "learn", which a reader takes for the other side of teaching
    wn = load()
    assert "instruct" in synonyms_of(wn, "teach", "v", 2) and "learn" not in synonyms_of(wn, "teach", "v", 2)
    assert "learn" in rare_synonyms_of(wn, "teach", "v", 2)
    assert "purchase" in synonyms_of(wn, "buy", "v", 2)


def test_a_synonym_is_credited_and_a_rare_sense_refused(metric):
    found = metric.sentence_score("그는 작은 집에 산다.", "He lives in a small abode.")
    assert (keyword(found, "집").matched, keyword(found, "집").how) == ("abode", "synonym")
    found = metric.sentence_score("그는 수학을 가르쳤다.", "He learned math.")
    k = keyword(found, "가르치다")
    assert k.matched is None
    assert ("learned", "synonym", "a rare sense of learn") in [(r.words, r.how, r.reason) for r in k.refused]


def test_a_derivation_that_is_a_converse_is_refused(metric):
    # 배우다 is learn, study, be taught: "be taught" brings its participle and its verb, and
    # "teach" is what causes another to learn
    found = metric.sentence_score("나는 영어를 배웠다.", "I was teaching English.")
    k = keyword(found, "배우다")
    assert k.matched is None
    assert ("teaching", "derivation", "converse of learn") in [(r.words, r.how, r.reason) for r in k.refused]
    found = metric.sentence_score("나는 영어를 배웠다.", "I was taught English.")
    k = keyword(found, "배우다")
    assert (k.matched, k.how, k.refused) == ("be taught", "inflection", ())
