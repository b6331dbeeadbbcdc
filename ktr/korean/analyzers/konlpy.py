"""KoNLPy's JVM analyzers: Okt, Komoran, Hannanum and Kkma (Java via JPype).

KoNLPy does not report offsets, so spans come from :func:`~ktr.korean.analyzers.base.align`.
Hannanum is tagged with its 22-tag summary (``pos(ntags=22)``, one disambiguated analysis)
and each morpheme is then refined to the detailed KAIST tag that Hannanum's ``analyze()``
candidates give for the same word and form (``NC`` → ``ncpa``); where no candidate agrees the
summary tag is kept, and ``configs/tagsets/kaist22.yaml`` classifies it.
"""

from __future__ import annotations

import os
import re

from ktr.errors import BackendUnavailable
from ktr.korean.analyzers.base import AnalyzerBase, Morpheme, align, verb_lemma

#: JVM heap in MB; KoNLPy's own default (1024) is too small for several analyzers in one JVM
DEFAULT_HEAP_MB = 3072

# Characters outside the BMP are two UTF-16 units in Java; Komoran and Kkma split them and JPype
# then fails to convert the result (UnicodeDecodeError). Each becomes one space: offsets stay.
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _require_java() -> None:
    """Check for Java, then start KoNLPy's JVM once with a heap of ``KTR_JVM_HEAP_MB`` MB."""
    from ktr.korean.analyzers.requirements import java_problem

    problem = java_problem()
    if problem:
        raise BackendUnavailable(f"KoNLPy analyzers need Java: {problem}")
    import jpype
    from konlpy import jvm

    if not jpype.isJVMStarted():
        heap = os.environ.get("KTR_JVM_HEAP_MB", str(DEFAULT_HEAP_MB))
        if not heap.isdigit():
            raise BackendUnavailable(f"KTR_JVM_HEAP_MB must be a number of megabytes, got {heap!r}")
        jvm.init_jvm(max_heap_size=int(heap))


class _KonlpyBase(AnalyzerBase):
    """A KoNLPy tagger: ``konlpy_class`` is built once the JVM is up; ``jar`` names its version."""

    konlpy_class = ""
    jar = ""
    predicate_tags: frozenset[str] = frozenset()
    # Kkma takes minutes on 50 repeated syllables and Hannanum hangs on some inputs; a JVM call
    # cannot be interrupted, so by default these run in a child process with a time limit
    default_timeout = 60.0

    def __init__(self) -> None:
        _require_java()
        from importlib.metadata import version

        import konlpy.tag

        self._tagger = getattr(konlpy.tag, self.konlpy_class)()
        self.version = f"konlpy-{version('konlpy')}+{self.jar}"

    def analyze(self, text: str) -> list[Morpheme]:
        return super().analyze(_ASTRAL.sub(" ", text))

    def _analyze(self, text: str) -> list[Morpheme]:
        return self._build(text, self._tagger.pos(text))

    def _build(self, text: str, pairs: list[tuple[str, str]], lemmas: list[str] | None = None) -> list[Morpheme]:
        spans = align(text, [form for form, _ in pairs])
        out = []
        for i, ((form, tag), (start, end)) in enumerate(zip(pairs, spans)):
            if lemmas is not None:
                lemma = lemmas[i]
            else:
                lemma = verb_lemma(form) if tag in self.predicate_tags else form
            out.append(Morpheme(form, lemma, tag, start, end))
        return out


class OktAnalyzer(_KonlpyBase):
    name, tagset, konlpy_class, jar = "okt", "okt", "Okt", "open-korean-text-2.1.0"

    def _analyze(self, text: str) -> list[Morpheme]:
        pairs = self._tagger.pos(text)
        stemmed = self._tagger.pos(text, stem=True)
        lemmas = None
        if len(stemmed) == len(pairs):
            lemmas = [s if t in ("Verb", "Adjective") else f for (f, t), (s, _) in zip(pairs, stemmed)]
        return self._build(text, pairs, lemmas)


class KomoranAnalyzer(_KonlpyBase):
    name, tagset, konlpy_class, jar = "komoran", "sejong", "Komoran", "komoran-3.0"
    predicate_tags = frozenset({"VV", "VA", "VX", "VCN", "VCP", "XSV", "XSA"})


class KkmaAnalyzer(_KonlpyBase):
    name, tagset, konlpy_class, jar = "kkma", "kkma", "Kkma", "kkma-2.0"
    predicate_tags = frozenset({"VV", "VA", "VXV", "VXA", "VCN", "VCP", "XSV", "XSA"})


def _summary_tag(kaist: str) -> str:
    """The 22-tag summary of a detailed KAIST tag (``ncpa`` → ``NC``, ``f`` → ``F``)."""
    return kaist[:2].upper()


class HannanumAnalyzer(_KonlpyBase):
    name, tagset, konlpy_class, jar = "hannanum", "kaist", "Hannanum", "jhannanum-0.8.4"
    predicate_tags = frozenset({"PV", "PA", "PX", "pvg", "pvd", "paa", "pad", "px"})

    def _analyze(self, text: str) -> list[Morpheme]:
        pairs = self._tagger.pos(text, ntags=22)
        return self._build(text, self.refine(pairs, self._tagger.analyze(text)))

    @staticmethod
    def refine(pairs: list[tuple[str, str]], words: list[list[list[tuple[str, str]]]]) -> list[tuple[str, str]]:
        """Replace summary tags by the detailed tags of the candidate analysis that agrees.

        ``words`` holds, per word, Hannanum's candidate analyses with detailed tags. The
        candidate whose (form, summary tag) sequence equals the next stretch of ``pairs`` is
        the one the tagger chose; if no candidate agrees the rest keeps its summary tags.
        """
        refined: list[tuple[str, str]] = []
        i = 0
        for word in words:
            for analysis in word:
                stretch = pairs[i : i + len(analysis)]
                if [(f, _summary_tag(t)) for f, t in analysis] == [tuple(p) for p in stretch]:
                    refined.extend((f, t) for f, t in analysis)
                    i += len(analysis)
                    break
            else:
                break
        refined.extend(pairs[i:])
        return refined
