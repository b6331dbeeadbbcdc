"""``ktr.KTR``, the metric object: its sentence and corpus scores are those of ``ktr score`` (the
segments and the systems of its JSON, on the embedded sample), its signature is the command's,
and its results format themselves."""

import json

import pytest

from ktr import KTR, Config
from ktr.errors import InputError
from ktr.sample import SYSTEMS, paths
from ktr.textio import read_lines
from tests.cli.test_main import ktr

FILES = paths()
SOURCES = read_lines(FILES["source"])
REFERENCES = read_lines(FILES["reference"])


@pytest.fixture(scope="module")
def metric(kiwi):
    return KTR(Config(), analyzer=kiwi)


@pytest.fixture(scope="module")
def command():
    """``ktr score --sample -f json --sentences`` as a user runs it (the same default config)."""
    proc = ktr("score", "--sample", "-f", "json", "--sentences")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("name", SYSTEMS)
def test_sentence_score_is_the_segment_score_of_ktr_score(metric, command, name):
    system = next(s for s in command["systems"] if s["name"] == f"travel.{name}")
    hypotheses = read_lines(FILES[name])
    for segment, source, hypothesis in zip(system["segments"], SOURCES, hypotheses, strict=True):
        found = metric.sentence_score(source, hypothesis)
        assert (found.score, found.precision) == (segment["score"], segment["precision"])
        assert (found.counted, found.transferred) == (segment["keywords_counted"], segment["transferred"])
        assert [k.to_dict() for k in found.keywords] == segment["keywords"]
        assert list(found.added) == [a["word"] for a in segment["added"]]


@pytest.mark.parametrize("name", SYSTEMS)
def test_corpus_score_is_the_corpus_ktr_of_ktr_score(metric, command, name):
    system = next(s for s in command["systems"] if s["name"] == f"travel.{name}")
    found = metric.corpus_score(SOURCES, read_lines(FILES[name]), references=[REFERENCES])
    assert found.score == system["ktr"] and found.f == system["f"] and found.precision == system["precision"]
    assert (found.ktr_micro, found.ktr_weighted) == (system["ktr_micro"], system["ktr_weighted"])
    assert (found.sentences, found.keywords, found.transferred) == (20, system["keywords"], system["transferred"])
    assert (found.bleu, found.chrf) == (system["bleu"], system["chrf"])
    assert found.signature == command["signature"]["short"]


def test_results_format_themselves(metric):
    one = metric.sentence_score("나는 사과를 먹었다.", "I ate a pear.")
    # 나 (I) and 먹다 (ate) transferred, 사과 (apple) not; "pear" traces to nothing
    assert (one.counted, one.transferred, one.score) == (3, 2, 2 / 3)
    assert one.format() == (
        f"KTR = 0.6667 (2/3 keywords)  prec = {one.precision:.4f}  F = {one.f:.4f}  missed: 사과/NNG  added: pear"
    )
    corpus = metric.corpus_score(["나는 사과를 먹었다."], ["I ate an apple."])
    assert corpus.format() == (
        f"KTR = 1.0000 (macro)  prec = 1.0000  F = 1.0000  3/3 keywords, 1 sentences  {metric.signature().short()}"
    )


def test_the_weighted_aggregation_scores_a_sentence_by_class_weights(kiwi):
    weighted = KTR(Config(aggregation="weighted", class_weights={"pronoun": 0.5}), analyzer=kiwi)
    found = weighted.sentence_score("나는 사과를 먹었다.", "An apple was eaten.")
    # 나 (pronoun, 0.5) not transferred; 사과 and 먹다 (1 each) transferred: 2 / 2.5
    assert found.score == pytest.approx(2 / 2.5)


def test_line_counts_are_checked(metric):
    with pytest.raises(InputError, match="line counts differ: sources has 2 lines, hypotheses has 1"):
        metric.corpus_score(["나는 사과를 먹었다.", "그는 갔다."], ["I ate an apple."])
    with pytest.raises(InputError, match="line counts differ"):
        metric.corpus_score(["나는 사과를 먹었다."], ["I ate an apple."], references=[["a", "b"]])
    with pytest.raises(InputError, match="sources: expected a list of lines, not one string"):
        metric.corpus_score("나는 사과를 먹었다.", "I ate an apple.")


def test_inputs_are_taken_in_sacrebleu_s_shapes_or_refused_in_one_line(metric):
    """References as a list of streams; hypotheses as one list of lines: a list of lists (the
    references' shape) or a line that is not a string is one InputError saying what was meant
    (it was AttributeError: 'list' object has no attribute 'isprintable')."""
    src, hyp = ["나는 사과를 먹었다."], ["I ate an apple."]
    assert metric.corpus_score(src, hyp, references=[hyp]).bleu == pytest.approx(100.0)
    with pytest.raises(InputError, match="hypotheses: expected a list of lines, got a list of lists"):
        metric.corpus_score(src, [hyp])
    with pytest.raises(InputError, match="hypotheses: line 1 is None, not a string"):
        metric.corpus_score(src, [None])
    with pytest.raises(InputError, match=r"references: .* wrap one stream in a list \(\[refs\]\)"):
        metric.corpus_score(src, hyp, references=hyp)


def test_scores_and_the_signature_print_as_sacrebleu_s_do(metric):
    """``print(result)`` is one line of figures, not a dataclass's repr; a signature prints its
    short form (sacreBLEU's ``str(bleu)`` and ``str(signature)``)."""
    corpus = metric.corpus_score(["나는 사과를 먹었다."], ["I ate an apple."], references=[["I ate an apple."]])
    assert str(corpus) == (
        "KTR = 1.0000 (macro)  prec = 1.0000  F = 1.0000  3/3 keywords, 1 sentences  BLEU = 100.00  chrF = 100.00"
    )
    assert corpus.format() == f"{corpus}  {metric.signature().short()}"
    assert str(metric.signature()) == metric.signature().short()
    one = metric.sentence_score("나는 사과를 먹었다.", "I ate a pear.")
    assert str(one) == one.format() and "\n" not in str(one)
    assert corpus.to_dict()["ktr"] == corpus.score == 1.0 and corpus.to_dict()["signature"] == corpus.signature
