"""Periphrases: two Korean keywords that English says in one word (``lexicons/periphrases.tsv``).

Korean often says with a noun and a verb what English says with one word: 병원에 입원하다 "was
hospitalized", 비가 오다 "it rained", 부상을 입다 "were injured", 튀니지 출신 "Tunisian". The
English word carries both keywords, but one output word credits at most one keyword, so one of
the two is missed. A row of the table lets the one left out share its neighbour's word, and only
for that pair and those words:

```
# ktr-periphrases/1
<first><TAB><second><TAB><english>[;<english>...]
병원	입원하다	hospitalize;hospitalization
@name	출신	@demonym
```

- ``first`` and ``second``: the lemmas of the two keywords, ``second`` one of the two keywords
  after ``first`` in the source (비가 많이 오다); ``@name`` stands for any proper noun;
- ``english``: the words (base forms: "hospitalize" stands for "hospitalized") one of the two must
  have been matched on for the other to share it; ``@demonym`` a word naming the people of a
  place (Tunisian, Chinese, Iraqi, British) that is not the place's own name.

The sharing itself is the periphrasis stage's (:mod:`ktr.matching.periphrasis`).
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass

from ktr.errors import LexiconError
from ktr.lexicon.format import numbered_lines, resolve_lexicon_path, split_columns

#: what the first column may name besides a lemma: any proper noun
ANY_NAME = "@name"
#: what the English column may name besides words: a demonym
DEMONYM = "@demonym"


@dataclass(frozen=True)
class Periphrasis:
    """A row: two keywords' lemmas (or :data:`ANY_NAME`) and the English words they share."""

    first: str
    second: str
    english: frozenset[str]
    where: str


def _lemma(text: str, where: str, column: str) -> str:
    if text == ANY_NAME and column == "first":
        return text
    if unicodedata.normalize("NFC", text) != text or not text or not all("가" <= c <= "힣" for c in text):
        raise LexiconError(f"{where}: the {column} lemma must be NFC Hangul syllables (or @name first): {text!r}")
    return text


def _parse(line: str, where: str) -> Periphrasis | None:
    cols = split_columns(line, where, ("first", "second", "English"))
    if cols is None:
        return None
    first, second, english = cols
    words = tuple(w.strip() for w in english.split(";"))
    if not english.strip() or any(not w or " " in w or w != w.lower() for w in words):
        raise LexiconError(f"{where}: English words must be single lower-case words separated by ';': {english!r}")
    if any(w.startswith("@") and w != DEMONYM for w in words):
        raise LexiconError(f"{where}: the only mark is {DEMONYM}: {english!r}")
    return Periphrasis(_lemma(first, where, "first"), _lemma(second, where, "second"), frozenset(words), where)


class PeriphrasisTable:
    """The rows of one or more files, by their pair of lemmas."""

    def __init__(self, rows: list[Periphrasis]):
        self.rows = {(r.first, r.second): r.english for r in rows}
        h = hashlib.sha256()
        for (first, second), english in sorted(self.rows.items()):
            h.update(f"{first}\t{second}\t{';'.join(sorted(english))}\n".encode())
        self.digest = h.hexdigest()

    @classmethod
    def from_files(cls, specs: tuple[str, ...]) -> PeriphrasisTable:
        rows: dict[tuple[str, str], Periphrasis] = {}
        for spec in specs:
            path = resolve_lexicon_path(spec)
            for where, line in numbered_lines(path, "periphrases"):
                row = _parse(line, where)
                if row is None:
                    continue
                if (row.first, row.second) in rows:
                    raise LexiconError(
                        f"{row.where}: duplicate pair {row.first} {row.second} (first at {rows[row.first, row.second].where})"
                    )
                rows[row.first, row.second] = row
        return cls(list(rows.values()))

    def __len__(self) -> int:
        return len(self.rows)

    def shared(self, first: str, second: str, name: bool) -> frozenset[str] | None:
        """The English words keywords ``first`` and ``second`` (the lemmas; ``name``: the first is
        a proper noun) may share, or None when the table does not list them."""
        found = self.rows.get((first, second))
        if found is None and name:
            found = self.rows.get((ANY_NAME, second))
        return found
