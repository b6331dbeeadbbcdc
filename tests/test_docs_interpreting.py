"""docs/interpreting.md (issue 40, item 3): linked from the README's front page, and every
sentence score it quotes is what the default scorer gives (real Kiwi, WordNet, the shipped
lexicons and stages)."""

import re

import pytest

from tests.conftest import ROOT

PAGE = ROOT / "docs" / "interpreting.md"

#: the sentences the page scores in its text, with the KTR it gives them
QUOTED = [
    ("오늘 아침에 비가 많이 내렸다.", "It rained a lot this morning.", 0.80),
    ("오늘 아침에 비가 많이 내렸다.", "This morning a lot of rain fell.", 0.80),
    ("오늘 아침에 비가 많이 내렸다.", "Today morning rain much fell.", 1.00),
]


def blind_spots() -> list[tuple[str, str, float]]:
    """The rows of the page's table of what ktr cannot see: (source, output, KTR)."""
    text = PAGE.read_text(encoding="utf-8")
    table = text.split("## What ktr cannot see", 1)[1]
    rows = re.findall(r"^\| ([^|]+?) \| ([^|]+?) \| ([0-9.]+) \|", table, re.M)
    return [(re.sub(r" \(.*\)$", "", src), out, float(ktr)) for src, out, ktr in rows]


def test_the_readme_links_the_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/interpreting.md)" in readme and PAGE.is_file()


def test_the_page_quotes_the_examples_it_scores():
    text = " ".join(PAGE.read_text(encoding="utf-8").split())  # lines wrapped anywhere
    for _, output, ktr in QUOTED:
        assert re.search(rf"\*{re.escape(output)}\*[^.]*? {ktr:.2f}", text), output
    assert len(blind_spots()) == 4


@pytest.mark.parametrize("source, output, ktr", QUOTED + blind_spots())
def test_each_quoted_score_is_the_scorers(scorer, source, output, ktr):
    [result] = scorer.score([source], {"mt": [output]}).systems[0].sentences
    assert round(result.score, 2) == ktr
