"""The matching cascade from the command line (issue 40, item 6): ``ktr score --stages LIST``
and ``--no-stage NAME`` give what a config's ``matching`` gives; a name that is no stage is a
usage error on one line. And the pages that describe the cascade say what the code does."""

import json
import re

import pytest

from ktr import Config
from ktr.matching.registry import STAGES as MATCH_STAGES
from tests.cli.test_commands import ktr
from tests.conftest import ROOT, write
from tests.reports.test_formats import LEXICON, OUTPUT, SOURCE


@pytest.fixture
def files(tmp_path):
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "out.en", "\n".join(OUTPUT) + "\n")
    return src, hyp, lexicon, tmp_path


def scored(capsys, *args):
    code, out, err = ktr(capsys, "score", *args, "-f", "json", "--sentences")
    assert code == 0 and err == "", err
    return json.loads(out)


def test_stages_are_the_configs_matching(capsys, files):
    src, hyp, lexicon, tmp = files
    exact = write(tmp / "exact.yaml", f"lexicons: [{lexicon}]\nmatching: [exact]\n")
    both = write(tmp / "both.yaml", f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n")
    by_option = scored(capsys, "-s", src, "-t", hyp, "-c", both, "--stages", "exact")
    by_config = scored(capsys, "-s", src, "-t", hyp, "-c", exact)
    assert by_option == by_config and "|match:exact|" in by_option["signature"]["short"]
    # inflection credits 읽다 for "reads": leaving it out changes the score
    full = scored(capsys, "-s", src, "-t", hyp, "-c", both)
    assert full["systems"][0]["ktr"] > by_option["systems"][0]["ktr"]


def test_no_stage_leaves_one_out_of_the_default(capsys, files):
    src, hyp, lexicon, tmp = files
    rest = [s for s in Config().matching if s != "semantic"]
    without = write(tmp / "without.yaml", f"lexicons: [{lexicon}]\nmatching: [{', '.join(rest)}]\n")
    plain = write(tmp / "plain.yaml", f"lexicons: [{lexicon}]\n")
    by_option = scored(capsys, "-s", src, "-t", hyp, "-c", plain, "--no-stage", "semantic")
    assert by_option == scored(capsys, "-s", src, "-t", hyp, "-c", without)
    assert f"|match:{','.join(rest)}|" in by_option["signature"]["short"]


@pytest.mark.parametrize(
    "options, message",
    [
        (["--stages", "exact,synonyms"], "--stages: 'synonyms' is no matching stage; choose from: exact, inflection"),
        (["--stages", "exact,exact"], "--stages: exact given more than once; each stage runs once"),
        (["--no-stage", "synonyms"], "--no-stage: 'synonyms' is no matching stage; choose from: exact"),
        (["--stages", "exact", "--no-stage", "semantic"], "--no-stage semantic: not among the stages run (exact)"),
        (["--stages", "exact", "--no-stage", "exact"], "no matching stage left to run"),
    ],
)
def test_a_stage_that_is_none_is_a_usage_error(capsys, files, options, message):
    src, hyp, _, _ = files
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, *options)
    assert code == 2 and out == "" and err.startswith(f"ktr: error: {message}") and err.count("\n") == 1, err


def test_the_matching_page_says_which_stages_are_in_the_default():
    """docs/matching.md's table of stages: a stage it calls "not in the default" is not in it."""
    text = (ROOT / "docs" / "matching.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| (.*)$", text, re.M))
    assert set(MATCH_STAGES) <= set(rows)
    said_out = {s for s in MATCH_STAGES if "not in the default" in rows[s]}
    assert said_out == set(MATCH_STAGES) - set(Config().matching)


def test_the_configs_readme_quotes_the_errors_ktr_gives():
    text = (ROOT / "configs" / "README.md").read_text(encoding="utf-8")
    quoted = re.search(r"^ktr: error: (configs/ablation\.yaml: variants\.no-synonyms: .*)$", text, re.M).group(1)
    with pytest.raises(ValueError) as raised:
        Config.from_dict({"matching": ["synonyms"]}, where="configs/ablation.yaml: variants.no-synonyms")
    assert quoted == str(raised.value)
