"""sacreBLEU's sufficient statistics, the one place ktr calls its private API
(``ktr.scoring.reference.extract_statistics`` and ``score_from_statistics``): each sentence's
statistics summed and scored must give sacreBLEU's own public ``corpus_score``, and a single
line's its ``sentence_score``. If a sacreBLEU release changes what these calls rely on, this fails."""

import pytest
from sacrebleu.metrics import BLEU, CHRF

from ktr.sample import SYSTEMS, paths
from ktr.scoring.reference import ReferenceScores, extract_statistics, score_from_statistics
from ktr.textio import read_lines

FILES = paths()
REFERENCES = read_lines(FILES["reference"])


@pytest.mark.parametrize("metric", [BLEU, CHRF], ids=["bleu", "chrf"])
@pytest.mark.parametrize("name", SYSTEMS)
def test_summed_statistics_score_as_sacrebleu_does(metric, name):
    hypotheses = read_lines(FILES[name])
    stats = extract_statistics(metric(), hypotheses, [REFERENCES])
    assert len(stats) == len(hypotheses) and all(isinstance(v, int | float) for row in stats for v in row)
    summed = [sum(column) for column in zip(*stats)]
    assert score_from_statistics(metric(), summed) == metric().corpus_score(hypotheses, [REFERENCES]).score
    single = BLEU(effective_order=True) if metric is BLEU else metric()  # as sacreBLEU scores one sentence
    line = extract_statistics(single, hypotheses[:1], [REFERENCES[:1]])[0]
    assert score_from_statistics(single, line) == single.sentence_score(hypotheses[0], [REFERENCES[0]]).score


def test_the_reference_scores_summed_stretch_by_stretch_are_sacrebleu_s():
    hypotheses = read_lines(FILES["fluent"])
    scores = ReferenceScores()
    for a in range(0, len(hypotheses), 7):  # three stretches
        scores.add("fluent", hypotheses[a : a + 7], [REFERENCES[a : a + 7]])
    found = scores.scores("fluent")
    assert found["bleu"][0] == round(BLEU().corpus_score(hypotheses, [REFERENCES]).score, 4)
    assert found["chrf"][0] == round(CHRF().corpus_score(hypotheses, [REFERENCES]).score, 4)
    assert found["bleu"][1] == str(BLEU(references=[REFERENCES]).get_signature())
