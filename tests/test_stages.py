"""The matching stages (ktr/matching/stages.py) one at a time, on output sentences written for
these tests: each keyword's targets are written out (as a lexicon entry would give them), the
output is tokenized by ktr, and inflected forms come from WordNet (``ktr.english.inflection``).
Each expected match (equivalent, token span, stage) is worked out by hand in the comment above it.
"""

from __future__ import annotations

from ktr.english.inflection import build
from ktr.english.tokens import capitalized_words, tokenize
from ktr.matching.stages import match_sentence
from ktr.matching.targets import Targets
from ktr.matching.transliteration import korean_key


def inflections(*words):
    """Inflected form -> base words for ``words``, from WordNet, as the scorer builds it."""
    return {form: tuple(bases) for form, bases in build(words).items()}


def match(targets, text, stages=("exact",), table=None, **options):
    """keyword index -> (equivalent, start, end, stage) of what each keyword matched in ``text``."""
    chosen = match_sentence(targets, tokenize(text), stages, table, **options)
    return {k: (c.equivalent, c.start, c.end, c.how) for k, c in sorted(chosen.items())}


STUDENT, TEACHER, SCHOOL = Targets(("student",)), Targets(("teacher",)), Targets(("school",))


# a word the source repeats (학생 … 학생) --------------------------------------------------------


def test_a_repeat_takes_a_free_token_even_before_its_first_occurrence():
    # 선생님, 학교, 학생, 학생 against "student teacher school student": the first 학생 (third of
    # four keywords) takes the nearer "student", token 3; its repeat takes token 0, which nobody
    # took, rather than sharing token 3
    got = match([TEACHER, SCHOOL, STUDENT, STUDENT], "student teacher school student")
    assert got == {
        0: ("teacher", 1, 2, "exact"),
        1: ("school", 2, 3, "exact"),
        2: ("student", 3, 4, "exact"),
        3: ("student", 0, 1, "exact"),
    }


def test_a_repeat_never_takes_a_token_another_keyword_holds():
    # 학생 (student, pupil), 제자 (pupil), 학생 against "a student and a pupil": "pupil" is
    # 제자's, so the repeated 학생 shares the first one's "student" (token 1) instead
    pupil = Targets(("student", "pupil"))
    got = match([pupil, Targets(("pupil",)), pupil], "a student and a pupil")
    assert got == {0: ("student", 1, 2, "exact"), 1: ("pupil", 4, 5, "exact"), 2: ("student", 1, 2, "exact")}


def test_a_repeat_takes_the_nearest_free_token():
    # 학생, 선생님, 학생 against "student teacher student and student": the repeat is the last
    # keyword (place 2.5 / 3 = 0.83); of the free tokens 2 (2.5 / 5 = 0.5) and 4 (0.9), token 4
    got = match([STUDENT, TEACHER, STUDENT], "student teacher student and student")
    assert got == {0: ("student", 0, 1, "exact"), 1: ("teacher", 1, 2, "exact"), 2: ("student", 4, 5, "exact")}


def test_a_repeat_sharing_a_token_keeps_the_first_occurrence_s_equivalent():
    # 축 (axis, axe) twice against "two axes": WordNet's "axes" inflects both axe and axis; the
    # first 축 takes it as its first equivalent, axis, and the repeat shares it as axis too
    # (not as axe, the alphabetically smaller)
    axis = Targets(("axis", "axe"))
    got = match([axis, axis], "two axes", ("exact", "inflection"), inflections("axe", "axis"))
    assert got == {0: ("axis", 1, 2, "inflection"), 1: ("axis", 1, 2, "inflection")}


# phrases: as written (exact) or with an inflected word (inflection) ------------------------------

TAKE_PART = Targets(("take part",))


def test_a_phrase_matches_as_written_or_inflected_in_either_word():
    table = inflections("take", "part")
    both = ("exact", "inflection")
    assert match([TAKE_PART], "we take part", both, table) == {0: ("take part", 1, 3, "exact")}
    assert match([TAKE_PART], "we took part", both, table) == {0: ("take part", 1, 3, "inflection")}
    assert match([TAKE_PART], "we take parts", both, table) == {0: ("take part", 1, 3, "inflection")}
    # without the inflection stage, "took part" is no match
    assert match([TAKE_PART], "we took part", ("exact",), table) == {}


def test_a_phrase_cut_off_by_the_end_of_the_output_is_no_match():
    # "took" inflects the phrase's first word, but the output ends before "part"
    assert match([TAKE_PART], "they took", ("exact", "inflection"), inflections("take", "part")) == {}
    assert match([TAKE_PART], "they take", ("exact", "inflection"), inflections("take", "part")) == {}


# transliteration: names and loanwords by sound -------------------------------------------------

CLINTON = Targets(sound=korean_key("클린턴"), name=True)  # KLNTN


def names(text):
    return {"names": capitalized_words(text)}


def test_a_sound_at_the_threshold_matches():
    # "Linton" (LNTN) against KLNTN: one symbol of five missing, similarity 0.8, the default
    # threshold: a match (a key one symbol shorter than the name's is still compared)
    text = "Linton came"
    assert match([CLINTON], text, ("transliteration",), **names(text)) == {0: ("linton", 0, 1, "transliteration")}
    assert match([CLINTON], text, ("transliteration",), threshold=0.81, **names(text)) == {}


def test_the_closer_sound_wins_over_the_nearer_place():
    # "Linton" (0.8) is at the keyword's place, "Clinton" (1.0) far from it: the closer sound wins
    text = "Linton met Clinton"
    assert match([CLINTON], text, ("transliteration",), **names(text)) == {0: ("clinton", 2, 3, "transliteration")}


def test_a_name_matches_only_a_capitalized_word_a_loanword_any():
    text = "the clinton met Mr Lee"
    assert match([CLINTON], text, ("transliteration",), **names(text)) == {}
    loanword = Targets(sound=korean_key("클린턴"))  # the same sound, not a proper noun
    assert match([loanword], text, ("transliteration",), **names(text)) == {0: ("clinton", 1, 2, "transliteration")}
    # an output without capitals: any word may be the name
    assert match([CLINTON], "the clinton met", ("transliteration",)) == {0: ("clinton", 1, 2, "transliteration")}
