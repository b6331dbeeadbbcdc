"""The files of ``ktr run`` on the hand-worked case of tests/reports/test_formats.py and a second system:

    other: The student read a book. | He drank. | Chulsoo came. | (empty)
           학생 책 읽다: 3 of 3        마시다 only: 1 of 2   오다 only: 1 of 2; chulsoo added

so other scores 1, 1/2, 1/2 (mean 2/3), precision 1, 1, 1/2, F (β 0.5) 1, 5/6, 1/2; against the
baseline system ``out`` (2/3, 1, 1/2) line 2 differs most (-0.5, 물 lost), then line 1 (+1/3).
"""

import csv
import io
import json

import pytest

from ktr.experiments.experiment import load_experiment
from ktr.experiments.runner import run_experiment
from ktr.reports.files import segments_tsv, summary_text, write_reports
from ktr.reports.markdown import markdown
from tests.reports.test_formats import LEXICON, OUTPUT, SOURCE

OTHER = ["The student read a book.", "He drank.", "Chulsoo came.", ""]
PETS = ["A cat and a dog.", "", "", ""]  # transfers nothing; cat and dog are added


def experiment_run(where, kiwi, systems: dict[str, list[str]], settings: str, source=SOURCE, pipeline=""):
    """``ktr run`` of ``source`` (the hand-worked one) with ``systems`` (name: lines) and
    ``settings`` (YAML lines after data and pipeline), analysed by the session's Kiwi (or, with
    ``kiwi`` None, by the analyzer the pipeline's options make)."""
    (where / "src.ko").write_text("\n".join(source) + "\n", encoding="utf-8")
    for name, lines in systems.items():
        (where / f"{name}.en").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (where / "six.tsv").write_text(LEXICON, encoding="utf-8")
    config = where / "exp.yaml"
    named = ", ".join(f"{name}: {name}.en" for name in systems)
    config.write_text(
        f"data: {{source: src.ko, systems: {{{named}}}}}\n"
        f"pipeline: {{lexicons: [six.tsv], matching: [exact, inflection]{pipeline}}}\n" + settings,
        encoding="utf-8",
    )
    return run_experiment(
        load_experiment(config),
        quiet=True,
        analyzer_factory=(lambda name: kiwi) if kiwi else None,
        analysis_cache=where / "cache",
    )


@pytest.fixture(scope="module")
def run(tmp_path_factory, kiwi):
    return experiment_run(
        tmp_path_factory.mktemp("exp"),
        kiwi,
        {"out": OUTPUT, "other": OTHER},
        "compare: {resamples: 0, differences: 1}\noutput: {formats: [tsv, json, md]}\n",
    )


def test_segments_tsv_by_hand(run):
    rows = list(csv.reader(io.StringIO(segments_tsv(run)), delimiter="\t"))
    assert rows == [
        [
            "variant",
            "system",
            "index",
            "score",
            "keywords",
            "transferred",
            "not_in_lexicon",
            "transferred_keywords",
            "missed_keywords",
            "precision",
            "f",
            "added",
        ],
        ["base", "out", "0", "0.6667", "3", "2", "0", "학생/noun 읽다/verb", "책/noun", "0.6667", "0.6667", "letter"],
        ["base", "out", "1", "1.0000", "2", "2", "0", "물/noun 마시다/verb", "", "1.0000", "1.0000", ""],
        ["base", "out", "2", "0.5000", "2", "1", "1", "오다/verb", "철수/proper_noun", "1.0000", "0.8333", ""],
        ["base", "out", "3", "", "0", "0", "0", "", "", "", "", ""],
        ["base", "other", "0", "1.0000", "3", "3", "0", "학생/noun 책/noun 읽다/verb", "", "1.0000", "1.0000", ""],
        ["base", "other", "1", "0.5000", "2", "1", "0", "마시다/verb", "물/noun", "1.0000", "0.8333", ""],
        ["base", "other", "2", "0.5000", "2", "1", "1", "오다/verb", "철수/proper_noun", "0.5000", "0.5000", "chulsoo"],
        ["base", "other", "3", "", "0", "0", "0", "", "", "", "", ""],
    ]


def test_results_json_by_hand(run):
    (variant,) = run.to_dict()["variants"]
    out, other = variant["systems"]
    assert (out["name"], other["name"]) == ("out", "other")
    assert (other["ktr"], other["ktr_micro"]) == (pytest.approx(2 / 3), pytest.approx(5 / 7))
    assert (other["precision"], other["f"]) == (pytest.approx(2.5 / 3), pytest.approx((1 + 5 / 6 + 1 / 2) / 3))
    assert out["classes"] == {
        "noun": {"keywords": 3, "transferred": 2, "rate": pytest.approx(2 / 3)},
        "proper_noun": {"keywords": 1, "transferred": 0, "rate": 0.0},
        "verb": {"keywords": 3, "transferred": 3, "rate": 1.0},
    }
    assert out["score_histogram"] == [0, 0, 0, 0, 0, 1, 1, 0, 0, 1]  # 1/2, 2/3, 1
    assert other["score_histogram"] == [0, 0, 0, 0, 0, 2, 0, 0, 0, 1]
    assert variant["differences"] == {
        "other": [{"index": 1, "baseline_score": 1.0, "score": 0.5, "delta": -0.5, "gained": [], "lost": ["물"]}]
    }  # compare.differences: 1
    assert variant["failed_lines"] == []


def test_summary_table_by_hand(run):
    lines = summary_text(run).splitlines()
    assert lines[0] == "4 sentences, 2 systems, 1 variant; baseline system: out."
    assert lines[2] == "variant base"
    assert lines[3].split() == ["system", "KTR", "micro", "keywords", "transferred", "F", "prec", "added"]
    assert lines[5].split() == ["out", "0.7222", "0.7143", "7", "5", "0.8333", "0.8889", "1"]
    assert lines[6].split() == ["other", "0.6667", "0.7143", "7", "5", "0.7778", "0.8333", "1"]
    assert lines[7].startswith("signature: ktr:") and "|match:exact,inflection|" in lines[7]
    assert lines[1] == "" and len(lines) == 8  # one variant: no table of variants
    assert summary_text(run) == "\n".join(lines) + "\n"  # one newline at the end


def test_the_differences_in_the_markdown_report(run):
    text = markdown(run)
    part = text.split("## Where systems differ most\n", 1)[1]
    assert "the 1 sentences with the largest KTR difference from the baseline system `out`" in part
    rows = [line for line in part.splitlines() if line.startswith("| 2 |")]
    assert rows == ["| 2 | 1.0000 | 0.5000 | -0.5000 | 물을 마셨다. | He drank water. | He drank. | - | 물 |"]


def test_only_the_configured_formats_are_written(run, tmp_path):
    written = write_reports(run, tmp_path / "report")
    assert [p.name for p in written] == ["segments.tsv", "results.json", "report.md"]
    assert sorted(p.name for p in (tmp_path / "report").iterdir()) == ["report.md", "results.json", "segments.tsv"]
    assert (tmp_path / "report" / "segments.tsv").read_text(encoding="utf-8") == segments_tsv(run)
    assert json.loads((tmp_path / "report" / "results.json").read_text(encoding="utf-8")) == json.loads(
        json.dumps(run.to_dict())
    )


@pytest.fixture(scope="module")
def two_variants(tmp_path_factory, kiwi):
    """The same run with a third system (PETS) and a second variant, exact matching alone: reads,
    drank and came no longer count."""
    return experiment_run(
        tmp_path_factory.mktemp("variants"),
        kiwi,
        {"out": OUTPUT, "other": OTHER, "pets": PETS},
        "variants: {base: {}, exact: {matching: [exact]}}\ncompare: {resamples: 0}\n",
    )


def test_the_variants_table_by_hand(two_variants):
    # exact alone: out 1/3, 1/2, 0 (mean 5/18); other 1, 0, 0 (mean 1/3)
    lines = summary_text(two_variants).splitlines()
    start = lines.index("KTR by variant (change from the baseline variant, paired p)")
    assert lines[start + 1].split() == ["system", "base", "(baseline)", "exact"]
    assert lines[start + 3].split() == ["out", "0.7222", "0.2778", f"({5 / 18 - 13 / 18:+.4f})"]
    assert lines[start + 4].split() == ["other", "0.6667", "0.3333", f"({1 / 3 - 2 / 3:+.4f})"]
    assert lines[start + 5].split() == ["pets", "0.0000", "0.0000", "(+0.0000)"] and len(lines) == start + 6
    assert lines[0] == "4 sentences, 3 systems, 2 variants; baseline system: out."


def test_segments_tsv_lists_every_missed_keyword_and_added_word(two_variants):
    rows = [row.split("\t") for row in segments_tsv(two_variants).splitlines()]
    pets = [row for row in rows if row[:3] == ["exact", "pets", "0"]]
    assert pets == [
        [
            "exact",
            "pets",
            "0",
            "0.0000",
            "3",
            "0",
            "0",
            "",
            "학생/noun 책/noun 읽다/verb",
            "0.0000",
            "0.0000",
            "cat dog",
        ]
    ]


def test_every_format_is_rendered_as_its_own(two_variants, tmp_path):
    from ktr.errors import InputError
    from ktr.reports.files import render

    assert render(two_variants, "md").startswith("# ktr run: exp\n")
    html = render(two_variants, "html")
    assert html.lstrip().lower().startswith("<!doctype html>") and "학생이 책을 읽었다." in html
    text = render(two_variants, "json")
    assert text.startswith('{\n  "ktr_version": ') and text.endswith("}\n") and '"lost": [\n' in text
    assert '"물"' in text  # Hangul as written, not escaped
    nested = tmp_path / "a" / "b"
    assert [p.name for p in write_reports(two_variants, nested)] == [
        "results.json",
        "segments.tsv",
        "report.md",
        "report.html",
    ]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert len(write_reports(two_variants, empty)) == 4  # an empty folder is used as it is
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match=f"{blocked / 'out'}: cannot write the report: Not a directory"):
        write_reports(two_variants, blocked / "out")


def test_a_folder_that_holds_something_is_refused_unless_overwrite(run, tmp_path):
    from ktr.errors import InputError
    from ktr.reports.files import prepare_output

    folder = tmp_path / "report"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(InputError, match=f"{folder}: output folder exists and is not empty; use --overwrite"):
        write_reports(run, folder)
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]  # nothing written
    write_reports(run, folder, overwrite=True)
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt", "report.md", "results.json", "segments.tsv"]
    with pytest.raises(InputError, match=f"{folder / 'notes.txt'}: exists and is not a folder"):
        prepare_output(folder / "notes.txt", overwrite=True)
    prepare_output(tmp_path / "new", overwrite=False)  # absent: fine, not made yet
    assert not (tmp_path / "new").exists()


def test_the_summary_names_the_lines_not_scored(tmp_path):
    # Kiwi with a time limit (in a child process) on a 600,000-character line: not scored
    from tests.cli.test_commands import LONG

    with pytest.warns(Warning, match="src.ko:2: not scored"):
        failed = experiment_run(
            tmp_path,
            None,
            {"out": ["the student", "a book", "water"]},
            "compare: {resamples: 0}\n",
            source=["학생", LONG, "물"],
            pipeline=", timeout: 1, max_chars: 1000000",
        )
    lines = summary_text(failed).splitlines()
    start = lines.index("NOT SCORED: 1 sentence(s) on which the analyzer failed or the time limit ran out:")
    assert lines[start + 1 :] == ["  line 2: kiwi gave no result within timeout=1s"]  # indented, and the end
