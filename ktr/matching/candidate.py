"""A candidate match: a keyword, the equivalent found, where in the output, and which stage found it."""

from __future__ import annotations

from typing import NamedTuple


class Candidate(NamedTuple):
    keyword: int  # index of the keyword in the sentence
    equivalent: str  # the lexicon equivalent that matched
    start: int  # token span [start, end) in the output
    end: int
    how: str  # stage name
    rank: tuple[int, int, int]  # (stage order, equivalent order, start): lower is preferred
    confidence: float | None = None  # how sure a stage that weighs evidence is (the semantic stage)


class Refusal(NamedTuple):
    """A place where a stage found a keyword's meaning close, and refused it: what the words are
    to the keyword's equivalents (a sister term, a part, a converse...), shown in ``--explain`` and
    in the JSON beside the keyword."""

    keyword: int
    words: str  # the output words refused
    start: int  # their token span
    end: int
    how: str  # the stage that refused them
    reason: str  # why: "sister term of monday", "antonym of hate", "another name's English (Australia)"

    def to_dict(self) -> dict[str, object]:
        return {"words": self.words, "token_span": [self.start, self.end], "stage": self.how, "reason": self.reason}


class Matches(dict[int, Candidate]):
    """A line's matches (keyword index → candidate) and the places refused to its keywords
    (:attr:`refused`, keyword index → refusals, in the order the stages refused them)."""

    def __init__(self, chosen: dict[int, Candidate] | None = None, refused: dict[int, list[Refusal]] | None = None):
        super().__init__(chosen or {})
        self.refused: dict[int, list[Refusal]] = refused if refused is not None else {}
