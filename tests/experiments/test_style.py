"""The style set (ktr/experiments/style.py, ``ktr meta-eval --style``): a file of literal, fluent
and degraded translations read strictly, and the figures of how KTR ranks them, worked out by hand
on lines and a lexicon written for this test."""

import json
from collections import Counter

import pytest

from ktr import Config, Scorer
from ktr.cli.main import main
from ktr.errors import InputError
from ktr.experiments.judged import line_hash
from ktr.experiments.style import NEAR_MISS_KINDS, read_style, run

SOURCES = ["나는 사과를 먹었다.", "그는 빨간 차를 샀다."]
HEADER = "line\tsource_hash\tliteral\tfluent\tdegraded\tchange"
#: 나 사과 먹다 / 그 빨갛다 차 사다; the fluent reword of line 2 ("picked up") is not in the lexicon
LEXICON = "나\tpronoun\tI\n사과\tnoun\tapple\n먹다\tverb\teat\n그\tpronoun\the\n빨갛다\tadjective\tred\n차\tnoun\tcar\n사다\tverb\tbuy\n"


def style_file(tmp_path, rows, name="style.tsv"):
    path = tmp_path / name
    path.write_text("# a style set\n" + HEADER + "\n" + "".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def scorer(tmp_path, kiwi):
    """A lexicon of this file's own and two stages: not conftest's shared default ``scorer``,
    which this one replaces in this file."""
    lexicon = tmp_path / "lex.tsv"
    lexicon.write_text(LEXICON, encoding="utf-8")
    return Scorer(Config(lexicons=(str(lexicon),), matching=("exact", "inflection")), analyzer=kiwi)


def test_the_figures_by_hand(tmp_path, scorer):
    rows = [
        ("1", line_hash(SOURCES[0]), "I ate an apple.", "I had an apple.", "I had a pear.", "사과 changed"),
        (
            "2",
            line_hash(SOURCES[1]),
            "He bought a red car.",
            "He picked up a red car.",
            "He picked up a car.",
            "빨간 dropped",
        ),
    ]
    found = run(scorer, SOURCES, read_style(style_file(tmp_path, rows)), "style.tsv").figures()
    # literal: 3/3 and 4/4; fluent: 나 사과 (had ≠ eat) 2/3, 그 빨갛다 차 (picked up ≠ buy) 3/4;
    # degraded: 나 1/3 ("pear"), 그 차 2/4 ("red" dropped)
    assert found["ktr"] == pytest.approx(
        {"literal": 1.0, "fluent": (2 / 3 + 3 / 4) / 2, "degraded": (1 / 3 + 2 / 4) / 2}
    )
    assert found["fluent_over_literal"] == pytest.approx((2 / 3 + 3 / 4) / 2)
    assert found["fluent_minus_degraded"] == pytest.approx((1 / 3 + 1 / 4) / 2)
    assert (found["degraded_below_fluent"], found["scored_pairs"], found["lines"]) == (2, 2, 2)


def test_the_command_writes_the_figures(tmp_path, capsys):
    src = tmp_path / "src.ko"
    src.write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    rows = [("2", line_hash(SOURCES[1]), "He bought a red car.", "He bought a red car.", "He bought a car.", "")]
    out = tmp_path / "out"
    code = main(
        ["meta-eval", "-s", str(src), "-r", str(src), "--style", str(style_file(tmp_path, rows)), "-o", str(out)]
    )
    assert code == 0
    written = json.loads((out / "style.json").read_text(encoding="utf-8"))
    assert written["lines"] == 1 and written["degraded_below_fluent"] == 1 and written["fluent_over_literal"] == 1.0
    assert "degraded below fluent: 1 of 1 lines" in (out / "style.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "rows, message",
    [
        ([("x", "", "a", "b", "c", "")], r"style.tsv:3: line must be a line number \(from 1\), got 'x'"),
        ([("1", "", "a", "b", "c")], "style.tsv:3: expected 6 tab-separated fields, found 5"),
        ([("1", "", "a", "", "c", "")], "style.tsv:3: each of literal, fluent and degraded needs a translation"),
        ([], "style.tsv: no style lines"),
    ],
)
def test_a_malformed_file_is_refused_naming_the_line(tmp_path, rows, message):
    with pytest.raises(InputError, match=message):
        read_style(style_file(tmp_path, rows))


def test_a_line_of_other_text_is_refused(tmp_path, scorer):
    rows = [("1", line_hash("다른 문장."), "a", "b", "c", "")]
    with pytest.raises(InputError, match="style.tsv: source line 1 is not the line that was translated"):
        run(scorer, SOURCES, read_style(style_file(tmp_path, rows)), "style.tsv")
    with pytest.raises(InputError, match="line 3 is past the source's 2 lines"):
        run(scorer, SOURCES, read_style(style_file(tmp_path, [("3", "", "a", "b", "c", "")])), "style.tsv")


def test_the_shipped_style_sets_match_the_shared_data(shared_data, kiwi):
    """Every line of tests/data/style/ is a line of ../shared/data (by its hash) with three translations
    and a near miss."""
    from pathlib import Path

    from ktr.textio import read_lines

    for name in ("news-dev", "jhe-dev"):
        lines = read_style(Path(__file__).parents[1] / "data" / "style" / f"{name}.tsv")
        sources = read_lines(shared_data / f"{name}.ko")
        assert len(lines) == 90 and len({s.line for s in lines}) == 90
        assert all(s.source_hash == line_hash(sources[s.line - 1]) for s in lines)
        assert all(len({s.literal, s.fluent, s.degraded}) == 3 for s in lines)
        # version 2: a near miss on every line, every kind on at least 8 lines of each set, the
        # change's fluent word in the fluent translation and its near-miss word in the near miss
        kinds = Counter(s.near_miss_kind for s in lines)
        assert set(kinds) == set(NEAR_MISS_KINDS) and min(kinds.values()) >= 8 and sum(kinds.values()) == 90
        for s in lines:
            fluent_word, near_word = s.near_miss_change.split('"')[1::2][:2]
            assert fluent_word in s.fluent and near_word in s.near_miss and s.near_miss != s.fluent, s.line
