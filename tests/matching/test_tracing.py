"""The precision side: output words traced to the source, on hand-worked sentences, with the
real Kiwi, lexicon and WordNet; the F score; the fields in every output format."""

import json

import numpy as np
import pytest

from ktr import Config
from ktr.english.tokens import tokenize
from ktr.errors import ConfigError
from ktr.matching.tracing import content_positions, latin_words, trace, with_counted
from ktr.scoring.formula import Aggregation, _f_betas, f_beta
from tests.cli.test_main import ktr

HOW = Aggregation()  # macro, beta 0.5


def test_content_words_leave_out_function_words_and_contraction_pieces():
    tokens = tokenize("He didn't buy the company's 3 shares, but Smith won.")
    # he, didn, t, buy, the, company, s, 3, shares, but, smith, won
    assert [tokens[i] for i in content_positions(tokens)] == ["buy", "company", "3", "shares", "smith", "won"]


def test_a_content_word_is_traced_by_a_keyword_span_or_a_word_the_source_writes():
    tokens = tokenize("CNN reports that prices rose sharply")
    # prices rose matched (tokens 3-4), CNN written in the source, reports and sharply added
    assert trace(tokens, [(3, 4), (4, 5)], latin_words("(서울=CNN) 물가가 올랐다")) == (5, 3, (1, 5))
    assert trace(tokens, [(3, 4), (4, 5)]) == (5, 2, (0, 1, 5))


def test_digits_the_source_writes_trace_like_its_latin_words():
    # "3. 아르기닌": the list number is no keyword, but the source writes it, so "3" is not added
    assert latin_words("3. 아르기닌 (L-arginine)") == frozenset({"3", "l", "arginine"})
    tokens = tokenize("3. Arginine")
    assert trace(tokens, [], latin_words("3. 아르기닌")) == (2, 1, (1,))
    assert trace(tokens, [], latin_words("4. 아르기닌")) == (2, 0, (0, 1))


def test_light_verbs_count_only_when_a_keyword_matched_them():
    tokens = tokenize("They made a decision")
    assert trace(tokens, [(3, 4)]) == (1, 1, ())  # "made" is support, not content
    assert trace(tokens, [(1, 2), (3, 4)]) == (2, 2, ())  # 만들다 matched "made": it counts


@pytest.mark.parametrize(
    "recall, precision, beta, expected",
    [
        (1.0, 0.5, 1, 2 / 3),
        (0.5, 1.0, 0.5, 1.25 * 0.5 / (0.25 + 0.5)),
        (0.8, 0.4, 2, 5 * 0.32 / (1.6 + 0.8)),
        (0.0, 1.0, 1, 0.0),
        (0.6, None, 1, 0.6),  # no content word: nothing added, F is the KTR
        (0.0, None, 1, 0.0),
        (None, 0.7, 1, None),
    ],
)
def test_f_beta_hand_computed(recall, precision, beta, expected):
    got = f_beta(recall, precision, beta)
    assert got == pytest.approx(expected) if expected is not None else got is None
    # the bootstrap's F of resampled scores: the same arithmetic on arrays, NaN for None
    nan = float("nan")
    (on_arrays,) = _f_betas(
        np.array([nan if recall is None else recall]), np.array([nan if precision is None else precision]), beta
    )
    assert (np.isnan(on_arrays) and got is None) or on_arrays == got


def one(scorer, source, output):
    return scorer.score([source], [output]).systems[0].sentences[0]


def test_a_keyword_explains_one_place_so_extra_glosses_are_added(scorer):
    # 가격 (price; cost; value): one keyword, one place (its first sense, "price", before the
    # nearer "cost"); the salad's other glosses of it are added
    seg = one(scorer, "가격", "price cost value")
    assert (seg.transferred, seg.content, seg.traced) == (1, 3, 1)
    assert [w for _, w in seg.added] == ["cost", "value"]
    assert seg.precision == pytest.approx(1 / 3)


def test_padding_is_added_and_lowers_f_not_ktr(scorer):
    source = "나는 사과를 샀다."
    plain, padded = (
        one(scorer, source, "I bought apples."),
        one(scorer, source, "I bought apples. The weather was lovely."),
    )
    assert plain.score == padded.score == 1.0
    assert (plain.precision, padded.precision) == (1.0, 0.5)
    assert [w for _, w in padded.added] == ["weather", "lovely"]
    assert padded.figures(HOW).f == pytest.approx(1.25 * 0.5 / (0.25 * 0.5 + 1)) and plain.figures(HOW).f == 1.0


def test_the_noun_a_counter_stands_for_is_traced_with_its_number():
    people = ("people", "persons", "individuals")
    tokens = tokenize("Two people died, and thousands of people fled; people said so.")
    assert with_counted(tokens, 0, 1, people) == (0, 2)  # "Two people"
    assert with_counted(tokens, 4, 5, people) == (4, 7)  # "thousands of people"
    assert with_counted(tokens, 4, 5, ()) == (4, 5)  # a number without a person counter
    assert with_counted(tokens, 1, 2, people) == (1, 2)  # "died" is no number's noun
    assert with_counted(tokens, 10, 11, people) == (10, 11)  # at the end: nothing after it


def test_a_person_counter_accounts_for_people_after_its_number(scorer):
    # 2명: the number matched "Two", and "people" is what 명 says: not added (it was, before)
    seg = one(scorer, "사고로 2명이 숨졌다.", "Two people died in the accident.")
    assert (seg.transferred, seg.counted, seg.content, seg.traced, seg.added) == (3, 3, 4, 4, ())
    # not when the number is not right before it
    apart = one(scorer, "사고로 2명이 숨졌다.", "Two died in the accident, people said.")
    assert [w for _, w in apart.added] == ["people", "said"]


def test_an_output_without_content_words_adds_nothing_so_f_is_its_ktr(scorer):
    # "Yes, here it is." for 예, 여기에 있어요: 여기 "here" and 있다 "is" are both transferred, and
    # every word of the output is a function word, so nothing is added: F is KTR, not 0
    seg = one(scorer, "예, 여기에 있어요.", "Yes, here it is.")
    assert (seg.transferred, seg.counted, seg.content, seg.precision) == (2, 2, 0, None)
    assert seg.figures(HOW).f == 1.0
    half = one(scorer, "예, 여기에 있어요.", "Yes, it is.")
    assert (half.score, half.precision, half.figures(HOW).f) == (0.5, None, 0.5)


def test_a_word_used_by_one_keyword_is_not_used_again(scorer):
    # two keywords (사과 apple, 과일 fruit) and one "apple": the word traces once, and 과일 is missed
    seg = one(scorer, "사과는 과일이다.", "An apple.")
    assert (seg.transferred, seg.content, seg.traced) == (1, 1, 1)


def test_system_precision_and_f_aggregate_the_sentences(scorer):
    system = scorer.score(
        ["가격", "나는 사과를 샀다."], ["price cost value", "I bought apples. The weather was lovely."]
    ).systems[0]
    assert system.precision == pytest.approx((1 / 3 + 1 / 2) / 2)
    assert system.precision_micro == pytest.approx(3 / 7)
    assert system.f == pytest.approx(sum(s.figures(HOW).f for s in system.sentences) / 2)
    assert system.summary()["added"] == 4 and system.summary()["f_beta"] == 0.5


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"f_beta": 0}, "f_beta: must be a number above 0"),
        ({"f_beta": -1.5}, "f_beta: must be a number above 0"),
        ({"headline": "bleu"}, "headline: 'bleu' is not valid"),
    ],
)
def test_f_options_are_checked(changes, message):
    with pytest.raises(ConfigError, match=message):
        Config.from_dict(changes)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("trace")
    (folder / "src.ko").write_text("가격\n나는 사과를 샀다.\n", encoding="utf-8")
    (folder / "out.en").write_text("price cost value\nI bought apples. The weather was lovely.\n", encoding="utf-8")
    return folder


def test_json_gives_precision_f_and_each_added_word_with_its_position(files):
    proc = ktr("score", "-s", files / "src.ko", "-t", files / "out.en", "-f", "json", "--sentences")
    assert proc.returncode == 0, proc.stderr
    system = json.loads(proc.stdout)["systems"][0]
    assert system["precision"] == pytest.approx(5 / 12) and system["precision_micro"] == pytest.approx(3 / 7)
    assert (system["content_words"], system["traced"], system["added"], system["f_beta"]) == (7, 3, 4, 0.5)
    first, second = system["segments"]
    assert first["added"] == [{"word": "cost", "token": 1}, {"word": "value", "token": 2}]
    assert (second["content_words"], second["traced"], second["precision"]) == (4, 2, 0.5)
    assert [a["word"] for a in second["added"]] == ["weather", "lovely"]


def test_tsv_table_and_explain_show_the_precision_side(files):
    rows = ktr("score", "-s", files / "src.ko", "-t", files / "out.en", "-f", "tsv").stdout.splitlines()
    header = rows[0].split("\t")
    second = dict(zip(header, rows[2].split("\t")))
    assert (second["precision"], second["content_words"], second["traced"], second["added"]) == (
        "0.5000",
        "4",
        "2",
        "weather lovely",
    )
    assert second["f"] == f"{1.25 * 0.5 / (0.25 * 0.5 + 1):.4f}"
    table = ktr("score", "-s", files / "src.ko", "-t", files / "out.en", "--headline", "f").stdout.splitlines()
    assert table[0].split()[:3] == ["system", "F", "KTR"] and "prec" in table[0]
    assert "added" in table[4]  # the counts' table, under the scores
    assert ktr("score", "-s", files / "src.ko", "-t", files / "out.en").stdout.split()[:3] == ["system", "KTR", "F"]
    explain = ktr("score", "-s", files / "src.ko", "-t", files / "out.en", "--explain").stdout
    assert "precision 0.33 (1 of 3 content words traced)" in explain
    assert "added (traced to no keyword): weather, lovely" in explain


def test_oclock_is_one_word_traced_with_the_hour(scorer):
    # issue 40: "o'clock" was two added words ("o", "clock"); it is one word, and what 시 says
    assert tokenize("at three o'clock, at 3 O’clock") == ("at", "three", "o'clock", "at", "3", "o’clock")
    seg = one(scorer, "회의는 3시에 시작한다.", "The meeting starts at three o'clock.")
    assert (seg.transferred, seg.counted, seg.content, seg.traced, seg.added) == (3, 3, 4, 4, ())
    apart = one(scorer, "회의는 3시에 시작한다.", "The o'clock meeting starts at three.")  # not after the number
    assert [w for _, w in apart.added] == ["o'clock"]


def test_the_verb_of_a_light_verb_after_its_object_is_traced(scorer):
    # issue 40: 축구를 하고 있다 "are playing soccer": 하다 after its object is no keyword, and
    # "playing" was added; it says that 하다, as "held" says 회담을 하다
    seg = one(scorer, "아이들이 공원에서 축구를 하고 있다.", "The children are playing soccer in the park.")
    assert (seg.score, seg.content, seg.traced, seg.added) == (1.0, 4, 4, ())
    held = one(scorer, "두 정상은 회담을 했다.", "The two leaders held talks.")
    assert (held.content, held.traced, held.added) == (4, 4, ())
    # without such a 하다 in the source, the verb is added as before
    seg = one(scorer, "아이들이 공원에서 축구를 좋아한다.", "The children are playing soccer in the park.")
    assert [w for _, w in seg.added] == ["playing"]
