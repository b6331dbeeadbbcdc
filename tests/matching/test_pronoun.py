"""The pronoun stage: a noun or name marked as subject, carried by the one pronoun that can stand
for it, on both analyzers; and what it reads (the particle, WordNet's people)."""

from __future__ import annotations

import pytest

from ktr import KTR, Config
from ktr.english.relations import names_a_person
from ktr.korean.keywords import Keyword, subject_mark
from tests.conftest import analyzer


@pytest.fixture(scope="module", params=["kiwi", "mecab"])
def metric(request):
    return KTR(Config(analyzer=request.param), analyzer=analyzer(request.param))


def how(metric, source, output, lemma):
    found = [(k.matched, k.how) for k in metric.sentence_score(source, output).keywords if k.keyword.lemma == lemma]
    assert found, f"{lemma} is no keyword of {source}"
    return found[0]


@pytest.mark.parametrize(
    "source, output, lemma, matched",
    [
        ("남편은 의사였다.", "He was a doctor.", "남편", "he"),  # a person, marked as topic
        ("카라지치는 체포되었다.", "He was arrested.", "카라지치", "he"),  # a name WordNet does not know
        ("회사가 문을 닫았다.", "It closed its doors.", "회사", "it"),  # a thing
        ("학생들이 학교에 왔다.", "They came to school.", "학생", "they"),  # marked plural
    ],
)
def test_a_marked_noun_is_carried_by_the_pronoun_that_stands_for_it(metric, source, output, lemma, matched):
    assert how(metric, source, output, lemma) == (matched, "pronoun")


@pytest.mark.parametrize(
    "source, output, lemma",
    [
        # the source has its own pronoun, which "he" translates
        ("그는 남편이 의사라고 말했다.", "He said he was a doctor.", "남편"),
        # two people marked as subject: "he" could be either
        ("남편은 의사였고 아들은 학생이었다.", "He was a doctor and was a student.", "남편"),
        # a person is not "it", a thing not "he"
        ("남편은 의사였다.", "It was a doctor.", "남편"),
        ("회사가 문을 닫았다.", "He closed its doors.", "회사"),
        # not marked as subject (an object)
        ("남편을 의사가 만났다.", "The doctor met him.", "남편"),
        # the output names someone no keyword stands for: "he" may be him
        ("남편은 의사였다.", "He, Mr. Smith, was a doctor.", "남편"),
        # too little of the line transferred: an output of another sentence has pronouns too
        ("남편은 의사였고 서울에 살았다.", "He likes apples.", "남편"),
    ],
)
def test_a_pronoun_that_could_mean_something_else_credits_nothing(metric, source, output, lemma):
    assert how(metric, source, output, lemma) == (None, None)


def test_a_pronoun_another_keyword_holds_is_not_shared(metric):
    # 그 takes "he" as written; 남편 has no other pronoun (and 그 blocks the rule anyway)
    assert how(metric, "그는 의사였다.", "He was a doctor.", "그") == ("he", "exact")


def test_the_stage_is_in_the_signature_and_can_be_left_out(kiwi):
    assert "pronoun" in KTR(Config()).signature().short()
    without = KTR(Config(matching=Config().matching[:-1]), analyzer=kiwi)
    assert how(without, "남편은 의사였다.", "He was a doctor.", "남편") == (None, None)


@pytest.mark.parametrize(
    "text, start, end, cls, mark",
    [
        ("남편은 왔다", 0, 2, "noun", "subject"),
        ("회사가 닫았다", 0, 2, "noun", "subject"),
        ("학생들이 왔다", 0, 2, "noun", "plural"),
        ("남편을 만났다", 0, 2, "noun", ""),
        ("학생들을 만났다", 0, 2, "noun", ""),
        ("그는 왔다", 0, 1, "pronoun", ""),  # a pronoun is the source's own
    ],
)
def test_subject_mark(text, start, end, cls, mark):
    assert subject_mark(text, Keyword(text[start:end], "NNG", cls, start, end)) == mark


def test_names_a_person_reads_wordnets_lexicographer_files():
    assert names_a_person("husband") and names_a_person("president") and names_a_person("parents")
    assert names_a_person("company") is False and names_a_person("city") is False
    assert names_a_person("karadzic") is None
