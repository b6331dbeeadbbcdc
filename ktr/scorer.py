"""The pipeline: analyse sources once, look keywords up once, match every system against them.

This is the Python API; the command line is a thin layer over it::

    from ktr import Scorer
    report = Scorer().score(sources, {"mt1": hyps1, "mt2": hyps2}, references=[refs])
    print(report.systems[0].ktr, report.signature.short())
"""
from __future__ import annotations

import threading
import warnings
from collections import deque
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

from . import __version__, numbers
from .analyzers import Analyzer
from .analyzers.process import build_analyzer
from .config import Config
from .english import capitalized_words, tokenize
from .errors import ConfigError, InputError, InputWarning
from .guard import LineAnalysis, analyze_lines, stream_lines
from .keywords import Keyword, extract, load_tagset
from .lexicon import Lexicon, load_lexicon
from .lexicon.format import Entry, Lookup
from .match import Targets, match_sentence
from .metrics import ReferenceScores
from .normalize import Normalized, normalize_source
from .parallel import Stretch, fewer_gc_pauses, resolve_jobs, score_lines, sliced, split_jobs, stretch_size
from .score import KeywordResult, LineCounts, SentenceResult, Signature, SystemResult, line_counts, sentence_result
from .textio import TextFile, aligned, check_counts, scan
from .transliterate import is_hangul, romanize, sound_key

if TYPE_CHECKING:
    from .significance import Estimate


_new = tuple.__new__   # builds a named tuple without its Python-level constructor


def _entry_name(entry: Entry) -> str:
    """``lemma/class``, as results name the entry they used."""
    return f"{entry.lemma}/{entry.cls}"


def _explained(found: Lookup | None, target: Targets) -> tuple:
    """What a keyword's result says of its word, whatever the output: the fields of
    :class:`~ktr.score.KeywordResult` from ``equivalents`` to ``lookup``."""
    return (target.equivalents or target.idioms, target.synonyms, found is not None,
            _entry_name(found.entry) if found and found.entry else None, found.via if found else None)


def _tried(keyword: Keyword, target: Targets) -> tuple[str, ...]:
    """The targets besides lexicon equivalents, as an explanation shows them."""
    out = [f"month {k[2:]}" if k.startswith("m:") else f"number {k[2:]}" for k in target.numbers]
    if target.sound:
        out.append(f"sound {romanize(keyword.lemma)} ({target.sound})")
    return tuple(out)


@dataclass
class Report:
    """Results of scoring one or more systems on one source."""

    signature: Signature
    systems: list[SystemResult]
    sacrebleu: dict[str, str] | None = None
    #: bootstrap estimates per metric, one per system (``ktr score --confidence/--paired-bs``)
    estimates: dict[str, list[Estimate]] | None = None
    warnings: list[str] = field(default_factory=list)  # changed or failed source lines, file:line first
    #: BLEU and chrF as scored, with each sentence's statistics if kept (``statistics=True``)
    references: ReferenceScores | None = None

    def to_dict(self, sentences: bool = False) -> dict[str, Any]:
        systems = []
        for i, s in enumerate(self.systems):
            d = s.summary()
            for metric, found in (self.estimates or {}).items():
                d.update(found[i].fields(metric))
            if sentences:
                d["segments"] = [seg.to_dict() for seg in s.sentences]
            systems.append(d)
        return {
            "signature": {"short": self.signature.short(), "full": self.signature.full()},
            "sacrebleu": self.sacrebleu,
            "systems": systems,
            "warnings": self.warnings,
        }


@dataclass(frozen=True)
class Prepared:
    """A source corpus analysed and looked up, ready to be matched against any output."""

    keywords: list[list[Keyword]]
    lookups: list[list[Lookup | None]]
    targets: list[list[Targets]]
    missed: list[list[KeywordResult]]   # per keyword: its result as long as nothing matched it
    counts: list[LineCounts]            # per line: what its statistics need besides the matches
    failed: list[str | None] = field(default_factory=list)  # per line: why analysis failed, or None
    warnings: list[str] = field(default_factory=list)


class Scorer:
    """Keyword transfer rate scorer built from a :class:`~ktr.config.Config`."""

    def __init__(self, config: Config | None = None, *, analyzer: Analyzer | None = None,
                 lexicon: Lexicon | None = None, jobs: int | None = 1):
        """``jobs``: cores that :meth:`score` uses (0: all), as processes or, for an analyzer with
        threads of its own, as its threads (see :mod:`ktr.parallel`). The scorer builds its
        analyzer and lexicon from the config, and so does each further process, so ``jobs > 1``
        cannot be combined with an ``analyzer`` or ``lexicon`` object."""
        from .preflight import check

        self.config = config or Config()
        self.jobs = resolve_jobs(jobs)
        if self.jobs > 1 and (analyzer is not None or lexicon is not None):
            raise ConfigError("jobs > 1 builds an analyzer and a lexicon in each process from the config; "
                              "pass the config only, or use jobs=1 with an analyzer or lexicon object")
        check(self.config, analyzer=analyzer is None)
        self.processes, self.threads = split_jobs(self.jobs, self.config)
        self.analyzer = analyzer or build_analyzer(self.config.analyzer, self.config.timeout, self.threads)
        self._lock = threading.Lock()  # one analysis at a time: the backends are not all thread-safe
        with fewer_gc_pauses():     # tables of many small objects, built or read back
            self.table = load_tagset(self.analyzer.tagset)
            self.lexicon = lexicon or load_lexicon(self.config.lexicons)
            self._classes = frozenset(self.config.classes)
            self._numbers = "number" in self.config.matching
            self._sounds = "transliteration" in self.config.matching
            self._synonyms: dict[tuple[str, str], tuple[str, ...]] = {}
            if "synonym" in self.config.matching:
                from .lexicon.expand import synonym_table

                self._synonyms = synonym_table(self.lexicon, self.config.synonym_senses)
            self.idioms = None
            self._inflections: dict[str, tuple[str, ...]] | None = None
            if "idiom" in self.config.matching:
                from .lexicon.idioms import IdiomTable

                self.idioms = IdiomTable.from_files(self.config.idioms)
            if "inflection" in self.config.matching:  # also lets synonyms and idioms match inflected
                self._inflections = self._inflection_table()
        #: (lemma, tag, class, base) -> look-up, targets, the rest of an unmatched result, weight
        #: (:meth:`_unmatched`): words repeat across lines
        self._known: dict[tuple[str, str, str, str | None], tuple[Lookup | None, Targets, tuple, float | None]] = {}

    def _inflection_table(self) -> dict[str, tuple[str, ...]]:
        from .english import phrase
        from .inflection import table_for

        key = f"{self.lexicon.digest}|{self.config.synonym_senses if self._synonyms else 0}"
        if self.idioms is not None:
            key += f"|{self.idioms.digest}"

        def words() -> set[str]:  # every English word a keyword can match; only on a cache miss
            phrases = [e for entry in self.lexicon for e in entry.equivalents]
            phrases += [syn for syns in self._synonyms.values() for syn in syns]
            if self.idioms is not None:
                phrases += [p for idiom in self.idioms.idioms for p in idiom.english]
            return {w for p in phrases for w in phrase(p)}

        return table_for(words, key)

    @classmethod
    def from_yaml(cls, path: str) -> "Scorer":
        return cls(Config.from_yaml(path))

    @property
    def signature(self) -> Signature:
        c = self.config
        return Signature(
            ktr_version=__version__, analyzer=self.analyzer.name,
            analyzer_version=self.analyzer.version, tagset=self.table.name,
            lexicons=c.lexicons, lexicon_hash=self.lexicon.digest, classes=c.classes,
            matching=c.matching, aggregation=c.aggregation, no_keywords=c.no_keywords,
            missing_in_lexicon=c.missing_in_lexicon, extra=self._signature_extra(),
        )

    def _signature_extra(self) -> dict[str, str]:
        extra = {}
        if "synonym" in self.config.matching:
            from .wordnet import fingerprint

            extra["syn"] = f"wn{fingerprint()}/senses{self.config.synonym_senses}"
        if self.idioms is not None:
            extra["idioms"] = f"{'+'.join(self.config.idioms)}@{self.idioms.digest[:10]}"
        if self._sounds:
            extra["tl"] = f"{self.config.transliteration_threshold:g}"
        if self.config.aggregation == "weighted":
            extra["w"] = ",".join(f"{c}={w:g}" for c, w in sorted(self.config.class_weights.items()))
        return extra

    def keywords(self, sources: Sequence[str]) -> list[list[Keyword]]:
        """The keywords of each source sentence (idiom stretches collapsed into one unit)."""
        return self.prepare(sources).keywords

    def analyse(self, sources: Sequence[str]) -> list[tuple[Normalized, LineAnalysis]]:
        """Each line normalized (:mod:`ktr.normalize`) and analysed under the per-line guards
        (:mod:`ktr.guard`): the slow step, one caller at a time."""
        normalized = [normalize_source(line) for line in sources]
        with self._lock:
            analyses = analyze_lines(self.analyzer, [norm.text for norm in normalized], self.config.max_chars)
        return list(zip(normalized, analyses))

    def analyse_stream(self, sources: Iterable[str]) -> Iterator[tuple[Normalized, LineAnalysis]]:
        """:meth:`analyse` for an analyzer with a ``stream`` method (Kiwi in this process): each
        line's analysis as soon as the analyzer has it, the lines read as it asks for them.
        Without the scorer's lock: a Kiwi object analyses for several threads at once safely
        (since kiwipiepy 0.22)."""
        normalized: deque[Normalized] = deque()

        def texts() -> Iterator[str]:
            for line in sources:
                normalized.append(normalize_source(line))
                yield normalized[-1].text

        for analysis in stream_lines(self.analyzer, texts(), self.config.max_chars):
            yield normalized.popleft(), analysis

    def prepare(self, sources: Sequence[str], name: str = "source", first_line: int = 1) -> Prepared:
        """Analyse and look up the source once; ``name`` (a file name) prefixes warnings, which
        name lines from ``first_line`` on and also go out through :mod:`warnings` (category
        InputWarning)."""
        with fewer_gc_pauses():
            prepared = self.prepare_analysed(self.analyse(sources), name, first_line)
        for message in prepared.warnings:
            warnings.warn(message, InputWarning, stacklevel=2)
        return prepared

    def prepare_file(self, source: str | TextFile) -> Iterator[Prepared]:
        """:meth:`prepare` on a file (a path, or a file checked with :func:`ktr.textio.scan`),
        one stretch of lines after another, so memory does not grow with the file's length; every
        line is checked (encoding) before the first is analysed. Warnings name the file's lines."""
        src = source if isinstance(source, TextFile) else scan(source)
        size = stretch_size(src.lines)
        for n, (lines,) in enumerate(aligned([src], size)):
            yield self.prepare(lines, src.name, n * size + 1)

    def prepare_analysed(self, analysed: Sequence[tuple[Normalized, LineAnalysis]], name: str = "source",
                         first_line: int = 1) -> Prepared:
        """Keywords, look-ups and targets of analysed lines (:meth:`analyse`); warnings name
        lines from ``first_line`` on."""
        notes = [(n, norm.warning()) for n, (norm, _) in enumerate(analysed, first_line) if norm.removed]
        notes += [(n, f"not scored, the analysis failed: {a.failed}")
                  for n, (_, a) in enumerate(analysed, first_line) if a.failed]
        messages = [f"{name}:{n}: {note}" for n, note in sorted(notes, key=lambda note: note[0])]
        keywords, lookups, targets, missed, counts = [], [], [], [], []
        known = self._known
        for norm, analysis in analysed:
            kws, units = self._keywords(norm, analysis)
            looked: list[Lookup | None] = []
            wanted: list[Targets] = []
            unmatched: list[KeywordResult] = []
            weights: list[float | None] = []
            for i, k in enumerate(kws):
                if i in units:
                    found: Lookup | None = Lookup(None, units[i].english, "idiom")
                    target = Targets(idioms=found.equivalents)
                    rest, weight = self._unmatched(k, found, target)
                else:       # the same word again: its look-up, targets and the rest are known
                    key = (k.lemma, k.tag, k.cls, k.base)
                    if key not in known:
                        found = self._lookup(k)
                        target = self._targets(k, found)
                        known[key] = (found, target, *self._unmatched(k, found, target))
                    found, target, rest, weight = known[key]
                looked.append(found)
                wanted.append(target)
                unmatched.append(_new(KeywordResult, (k, *rest)))
                weights.append(weight)
            keywords.append(kws)
            lookups.append(looked)
            targets.append(wanted)
            missed.append(unmatched)
            counts.append(line_counts(tuple(weights), sum(not r.in_lexicon for r in unmatched)))
        return Prepared(keywords, lookups, targets, missed, counts, [a.failed for _, a in analysed], messages)

    def _unmatched(self, keyword: Keyword, found: Lookup | None, target: Targets) -> tuple[tuple, float | None]:
        """What a keyword's result holds besides the keyword as long as nothing matched it, and
        its weight in the line's score (None when it does not count)."""
        rest = (*_explained(found, target), None, None, None, _tried(keyword, target))
        counts = found is not None or self.config.missing_in_lexicon == "miss"
        return rest, self.config.class_weights.get(keyword.cls, 1.0) if counts else None

    def _keywords(self, norm: Normalized, analysis: LineAnalysis) -> tuple[list[Keyword], dict]:
        """A line's keywords (offsets into the line as given) and its idiom units by position."""
        kws = extract(analysis.morphemes, self.table, self._classes)
        if self._numbers and not analysis.failed:
            kws = numbers.group(analysis.morphemes, kws)
        kws, units = self.idioms.apply(norm.text, kws) if self.idioms and not analysis.failed else (kws, {})
        if norm.spans:
            kws = [k._replace(start=a, end=b) for k in kws for a, b in [norm.original_span(k.start, k.end)]]
        return kws, units

    def _targets(self, keyword: Keyword, found: Lookup | None) -> Targets:
        name = keyword.cls == "proper_noun"
        sound = ""
        if self._sounds and is_hangul(keyword.lemma) and (name or (found is None and keyword.cls == "noun")):
            sound = sound_key(keyword.lemma)
        number_keys = numbers.korean_keys(keyword) if self._numbers else ()
        if found is None:
            return Targets(numbers=number_keys, sound=sound, name=name)
        if found.via == "idiom":
            return Targets(idioms=found.equivalents)
        synonyms = self._synonyms.get((found.entry.lemma, found.entry.cls), ()) if found.entry else ()
        return Targets(found.equivalents, synonyms, numbers=number_keys, sound=sound, name=name)

    def _lookup(self, keyword: Keyword) -> Lookup | None:
        if keyword.tag == "number":     # a written number (ktr/numbers.py): its own equivalent
            value = numbers.korean_keys(keyword)
            return Lookup(None, (value[0][2:],) if value else (), "number")
        found = self.lexicon.lookup(keyword.lemma, keyword.cls)
        if found is None and keyword.base:
            found = self.lexicon.lookup(keyword.base, keyword.cls)
        return found

    def score_prepared(self, prepared: Prepared, name: str, hypotheses: Sequence[str]) -> SystemResult:
        """One system's result on a prepared source (:meth:`prepare`)."""
        if len(hypotheses) != len(prepared.keywords):
            raise InputError(
                f"line counts differ: source has {len(prepared.keywords)} lines, "
                f"{name} has {len(hypotheses)}; nothing was scored"
            )
        with fewer_gc_pauses():
            sentences = self.match_lines(prepared, hypotheses)
        return SystemResult(name, sentences, self.config.aggregation, self.config.no_keywords)

    def match_lines(self, prepared: Prepared, hypotheses: Sequence[str], first: int = 0,
                    details: bool = True) -> list[SentenceResult]:
        """Per line, the keywords of ``prepared`` matched against the output line; sentence
        indexes count from ``first`` (a stretch of a longer corpus). Without ``details`` each
        line's result keeps its counts but not its keywords' results."""
        sentences = []
        failed = prepared.failed or [None] * len(hypotheses)
        rows = zip(prepared.targets, prepared.missed, prepared.counts, hypotheses, failed)
        matching, inflections, threshold = self.config.matching, self._inflections, self.config.transliteration_threshold
        for index, (targets, missed, counts, hyp, why) in enumerate(rows, first):
            names = capitalized_words(hyp) if self._sounds and hyp != hyp.casefold() else None
            chosen = match_sentence(targets, tokenize(hyp), matching, inflections, threshold, names)
            results: tuple[KeywordResult, ...] = ()
            if details:
                found = list(missed)      # then the transferred ones replaced
                for i, cand in chosen.items():
                    found[i] = missed[i].matched_as(cand.equivalent, cand.how, (cand.start, cand.end))
                results = tuple(found)
            stats = sentence_result(index, counts, chosen, results)
            if why or not hyp.strip():
                stats = replace(stats, failed=why, empty_hypothesis=not hyp.strip())
            sentences.append(stats)
        return sentences

    def score(self, sources: Sequence[str], hypotheses: Mapping[str, Sequence[str]] | Sequence[str],
              references: Sequence[Sequence[str]] | None = None, *, source_name: str = "source",
              details: bool = True, statistics: bool = False) -> Report:
        """Score one or more systems. ``hypotheses`` is a list of lines or a name → lines map;
        ``references`` (optional) is a list of reference streams, each as long as ``sources``.
        ``source_name`` names the source in warnings and errors (the CLI passes the file name).
        ``details=False`` keeps each line's counts but not its keywords' results: the same scores
        and summary in far less memory, without per-sentence keyword output. ``statistics=True``
        keeps sacreBLEU's statistics of every sentence in the report (for a bootstrap)."""
        if isinstance(hypotheses, Mapping):
            systems = dict(hypotheses)
        else:
            systems = {"system": hypotheses}
        if not systems:
            raise InputError("no hypothesis given")
        if isinstance(sources, str):
            raise InputError("sources must be a list of lines, not one string")
        if not sources:
            raise InputError(f"{source_name} is empty: nothing to score")
        if not any(line.strip() for line in sources):
            raise _blank(source_name, len(sources))
        references = list(references or [])
        for name, lines in list(systems.items()) + [(f"reference {i + 1}", r) for i, r in enumerate(references)]:
            if isinstance(lines, str):
                raise InputError(f"{name}: expected a list of lines, not one string")
        check_counts([("source", len(sources)), *((name, len(lines)) for name, lines in systems.items()),
                      *((f"reference {i + 1}", len(r)) for i, r in enumerate(references))])
        stretches = sliced(sources, systems, references, stretch_size(len(sources)))
        return self._score(stretches, list(systems), bool(references), source_name, details, statistics)

    def score_files(self, source: str | TextFile, hypotheses: Mapping[str, str | TextFile],
                    references: Sequence[str | TextFile] = (), *, details: bool = True,
                    statistics: bool = False) -> Report:
        """:meth:`score` on files (paths, or files already checked with :func:`ktr.textio.scan`),
        read a stretch at a time: memory does not grow with the files' length (only by each
        line's counts, or with ``details`` its keywords' results). ``hypotheses`` maps system
        names to files. Every file is checked (encoding, line counts) before anything is scored."""
        if not hypotheses:
            raise InputError("no hypothesis given")
        src = source if isinstance(source, TextFile) else scan(source)
        outs = {name: f if isinstance(f, TextFile) else scan(f, allow_empty=True) for name, f in hypotheses.items()}
        refs = [f if isinstance(f, TextFile) else scan(f, allow_empty=True) for f in references]
        check_counts([(f.name, f.lines) for f in (src, *outs.values(), *refs)])
        if not src.has_text:
            raise _blank(src.name, src.lines)
        size = stretch_size(src.lines)

        def stretches() -> Iterator[Stretch]:
            for n, (lines, *rest) in enumerate(aligned([src, *outs.values(), *refs], size)):
                yield Stretch(n * size, lines, dict(zip(outs, rest[:len(outs)])), rest[len(outs):])

        return self._score(stretches(), list(outs), bool(refs), src.name, details, statistics)

    def _score(self, stretches: Iterable[Stretch], names: list[str], with_references: bool, source_name: str,
               details: bool, statistics: bool) -> Report:
        """Every stretch scored; BLEU and chrF summed stretch by stretch as the lines go by."""
        metrics = ReferenceScores(keep=statistics) if with_references else None

        def add(stretch: Stretch) -> None:
            for name, lines in stretch.systems.items():
                metrics.add(name, lines, stretch.references)

        sentences, messages = score_lines(self, stretches, source_name, self.processes, details,
                                          add if metrics is not None else None)
        for message in messages:
            warnings.warn(message, InputWarning, stacklevel=3)
        results = []
        signatures = None
        for name in names:
            result = SystemResult(name, sentences[name], self.config.aggregation, self.config.no_keywords)
            if metrics is not None:
                found = metrics.scores(name)
                result.bleu, result.chrf = found["bleu"][0], found["chrf"][0]
                signatures = {k: v[1] for k, v in found.items()}
            results.append(result)
        return Report(self.signature, results, signatures, warnings=messages, references=metrics)


def _blank(name: str, lines: int) -> InputError:
    return InputError(f"{name} has {lines} line(s) but none with text: nothing to score")
