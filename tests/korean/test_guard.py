"""Kiwi's stream (ktr.korean.guard.stream_lines) gives what the batch guard gives, line for line: blank
lines, long lines cut into pieces, a failure in the middle, and an input that breaks off."""

from __future__ import annotations

import pytest

from ktr.errors import InputError
from ktr.korean.guard import analyze_lines, stream_lines
from ktr.sample import paths
from ktr.textio import read_lines

LINES = read_lines(paths()["source"])


class FailsOn:
    """The real Kiwi analyzer, except that it raises on ``marker`` (alone or in a stream):
    Kiwi does not fail on real text, and what matters is what the guard does when it does."""

    def __init__(self, inner, marker: str):
        self.inner, self.marker = inner, marker
        self.name, self.tagset, self.version = inner.name, inner.tagset, inner.version
        self.streamed: list[str] = []

    def _check(self, text: str) -> str:
        if self.marker in text:
            raise RuntimeError(f"cannot analyse {text!r}")
        return text

    def analyze(self, text):
        return self.inner.analyze(self._check(text))

    def analyze_many(self, texts):
        return [self.analyze(t) for t in texts]

    def stream(self, texts):
        def checked():
            for text in texts:
                self.streamed.append(text)
                yield self._check(text)

        return self.inner.stream(checked())


def test_stream_gives_the_batch_analyses(kiwi):
    lines = ["", *LINES[:6], "   ", " ".join(LINES[6:9]), "\t", *LINES[9:]]
    for max_chars in (10_000, 40):  # whole lines; lines cut into pieces at spaces
        streamed = list(stream_lines(kiwi, iter(lines), max_chars))
        assert streamed == analyze_lines(kiwi, lines, max_chars)
        assert len(streamed) == len(lines) and streamed[0].morphemes == [] and streamed[1].morphemes


def test_a_line_the_stream_fails_on_fails_alone(kiwi):
    marker = "실패"
    lines = [*LINES[:5], f"방 {marker} 열쇠", *LINES[5:]]
    failing = FailsOn(kiwi, marker)
    streamed = list(stream_lines(failing, iter(lines), 10_000))
    assert [a.failed is not None for a in streamed] == [line == lines[5] for line in lines]
    assert streamed[5].failed == f"kiwi raised RuntimeError: cannot analyse '방 {marker} 열쇠'"
    assert streamed[:5] + streamed[6:] == analyze_lines(kiwi, LINES, 10_000)
    assert failing.streamed[:6] == lines[:6]  # the stream had reached the failing line


def test_an_input_error_is_raised_after_the_lines_before_it(kiwi):
    def lines():
        yield from LINES[:4]
        raise InputError("f.ko:5: invalid UTF-8 at byte 0 of the line (byte 0xff)")

    found = []
    with pytest.raises(InputError, match="f.ko:5: invalid UTF-8"):
        for analysis in stream_lines(kiwi, lines(), 10_000):
            found.append(analysis)
    assert found == analyze_lines(kiwi, LINES[:4], 10_000)
