"""The prepared scorer: everything built once from a config, and the unit of work on a stretch.

A :class:`Pipeline` holds the analyzer and the tables (tag table, lexicon, WordNet synonyms,
idioms, inflections). Its steps, line by line:

1. :meth:`~Pipeline.analyse`: normalize (:mod:`ktr.korean.normalize`) and analyse under the
   per-line guards (:mod:`ktr.korean.guard`);
2. :meth:`~Pipeline.prepare_analysed`: keywords, their look-ups and targets
   (:mod:`ktr.matching.targets`), and each keyword's result as long as nothing matches it;
3. :meth:`~Pipeline.match_lines`: every output line matched (:mod:`ktr.matching.cascade`).

:meth:`~Pipeline.score_stretch` chains them on one stretch of a corpus: the unit of work that
every engine (:mod:`ktr.execution`) runs, in this process or in a worker that built its own
pipeline with :meth:`Pipeline.for_worker`.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import count

from ktr.config import Config
from ktr.controls import cleaned_note, removed
from ktr.deadline import Budget, TimedOut
from ktr.english.tokens import capitalized_words, tokenize
from ktr.execution.unit import Scored, Stretch, fewer_gc_pauses
from ktr.korean.analyzers import Analyzer
from ktr.korean.analyzers.process import build_analyzer, effective_timeout
from ktr.korean.guard import LineAnalysis, analyze_lines, stream_lines
from ktr.korean.keywords import Keyword, extract, load_tagset, subject_mark
from ktr.korean.normalize import Normalized, normalize_source
from ktr.lexicon import Lexicon, load_lexicon
from ktr.lexicon.format import Lookup
from ktr.matching import timing
from ktr.matching.candidate import Matches
from ktr.matching.cascade import Line, match_in_pieces, match_lines
from ktr.matching.stage import Matching, Stage, cascade, stage_class
from ktr.matching.targets import KeywordTargets, Targets, Unit
from ktr.matching.tracing import NOTHING_TRACED, latin_words, light_verb_words, trace, with_counted
from ktr.matching.transliteration import romanize
from ktr.scoring import transport
from ktr.scoring.sentences import KeywordResult, LineCounts, SentenceResult, line_counts, sentence_result


@dataclass(frozen=True)
class Prepared:
    """A source corpus analysed and looked up, ready to be matched against any output."""

    keywords: list[list[Keyword]]
    lookups: list[list[Lookup | None]]
    targets: list[list[Targets]]
    missed: list[list[KeywordResult]]  # per keyword: its result as long as nothing matched it
    counts: list[LineCounts]  # per line: what its statistics need besides the matches
    failed: list[str | None] = field(default_factory=list)  # per line: why analysis failed, or None
    warnings: list[str] = field(default_factory=list)
    #: per line: the words the source writes in Latin letters (names, acronyms: "CNN", "Judy"),
    #: which an output that copies them traces to the source, and the English verbs of its light
    #: verb 하다 after an object if it has one (:func:`ktr.matching.tracing.light_verb_words`)
    copied: list[frozenset[str]] = field(default_factory=list)
    warned: list[int] = field(default_factory=list)  # per warning: the line it names
    first_line: int = 1  # the number of the first line, in warnings
    #: each line's time left under the config's limit, spent by its preparation and its matching
    budget: Budget | None = None
    name: str = "source"  # the source's, in warnings

    def with_outputs(self, notes: Sequence[tuple[int, str]]) -> list[str]:
        """The source's warnings and ``notes`` (:func:`output_warnings`), in line order (on one
        line, the source's first)."""
        if not notes:
            return self.warnings
        ordered = sorted([*zip(self.warned, self.warnings), *notes], key=lambda note: note[0])
        return [message for _, message in ordered]


def output_warnings(hypotheses: Sequence[str], name: str, first_line: int = 1) -> list[tuple[int, str]]:
    """(line, warning) for each output line that matching sees cleaned of escape sequences or
    control characters (:mod:`ktr.controls`), naming ``name`` and the line."""
    return [
        (n, f"{name}:{n}: {cleaned_note(found, 'matching')}")
        for n, line in enumerate(hypotheses, first_line)
        if not line.isprintable() and (found := removed(line))
    ]


#: what the number stage's keys stand for (:func:`ktr.matching.numbers.korean_keys`)
_NUMBER_KEYS = {"m": "month", "d": "day", "min": "minutes"}


def unmatched_result(keyword: Keyword, found: Lookup | None, target: Targets) -> KeywordResult:
    """A keyword's result as long as nothing in the output matched it: what it could match."""
    tried = [
        f"{_NUMBER_KEYS.get(kind, 'number')} {value}" for kind, _, value in (k.partition(":") for k in target.numbers)
    ]
    tried += [f"derived {word}" for word in target.derivations]
    if target.sound:
        tried.append(f"sound {romanize(keyword.lemma)} ({target.sound})")
    elif target.spelled and target.name:  # a common noun's spelling as a name goes unsaid
        tried.append(f"spelled {target.spelled}")
    entry = f"{found.entry.lemma}/{found.entry.cls}" if found and found.entry else None
    return KeywordResult(
        keyword,
        target.equivalents or target.idioms,
        target.synonyms,
        found is not None,
        entry,
        found.via if found else None,
        None,
        None,
        None,
        tuple(tried),
    )


class Pipeline:
    """The analyzer and the tables one config needs, and the steps that use them."""

    def __init__(self, config: Config, analyzer: Analyzer, lexicon: Lexicon | None = None):
        self.config = config
        self.analyzer = analyzer
        self._lock = threading.Lock()  # one analysis at a time: the backends are not all thread-safe
        with fewer_gc_pauses():  # tables of many small objects, built or read back
            self.table = load_tagset(analyzer.tagset)
            self.lexicon = lexicon or load_lexicon(config.lexicons)
            self._classes = frozenset(config.classes)
            stages = [stage_class(name) for name in config.matching]
            #: each stage's table (:meth:`ktr.matching.stage.Stage.load`), by stage
            self.tables = {s.name: s.load(config.options, self.lexicon, analyzer.tagset) for s in stages}
            #: what the stages read (:attr:`ktr.matching.stage.Stage.reads`)
            self._reads = frozenset().union(*(s.reads for s in stages))
            #: the stages that join keywords into units, in their order, each with its table
            self._joins = [
                (s, self.tables[s.name]) for s in sorted(stages, key=lambda s: s.joins or 0) if s.joins is not None
            ]
            self._inflections: dict[str, tuple[str, ...]] | None = None
            if "inflections" in self._reads:
                self._inflections = self._inflection_table(stages)
        #: the settings of every matching stage, as one object
        self.matching = Matching.of(config.matching, config.options)
        #: the seconds a line's keywords and matching may take (the analyzer's ``timeout``; 0: no limit)
        self.limit = effective_timeout(config.analyzer, config.timeout)
        self._ready = False  # what the stages load when first needed, loaded before a limit applies
        fills = {s.fills: self.tables[s.name] for s in stages if s.fills}
        units = {s.name: Unit(partial(s.lookup, table), s.targets) for s, table in self._joins}
        self._targets = KeywordTargets(self.lexicon, fills, self._reads, units)
        #: (lemma, tag, class, base) -> look-up, targets, unmatched result, weight: words repeat
        self._known: dict[
            tuple[str, str, str, str | None], tuple[Lookup | None, Targets, KeywordResult, float | None]
        ] = {}

    @classmethod
    def for_worker(cls, config: Config, threads: int = 1) -> Pipeline:
        """A worker process's own pipeline: its analyzer built from the config (``threads``: its
        analysis threads), its tables read back from the cache the parent wrote."""
        return cls(config, build_analyzer(config.analyzer, config.timeout, threads))

    def _inflection_table(self, stages: Sequence[type[Stage]]) -> dict[str, tuple[str, ...]]:
        """The inflected forms of every English word a keyword can match: the lexicon's
        equivalents and the phrases of each stage's table, keyed by what decides them (the
        lexicon and each table's signature fragment)."""
        from ktr.english.inflection import table_for
        from ktr.english.tokens import phrase

        tables = [(s, table) for s in stages if (table := self.tables[s.name]) is not None]
        key = self.lexicon.digest + "".join(
            f"|{s.name}:{','.join(s.fragment(self.config.options, table).values())}" for s, table in tables
        )

        def words() -> set[str]:  # only on a cache miss
            phrases = [e for entry in self.lexicon for e in entry.equivalents]
            phrases += [p for s, table in tables for p in s.english(table)]
            return {w for p in phrases for w in phrase(p)}

        return table_for(words, key)

    # -- the unit of work's protocol (ktr.execution.unit.Unit) --------------------------------

    @property
    def streams(self) -> bool:
        """The analyzer takes a stream of lines (Kiwi in this process): see :meth:`analyse_stream`."""
        return getattr(self.analyzer, "stream", None) is not None

    @property
    def concurrent(self) -> bool:
        """The analyzer works outside the interpreter lock (a child process, a cache)."""
        return getattr(self.analyzer, "concurrent", False)

    def analyse(self, sources: Sequence[str]) -> list[tuple[Normalized, LineAnalysis]]:
        """Each line normalized (:mod:`ktr.korean.normalize`) and analysed under the per-line guards
        (:mod:`ktr.korean.guard`): the slow step, one caller at a time."""
        normalized = [normalize_source(line) for line in sources]
        with self._lock:
            analyses = analyze_lines(self.analyzer, [norm.text for norm in normalized], self.config.max_chars)
        return list(zip(normalized, analyses))

    def analyse_stream(self, sources: Iterable[str]) -> Generator[tuple[Normalized, LineAnalysis], None, None]:
        """:meth:`analyse` for an analyzer with a ``stream`` method (Kiwi in this process): each
        line's analysis as soon as the analyzer has it, the lines read as it asks for them.
        Without the lock: a Kiwi object analyses for several threads at once safely (since
        kiwipiepy 0.22)."""
        normalized: deque[Normalized] = deque()

        def texts() -> Iterator[str]:
            for line in sources:
                normalized.append(normalize_source(line))
                yield normalized[-1].text

        for analysis in stream_lines(self.analyzer, texts(), self.config.max_chars):
            yield normalized.popleft(), analysis

    def score_stretch(
        self,
        stretch: Stretch,
        analysed: Sequence[tuple[Normalized, LineAnalysis]] | None = None,
        name: str = "source",
        details: bool = True,
        outputs: Mapping[str, str] | None = None,
    ) -> Scored:
        """One stretch analysed (unless ``analysed`` is given), prepared and matched against every
        system: per system its lines' results, and the stretch's input warnings in line order
        (naming ``name`` for the source, and for a system its name in ``outputs``, its file, or
        else the system's own name). Without ``details`` the results keep their counts but not
        their keywords' results."""
        first = stretch.first
        analysed = analysed or self.analyse(stretch.sources)
        budget = self.limited(len(analysed))
        prepared = self.prepare_analysed(analysed, name, first + 1, budget)
        found = {
            system: self.match_lines(prepared, lines, first, details, budget)
            for system, lines in stretch.systems.items()
        }
        self.ran_out(prepared, found, stretch.systems, details)
        names = outputs or {}
        notes = [
            note
            for system, lines in stretch.systems.items()
            for note in output_warnings(lines, names.get(system, system), first + 1)
        ]
        return found, prepared.with_outputs(notes)

    pack = staticmethod(transport.pack)
    unpack = staticmethod(transport.unpack)

    def limited(self, lines: int) -> Budget | None:
        """Each line's time for its keywords and matching, or None without a limit; what the
        stages load when first needed (a model, an index) loaded beforehand, outside any line's time."""
        if not self.limit:
            return None
        if not self._ready:
            for stage in cascade(self.matching).completes:
                getattr(stage, "ready", lambda: None)()
            self._ready = True
        return Budget(self.limit, lines)

    def ran_out(
        self,
        prepared: Prepared,
        found: dict[str, list[SentenceResult]],
        systems: Mapping[str, Sequence[str]],
        details: bool = True,
    ) -> list[str]:
        """The lines of ``prepared`` that ran out of time (:attr:`Prepared.budget`) and are not
        failed yet, failed in place: as a line the analyzer failed on, in ``prepared`` (for any
        output matched later) and in ``found`` (each system's results of ``systems``' lines); a
        warning for each naming it, in line order among the others. Returns the new warnings."""
        budget = prepared.budget
        expired = sorted(i for i in budget.expired if not prepared.failed[i]) if budget else []
        if not expired:
            return []
        why = f"its keywords and matching took longer than timeout={self.limit:g}s"
        first = prepared.first_line
        for i in expired:
            prepared.keywords[i], prepared.lookups[i], prepared.targets[i], prepared.missed[i] = [], [], [], []
            prepared.counts[i] = line_counts((), 0, frozenset())
            prepared.failed[i] = why
            alone = Prepared([[]], [[]], [[]], [[]], [prepared.counts[i]], [why])
            for system, results in found.items():
                results[i] = self.match_lines(alone, [systems[system][i]], results[i].index, details)[0]
        new = [(first + i, f"{prepared.name}:{first + i}: not scored, {why}") for i in expired]
        notes = sorted([*zip(prepared.warned, prepared.warnings), *new], key=lambda note: note[0])
        prepared.warned[:] = [n for n, _ in notes]
        prepared.warnings[:] = [message for _, message in notes]
        return [message for _, message in new]

    # -- the steps --------------------------------------------------------------------------

    def prepare_analysed(
        self,
        analysed: Sequence[tuple[Normalized, LineAnalysis]],
        name: str = "source",
        first_line: int = 1,
        budget: Budget | None = None,
    ) -> Prepared:
        """Keywords, look-ups and targets of analysed lines (:meth:`analyse`); warnings name
        lines from ``first_line`` on. With a ``budget``, each line's within its time left (a line
        that runs out is marked in it, with nothing looked up)."""
        clock = time.perf_counter() if timing.on() else None
        notes = [(n, norm.warning()) for n, (norm, _) in enumerate(analysed, first_line) if norm.removed]
        notes += [
            (n, f"not scored, the analysis failed: {a.failed}")
            for n, (_, a) in enumerate(analysed, first_line)
            if a.failed
        ]
        notes.sort(key=lambda note: note[0])
        messages = [f"{name}:{n}: {note}" for n, note in notes]
        keywords, lookups, targets, missed, counts = [], [], [], [], []
        nothing: tuple[list[Keyword], list[Lookup | None], list[Targets], list[KeywordResult], LineCounts]
        nothing = ([], [], [], [], line_counts((), 0, frozenset()))
        for i, (norm, analysis) in enumerate(analysed):
            try:
                line = budget.spend(i, partial(self._prepare_line, norm, analysis)) if budget else None
            except TimedOut:
                line = nothing
            kws, looked, wanted, unmatched, counted = line or self._prepare_line(norm, analysis)
            keywords.append(kws)
            lookups.append(looked)
            targets.append(wanted)
            missed.append(unmatched)
            counts.append(counted)
        copied = [latin_words(norm.text) | light_verb_words(a.morphemes) for norm, a in analysed]
        failed = [a.failed for _, a in analysed]
        warned = [n for n, _ in notes]
        if clock is not None:
            timing.add("keywords and targets", time.perf_counter() - clock)
        return Prepared(
            keywords, lookups, targets, missed, counts, failed, messages, copied, warned, first_line, budget, name
        )

    def _prepare_line(
        self, norm: Normalized, analysis: LineAnalysis
    ) -> tuple[list[Keyword], list[Lookup | None], list[Targets], list[KeywordResult], LineCounts]:
        """A line's keywords, their look-ups, targets and results as long as nothing matches
        them, and what its statistics need besides the matches."""
        kws, units = self._keywords(norm, analysis)
        looked: list[Lookup | None] = []
        wanted: list[Targets] = []
        unmatched: list[KeywordResult] = []
        weights: list[float | None] = []
        if_matched: set[int] = set()
        for i, k in enumerate(kws):
            if i in units:  # a unit looked up as it was joined (an idiom's)
                found: Lookup | None = units[i]
                target = self._targets.targets(k, units[i])
                result, weight = self._unmatched(k, found, target)
            else:
                found, target, result, weight = self._known_word(k)
            if "roles" in self._reads and (role := subject_mark(norm.original, k)):
                target = target.marked(role)  # where the keyword is, not what it is
            looked.append(found)
            wanted.append(target)
            unmatched.append(result)
            weights.append(weight)
            if result.counts is None:
                if_matched.add(i)  # no entry, but a number or a name may still transfer
        counts = line_counts(tuple(weights), sum(not r.in_lexicon for r in unmatched), frozenset(if_matched))
        return kws, looked, wanted, unmatched, counts

    def _known_word(self, k: Keyword) -> tuple[Lookup | None, Targets, KeywordResult, float | None]:
        """A keyword's look-up, targets, unmatched result and weight, worked out once per word
        (the same word again differs only in its position)."""
        key = (k.lemma, k.tag, k.cls, k.base)
        known = self._known.get(key)
        if known is None:
            found = self._targets.lookup(k)
            target = self._targets.targets(k, found)
            known = self._known[key] = (found, target, *self._unmatched(k, found, target))
        found, target, result, weight = known
        return found, target, KeywordResult(k, *result[1:]), weight

    def _unmatched(self, keyword: Keyword, found: Lookup | None, target: Targets) -> tuple[KeywordResult, float | None]:
        """A keyword's result as long as nothing matched it, and its weight in the line's score
        (None when it never counts: no entry, nothing else to match, and ``exclude``; a keyword
        without an entry but with a number value or a sound counts under ``exclude`` only when it
        transfers, see :meth:`prepare_analysed`)."""
        entry = found is not None or self.config.missing_in_lexicon == "miss"
        if not entry and not (target.sound or target.numbers):
            return unmatched_result(keyword, found, target)._replace(counts=False), None
        result = unmatched_result(keyword, found, target)
        return result if entry else result._replace(counts=None), self.config.class_weights.get(keyword.cls, 1.0)

    def _keywords(self, norm: Normalized, analysis: LineAnalysis) -> tuple[list[Keyword], dict[int, Lookup]]:
        """A line's keywords (offsets into the line as given), the stages' units joined
        (:meth:`ktr.matching.stage.Stage.join`), and the look-ups of the units looked up as they
        were joined, by position."""
        kws = extract(analysis.morphemes, self.table, self._classes)
        units: dict[int, Lookup] = {}
        if not analysis.failed:
            for stage, table in self._joins:
                kws, found = stage.join(table, analysis.morphemes, norm.text, kws)
                units.update(found)
        if norm.spans:
            kws = [k._replace(start=a, end=b) for k in kws for a, b in [norm.original_span(k.start, k.end)]]
        return kws, units

    def match_lines(
        self,
        prepared: Prepared,
        hypotheses: Sequence[str],
        first: int = 0,
        details: bool = True,
        budget: Budget | None = None,
    ) -> list[SentenceResult]:
        """Per line, the keywords of ``prepared`` matched against the output line; sentence
        indexes count from ``first`` (a stretch of a longer corpus). Without ``details`` each
        line's result keeps its counts but not its keywords' results. With a ``budget``, each
        line's matching within its time left (a line that runs out is marked in it)."""
        clock = time.perf_counter() if timing.on() else None
        sentences = []
        failed = prepared.failed or [None] * len(hypotheses)
        copied = prepared.copied or [frozenset()] * len(hypotheses)
        rows = zip(prepared.targets, prepared.missed, prepared.counts, hypotheses, failed, copied)
        tokenized = [tokenize(hyp) for hyp in hypotheses]
        lines = [
            (targets, tokens, capitalized_words(hyp) if "sounds" in self._reads and hyp != hyp.casefold() else None)
            for targets, tokens, hyp in zip(prepared.targets, tokenized, hypotheses)
        ]
        piece = self.config.max_chars  # a line analysed in pieces is matched in pieces
        starts = [[k.start for k in kws] for kws in prepared.keywords]
        long = [bool(s) and max(s) >= piece for s in starts]
        budget = budget or prepared.budget
        near = [i for i, far in enumerate(long) if not far]
        part = budget.of(near) if budget else None
        whole = iter(match_lines([lines[i] for i in near], self.matching, self._inflections, part))
        matched = [
            self._in_pieces(i, line, s, budget) if far else next(whole)
            for i, (line, s, far) in enumerate(zip(lines, starts, long, strict=True))
        ]
        if clock is not None:
            timing.add("matching", time.perf_counter() - clock)
            clock = time.perf_counter()
        for index, (targets, missed, counts, hyp, why, latin), tokens, chosen in zip(
            count(first), rows, tokenized, matched
        ):
            results: tuple[KeywordResult, ...] = ()
            if details:
                found = list(missed)  # then the transferred ones replaced
                for i, cand in chosen.items():
                    found[i] = missed[i].matched_as(cand.equivalent, cand.how, (cand.start, cand.end), cand.confidence)
                for i, refusals in getattr(chosen, "refused", {}).items():
                    # a refusal of the very words the keyword was matched on says nothing
                    mine = range(chosen[i].start, chosen[i].end) if i in chosen else range(0)
                    if kept := tuple(r for r in refusals if not set(mine).intersection(range(r.start, r.end))):
                        found[i] = found[i]._replace(refused=kept)
                results = tuple(found)
            # a line the analyzer failed on has no keywords to trace the output to: no words counted
            spans = {with_counted(tokens, c.start, c.end, targets[i].counted) for i, c in chosen.items()}
            traced = NOTHING_TRACED if why else trace(tokens, spans, latin)
            stats = sentence_result(index, counts, chosen, results, traced, tokens if details else ())
            if why or not hyp.strip():
                stats = replace(stats, failed=why, empty_hypothesis=not hyp.strip())
            sentences.append(stats)
        if clock is not None:
            timing.add("tracing and counts", time.perf_counter() - clock)
        return sentences

    def _in_pieces(self, i: int, line: Line, starts: list[int], budget: Budget | None) -> Matches:
        """The matches of line ``i``, whose keywords reach past ``max_chars``, matched in pieces
        (:func:`~ktr.matching.cascade.match_in_pieces`), within its time left if there is a budget."""
        work = partial(match_in_pieces, line, starts, self.config.max_chars, self.matching, self._inflections)
        if budget is None:
            return work()
        try:
            return budget.spend(i, work)
        except TimedOut:
            return Matches()
