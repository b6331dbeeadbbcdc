"""Meta-evaluation: the statistics on hand-computed cases, the SVG chart, and full runs (real
Kiwi, WordNet and sacrebleu) on the embedded sample and, when present, the shared parallel data."""

import json
import math
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ktr import Scorer
from ktr.experiments import metaeval as M
from ktr.experiments import statistics as stats
from ktr.reports import metaeval_report
from ktr.reports.svg import grouped_bars
from ktr.sample import paths as sample_paths
from ktr.textio import read_lines
from tests.cli.test_main import assert_clean_error, ktr

SVG = "{http://www.w3.org/2000/svg}"


def test_auc_counts_ties_half():
    # pairs (pos, neg): (.9,.5) 1, (.9,.1) 1, (.5,.5) ½, (.5,.1) 1, (.5,.5) ½, (.5,.1) 1 → 5 of 6
    assert stats.auc([0.9, 0.5, 0.5], [0.5, 0.1]) == pytest.approx(5 / 6)
    assert stats.auc([1, 2], [0, 0]) == 1.0 and stats.auc([0, 0], [1, 2]) == 0.0 and stats.auc([3, 3], [3]) == 0.5
    assert stats.auc([], [1]) is None


def test_kendall_tau_b_hand_computed():
    # no ties: 5 concordant, 1 discordant pair → 4 / 6
    assert stats.kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)
    # x = 0 0 1 1, y = 1 2 2 3: concordant 3, discordant 0; 6 pairs, 2 tied in x, 1 tied in y
    assert stats.kendall_tau_b([0, 0, 1, 1], [1, 2, 2, 3]) == pytest.approx(3 / math.sqrt(4 * 5))
    assert stats.kendall_tau_b([0, 25, 50, 75], [1.0, 0.5, 0.5, 0.0]) == pytest.approx(-5 / math.sqrt(6 * 5))
    assert stats.kendall_tau_b([1, 2, 3], [5, 5, 5]) is None


def brute_tau_b(x, y):
    s = sum(((a > c) - (a < c)) * ((b > d) - (b < d)) for (a, b), (c, d) in combinations(zip(x, y), 2))
    n0 = len(x) * (len(x) - 1) / 2
    tx = sum(a == c for a, c in combinations(x, 2))
    ty = sum(b == d for b, d in combinations(y, 2))
    return s / math.sqrt((n0 - tx) * (n0 - ty)) if (n0 - tx) * (n0 - ty) else None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 5)), min_size=2, max_size=30))
def test_kendall_tau_b_matches_the_pairwise_definition(pairs):
    x, y = [p[0] for p in pairs], [p[1] for p in pairs]
    got, want = stats.kendall_tau_b(x, y), brute_tau_b(x, y)
    assert (got is None) == (want is None)
    if got is not None:
        assert got == pytest.approx(want)
        assert stats.kendall_tau_b(y, x) == pytest.approx(got)


def test_grouped_bars_is_standalone_svg_with_one_bar_per_value():
    svg = grouped_bars(["a<b", "c"], {"one": [0.5, None], "two": [1.0, 0.25]}, title="T & t", y_label="s")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    bars = [r for r in root.iter(f"{SVG}rect") if r.find(f"{SVG}title") is not None]
    assert [r.find(f"{SVG}title").text for r in bars] == ["a<b, one: 0.5", "a<b, two: 1", "c, two: 0.25"]
    heights = [float(r.get("height")) for r in bars]
    assert heights[1] == pytest.approx(2 * heights[0]) == pytest.approx(4 * heights[2])


@pytest.fixture(scope="module")
def sample_run(kiwi):
    p = sample_paths()
    return M.run(Scorer(analyzer=kiwi), read_lines(p["source"]), read_lines(p["reference"]), seed=1)


def test_run_scores_every_variant_of_every_line(sample_run):
    r = sample_run
    assert list(r.variants) == [
        "true",
        "mismatch",
        "drop25",
        "drop50",
        "drop75",
        "shuffle",
        "synonym",
        "numbers",
        "addition",
        "salad",
    ]
    assert all(len(v.lines) == 20 and all(len(s) == 20 for s in v.scores.values()) for v in r.variants.values())
    assert r.mean("true", "bleu") == 100 and r.mean("true", "chrf") == 100
    assert r.mean("true", "ktr") > r.mean("drop25", "ktr") > r.mean("drop50", "ktr") > r.mean("drop75", "ktr")
    assert r.mean("mismatch", "ktr") < 0.2 < r.mean("true", "ktr")
    assert len(r.changed("numbers")) == 1  # only "room 314" has digits
    assert r.auc("ktr") > 0.9 and r.tau("ktr") < 0


def test_glosses_are_each_keywords_first_equivalents_in_source_order(kiwi):
    scorer = Scorer(analyzer=kiwi)
    prepared = scorer.prepare(["나는 사과를 먹을 수 없다.", "ㅋㅋ"])
    # 나 I, 사과 apple, 먹다 eat, -ㄹ 수 없다 (its first realization, the mark @negation, is
    # looked up as its words, "not" first); a line with no keyword glosses nothing
    assert M.glosses(prepared.lookups, 1) == [["I", "apple", "eat", "not"], []]
    first = [e for found in prepared.lookups[0] for e in found.equivalents[:3]]
    assert M.glosses(prepared.lookups) == [first, []]
    # three each, the stacked lexicons in order (사과: core's apple, apology, then senses' apologize)
    assert first[:7] == ["I", "me", "my", "apple", "apology", "apologize", "eat"] and first[-3:] == ["not", "t", "no"]


def test_addition_keeps_ktr_and_salad_is_the_glosses_of_the_source(sample_run, kiwi):
    r = sample_run
    true, added = r.variants["true"].scores["ktr"], r.variants["addition"].scores["ktr"]
    # appending text can only add matches: no sentence's KTR goes down
    assert all(a >= t for a, t in zip(added, true) if t is not None)
    assert r.mean("addition", "bleu") < 100
    lookups = Scorer(analyzer=kiwi).prepare(read_lines(sample_paths()["source"])).lookups
    assert r.variants["salad"].lines == [" ".join(g) for g in M.glosses(lookups)]
    # every keyword's own first equivalent is there: the salad is credited above the true text
    assert r.mean("salad", "ktr") > r.mean("true", "ktr") and r.mean("salad", "bleu") < 20
    assert any(line.startswith("Gloss salad") for line in M.reading(r))


def test_report_agrees_with_its_own_sentence_scores(sample_run):
    doc = sample_run.to_dict()
    by_name = {v["name"]: v for v in doc["variants"]}
    true = [s["ktr"] for s in by_name["true"]["segments"]]
    mism = [s["ktr"] for s in by_name["mismatch"]["segments"]]
    assert doc["auc_true_vs_mismatch"]["ktr"] == pytest.approx(stats.auc(true, mism))
    assert by_name["shuffle"]["mean"]["bleu"] == pytest.approx(
        sum(s["bleu"] for s in by_name["shuffle"]["segments"]) / 20
    )
    md = metaeval_report.to_markdown(sample_run)
    assert f"| shuffle | 20 | {by_name['shuffle']['mean']['ktr']:.4f} |" in md
    assert all(f"- {line}" in md for line in doc["reading"])


@pytest.mark.slow  # ktr in a subprocess
def test_cli_writes_json_markdown_and_svg(tmp_path):
    p = sample_paths()
    proc = ktr("meta-eval", "-s", p["source"], "-r", p["reference"], "-o", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    doc = json.loads((tmp_path / "out" / "meta-eval.json").read_text(encoding="utf-8"))
    assert doc["sentences"] == 20 and doc["signature"]["short"].startswith("ktr:")
    assert doc["sacrebleu"]["bleu"].startswith("nrefs:1|") and "eff:yes" in doc["sacrebleu"]["bleu"]
    md = (tmp_path / "out" / "meta-eval.md").read_text(encoding="utf-8")
    assert "| variant | changed | KTR | F | BLEU | chrF |" in md and "meta-eval.svg" in md
    ET.fromstring((tmp_path / "out" / "meta-eval.svg").read_text(encoding="utf-8"))


@pytest.mark.slow  # ktr in a subprocess
def test_cli_without_output_folder_prints_the_markdown(capsys):
    from ktr.cli import main

    p = sample_paths()
    assert main(["meta-eval", "-s", str(p["source"]), "-r", str(p["reference"]), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Meta-evaluation") and "| synonym | 18 |" in out and "seed 3" in out


def test_cli_rejects_bad_input_before_scoring(tmp_path):
    src, ref = tmp_path / "a.ko", tmp_path / "a.en"
    src.write_text("하나\n둘\n", encoding="utf-8")
    ref.write_text("one\n", encoding="utf-8")
    assert_clean_error(ktr("meta-eval", "-s", src, "-r", ref), "line counts differ", "a.en has 1")
    ref.write_text("one\ntwo\n", encoding="utf-8")
    assert_clean_error(ktr("meta-eval", "-s", src, "-r", ref, "-o", ref), "a.en: exists and is not a directory")
    src.write_text("하나\n", encoding="utf-8")
    ref.write_text("one\n", encoding="utf-8")
    assert_clean_error(ktr("meta-eval", "-s", src, "-r", ref), "a.ko: one line", "at least 2")


@pytest.mark.shared_data
def test_real_parallel_text_separates_true_from_mismatched(shared_data, kiwi):
    src = read_lines(shared_data / "jhe-dev.ko")[:200]
    ref = read_lines(shared_data / "jhe-dev.en")[:200]
    r = M.run(Scorer(analyzer=kiwi), src, ref)
    assert r.auc("ktr") > 0.9
    assert all(r.tau_within(m)[0] < -0.5 for m in M.METRICS)
    assert r.kept("shuffle", "ktr") > r.kept("shuffle", "chrf") > r.kept("shuffle", "bleu")
