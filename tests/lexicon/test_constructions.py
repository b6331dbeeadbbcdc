"""Grammatical constructions (lexicons/constructions.tsv): each family on sentences written for
these tests, with the real Kiwi and mecab-ko; the file format's errors."""

from __future__ import annotations

import pytest
from conftest import analyzer, requires_java

from ktr import Config, Scorer
from ktr.errors import LexiconError
from ktr.lexicon.constructions import MARKS, ConstructionTable

ANALYZERS = ["kiwi", "mecab"]
STAGES = ("exact", "inflection", "derivation", "synonym", "idiom", "construction", "number", "transliteration")


# every test runs on each analyzer of ANALYZERS, with the construction stage: not conftest's
# shared default ``scorer`` (Kiwi only), which this one replaces in this file
@pytest.fixture(scope="module", params=ANALYZERS)
def scorer(request):
    return Scorer(Config(analyzer=request.param, matching=STAGES), analyzer=analyzer(request.param))


@pytest.fixture(scope="module", params=ANALYZERS)
def without(request):
    stages = tuple(s for s in STAGES if s != "construction")
    return Scorer(Config(analyzer=request.param, matching=stages), analyzer=analyzer(request.param))


def results(scorer, source, output):
    return [
        (k.keyword.lemma, k.keyword.cls, k.matched, k.how)
        for k in scorer.score([source], [output]).systems[0].sentences[0].keywords
    ]


# (family, source, output, the construction's keyword, what it matched)
FAMILIES = [
    ("can", "나는 밥을 먹을 수 있다.", "I can eat rice.", "-ㄹ 수 있다", "can"),
    ("can, with 도", "그는 내일 떠날 수도 있다.", "He may leave tomorrow.", "-ㄹ 수 있다", "may"),
    ("cannot", "그는 학교에 갈 수 없었다.", "He couldn't go to school.", "-ㄹ 수 없다", "t"),
    (
        "cannot, in words",
        "우리는 그 문제를 풀 수 없다.",
        "We are unable to solve the problem.",
        "-ㄹ 수 없다",
        "unable",
    ),
    ("future", "내일은 비가 올 것이다.", "It will rain tomorrow.", "-ㄹ 것이다", "will"),
    ("expected", "물가가 오를 것으로 예상된다.", "It is expected that prices will rise.", "-ㄹ 것으로", "will"),
    ("seem", "그들은 곧 떠날 것 같다.", "It seems they will leave soon.", "-ㄹ 것 같다", "seem"),
    ("may, -ㄹ지도 모르다", "그는 내일 떠날지도 모른다.", "He might leave tomorrow.", "-ㄹ지도 모르다", "may"),
    ("come to", "그는 결국 그 사실을 알게 되었다.", "He came to know the fact in the end.", "-게 되다", "come"),
    ("they", "그들은 공원에서 웃었다.", "They laughed in the park.", "그들", "they"),
    ("future, quoted", "그는 “내일 떠날 것”이라고 말했다.", "He said he would leave tomorrow.", "-ㄹ 것이다", "would"),
    ("about", "그는 경제에 대해 말했다.", "He talked about the economy.", "-에 대해", "about"),
    ("regarding", "환경에 관한 연구를 했다.", "They did research on the environment.", "-에 관해", "on"),
    ("in order to", "돈을 벌기 위해 일한다.", "He works in order to earn money.", "-기 위해", "in order to"),
    ("for the sake of", "가족을 위해 일한다.", "I work for my family.", "-을 위해", "for"),
    ("because", "비가 왔기 때문에 집에 있었다.", "I stayed home because it rained.", "-기 때문에", "because"),
    ("because of", "비 때문에 집에 있었다.", "I stayed home due to the rain.", "때문에", "due to"),
    ("by", "그는 경찰에 의해 체포되었다.", "He was arrested by the police.", "-에 의해", "by"),
    (
        "according to",
        "보도에 따르면 사고가 났다.",
        "According to reports, there was an accident.",
        "-에 따라",
        "according to",
    ),
    ("through", "인터넷을 통해 알렸다.", "They announced it through the Internet.", "-을 통해", "through"),
    ("such as", "사과와 같은 과일을 좋아한다.", "I like fruits such as apples.", "-와 같은", "such as"),
    (
        "in the middle of",
        "그는 지금 회의 중이다.",
        "He is in the middle of a meeting now.",
        "-중이다",
        "in the middle of",
    ),
    (
        "one of",
        "오렌지 주스는 인기 있는 음료 중 하나이다.",
        "Orange juice is one of the popular drinks.",
        "중 하나",
        "one of",
    ),
    # a partitive: "of" before the match of the noun before 중, and a progressive with the verb before it
    ("of a number", "학생들 중 두 명이 왔다.", "Two of the students came.", "중 (of a number)", "of + whole"),
    ("of a part", "학생들 중 대부분이 왔다.", "Most of the students came.", "중 (of a part)", "of + whole"),
    ("progressive", "그는 지금 책을 읽고 있는 중이다.", "He is reading a book now.", "-중이다", "be + -ing"),
    # 없다 after its noun: a word of its own, or a negation before the noun's match
    ("there is no", "집에 물이 없다.", "There is no water at home.", "-이 없다", "there is no"),
    (
        "not, with its noun",
        "그 마을에는 깨끗한 물이 없다.",
        "That village doesn't have clean water.",
        "-이 없다",
        "t + noun",
    ),
    ("more", "더 먹어라.", "Eat more.", "더", "more"),
    # a comparative or superlative inflection carries 더 / 가장 with the word it inflects
    ("comparative", "이 문제가 더 크다.", "This problem is bigger.", "더", "-er"),
    ("comparative, irregular", "이것이 더 좋다.", "This is better.", "더", "-er"),
    ("comparative of a word in -er", "그는 더 영리하다.", "He is cleverer.", "더", "-er"),
    ("superlative", "그는 가장 빠르다.", "He is the fastest.", "가장", "-est"),
    ("superlative, irregular", "가장 많은 지식을 얻었다.", "They gained the most knowledge.", "가장", "-est"),
    ("receive", "그는 상을 받았다.", "He received an award.", "-을 받다", "receive"),
    # an auxiliary no class keeps (싶다) is a keyword when a unit takes it
    ("want", "나는 집에 가고 싶다.", "I want to go home.", "-고 싶다", "want"),
    ("want, reported", "그녀는 말하고 싶어하지 않았다.", "She did not want to comment.", "-고 싶다", "want"),
    (
        "would like",
        "저녁으로 스파게티를 만들고 싶어요.",
        "I'd like to make spaghetti for dinner.",
        "-고 싶다",
        "like to",
    ),
    # a preposition the English chooses carries 에 대해 before the noun's match; "to" 위해 before the verb's
    ("about, governed", "쥐에 대한 실험이 있었다.", "There was research on rats.", "-에 대해", "on + object"),
    ("in order to, infinitive", "그는 경고하기 위해 달렸다.", "He ran to warn them.", "-기 위해", "to + verb"),
    ("located in", "그는 서울에 있는 집을 샀다.", "He bought a house in Seoul.", "-에 있는", "in + object"),
    (
        "until",
        "버스가 도착할 때까지 기다렸다.",
        "We waited until the bus arrived.",
        "-ㄹ 때까지",
        "until",
    ),
    (
        "in, a time",
        "그녀는 대학교 때 피아노를 배웠다.",
        "She learned the piano in college.",
        "명사 + 때",
        "in + object",
    ),
    # a person a clause describes: "those who...", or the agent noun of its verb
    (
        "those who",
        "책을 읽은 사람들은 모두 웃었다.",
        "Those who read the book all laughed.",
        "-는 사람",
        "who + clause",
    ),
    ("agent noun", "나는 노래하는 사람을 보았다.", "I saw the singer.", "-는 사람", "agent noun"),
    # the passive carries 받다 with the noun its participle translates (비난 → criticized)
    ("passive", "그 결정은 많은 비난을 받았다.", "The decision was widely criticized.", "-을 받다", "be + participle"),
    ("passive of 당하다", "그는 매일 폭행을 당했다.", "He was assaulted every day.", "-을 당하다", "be + participle"),
    ("suffer", "그는 큰 피해를 당했다.", "He suffered great damage.", "-을 당하다", "suffer"),
]


@pytest.mark.parametrize("family, source, output, unit, matched", FAMILIES, ids=[f[0] for f in FAMILIES])
def test_each_construction_is_one_unit_matched_by_its_realization(scorer, family, source, output, unit, matched):
    found = results(scorer, source, output)
    assert (unit, "construction", matched, "construction") in found, found
    covered = {
        "-ㄹ 수 있다": {"수", "있다"},
        "-ㄹ 수 없다": {"수", "없다"},
        "-이 없다": {"없다"},
        "-ㄹ 것이다": {"것"},
        "-ㄹ 것으로": {"것"},
        "-ㄹ 것 같다": {"것", "같다"},
        "-ㄹ지도 모르다": {"모르다"},
        "-게 되다": {"되다"},
        "그들": {"그"},
        "-에 대해": {"대하다"},
        "-에 관해": {"관하다"},
        "-에 있는": {"있다"},
        "-ㄹ 때까지": {"때"},
        "명사 + 때": {"때"},
        "-는 사람": {"사람"},
        "-기 위해": {"위하다"},
        "-을 위해": {"위하다"},
        "-기 때문에": {"때문"},
        "때문에": {"때문"},
        "-에 의해": {"의하다"},
        "-에 따라": {"따르다"},
        "-을 통해": {"통하다"},
        "-와 같은": {"같다"},
        "-중이다": {"중"},
        "중 하나": {"중", "하나"},
        "중 (of a number)": {"중"},
        "중 (of a part)": {"중"},
        "더": set(),
        "가장": set(),
        "-을 받다": {"받다"},
        "-을 당하다": {"당하다"},
        "-고 싶다": {"싶다"},
    }[unit]
    assert not covered & {lemma for lemma, *_ in found}  # the words it covers are no keywords of their own


def test_a_unit_of_words_no_class_keeps_takes_its_place_in_source_order(scorer):
    (keywords,) = scorer.keywords(["나는 책을 읽고 싶다고 말했다."])
    assert [k.lemma for k in keywords] == ["나", "책", "읽다", "-고 싶다", "말하다"]
    assert [k.start for k in keywords] == sorted(k.start for k in keywords)


def test_an_inflected_mark_shares_the_token_of_the_word_it_inflects(scorer):
    found = results(scorer, "이 문제가 더 크다.", "This problem is bigger.")
    assert ("더", "construction", "-er", "construction") in found and (
        "크다",
        "adjective",
        "big",
        "inflection",
    ) in found
    assert scorer.score(["이 문제가 더 크다."], ["This problem is bigger."]).systems[0].ktr == 1.0
    # no comparative: 더 is missed
    assert ("더", "construction", None, None) in results(scorer, "이 문제가 더 크다.", "This problem is big.")
    # a passive of another word does not carry 받다: only the participle of the noun before it
    assert ("-을 받다", "construction", None, None) in results(scorer, "그는 상을 받았다.", "The house was sold.")


def test_a_unit_is_missed_when_the_output_does_not_realize_it(scorer):
    found = results(scorer, "그는 학교에 갈 수 없었다.", "He went to school.")
    assert ("-ㄹ 수 없다", "construction", None, None) in found
    # -에 대해 is "about", not 대하다's own sense "treat": the unit leaves the verb's senses behind
    found = results(scorer, "그는 손님에 대해 말했다.", "He treated the guest and spoke.")
    assert ("-에 대해", "construction", None, None) in found


def test_the_nominalizer_is_grammar_not_a_keyword(scorer, without):
    source, output = "그는 책을 읽는 것을 좋아한다.", "He likes reading books."
    assert "것" not in {lemma for lemma, *_ in results(scorer, source, output)}
    assert ("것", "bound_noun", None, None) in results(without, source, output)  # counted and missed before
    assert scorer.score([source], [output]).systems[0].ktr == 1.0


@pytest.mark.parametrize(
    "source, grammar, kept",
    [
        ("그가 떠났다는 것을 알았다.", "것", {"그", "떠나다", "알다"}),  # a quoting nominalizer
        ("그는 서울을 방문한 바 있다.", "바", {"그", "서울", "방문하다", "있다"}),  # the experience is 있다's
        ("그는 서울에 가 본 적이 있다.", "적", {"그", "서울", "가다", "있다"}),  # the same with 적
        (
            "정부는 세금을 낮출 것을 약속했다.",
            "것",
            {"정부", "세금", "낮추다", "약속하다"},
        ),  # -ㄹ 것을: what is promised
        ("수십 명이 다쳤다.", "명", {"수십", "다치다"}),  # a counter after a number
        ("여러 가지 문제가 있다.", "가지", {"여러", "문제", "있다"}),  # a counter after a determiner
        ("영화 몇 편을 봤다.", "편", {"영화", "몇", "보다"}),
        # -는 데: "in/to doing", carried by English grammar (agreed to resume, difficulty reading)
        ("두 나라는 회담을 재개하는 데 합의했다.", "데", {"두", "나라", "회담", "재개하다", "합의하다"}),
        ("그는 읽는 데에 어려움이 있었다.", "데", {"그", "읽다", "어려움", "있다"}),
        # 하다 after its object noun is a light verb: the noun says what is done (운동 "exercise")
        ("그는 매일 운동을 한다.", "하다", {"그", "매일", "운동"}),
    ],
)
def test_other_grammar_constructions_drop_their_word(scorer, without, source, grammar, kept):
    assert {k.lemma for k in scorer.keywords([source])[0]} == kept
    assert grammar in {k.lemma for k in without.keywords([source])[0]}


def test_a_place_is_no_grammar(scorer):
    # 데 with a subject particle is a place ("somewhere that hurts", "nowhere to go")
    for source in ("아픈 데가 있으면 말해라.", "갈 데가 없다."):
        assert "데" in {k.lemma for k in scorer.keywords([source])[0]}, source


def test_without_the_stage_the_paper_s_keywords_stay(without):
    found = results(without, "나는 밥을 먹을 수 있다.", "I can eat rice.")
    assert {"수", "있다"} <= {lemma for lemma, *_ in found} and not any(cls == "construction" for _, cls, *_ in found)


def test_the_shipped_table_parses_whole_and_is_nfc():
    import unicodedata

    from ktr.resources import lexicons_dir

    text = (lexicons_dir() / "constructions.tsv").read_text(encoding="utf-8")
    assert unicodedata.normalize("NFC", text) == text
    rows = [line for line in text.splitlines() if line and not line.startswith("#")]
    by_tagset = {t: len(ConstructionTable.from_files(["constructions"], t)) for t in ("sejong", "kkma", "kaist")}
    assert sum(by_tagset.values()) == len(rows) and len(set(by_tagset.values())) == 1  # the same rows for each


def test_a_tag_set_without_rows_has_no_constructions():
    assert len(ConstructionTable.from_files(["constructions"], "sejong")) > 0
    assert len(ConstructionTable.from_files(["constructions"], "okt")) == 0


def test_marks_expand_to_the_words_that_carry_them(tmp_path):
    path = tmp_path / "c.tsv"
    path.write_text(
        "# ktr-constructions/1\nx\tsejong\tunit\t*/ETM [ 수/NNB 없/VA ]\t@negation;unable\n", encoding="utf-8"
    )
    (c,) = ConstructionTable.from_files([str(path)], "sejong").constructions
    assert c.english == (*MARKS["@negation"], "unable")


@pytest.mark.parametrize(
    "row, message",
    [
        ("x\tsejong\tmaybe\t*/ETM [ 수/NNB ]\tcan", ":2: action 'maybe' is not one of unit, grammar"),
        ("x\tsejong\tunit\t*/ETM 수/NNB\tcan", ":2: the pattern must mark its construction with one \\[ and one \\]"),
        ("x\tsejong\tunit\t*/ETM [ ]\tcan", ":2: nothing between \\[ and \\]"),
        ("x\tsejong\tunit\t*/ETM [ 수 ]\tcan", ":2: pattern item '수' must be FORMS/TAGS"),
        ("x\tsejong\tunit\t*/ETM [ 수/NNB ]\t@plural", ":2: unknown mark '@plural'"),
        ("x\tsejong\tunit\t*/ETM [ 수/NNB ]\t", ":2: a unit needs its English realizations"),
    ],
)
def test_a_bad_construction_file_names_file_and_line(tmp_path, row, message):
    path = tmp_path / "c.tsv"
    path.write_text(f"# ktr-constructions/1\n{row}\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=f"^{path}{message}"):
        ConstructionTable.from_files([str(path)], "sejong")


def test_a_construction_file_needs_its_header_and_unique_names(tmp_path):
    path = tmp_path / "c.tsv"
    path.write_text("x\tsejong\tunit\t*/ETM [ 수/NNB ]\tcan\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=":1: a construction file starts with"):
        ConstructionTable.from_files([str(path)], "sejong")
    path.write_text(
        "# ktr-constructions/1\nx\tsejong\tunit\t*/ETM [ 수/NNB ]\tcan\nx\tsejong\tgrammar\t*/ETM [ 것/NNB ]\t\n",
        encoding="utf-8",
    )
    with pytest.raises(LexiconError, match=":3: construction 'x' already defined at .*:2"):
        ConstructionTable.from_files([str(path)], "sejong")


@pytest.mark.jvm
@requires_java
@pytest.mark.parametrize("name", ["komoran", "kkma", "hannanum"])
def test_the_konlpy_tag_sets_have_their_rows(name):
    scorer = Scorer(Config(analyzer=name, matching=STAGES), analyzer=analyzer(name))
    can, nominalized, counted, more, want, doing, place, of_them, missing, located, who, when = scorer.keywords(
        [
            "나는 밥을 먹을 수 있다.",
            "책을 읽는 것을 좋아한다.",
            "수십 명이 다쳤다.",
            "이 문제가 더 크다.",
            "집에 가고 싶다.",
            "그는 읽는 데에 어려움이 있었다.",
            "아픈 데가 있으면 말해라.",
            "후보 중 어느 후보도 이기지 못했다.",
            "집에 물이 없다.",
            "서울에 있는 집을 샀다.",
            "노래하는 사람을 보았다.",
            "대학교 때 배웠다.",
        ]
    )
    assert "명사 + 때" in [k.lemma for k in when], when
    assert "-는 사람" in [k.lemma for k in who], who
    assert "-에 있는" in [k.lemma for k in located], located
    assert "-이 없다" in [k.lemma for k in missing], missing
    assert "중 (of a number)" in [k.lemma for k in of_them], of_them
    assert "데" not in [k.lemma for k in doing] and "데" in [k.lemma for k in place]
    assert ("더", "construction") in [(k.lemma, k.cls) for k in more]
    assert ("-고 싶다", "construction") in [(k.lemma, k.cls) for k in want]
    assert "-ㄹ 수 있다" in [k.lemma for k in can] and not {"수", "있다"} & {k.lemma for k in can}
    assert "것" not in [k.lemma for k in nominalized]
    assert "명" not in [k.lemma for k in counted] and "수십" in [k.lemma for k in counted]
