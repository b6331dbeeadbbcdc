"""Experiment configs: strict keys and types, errors naming the key path, paths relative to the file."""

import textwrap

import pytest

from ktr.config import Config
from ktr.errors import ConfigError
from ktr.experiments.experiment import load_experiment
from ktr.resources import sample_dir
from tests.conftest import ROOT
from tests.conftest import write as write_file

DATA = """\
data:
  source: sample:travel.ko
  systems:
    fluent: sample:travel.fluent.en
    literal: sample:travel.literal.en
  references: [sample:travel.ref.en]
"""


def write(tmp_path, text, name="exp.yaml"):
    """A config in ``tmp_path``: named by folder and file (exp.yaml by default) and dedented, so
    this file keeps its own ``write`` over conftest's."""
    return write_file(tmp_path / name, textwrap.dedent(text))


def error(tmp_path, text):
    with pytest.raises(ConfigError) as info:
        load_experiment(write(tmp_path, text))
    return str(info.value)


def test_minimal_config_takes_the_defaults(tmp_path):
    exp = load_experiment(write(tmp_path, DATA))
    assert exp.name == "exp" and list(exp.data.systems) == ["fluent", "literal"]
    assert exp.data.source == sample_dir() / "travel.ko"
    assert list(exp.variants) == ["base"] and exp.variants["base"] == Config()
    assert exp.metrics == ("ktr", "bleu", "chrf")
    assert (exp.compare.baseline, exp.compare.resamples, exp.compare.seed) == ("fluent", 1000, 12345)
    assert exp.output.formats == ("json", "tsv", "md", "html")


@pytest.mark.parametrize(
    "extra,message",
    [
        (
            "colour: blue\n",
            "exp.yaml: unknown key 'colour'; valid keys: name, data, pipeline, variants, metrics, compare, output",
        ),
        ("compare: {resamples: many}\n", "exp.yaml: compare.resamples: expected a whole number, got str 'many'"),
        ("compare: {resamples: true}\n", "compare.resamples: expected a whole number, got bool True"),
        ("compare: {seed: -1}\n", "compare.seed: must be at least 0, got -1"),
        ("compare: {baseline: nosuch}\n", "compare.baseline: 'nosuch' is not a system; choose one of: fluent, literal"),
        (
            "compare: {baseline_variant: other}\n",
            "compare.baseline_variant: 'other' is not a variant; choose one of: base",
        ),
        (
            "compare: {baseline: fluent, resample: 10}\n",
            "compare: unknown key 'resample'; valid keys: baseline, baseline_variant, resamples, seed, differences",
        ),
        ("metrics: [ktr, rouge]\n", "metrics[1]: 'rouge' is not valid; choose one of: ktr, bleu, chrf, meteor"),
        ("metrics: [bleu]\n", "metrics: must include ktr"),
        ("metrics: ktr\nmetrics: [ktr]\n", "exp.yaml:8: invalid YAML: key 'metrics' given twice"),
        (
            "output: {formats: [html, pdf]}\n",
            "output.formats[1]: 'pdf' is not valid; choose one of: json, tsv, md, html",
        ),
        ("output: runs\n", "output: expected a mapping with keys dir, formats, got str 'runs'"),
        ("pipeline: [kiwi]\n", "pipeline: expected a mapping of ktr options, got list ['kiwi']"),
        (
            "compare: []\n",
            "compare: expected a mapping with keys baseline, baseline_variant, resamples, seed, differences, got list []",
        ),
        ("pipeline: {analyser: kiwi}\n", "exp.yaml: pipeline: unknown key 'analyser'; valid keys: analyzer"),
        ("pipeline: {synonym_senses: two}\n", "pipeline: synonym_senses must be a int"),
        (
            "variants: {no-synonyms: {matching: [exact, foo]}}\n",
            "exp.yaml: variants.no-synonyms: matching: 'foo' is not valid; choose one of: exact, inflection, synonym, derivation",
        ),
        (
            "variants: {quick: {matchin: [exact]}}\n",
            "variants.quick: unknown key 'matchin'; valid keys: analyzer, classes",
        ),
        ("variants: {quick: [exact]}\n", "variants.quick: expected a mapping of ktr options to override, got list"),
        ("variants: {'a b': {}}\n", "variants.a b: 'a b' is not a usable name"),
        ("variants: []\n", "variants: expected a mapping of variant name: option overrides"),
    ],
)
def test_bad_keys_and_values_name_the_key_path(tmp_path, extra, message):
    assert message in error(tmp_path, DATA + extra)


def test_bad_data(tmp_path):
    assert "data: missing key 'systems'" in error(tmp_path, "data: {source: sample:travel.ko}\n")
    assert "data: unknown key 'sorce'; valid keys: source, systems, references" in error(
        tmp_path, DATA + "  sorce: x.ko\n"
    )
    msg = error(tmp_path, DATA.replace("sample:travel.literal.en", "missing.en"))
    assert "data.systems.literal: no such file: " in msg and str(tmp_path / "missing.en") in msg
    assert "data.systems: expected a mapping of system name: output file, got list" in error(
        tmp_path, "data:\n  source: sample:travel.ko\n  systems: [sample:travel.fluent.en]\n"
    )
    assert "metrics[1]: bleu needs references (data.references)" in error(
        tmp_path, DATA.replace("  references: [sample:travel.ref.en]\n", "") + "metrics: [ktr, bleu]\n"
    )


def test_paths_are_relative_to_the_config_file(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    for name in ("src.ko", "a.en", "ref.en"):
        (tmp_path / "data" / name).write_text("x\n", encoding="utf-8")
    (tmp_path / "mine.tsv").write_text("", encoding="utf-8")
    p = write(
        tmp_path,
        """\
        data:
          source: ../data/src.ko
          systems: {a: ../data/a.en}
          references: ../data/ref.en
        pipeline: {lexicons: [core, ../mine.tsv]}
        variants:
          plain: {}
          extra: {idioms: [idioms, ../mine.tsv]}
        output: {dir: ../out}
        """,
        name="configs/exp.yaml",
    )
    monkeypatch.chdir(ROOT)
    exp = load_experiment(p)
    assert exp.data.source == tmp_path / "data" / "src.ko"
    assert exp.data.references == (tmp_path / "data" / "ref.en",)
    assert exp.variants["plain"].lexicons == ("core", str(tmp_path / "mine.tsv"))
    assert exp.variants["extra"].idioms == ("idioms", str(tmp_path / "mine.tsv"))
    assert exp.output_dir() == tmp_path / "out"


def test_variants_override_the_pipeline(tmp_path):
    exp = load_experiment(
        write(
            tmp_path,
            DATA
            + textwrap.dedent("""\
        pipeline: {matching: [exact, synonym], aggregation: micro}
        variants:
          same: {}
          exact: {matching: [exact]}
        """),
        )
    )
    assert exp.variants["same"].matching == ("exact", "synonym") and exp.variants["same"].aggregation == "micro"
    assert exp.variants["exact"].matching == ("exact",) and exp.variants["exact"].aggregation == "micro"
    assert exp.compare.baseline_variant == "same"


@pytest.mark.parametrize("name", ["demo", "ablation", "paper-synonyms"])
def test_shipped_examples_load(name):
    exp = load_experiment(ROOT / "configs" / f"{name}.yaml")
    assert len(exp.data.systems) == 3


def test_shared_data_examples_point_beside_the_checkout(shared_data):
    for name in ("news-dev", "jhe-dev"):
        exp = load_experiment(ROOT / "configs" / f"synonyms-{name}.yaml")
        assert exp.data.source == shared_data.resolve() / f"{name}.ko"
        assert set(exp.variants) == {"default", "no-synonyms", "exact", "exact+synonyms"}
