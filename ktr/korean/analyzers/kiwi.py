"""Kiwi (kiwipiepy): the default backend. Sejong tags, real offsets, lemmas, a batch API."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ktr.korean.analyzers.base import AnalyzerBase, Morpheme, verb_lemma

_PREDICATES = {"VV", "VA", "VX", "VCN", "VCP", "XSV", "XSA"}
#: builds a Morpheme from a tuple without the Python-level constructor (hundreds of thousands a run)


class KiwiAnalyzer(AnalyzerBase):
    name = "kiwi"
    tagset = "sejong"
    concurrent = True  # the batch API analyses in Kiwi's worker threads
    threaded = True
    # How ktr builds its Kiwi, besides its number of threads: without its two optional
    # dictionaries of names. Both join names into one NNP token ("개리 카스파로프", "뉴욕상업거래소",
    # "연방준비제도") that ktr's word-by-word lexicon has no entry for, where Kiwi without them
    # gives the words (뉴욕, 상업, 거래소) that it has. KTR of the human translations, with both /
    # with the default dictionary only / with neither: news-dev 0.4821 / 0.4833 / 0.4838, jhe-dev
    # 0.7170 / 0.7173 / 0.7172. The multi-word dictionary costs ~180 MB and ~1.1 s of start-up,
    # the default one ~50 MB and ~0.3 s.
    options = {"load_multi_dict": False, "load_default_dict": False}

    def __init__(self, threads: int = 1):
        import kiwipiepy
        from kiwipiepy import Kiwi

        self._kiwi = Kiwi(num_workers=threads, **self.options)
        self.version = f"kiwipiepy-{kiwipiepy.__version__}-nodefaultdict-nomultidict"

    @staticmethod
    def _convert(tokens: Iterable[Any]) -> list[Morpheme]:
        out = []
        for t in tokens:
            form, start = t.form, t.start
            tag = t.tag.split("-", 1)[0]  # VA-I / VV-R mark (ir)regular conjugation
            lemma = verb_lemma(form) if tag in _PREDICATES else form
            out.append(Morpheme(form, lemma, tag, start, start + t.len))
        return out

    def _analyze(self, text: str) -> list[Morpheme]:
        return self._convert(self._kiwi.tokenize(text))

    def stream(self, texts: Iterable[str]) -> Iterator[list[Morpheme]]:
        """The analyses of ``texts`` (none blank), each as soon as Kiwi has it. Kiwi's batch API
        reads the texts only as it needs them (16 ahead per thread), and its threads analyse
        outside the interpreter lock while the caller works on the results it has."""
        return map(self._convert, self._kiwi.tokenize(texts))

    def analyze_many(self, texts: Iterable[str]) -> list[list[Morpheme]]:
        texts = list(texts)
        out: list[list[Morpheme]] = [[] for _ in texts]
        todo = [i for i, t in enumerate(texts) if t.strip()]
        for i, tokens in zip(todo, self._kiwi.tokenize([texts[i] for i in todo])):
            out[i] = self._convert(tokens)
        return out
