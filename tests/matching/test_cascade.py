import os
import subprocess
import sys

import pytest

from ktr import Config, Scorer
from ktr.english.inflection import build
from ktr.english.tokens import capitalized_words, tokenize
from ktr.matching.cascade import match_sentence
from ktr.matching.stage import Matching
from ktr.matching.targets import Targets
from ktr.matching.transliteration import korean_key


def run(equivalents, text):
    chosen = match_sentence([Targets(tuple(e)) for e in equivalents], tokenize(text))
    return {k: (c.equivalent, c.start, c.end) for k, c in chosen.items()}


def test_tokenize_folds_case_and_numbers():
    assert tokenize("The 1,000 Rooms, 12.3 o'clock; Well-known.") == (
        "the",
        "1000",
        "rooms",
        "12.3",
        "o'clock",  # one word (issue 40: it was two added words)
        "well",
        "known",
    )


def test_dotted_abbreviations_become_one_token():
    assert tokenize("The U.S. and the U.N. met.") == ("the", "us", "and", "the", "un", "met")


def test_phrase_and_single_words_share_tokens_optimally():
    # the paper's third example: 방 room, 314, 호실 "room number"; output "is room room number 314."
    got = run([("three",), ("class",), ("room",), ("314",), ("room number",)], "is room room number 314.")
    assert got == {2: ("room", 1, 2), 3: ("314", 4, 5), 4: ("room number", 2, 4)}


def test_one_token_credits_one_keyword():
    # two keywords of different entries that both accept "room"
    assert len(run([("room",), ("room", "chamber")], "a room")) == 1
    assert run([("room",), ("room", "chamber")], "a room and a room") == {0: ("room", 1, 2), 1: ("room", 4, 5)}


def test_assignment_is_maximal_not_greedy():
    # keyword 0 could take "go" or "leave"; keyword 1 only "go": greedy-first would lose one
    assert run([("go", "leave"), ("go",)], "go and leave") == {0: ("leave", 2, 3), 1: ("go", 0, 1)}


def test_tie_break_prefers_the_nearest_place_then_the_earlier_equivalent():
    # one keyword (the middle of the source): the "buy" in the middle of the output is nearest
    assert run([("buy", "purchase")], "purchase and buy and buy") == {0: ("buy", 2, 3)}
    # equally near: the equivalent listed first
    assert run([("buy", "purchase")], "purchase buy") == {0: ("buy", 1, 2)}


def test_a_strong_match_is_not_given_up_for_a_weaker_one():
    # the bear sentence: 신다 (wear) reaches "bear" only as a WordNet synonym of wear, 곰 as written
    wear = Targets(("put on", "wear"), synonyms=("bear", "have on"))
    bear = Targets(("bear",))
    chosen = match_sentence(
        [wear, bear], tokenize("We can't run faster than that bear even with running shoes."), ("exact", "synonym")
    )
    assert {k: (c.equivalent, c.how) for k, c in chosen.items()} == {1: ("bear", "exact")}


def test_a_main_sense_is_preferred_to_a_later_equivalent_of_another_entry():
    # 대출 (loan) and 금융 (finance …, whose fourth equivalent is loan) both reach "loans"; 금융 is
    # nearer, but "loan" is 대출's main sense, so 대출 takes it
    loan = Targets(("loan", "lending"))
    finance = Targets(("finance", "financial", "financing", "loan"))
    chosen = match_sentence(
        [loan, finance], tokenize("the bank offered loans"), ("exact", "inflection"), {"loans": ("loan",)}
    )
    assert {k: c.equivalent for k, c in chosen.items()} == {0: "loan"}


def test_a_word_the_source_repeats_shares_the_place_of_the_output_word():
    # two 학생 (student), one "student" in the output: the English says once what Korean says
    # twice, and both are transferred, on the same span
    assert run([("student",), ("say",), ("student",)], "They say the student came late") == {
        0: ("student", 3, 4),
        1: ("say", 1, 2),
        2: ("student", 3, 4),
    }
    # the output says it twice: each takes its own, the nearer first
    assert run([("student",), ("come",), ("student",)], "A student come and a student left") == {
        0: ("student", 1, 2),
        1: ("come", 2, 3),
        2: ("student", 5, 6),
    }
    # keywords of different entries do not share: one of them takes the word
    assert len(run([("student",), ("student", "pupil")], "the student")) == 1


def test_a_repeat_takes_no_token_another_keyword_needs():
    # 제국 (empire, imperial, emperor) twice and 황제 (emperor) once; "imperial power ... emperors":
    # 제국 is placed once, on "imperial", and its repeat shares it, so "emperors" is left to 황제
    empire = Targets(("empire", "imperial", "emperor"))
    emperor = Targets(("emperor",))
    chosen = match_sentence(
        [empire, emperor, empire],
        tokenize("Rome's emperors held imperial power"),
        ("exact", "inflection"),
        {"emperors": ("emperor",)},
    )
    assert {k: (c.equivalent, c.start) for k, c in chosen.items()} == {
        0: ("imperial", 4),
        1: ("emperor", 2),
        2: ("imperial", 4),
    }


def test_a_repeated_word_weighs_as_many_keywords_as_it_stands_for():
    # 학생 twice and then 소년 (boy, student), one "student" at the end, nearer 소년's place:
    # 학생 takes it and both of its occurrences are transferred (2), rather than 소년 (1)
    student, boy = Targets(("student",)), Targets(("boy", "student"))
    chosen = match_sentence([student, student, boy], tokenize("they met a student"))
    assert sorted(chosen) == [0, 1]


def test_a_repeated_word_outweighs_a_stronger_single_one():
    # 학생 (student) once, then 제자 (pupil, student) twice, one "student": 학생 has it as its
    # first sense, 제자 only as its second, but 제자 stands for two keywords, so it takes it
    student, pupil = Targets(("student",)), Targets(("pupil", "student"))
    chosen = match_sentence([student, pupil, pupil], tokenize("a student"))
    assert {k: (c.equivalent, c.start) for k, c in chosen.items()} == {1: ("student", 1), 2: ("student", 1)}


def test_phrase_must_be_contiguous():
    assert run([("department store",)], "department of the store") == {}
    assert run([("department store",)], "the Department Store") == {0: ("department store", 1, 3)}


@pytest.mark.parametrize("n", [15])  # a group of more than twelve keywords
def test_large_groups_still_match_everything_possible(n):
    # n keywords that all accept "a" or their own word; output holds each own word once and "a" once
    eqs = [("a", f"w{i}") for i in range(n)]
    text = " ".join(f"w{i}" for i in range(n)) + " a"
    assert len(run(eqs, text)) == n


def test_no_equivalents_never_match():
    assert run([(), ("key",)], "key") == {1: ("key", 0, 1)}


def test_among_main_senses_the_earlier_is_preferred_to_the_nearer():
    # 말하다 (say, tell) and then 하다 (do, make, say) both reach "say", which is nearer 하다's
    # place; "say" is 말하다's first sense and only 하다's third, so 말하다 takes it
    tell = Targets(("say", "tell"))
    do = Targets(("do", "make", "say"))
    chosen = match_sentence([tell, do], tokenize("i would say it"))
    assert {k: (c.equivalent, c.start) for k, c in chosen.items()} == {0: ("say", 2)}


def test_the_same_match_whatever_the_hash_seed():
    # 팬 (fan, pan, fans) twice against "fans": "fans" as written and "fan" inflected tie on
    # the same span; the repeat must share the first occurrence's own match, and no tie may be
    # left to the order of a set, which changes with each process's hash seed (worker
    # processes scored a line differently from the parent before)
    code = (
        "from ktr.matching.cascade import match_sentence\n"
        "from ktr.matching.targets import Targets\n"
        "fan = Targets(('fan', 'pan', 'fans'))\n"
        "chosen = match_sentence([fan, Targets(('end',)), fan], ('the', 'fans', 'ended'), "
        "('exact', 'inflection'), {'fans': ('fan',), 'ended': ('end',)})\n"
        "print(sorted((k, c.equivalent, c.how, c.start) for k, c in chosen.items()))\n"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(12)
    }
    assert seen == {"[(0, 'fans', 'exact', 1), (1, 'end', 'inflection', 2), (2, 'fans', 'exact', 1)]\n"}


# The stages one at a time: each keyword's targets written out (as a lexicon entry gives them),
# the output tokenized by ktr, inflected forms from WordNet (ktr.english.inflection); each
# expected match (equivalent, token span, stage) is worked out in the comment above it.


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


def test_a_phrasal_verb_matches_with_its_object_between_verb_and_particle():
    table = inflections("put", "in", "turn", "off")
    both = ("exact", "inflection")
    put_in, turn_off = Targets(("put in",)), Targets(("turn off",))
    # the verb carries the match; the particle stays free, as after a contiguous match it is grammar
    assert match([put_in], "she put the keys in her bag", both, table) == {0: ("put in", 1, 2, "exact")}
    assert match([turn_off], "she turns the lights off", both, table) == {0: ("turn off", 1, 2, "inflection")}
    assert match([put_in], "he put it in", both, table) == {0: ("put in", 1, 2, "exact")}
    # at most three words between, and the particle after the verb, never before it
    assert match([put_in], "he put the old red hat in", both, table) == {}
    assert match([put_in], "in the end he put it", both, table) == {}
    # the verb alone is no match, nor a prepositional verb split from its preposition
    assert match([put_in], "he put it there", both, table) == {}
    assert match([Targets(("look for",))], "look at him for", both, inflections("look")) == {}
    # the paper's exact matching keeps a phrase contiguous: without the inflection stage the
    # output is not read with English grammar (no inflection table is built)
    assert match([put_in], "she put the keys in her bag", ("exact",)) == {}


# transliteration: names and loanwords by sound -------------------------------------------------

CLINTON = Targets(sound=korean_key("클린턴"), name=True)  # KLNTN


def names(text):
    return {"names": capitalized_words(text)}


def test_a_sound_at_the_threshold_matches():
    # "Linton" (LNTN) against KLNTN: one symbol of five missing, similarity 0.8, the default
    # threshold: a match (a key one symbol shorter than the name's is still compared)
    text = "Linton came"
    assert match([CLINTON], text, ("transliteration",), **names(text)) == {0: ("linton", 0, 1, "transliteration")}
    stricter = Matching.of(("transliteration",), {"transliteration_threshold": 0.81})
    assert match([CLINTON], text, stricter, **names(text)) == {}


@pytest.mark.parametrize(
    "text, clinton",
    [
        ("Linton met Clinton", 2),
        ("Mr Linton met Clinton", 3),  # "Linton" (token 1 of 4) is nearer the keyword's place
        ("Clinton met Mr Linton", 0),  # the closer sound found first, the other after it
    ],
)
def test_the_closer_sound_wins_over_the_nearer_place(text, clinton):
    # "Linton" (0.8) against "Clinton" (1.0): the closer sound wins wherever the words are
    got = match([CLINTON], text, ("transliteration",), **names(text))
    assert got == {0: ("clinton", clinton, clinton + 1, "transliteration")}


@pytest.mark.parametrize(
    "text",
    [
        "Kim met Clinton",  # "Kim" (KM) too short to reach KLNTN
        "Hamilton met Clinton",  # "Hamilton" (HMLTN) as long, but 0.4 alike
    ],
)
def test_a_name_that_does_not_sound_alike_does_not_stop_the_search(text):
    # the word that does not match comes first; "Clinton" after it still matches
    assert match([CLINTON], text, ("transliteration",), **names(text)) == {0: ("clinton", 2, 3, "transliteration")}


def test_a_name_matches_only_a_capitalized_word_a_loanword_any():
    # "linton" sounds alike (0.8) but is written in lower case in an output that has capitals
    text = "the linton met Mr Lee"
    assert match([CLINTON], text, ("transliteration",), **names(text)) == {}
    loanword = Targets(sound=korean_key("클린턴"))  # the same sound, not a proper noun
    assert match([loanword], text, ("transliteration",), **names(text)) == {0: ("linton", 1, 2, "transliteration")}
    # an output without capitals: any word may be the name
    assert match([CLINTON], "the linton met", ("transliteration",)) == {0: ("linton", 1, 2, "transliteration")}


# constructions: a mark an inflection carries (더 → bigger), the passive (비난을 받다 → was criticized)

CONSTRUCTIONS = ("exact", "inflection", "derivation", "construction")
MORE = Targets(construction=True, idioms=("more",), endings=("er",))  # 더: "more", or any comparative
RECEIVE = Targets(construction=True, idioms=("receive",), endings=("passive",))  # -을 받다
PROBLEM, DECISION = Targets(("problem",)), Targets(("decision",))
CRITICISM = Targets(("criticism",), derivations=("criticize",))  # 비난


def construction_inflections():
    return inflections("problem", "big", "small", "good", "criticism", "criticize", "sell", "decision")


def test_a_comparative_carries_more_on_the_token_of_the_word_it_inflects():
    # 문제가 더 크다 → "this problem is bigger": 더 and 크다 (big) share "bigger"
    table = construction_inflections()
    got = match([PROBLEM, MORE, Targets(("big",))], "this problem is bigger", CONSTRUCTIONS, table)
    assert got == {0: ("problem", 1, 2, "exact"), 1: ("-er", 3, 4, "construction"), 2: ("big", 3, 4, "inflection")}
    # an irregular comparative: "better" (good)
    got = match([PROBLEM, MORE, Targets(("good",))], "this problem is better", CONSTRUCTIONS, table)
    assert got[1] == ("-er", 3, 4, "construction")
    # a word that merely ends in -er inflects nothing: no comparative
    assert match([Targets(("teacher",)), MORE], "the teacher", CONSTRUCTIONS, table) == {0: ("teacher", 1, 2, "exact")}


def test_of_several_comparatives_the_nearest_carries_the_mark():
    # 더 first of two keywords (place 0.25): "bigger" (0.125) rather than "smaller" (0.625);
    # 더 second (0.75): "smaller"
    table = construction_inflections()
    assert match([MORE, PROBLEM], "bigger and smaller problem", CONSTRUCTIONS, table)[0] == (
        "-er",
        0,
        1,
        "construction",
    )
    assert match([PROBLEM, MORE], "bigger and smaller problem", CONSTRUCTIONS, table)[1] == (
        "-er",
        2,
        3,
        "construction",
    )


def test_a_passive_carries_receive_with_the_noun_its_participle_translates():
    # 결정은 비난을 받았다: 비난 matches "criticized" (derived from criticize), and "was (widely)
    # criticized" carries 받다, from "was" to the participle
    table = construction_inflections()
    keywords = [DECISION, CRITICISM, RECEIVE]
    assert match(keywords, "the decision was criticized", CONSTRUCTIONS, table) == {
        0: ("decision", 1, 2, "exact"),
        1: ("criticize", 3, 4, "derivation"),
        2: ("be + participle", 2, 4, "construction"),
    }
    got = match(keywords, "the decision was widely criticized", CONSTRUCTIONS, table)
    assert got[2] == ("be + participle", 2, 5, "construction")  # one adverb in -ly between
    # a contracted be: "they're criticized", "I'm criticized" are tokenized "re", "m"
    for output in ("they're criticized", "I'm criticized"):
        got = match([CRITICISM, RECEIVE], output, CONSTRUCTIONS, table)
        assert got[1] == ("be + participle", 1, 3, "construction"), output


@pytest.mark.parametrize(
    "output",
    [
        "the decision was very criticized",  # the word between is no adverb in -ly
        "the decision was quickly and criticized",  # the participle two words after the adverb
        "the decision was criticizing",  # an -ing form is no participle
        "the decision was",  # nothing after the auxiliary
    ],
)
def test_no_passive_without_a_participle_right_after_be(output):
    got = match([DECISION, CRITICISM, RECEIVE], output, CONSTRUCTIONS, construction_inflections())
    assert 2 not in got


def test_a_passive_of_another_word_does_not_carry_receive():
    # 비난을 받았다 → "the decision was criticized, the house was sold": "was sold" is a passive,
    # but not of the noun before 받다, which only "was criticized" carries
    got = match([CRITICISM, RECEIVE], "the house was sold", CONSTRUCTIONS, construction_inflections())
    assert got == {}


@pytest.mark.parametrize(
    "before, output",
    [
        # the word after be matches the noun before 받다 but is no past participle
        ("award", "the prizes were awards"),  # a plural
        ("big", "the house was bigger"),  # a comparative
        ("big", "the house was biggest"),  # a superlative
        # a passive next to the noun's match but not over it
        ("criticism", "the criticism was heard"),  # the passive starts where the noun ends
        ("criticism", "they were given criticism"),  # the noun starts where the passive ends
    ],
)
def test_a_passive_carries_receive_only_over_a_participle_of_the_noun_before(before, output):
    noun = CRITICISM if before == "criticism" else Targets((before,))
    table = inflections("award", "big", "criticism", "criticize", "hear", "give")
    got = match([noun, RECEIVE], output, CONSTRUCTIONS, table)
    assert 0 in got and 1 not in got, got


# an article carries a determiner only before the word it determines (그 회사 → "the company")

THAT = Targets(("that", "the", "those"))  # 그
COMPANY = Targets(("company",))


@pytest.mark.parametrize(
    "output, matched",
    [
        ("the company closed", ("the", 0, 1, "exact")),
        ("the new company closed", ("the", 0, 1, "exact")),  # one word between
        ("the very new company closed", None),  # two words between
        ("the doors closed", None),  # 회사 not matched after it
        ("the doors of a company closed", None),  # 회사 matched, not after that "the"
        ("that door closed, the company", ("that", 0, 1, "exact")),  # a word of its own: anywhere
    ],
)
def test_an_article_carries_a_determiner_only_before_its_noun(output, matched):
    got = match([THAT, COMPANY], output, CONSTRUCTIONS)
    assert got.get(0) == matched, got


def test_without_the_construction_stage_any_article_counts():
    # the paper's matching: a keyword whose equivalent occurs in the output
    assert match([THAT, COMPANY], "the doors closed")[0] == ("the", 0, 1, "exact")


# a preposition that governs the match before the unit (유행에 대한 흥미 → "interest in that craze")

ABOUT = Targets(construction=True, idioms=("about",), endings=("preposition",))  # -에 대해
PURPOSE = Targets(construction=True, idioms=("in order to",), endings=("to_infinitive",))  # -기 위해
CRAZE, INTEREST, WARN = Targets(("craze",)), Targets(("interest",)), Targets(("warn",))


def test_the_preposition_before_the_match_of_the_keyword_before_carries_about():
    # 유행에 대한 흥미: "in" governs "craze", which 유행 matched, one word between
    got = match([CRAZE, ABOUT, INTEREST], "they lost interest in that craze", CONSTRUCTIONS)
    assert got == {
        0: ("craze", 5, 6, "exact"),
        1: ("in + object", 3, 4, "construction"),
        2: ("interest", 2, 3, "exact"),
    }
    # three words between, the nearest of two prepositions: "for", not "of"
    got = match([Targets(("method",)), ABOUT], "ads of many kinds for new and revolutionary method", CONSTRUCTIONS)
    assert got[1] == ("for + object", 4, 5, "construction")
    # its own realization first: "about" wherever it is
    got = match([CRAZE, ABOUT], "about them, in the craze", CONSTRUCTIONS)
    assert got[1] == ("about", 0, 1, "construction")


@pytest.mark.parametrize(
    "output",
    [
        "they lost interest in the very new wild craze",  # four words between
        "the craze they lost interest in",  # after the match, not before it
        "they lost interest in that fashion",  # 유행 not matched: nothing governed
        "they lost interest and that craze",  # no preposition
    ],
)
def test_no_preposition_carries_about_unless_it_governs_the_match_before(output):
    assert 1 not in match([CRAZE, ABOUT, INTEREST], output, CONSTRUCTIONS)


def test_to_before_the_match_of_the_verb_before_carries_purpose():
    # 경고하기 위해 → "to warn", "to quickly warn"; a "to" further away, or before a noun, does not
    assert match([WARN, PURPOSE], "he ran to warn them", CONSTRUCTIONS)[1] == ("to + verb", 2, 3, "construction")
    assert match([WARN, PURPOSE], "he ran to quickly warn them", CONSTRUCTIONS)[1] == (
        "to + verb",
        2,
        3,
        "construction",
    )
    assert 1 not in match([WARN, PURPOSE], "he ran to them and warned", CONSTRUCTIONS, inflections("warn"))
    assert 1 not in match([WARN, PURPOSE], "he went to the town and warn", CONSTRUCTIONS)
    # about's prepositions are no purpose: "on" before the verb carries nothing
    assert 1 not in match([WARN, PURPOSE], "he went on warn", CONSTRUCTIONS)


def test_of_before_the_match_of_the_noun_before_carries_the_partitive():
    # 학생들 중 두 명: "two of the students", "of" governs "students", which 학생 matched
    table = inflections("student")
    student, among = Targets(("student",)), Targets(construction=True, idioms=("among",), endings=("partitive",))
    got = match([student, among], "two of the students came", CONSTRUCTIONS, table)
    assert got == {0: ("student", 3, 4, "inflection"), 1: ("of + whole", 1, 2, "construction")}
    # "of" after the noun, or other prepositions, carry nothing; nor an "of" when 학생 is missed
    for output in ("the students of two schools came", "two from the students came", "two of the teachers came"):
        assert 1 not in match([student, among], output, CONSTRUCTIONS, table), output


def test_a_negation_before_the_match_of_the_noun_before_carries_missing():
    # 물이 없다: "the town doesn't have clean water", "n't" governs "water", which 물 matched
    water = Targets(("water",))
    missing = Targets(construction=True, idioms=("there is no",), endings=("negated",))
    got = match([water, missing], "the town doesn't have clean water", CONSTRUCTIONS)
    assert got == {0: ("water", 6, 7, "exact"), 1: ("t + noun", 3, 4, "construction")}  # doesn, t
    # a negation after the noun, far before it, or of a noun not matched, carries nothing
    for output in ("the water is not clean", "it is not in the old red water", "the town doesn't have clean air"):
        assert 1 not in match([water, missing], output, CONSTRUCTIONS), output


def test_who_before_the_verb_s_match_or_its_agent_noun_carries_the_person():
    # 표를 센 사람들 "those who counted the votes"; 노래하는 사람 "the singer"
    count, sing = Targets(("count",)), Targets(("sing",), derivations=("singer",))
    person = Targets(construction=True, idioms=("person",), endings=("relative", "agent"))
    table = inflections("count", "singer")
    got = match([count, person], "those who counted the votes", CONSTRUCTIONS, table)
    assert got == {0: ("count", 2, 3, "inflection"), 1: ("who + clause", 1, 2, "construction")}
    got = match([sing, person], "I saw the singers", CONSTRUCTIONS, table)
    assert got == {0: ("singer", 3, 4, "derivation"), 1: ("agent noun", 3, 4, "construction")}
    # a "who" after the verb's match, or an agent noun that is not the verb's match, carries nothing
    for output in ("they counted the votes, who knows", "the counter of votes was counted"):
        assert 1 not in match([count, person], output, CONSTRUCTIONS, inflections("count", "counter")), output


@pytest.mark.parametrize(
    "output, carried",
    [
        ("she is waiting for me", True),
        ("I'm waiting for you", True),  # a contracted be
        ("she was patiently waiting", True),  # one adverb in -ly between
        ("she waits for me", False),  # no progressive
        ("she is here and waiting", False),  # the -ing form not right after be
        ("she is running and waits", False),  # a progressive of another verb
    ],
)
def test_a_progressive_carries_jung_with_the_verb_before_it(output, carried):
    # 기다리는 중이다: 기다리다 matches "waiting", and "is waiting" carries 중
    wait = Targets(("wait",))
    during = Targets(construction=True, idioms=("during",), endings=("progressive",))
    got = match([wait, during], output, CONSTRUCTIONS, inflections("wait", "run", "be"))
    assert (got.get(1, ("",))[0] == "be + -ing") is carried, got


# numbers by value -------------------------------------------------------------------------------


def test_a_number_matched_over_several_tokens_is_named_by_them(kiwi):
    # 3억 5천만 명 (350,000,000 people): one keyword, matched by "350 million", two tokens
    scorer = Scorer(Config(matching=("exact", "number")), analyzer=kiwi)
    seg = scorer.score(["인구는 3억 5천만 명이다."], ["The population is 350 million."]).systems[0].sentences[0]
    assert [(k.keyword.lemma, k.matched, k.how) for k in seg.keywords] == [
        ("인구", "population", "exact"),
        ("3억 5천만명", "350 million", "number"),
    ]
