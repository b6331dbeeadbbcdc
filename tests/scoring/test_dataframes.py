"""The Python ecosystem: report.to_pandas(), the notebook display, and scoring the columns of a
pandas DataFrame or a Hugging Face Dataset, on the embedded sample with the default config."""

import math
import re
import subprocess
import sys

import pytest

from ktr import score_columns
from ktr.errors import BackendUnavailable, InputError
from ktr.sample import paths
from tests.conftest import ROOT

pandas = pytest.importorskip("pandas")
SYSTEMS = ("fluent", "wordsalad")


def lines(path):
    return path.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def sample():
    p = paths()
    return {"ko": lines(p["source"]), "ref": lines(p["reference"]), **{name: lines(p[name]) for name in SYSTEMS}}


@pytest.fixture(scope="module")
def report(scorer, sample):
    return scorer.score(sample["ko"], {name: sample[name] for name in SYSTEMS}, [sample["ref"]])


def same(a, b):
    return (a is None and (b is None or math.isnan(b))) or a == pytest.approx(b)


def test_to_pandas_has_a_row_per_system_and_sentence_and_one_per_system(report):
    sentences, systems = report.to_pandas()
    assert len(sentences) == 2 * 20 and list(sentences["system"].unique()) == list(SYSTEMS)
    for system in report.systems:
        rows = sentences[sentences["system"] == system.name]
        assert list(rows["index"]) == [s.index for s in system.sentences]
        for (_, row), s in zip(rows.iterrows(), system.sentences):
            assert (
                same(s.score, row["score"])
                and same(s.precision, row["precision"])
                and same(s.figures(system.averaging).f, row["f"])
            )
            assert (row["keywords_counted"], row["transferred"]) == (s.counted, s.transferred)
            assert row["added"] == [word for _, word in s.added]
            assert len(row["missed"]) == s.counted - s.transferred
    assert list(systems["name"]) == list(SYSTEMS)
    for (_, row), summary in zip(systems.iterrows(), report.to_dict()["systems"]):
        assert row["ktr"] == pytest.approx(summary["ktr"]) and row["bleu"] == pytest.approx(summary["bleu"])
        assert row["f"] == pytest.approx(summary["f"]) and row["keywords"] == summary["keywords"]
    assert sentences.attrs["signature"] == systems.attrs["signature"] == report.signature.short()
    # the frames' means are the corpus figures
    fluent = report.systems[0]
    assert sentences[sentences["system"] == "fluent"]["score"].mean() == pytest.approx(fluent.ktr)


def test_to_pandas_without_pandas_names_the_extra(report, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if pandas were not installed
    with pytest.raises(BackendUnavailable, match=r"needs pandas: pip install 'ktr\[pandas\]'"):
        report.to_pandas()


def test_the_notebook_shows_the_systems_table_of_the_command_line(report):
    html = report._repr_html_()
    assert html.startswith("<table>") and report.signature.short() in html
    headers = re.findall(r"<th>(.*?)</th>", html)
    assert headers[:3] == ["system", "KTR", "F"] and headers[-2:] == ["BLEU", "chrF"]
    cells = re.findall(r"<tr>((?:<td>.*?</td>)+)</tr>", html)
    table = [re.findall(r"<td>(.*?)</td>", row) for row in cells]
    # the same rows as ktr score prints for the same files (its --sample adds a third system)
    p = paths()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ktr",
            "score",
            "-s",
            p["source"],
            "-t",
            p["fluent"],
            p["wordsalad"],
            "-r",
            p["reference"],
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    # printed as two tables, the scores then the counts: their rows joined as the notebook has them
    lines = proc.stdout.splitlines()
    scores, counts = [line.split() for line in lines[2:4]], [line.split() for line in lines[7:9]]
    printed = [s[:6] + c[1:] + s[6:] for s, c in zip(scores, counts)]
    assert [row[1:] for row in table] == [row[1:] for row in printed]
    assert [row[0] for row in table] == list(SYSTEMS)


def test_score_columns_of_a_dataframe_in_place(scorer, sample, report):
    frame = pandas.DataFrame(sample)
    before = list(frame.columns)
    out, got = score_columns(frame, "ko", list(SYSTEMS), ["ref"], scorer=scorer)
    assert out is frame
    assert list(frame.columns) == before + [f"{n}_{k}" for n in SYSTEMS for k in ("ktr", "precision", "f")]
    for system in report.systems:
        for s, ktr, precision, f in zip(
            system.sentences, frame[f"{system.name}_ktr"], frame[f"{system.name}_precision"], frame[f"{system.name}_f"]
        ):
            assert same(s.score, ktr) and same(s.precision, precision) and same(s.figures(system.averaging).f, f)
    assert [s.ktr for s in got.systems] == [s.ktr for s in report.systems]
    assert [s.bleu for s in got.systems] == [s.bleu for s in report.systems]


def test_score_columns_of_a_hugging_face_dataset(scorer, sample, report):
    datasets = pytest.importorskip("datasets")
    dataset = datasets.Dataset.from_dict(sample)
    out, got = score_columns(dataset, "ko", "fluent", scorer=scorer)
    assert dataset.column_names == list(sample)  # a Dataset is not changed: a new one
    assert out.column_names == list(sample) + ["fluent_ktr", "fluent_precision", "fluent_f"]
    assert out["fluent_ktr"] == [s.score for s in report.systems[0].sentences]
    assert out["fluent_f"] == pytest.approx(
        [s.figures(report.systems[0].averaging).f for s in report.systems[0].sentences]
    )
    assert got.systems[0].ktr == report.systems[0].ktr and got.systems[0].bleu is None
    again, _ = score_columns(out, "ko", "fluent", scorer=scorer)  # scoring again replaces the columns
    assert again.column_names == out.column_names


def test_score_columns_names_a_missing_column(scorer, sample):
    with pytest.raises(InputError, match=r"no column 'mt'; the columns are .*fluent"):
        score_columns(pandas.DataFrame(sample), "ko", "mt", scorer=scorer)
