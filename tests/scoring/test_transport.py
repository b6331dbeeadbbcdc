"""A task's results read back from a shard are checked for what scoring can give
(docs/input-handling.md, "Shard folders"; ktr/scoring/transport.py): whole counts, none past what
it counts, finite weights, confidences from 0 to 1, the same consecutive lines for every system.
A shard is JSON with a checksum in the manifest, which detects accidents, not a shard forged
together with its manifest: before, such a shard was summed into the score (a KTR of 3.66, -26.6
or NaN, exit status 0) or stopped the run with a traceback (a count written as a string)."""

from __future__ import annotations

import copy
import json

import pytest

from ktr.scoring import transport
from ktr.scoring.sentences import LINE_FIELDS

SOURCES = ["학생이 책을 읽었다.", "나는 사과를 먹었다."]
OUTPUTS = ["The student read a book.", "I ate a pear."]


@pytest.fixture(scope="module")
def packed(scorer):
    """Two lines' results packed as a shard holds them (JSON: tuples as lists)."""
    pipeline = scorer.pipeline
    prepared = pipeline.prepare_analysed(pipeline.analyse(SOURCES))
    results = {"mt": pipeline.match_lines(prepared, OUTPUTS)}
    return json.loads(json.dumps(transport.pack((results, []))))


def test_a_shard_as_written_is_read_back(packed):
    results, messages = transport.unpack(copy.deepcopy(packed))
    assert [s.index for s in results["mt"]] == [0, 1] and messages == []


# (where in a line's packed fields: 1 counted, 2 transferred, 3 weight, 4 weight transferred, ...)
FORGED = {
    "more transferred than counted (KTR 3.66)": (2, 11),
    "a negative count (KTR -26.6)": (1, -3),
    "a weight not finite (NaN)": (3, float("nan")),
    "a count written as a string": (1, "7"),
    "a count that is true": (2, True),
    "a fraction of a keyword": (1, 2.5),
}


@pytest.mark.parametrize("field, value", FORGED.values(), ids=FORGED.keys())
def test_a_line_with_figures_scoring_cannot_give_is_refused(packed, field, value):
    forged = copy.deepcopy(packed)
    forged[1][0][1][0][field] = value
    with pytest.raises(ValueError, match="line 0: "):
        transport.unpack(forged)


def test_lines_out_of_order_or_missing_are_refused(packed):
    swapped = copy.deepcopy(packed)
    swapped[1][0][1][0][0], swapped[1][0][1][1][0] = 1, 0
    with pytest.raises(ValueError, match="out of order"):
        transport.unpack(swapped)
    short = copy.deepcopy(packed)
    del short[1][0][1][1]
    with pytest.raises(ValueError, match="another number of lines"):
        transport.unpack(short)


def test_a_confidence_past_one_is_refused(packed):
    forged = copy.deepcopy(packed)
    matches = forged[1][0][1][0][1 + len(LINE_FIELDS)]  # after the line's index and fields
    assert matches, "the first line has a match"
    matches[0][4] = 5.0
    with pytest.raises(ValueError, match="a confidence that cannot be"):
        transport.unpack(forged)
