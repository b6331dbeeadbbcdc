"""The Hugging Face ``evaluate`` metric module shipped in the package (ktr/hf/ktr_metric.py):
the figures are ktr's own (the metric's corpus score), references optional, offline; loaded with
``evaluate.load`` of its path as a user does, in a process of its own with the Hugging Face caches
in a temporary folder. Skipped when ``evaluate`` is not installed (the ``evaluate`` extra)."""

import json
import os
import subprocess
import sys

import pytest

from ktr.errors import InputError
from ktr.resources import evaluate_metric
from tests.conftest import HF_CACHES

evaluate = pytest.importorskip("evaluate", reason="needs the evaluate extra: pip install 'ktr[evaluate]'")

SOURCES = ["나는 사과를 먹었다.", "회의는 3시에 시작한다."]
PREDICTIONS = ["I ate a pear.", "The meeting starts at three o'clock."]
REFERENCES = [["I ate an apple.", "I had an apple."], ["The meeting begins at 3.", "The meeting starts at three."]]


@pytest.fixture(scope="module")
def metric(tmp_path_factory):
    """The module's metric class, built as evaluate builds it, its data kept in memory."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("ktr_metric", evaluate_metric())
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.KtrMetric(keep_in_memory=True, cache_dir=str(tmp_path_factory.mktemp("hf")))


def test_the_module_is_shipped_in_the_package():
    path = evaluate_metric()
    assert path.is_file() and path.parent.name == "hf" and path.parent.parent.name == "ktr"


def test_its_figures_are_the_metrics(metric, kiwi):
    from ktr import KTR

    got = metric.compute(sources=SOURCES, predictions=PREDICTIONS)
    corpus = KTR().corpus_score(SOURCES, PREDICTIONS)
    assert got["ktr"] == corpus.score == pytest.approx((2 / 3 + 1) / 2)
    assert (got["precision"], got["f"]) == (corpus.precision, corpus.f)
    assert (got["keywords"], got["transferred"], got["added"]) == (6, 5, 1)  # "pear" is added
    assert "bleu" not in got and got["signature"] == corpus.signature


def test_references_add_bleu_and_chrf_as_sacrebleu_scores_them(metric):
    from sacrebleu.metrics import BLEU, CHRF

    got = metric.compute(sources=SOURCES, predictions=PREDICTIONS, references=REFERENCES)
    streams = [list(s) for s in zip(*REFERENCES)]
    assert got["bleu"] == pytest.approx(BLEU().corpus_score(PREDICTIONS, streams).score, abs=1e-4)
    assert got["chrf"] == pytest.approx(CHRF().corpus_score(PREDICTIONS, streams).score, abs=1e-4)


def test_batches_add_up_to_the_whole(metric):
    whole = metric.compute(sources=SOURCES, predictions=PREDICTIONS)
    for source, prediction in zip(SOURCES, PREDICTIONS):
        metric.add_batch(sources=[source], predictions=[prediction])
    assert metric.compute() == whole


def test_a_config_file_and_uneven_references(metric, tmp_path):
    config = tmp_path / "exact.yaml"
    config.write_text("matching: [exact]\n", encoding="utf-8")
    got = metric.compute(sources=SOURCES, predictions=PREDICTIONS, config=str(config))
    assert "|match:exact|" in got["signature"] and got["transferred"] == 3  # nor "starts" nor "three" exactly
    with pytest.raises(InputError, match="every prediction needs the same number of references, got 1 to 2"):
        metric.compute(sources=SOURCES, predictions=PREDICTIONS, references=[["I ate an apple."], REFERENCES[1]])


@pytest.mark.slow  # a process of its own: evaluate, the analyzer and the tables loaded there
def test_evaluate_load_of_the_installed_module_offline(tmp_path):
    script = f"""
import json, evaluate, ktr.resources
metric = evaluate.load(str(ktr.resources.evaluate_metric()))
print(json.dumps([metric.name, metric.compute(sources={SOURCES!r}, predictions={PREDICTIONS!r})]))
"""
    env = {k: v for k, v in os.environ.items() if k not in HF_CACHES}  # under HF_HOME, as a user has them
    env.update(HF_HOME=str(tmp_path / "hf"), HF_DATASETS_OFFLINE="1", HF_EVALUATE_OFFLINE="1")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    name, got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert name == "ktr_metric" and got["ktr"] == pytest.approx((2 / 3 + 1) / 2) and got["added"] == 1
    assert (tmp_path / "hf" / "modules" / "evaluate_modules" / "metrics" / "ktr_metric").is_dir()  # not ~/.cache
