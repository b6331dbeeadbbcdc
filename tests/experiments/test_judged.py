"""Judged keywords: the gold file, the agreement of ktr with it, ``ktr meta-eval --gold``."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from ktr import Config, Scorer
from ktr.errors import InputError
from ktr.experiments.judged import Judgment, agreement, carried_text, line_hash, read_gold, write_gold
from ktr.experiments.statistics import pearson, wilson
from ktr.reports.agreement import to_markdown
from ktr.textio import read_lines
from tests.cli.test_main import assert_clean_error, ktr

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
JUDGED = ROOT / "tests" / "data" / "judged"

# Sentences written for these tests, with the labels a reader gives their keywords.
SOURCES = ["나는 어제 사과를 샀다.", "나는 어제 사과를 샀다.", "그는 책 읽는 것을 좋아한다."]
TRANSLATIONS = ["I bought apples yesterday.", "I ate apples.", "He likes reading books."]


def judgments(scorer: Scorer) -> list[Judgment]:
    """Every keyword of the three sentences, judged: line 1 all T; line 2 어제 and 사다 A (no
    "yesterday", "ate" is not "bought"); line 3 the nominalizer 것 G."""
    labels = {1: {}, 2: {"어제": "A", "사다": "A"}, 3: {"것": "G"}}
    out = []
    for n, kws in enumerate(scorer.keywords(SOURCES), 1):
        for k in kws:
            out.append(
                Judgment(
                    n,
                    k.start,
                    k.end,
                    k.lemma,
                    labels[n].get(k.lemma, "T"),
                    line_hash(SOURCES[n - 1]),
                    line_hash(TRANSLATIONS[n - 1]),
                    k.tag,
                )
            )
    return out


@pytest.fixture(scope="module")
def scorer(kiwi):
    """The default stages but constructions, so that 것 is a keyword (and judged G): another
    config than conftest's shared default ``scorer``, which this one replaces in this file."""
    return Scorer(
        Config(matching=("exact", "inflection", "derivation", "synonym", "number", "transliteration")), analyzer=kiwi
    )


def test_keywords_of_the_written_sentences_are_what_the_labels_assume(scorer):
    assert [[k.lemma for k in kws] for kws in scorer.keywords(SOURCES)] == [
        ["나", "어제", "사과", "사다"],
        ["나", "어제", "사과", "사다"],
        ["그", "책", "읽다", "것", "좋아하다"],
    ]


def test_agreement_on_hand_judged_sentences(scorer):
    result = agreement(scorer, SOURCES, TRANSLATIONS, judgments(scorer))
    k = result.keyword_agreement()
    # line 1: 4 T credited; line 2: 나, 사과 T credited, 어제 and 사다 A not credited;
    # line 3: 그, 책, 읽다, 좋아하다 T credited (he, books, reading, likes)
    assert (k["true_positive"], k["false_positive"], k["false_negative"], k["true_negative"]) == (10, 0, 0, 2)
    assert k["precision"] == k["recall"] == k["accuracy"] == 1.0
    assert result.other_labels()["G"] == {"judged": 1, "not_counted": 0, "counted_missed": 1, "counted_credited": 0}
    assert result.disagreements() == {"grammar counted": 1}
    s = result.sentence_agreement()
    assert result.gold_rates() == {1: 1.0, 2: 0.5, 3: 1.0}
    assert result.ktr_scores == {1: 1.0, 2: 0.5, 3: 0.8}  # 것 counted and missed: 4 of 5
    assert s["gold_rate"] == pytest.approx(2.5 / 3) and s["ktr"] == pytest.approx(2.3 / 3)
    assert s["mean_absolute_difference"] == pytest.approx(0.2 / 3)
    assert (s["all_absent"], s["auc_ceiling"]) == (0, 1.0)  # no line judged all A
    assert "No judged line has every word judged A" in to_markdown(result)


def test_lines_judged_all_absent_bound_the_auc_against_mismatched_pairs(scorer):
    # line 2 judged a translation of some other sentence: every keyword A
    gold = [replace(j, label="A") if j.line == 2 else j for j in judgments(scorer)]
    result = agreement(scorer, SOURCES, TRANSLATIONS, gold)
    s = result.sentence_agreement()
    # a score agreeing with the readers gives line 2 what it gives a mismatched pair: of the 3
    # true lines, 2 rank above every mismatched pair and 1 ties with them
    assert s["all_absent"] == 1 and s["auc_ceiling"] == pytest.approx(1 - 1 / 3 / 2)
    low, high = wilson(1, 3)
    assert s["auc_ceiling_interval"] == pytest.approx([1 - high / 2, 1 - low / 2])
    assert "1 judged lines have every word judged A" in to_markdown(result)


def test_with_constructions_the_nominalizer_is_no_keyword_and_no_penalty(scorer, kiwi):
    result = agreement(Scorer(analyzer=kiwi), SOURCES, TRANSLATIONS, judgments(scorer))
    assert result.other_labels()["G"] == {"judged": 1, "not_counted": 1, "counted_missed": 0, "counted_credited": 0}
    assert result.disagreements() == {} and result.ktr_scores[3] == 1.0


def test_a_word_judged_t_that_ktr_misses_is_a_disagreement_with_its_kind(scorer):
    source, translation = "나는 어제 사과를 샀다.", "Yesterday I came home with some apples."
    j = [
        Judgment(
            1,
            k.start,
            k.end,
            k.lemma,
            "T",
            carried_by={"나": "I", "어제": "Yesterday", "사과": "apples", "사다": "came home with"}[k.lemma],
        )
        for k in scorer.keywords([source])[0]
    ]
    result = agreement(scorer, [source], [translation], j)
    assert result.keyword_agreement()["false_negative"] == 1
    assert [(i.judgment.lemma, i.kind, i.carried) for i in result.items if i.kind] == [
        ("사다", "missing sense", "came home with")
    ]


def test_the_gold_file_round_trips_and_keeps_only_the_columns_in_use(scorer, tmp_path):
    path = tmp_path / "gold.tsv"
    j = judgments(scorer)
    write_gold(j, path, comments=["three written sentences"])
    text = path.read_text(encoding="utf-8").splitlines()
    assert text[:3] == [
        "# ktr judged keywords, version 1",
        "# three written sentences",
        "line\tstart\tend\tlemma\tlabel\tsource_hash\ttranslation_hash\ttag",
    ]
    assert read_gold(path) == j


@pytest.mark.parametrize(
    "rows, message",
    [
        (["line\tstart\tend\tlemma", "1\t0\t1\t나"], ":1: the header must name columns .* missing: label"),
        (["line\tstart\tend\tlemma\tlabel\twhy", "1\t0\t1\t나\tT\tx"], ":1: .*unknown: why"),
        (["line\tstart\tend\tlemma\tlabel", "1\t0\t1\t나\tX"], ":2: label 'X' is not one of T, A, G, E"),
        (["line\tstart\tend\tlemma\tlabel", "1\t0\t1\t나\t"], ":2: label '' is not one of"),
        (["line\tstart\tend\tlemma\tlabel", "one\t0\t1\t나\tT"], ":2: line, start and end must be whole numbers"),
        (["line\tstart\tend\tlemma\tlabel", "1\t2\t1\t나\tT"], ":2: needs line >= 1 and 0 <= start < end"),
        (["line\tstart\tend\tlemma\tlabel", "1\t0\t1\t나"], ":2: 4 columns, the header has 5"),
        (
            ["line\tstart\tend\tlemma\tlabel\tcarried_at", "# a comment", "1\t0\t1\t나\tT\t0-1;3-4"],
            ":3: carried_at must be",
        ),
        (["# only a comment"], ": no judgments"),
    ],
)
def test_a_bad_gold_file_is_an_error_naming_file_and_line(tmp_path, rows, message):
    path = tmp_path / "gold.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=f"^{path}{message}"):
        read_gold(path)


def test_a_gold_file_is_refused_on_other_text(scorer):
    j = judgments(scorer)
    with pytest.raises(InputError, match="source line 1 is not the line that was judged"):
        agreement(scorer, ["다른 문장이다.", *SOURCES[1:]], TRANSLATIONS, j)
    with pytest.raises(InputError, match="translation line 3 is not the line that was judged"):
        agreement(scorer, SOURCES, [*TRANSLATIONS[:2], "He eats rice."], j)
    with pytest.raises(InputError, match="judges line 3, the source has 2 lines"):
        agreement(scorer, SOURCES[:2], TRANSLATIONS[:2], j)


def test_carried_text_and_pearson():
    assert carried_text("0-1,9-12", "I was so sad") == "I … sad"
    assert carried_text("", "anything") == ""
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert pearson([1, 1], [1, 2]) is None and pearson([1], [1]) is None


def test_wilson_interval_on_textbook_cases():
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)  # upper z²/(n+z²)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 0) is None


@pytest.mark.slow  # ktr in a subprocess
def test_cli_meta_eval_with_gold(scorer, tmp_path):
    src, hyp, gold = tmp_path / "s.ko", tmp_path / "t.en", tmp_path / "gold.tsv"
    src.write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(TRANSLATIONS) + "\n", encoding="utf-8")
    write_gold(judgments(scorer), gold)
    proc = ktr("meta-eval", "-s", src, "-r", hyp, "--gold", gold)
    assert proc.returncode == 0, proc.stderr
    assert "| 12 | 1.0000 | 1.0000 | 1.0000 | 10 | 0 | 0 | 2 |" in proc.stdout
    assert "| G | 1 | 1 | 0 | 0 |" in proc.stdout  # the default config's constructions: not a keyword
    proc = ktr("meta-eval", "-s", src, "-r", hyp, "--gold", gold, "-o", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "out" / "agreement.json").read_text(encoding="utf-8"))
    assert doc["keywords"]["recall"] == 1.0 and doc["labels"] == {"T": 10, "A": 2, "G": 1}
    assert doc["grammar_and_errors"]["G"]["not_counted"] == 1 and doc["disagreements"] == {} == doc["examples"]
    config = tmp_path / "no-constructions.yaml"
    config.write_text("matching: [exact, inflection, derivation, synonym, number, transliteration]\n", encoding="utf-8")
    proc = ktr("meta-eval", "-s", src, "-r", hyp, "--gold", gold, "-c", config, "-o", tmp_path / "out2")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "out2" / "agreement.json").read_text(encoding="utf-8"))
    assert doc["examples"] == {
        "grammar counted": [
            {"line": 3, "lemma": "것", "label": "G", "carried_by": None, "ktr": "것/NNB", "matched": None, "how": None}
        ]
    }
    hyp.write_text("\n".join(TRANSLATIONS[:2] + ["He eats rice."]) + "\n", encoding="utf-8")
    assert_clean_error(
        ktr("meta-eval", "-s", src, "-r", hyp, "--gold", gold), "translation line 3 is not the line that was judged"
    )


@pytest.mark.shared_data
@pytest.mark.parametrize(
    "name, counts",
    [("news-dev", {"T": 1827, "A": 409, "G": 95, "E": 12}), ("jhe-dev", {"T": 1263, "A": 28, "G": 73, "E": 6})],
)
def test_shipped_judgments_apply_to_the_shared_data(shared_data, scorer, name, counts):
    gold = read_gold(JUDGED / f"{name}.tsv")
    assert {label: sum(j.label == label for j in gold) for label in counts} == counts
    assert len({j.line for j in gold}) == 150
    result = agreement(scorer, read_lines(SHARED / f"{name}.ko"), read_lines(SHARED / f"{name}.en"), gold)
    # when ktr says "transferred", readers agree: the bar set for the default config
    assert result.keyword_agreement()["precision"] >= 0.95
    assert all(i.carried for i in result.items if i.judgment.label == "T")


def test_judging_sheet_is_a_gold_file_once_labelled(scorer, tmp_path):
    import subprocess
    import sys

    src, hyp, sheet = tmp_path / "s.ko", tmp_path / "t.en", tmp_path / "sheet.tsv"
    src.write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(TRANSLATIONS) + "\n", encoding="utf-8")
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "judging_sheet.py"),
            "-s",
            src,
            "-t",
            hyp,
            "--lines",
            "2",
            "--seed",
            "7",
            "-o",
            sheet,
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    rows = sheet.read_text(encoding="utf-8").splitlines()
    comments = [r for r in rows if r.startswith("# ") and " | " in r]
    assert len(comments) == 2 and all(SOURCES[int(c[2:].split(" | ")[0]) - 1] in c for c in comments)
    with pytest.raises(InputError, match=r"sheet.tsv:\d+: label '' is not one of"):
        read_gold(sheet)
    header = rows.index(next(r for r in rows if r.startswith("line\t")))
    labelled = rows[: header + 1] + [
        r if r.startswith("#") else r.replace("\t\t\t", "\tT\t\t", 1) for r in rows[header + 1 :]
    ]
    sheet.write_text("\n".join(labelled) + "\n", encoding="utf-8")
    gold = read_gold(sheet)
    assert {j.label for j in gold} == {"T"} and len({j.line for j in gold}) == 2
    assert agreement(scorer, read_lines(src), read_lines(hyp), gold).keyword_agreement()["judged"] == len(gold)
