"""The style set's near misses (version 2 of tests/data/style/, ``ktr meta-eval --style``): each
fluent translation with one content word replaced by a closely related but different word, and
whether the changed keyword is still credited in the near-miss line, by which stage. Worked out
by hand on lines and a lexicon written for this test, with the Kiwi analyzer."""

import json

import pytest

from ktr import Config, Scorer
from ktr.cli.main import main
from ktr.errors import InputError
from ktr.experiments.judged import line_hash
from ktr.experiments.style import NEAR_MISS, read_style, run

SOURCES = ["나는 사과를 먹었다.", "그는 빨간 차를 샀다.", "소가 물을 마셨다."]
HEADER_1 = "line\tsource_hash\tliteral\tfluent\tdegraded\tchange"
HEADER_2 = HEADER_1 + "\tnear_miss\tnear_miss_kind\tnear_miss_change"
#: 나 사과 먹다 / 그 빨갛다 차 사다 / 소 물 마시다. The lexicon lists "fruit" for 사과 and "swallow"
#: for 마시다, so that the near misses "fruit" (exact) and "swallowed" (inflection) are credited;
#: "sold" for 사다 is not
LEXICON = (
    "나\tpronoun\tI\n사과\tnoun\tapple;fruit\n먹다\tverb\teat\n그\tpronoun\the\n빨갛다\tadjective\tred\n"
    "차\tnoun\tcar\n사다\tverb\tbuy\n소\tnoun\tcow\n물\tnoun\twater\n마시다\tverb\tdrink;swallow\n"
)
ROWS = [
    ("1", "I ate an apple.", "I ate an apple.", "I ate.", "", "I ate a fruit.", "scope", '사과 "apple" -> "fruit"'),
    (
        "2",
        "He bought a red car.",
        "He bought a red car.",
        "He bought a car.",
        "",
        "He sold a red car.",
        "converse",
        '사다 "bought" -> "sold"',
    ),
    (
        "3",
        "The cow drank water.",
        "The cow drank water.",
        "The cow drank.",
        "",
        "The cow swallowed water.",
        "scope",
        '마시다 "drank" -> "swallowed"',
    ),
]


def style_file(tmp_path, rows, header=HEADER_2, name="style.tsv"):
    path = tmp_path / name
    body = "".join("\t".join((r[0], line_hash(SOURCES[int(r[0]) - 1]), *r[1:])) + "\n" for r in rows)
    path.write_text("# a style set\n" + header + "\n" + body, encoding="utf-8")
    return path


@pytest.fixture
def scorer(tmp_path, kiwi):
    lexicon = tmp_path / "lex.tsv"
    lexicon.write_text(LEXICON, encoding="utf-8")
    return Scorer(Config(lexicons=(str(lexicon),), matching=("exact", "inflection")), analyzer=kiwi)


def test_the_changed_keyword_credited_and_refused_by_hand(tmp_path, scorer):
    result = run(scorer, SOURCES, read_style(style_file(tmp_path, ROWS)), "style.tsv")
    rows = {r["line"]: r for r in result.near_miss_lines()}
    # line 1: "fruit" is 사과's own second equivalent (exact); line 3: "swallowed" inflects
    # 마시다's "swallow"; line 2: "sold" is no equivalent of 사다, so the near miss loses it
    assert [(rows[n]["credited_by"], rows[n]["credited_as"]) for n in (1, 2, 3)] == [
        ("exact", "fruit"),
        (None, None),
        ("inflection", "swallow"),
    ]
    found = result.figures()["near_miss"]
    assert found["changed_keyword_credited"] == 2
    assert found["changed_keyword_by_stage"] == {"exact": 1, "inflection": 1}
    assert found["changed_keyword_not_a_keyword"] == []
    # fluent 3/3, 4/4, 3/3; near miss 3/3, 3/4, 3/3
    assert (found["near_miss_below_fluent"], found["scored_pairs"]) == (1, 3)
    assert found["fluent_minus_near_miss"] == pytest.approx((1 - 3 / 4) / 3)
    assert result.figures()["ktr"][NEAR_MISS] == pytest.approx((1 + 3 / 4 + 1) / 3)
    assert found["by_kind"] == {
        "converse": {
            "lines": 1,
            "changed_keyword_credited": 0,
            "near_miss_below_fluent": 1,
            "scored_pairs": 1,
            "fluent_minus_near_miss": pytest.approx(1 / 4),
        },
        "scope": {
            "lines": 2,
            "changed_keyword_credited": 2,
            "near_miss_below_fluent": 0,
            "scored_pairs": 2,
            "fluent_minus_near_miss": pytest.approx(0.0),
        },
    }
    # the keywords each stage credits: fluent 나 사과 / 그 빨갛다 차 / 소 물 by exact, the three
    # verbs by inflection; the near miss loses 사다 (inflection)
    assert found["credits_by_stage"] == {
        "exact": {"fluent": 7, NEAR_MISS: 7},
        "inflection": {"fluent": 3, NEAR_MISS: 2},
    }


def test_a_lemma_that_is_no_keyword_is_listed_not_counted(tmp_path, scorer):
    rows = [
        (
            "3",
            "The cow drank water.",
            "The cow drank water.",
            "The cow drank.",
            "",
            "The horse drank water.",
            "sister",
            '암소 "cow" -> "horse"',
        )
    ]
    found = run(scorer, SOURCES, read_style(style_file(tmp_path, rows)), "style.tsv").figures()["near_miss"]
    assert found["changed_keyword_not_a_keyword"] == [3]
    assert found["changed_keyword_credited"] == 0


def test_the_command_reports_the_near_misses(tmp_path, capsys):
    src = tmp_path / "src.ko"
    src.write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    lexicon = tmp_path / "lex.tsv"
    lexicon.write_text(LEXICON, encoding="utf-8")
    config = tmp_path / "c.yaml"
    config.write_text(f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n", encoding="utf-8")
    style = style_file(tmp_path, ROWS)
    assert main(["meta-eval", "-s", str(src), "-r", str(src), "-c", str(config), "--style", str(style)]) == 0
    shown = capsys.readouterr().out
    assert "- near miss below fluent: 1 of 3 lines (33%)" in shown
    assert (
        "- the changed keyword still credited in the near-miss line: 2 of 3 lines (67%) (by stage: exact 1, inflection 1)"
        in shown
    )
    assert "| inflection | 3 | 2 | 1 |" in shown
    assert "| converse | 1 | 0 | 1 of 1 | 0.2500 |" in shown
    out = tmp_path / "out"
    assert (
        main(["meta-eval", "-s", str(src), "-r", str(src), "-c", str(config), "--style", str(style), "-o", str(out)])
        == 0
    )
    written = json.loads((out / "style.json").read_text(encoding="utf-8"))
    assert written["near_miss"]["changed_keyword_credited"] == 2
    assert [r["credited_by"] for r in written["near_miss_lines"]] == ["exact", None, "inflection"]


def test_a_version_1_file_still_reads_and_scores_three_styles(tmp_path, scorer):
    rows = [r[:5] for r in ROWS]
    lines = read_style(style_file(tmp_path, rows, header=HEADER_1))
    assert [s.near_miss for s in lines] == ["", "", ""] and lines[0].changed_lemma is None
    result = run(scorer, SOURCES, lines, "style.tsv")
    assert result.styles == ("literal", "fluent", "degraded")
    assert "near_miss" not in result.figures() and "near_miss_lines" not in result.to_dict()


@pytest.mark.parametrize(
    "fields, message",
    [
        (("", "scope", '사과 "apple" -> "fruit"'), "style.tsv:3: near_miss needs a translation"),
        (
            ("I ate an apple.", "scope", '사과 "apple" -> "fruit"'),
            "style.tsv:3: the near miss is the fluent translation unchanged",
        ),
        (
            ("I ate a fruit.", "synonym", '사과 "apple" -> "fruit"'),
            "style.tsv:3: near_miss_kind 'synonym' is not one of sister, part_whole",
        ),
        (
            ("I ate a fruit.", "scope", "사과 apple -> fruit"),
            'style.tsv:3: near_miss_change must read LEMMA "fluent word" -> "near-miss word"',
        ),
    ],
)
def test_a_malformed_near_miss_is_refused_naming_the_line(tmp_path, fields, message):
    with pytest.raises(InputError, match=message):
        read_style(style_file(tmp_path, [(*ROWS[0][:5], *fields)]))


def test_a_header_of_neither_version_is_refused(tmp_path):
    with pytest.raises(
        InputError, match=r"style.tsv:2: expected the header line source_hash .* \(version 1\) or .* \(version 2\)"
    ):
        read_style(style_file(tmp_path, ROWS, header=HEADER_1 + "\tnear_miss"))
    with pytest.raises(InputError, match="style.tsv:3: expected 9 tab-separated fields, found 6"):
        read_style(style_file(tmp_path, [r[:5] for r in ROWS]))


def test_a_number_is_found_inside_its_counter(tmp_path, kiwi):
    """The number stage reads 1970년 as one keyword (lemma 1970년, base 1970); the change names
    the number as written, 1970, and finds it there."""
    lexicon = tmp_path / "lex.tsv"
    lexicon.write_text("그\tpronoun\the\n오다\tverb\tcome\n", encoding="utf-8")
    scorer = Scorer(Config(lexicons=(str(lexicon),), matching=("exact", "inflection", "number")), analyzer=kiwi)
    sources = ["그는 1970년에 왔다."]
    path = tmp_path / "style.tsv"
    row = ("1", line_hash(sources[0]), "He came in 1970.", "He came in 1970.", "He came.", "", "He came in 1978.",
           "number", '1970 "1970" -> "1978"')  # fmt: skip
    path.write_text(HEADER_2 + "\n" + "\t".join(row) + "\n", encoding="utf-8")
    result = run(scorer, sources, read_style(path), "style.tsv")
    assert [k.keyword.lemma for k in result.systems["fluent"].sentences[0].keywords] == ["그", "1970년", "오다"]
    (found,) = result.near_miss_lines()
    assert (found["keyword"], found["credited_by"]) == (True, None)
    assert (found["fluent"], found["near_miss"]) == (1.0, pytest.approx(2 / 3))


def test_a_lemma_the_source_says_twice_is_credited_on_the_word_left(tmp_path, kiwi):
    """소 occurs twice; the near miss changes one "cow" and keeps the other, and a repeat shares
    its first mention's word (docs/matching.md), so both 소 are credited on the "cow" left: the
    near miss costs nothing and its changed keyword counts as credited. Changing the line's only
    "horse" (말, said once) is refused."""
    lexicon = tmp_path / "lex.tsv"
    lexicon.write_text("소\tnoun\tcow\n보다\tverb\tsee\n말\tnoun\thorse\n", encoding="utf-8")
    scorer = Scorer(Config(lexicons=(str(lexicon),), matching=("exact", "inflection")), analyzer=kiwi)
    sources = ["소가 소를 보았다.", "말이 소를 보았다."]
    rows = [
        ("1", "The cow saw a cow.", "The cow saw a cow.", "The cow saw.", "", "The cow saw a horse.", "sister", '소 "cow" -> "horse"'),
        ("2", "The horse saw a cow.", "The horse saw a cow.", "The horse saw.", "", "The cow saw a cow.", "sister", '말 "horse" -> "cow"'),
    ]  # fmt: skip
    path = tmp_path / "style.tsv"
    body = "".join("\t".join((r[0], line_hash(sources[int(r[0]) - 1]), *r[1:])) + "\n" for r in rows)
    path.write_text(HEADER_2 + "\n" + body, encoding="utf-8")
    result = run(scorer, sources, read_style(path), "style.tsv")
    near = result.systems[NEAR_MISS].sentences[0].keywords
    assert [(k.keyword.lemma, k.matched, k.span) for k in near[:2]] == [("소", "cow", (1, 2)), ("소", "cow", (1, 2))]
    assert [(r["credited_by"], r["credited_as"]) for r in result.near_miss_lines()] == [("exact", "cow"), (None, None)]
    assert result.figures()["near_miss"]["near_miss_below_fluent"] == 1
