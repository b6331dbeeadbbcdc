"""A matching stage: what it is, what it declares, and the cascade of the stages a config names.

A stage is one class, registered by name in :data:`ktr.matching.registry.STAGES`. It declares,
as class attributes, everything the rest of ktr needs to know of it, so that the config, the
pipeline, the metric, the assignment and the preflight loop over the cascade and name no stage:

- ``name``; ``options``: its :class:`Option` s (config key, default, check, doc), read from YAML
  and the command line like any key of :class:`~ktr.config.Config`;
- ``strength``: how strong its matches are when assignments of the same size compete (lower is
  stronger; :mod:`ktr.matching.assignment`);
- ``needs`` and :meth:`Stage.problem`: what it needs installed (the preflight);
- :meth:`Stage.load`: the table it reads (built once per pipeline);
- :meth:`Stage.fragment`: its part of the signature.

Matching, each stage has one required hook and three optional roles:

- :meth:`Stage.propose` takes a keyword (its index and :class:`~ktr.matching.targets.Targets`) and
  the output sentence (:class:`~ktr.matching.view.SentenceView`) and returns the places where the
  keyword may be transferred, each a :class:`~ktr.matching.assignment.Candidate` whose rank starts
  with the stage's ``order`` (its place in the config's ``matching`` list: an earlier stage is
  preferred);
- :class:`Refines`: looks at every keyword's candidates before the assignment;
- :class:`Marks`: adds grammatical marks that share a token with another keyword's match, placed
  after the assignment;
- :class:`Completes`: matches the keywords still missed on the tokens still free once the
  assignment is made (its matches so rank below every other).

A stage reads its own settings (:meth:`Stage.setting`) and never asks which other stages are on.
:func:`cascade` builds the stages of a :class:`Matching` once (they hold no state of a sentence).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Protocol, runtime_checkable

from ktr.errors import brief
from ktr.korean.analyzers.base import Morpheme
from ktr.korean.keywords import Keyword
from ktr.lexicon import Lexicon
from ktr.lexicon.format import Lookup
from ktr.matching import timing
from ktr.matching.candidate import Candidate
from ktr.matching.registry import STAGES
from ktr.matching.targets import Targets
from ktr.matching.view import SentenceView

#: a line's keywords with units joined, and the look-up of each unit looked up as it was joined,
#: by its place (:meth:`Stage.join`)
Joined = tuple[list[Keyword], dict[int, Lookup]]


@dataclass(frozen=True)
class Option:
    """One option of a stage: its key (in YAML, and an attribute of :class:`~ktr.config.Config`),
    its default (whose type a value must have), what it means, and a check that says what is
    wrong with a value (None: nothing)."""

    key: str
    default: Any
    doc: str
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` for this option."""
        if isinstance(value, float) and not math.isfinite(value):
            return f"must be a finite number, got {value!r}"
        return self.check(value) if self.check else None


def in_unit_interval(value: Any) -> str | None:
    """A check of an :class:`Option`: a number in (0, 1]."""
    ok = not isinstance(value, bool) and isinstance(value, (int, float)) and 0 < value <= 1
    return None if ok else f"must be in (0, 1], got {brief(value)}"


@dataclass(frozen=True)
class Matching:
    """The settings of matching, which travel together from the config to every stage: the
    stages in cascade order, and the options of every stage, as (key, value) pairs."""

    stages: tuple[str, ...] = ("exact",)
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, stages: Sequence[str], options: Mapping[str, Any]) -> Matching:
        return cls(tuple(stages), tuple(sorted(options.items())))

    def setting(self, key: str) -> Any:
        """The value of stage option ``key``: as given, or its default."""
        for k, value in self.options:
            if k == key:
                return value
        return stage_options()[key].default


def stage_class(name: str) -> type[Stage]:
    """The class of stage ``name``; ValueError naming the stages when there is none."""
    if name not in STAGES:
        raise ValueError(f"no matching stage {name!r}; the stages are {', '.join(STAGES)}")
    module, _, cls = STAGES[name].partition(":")
    found: type[Stage] = getattr(importlib.import_module(module), cls)
    return found


def stage_options() -> dict[str, Option]:
    """Every registered stage's options by key (two stages may share one, as the synonym and
    derivation stages share WordNet's senses: the same :class:`~ktr.matching.stage.Option`)."""
    return _options(tuple(STAGES.items()))


@lru_cache(maxsize=8)
def _options(stages: tuple[tuple[str, str], ...]) -> dict[str, Option]:
    found: dict[str, Option] = {}
    for name, _ in stages:
        for option in stage_class(name).options:
            if found.setdefault(option.key, option) != option:
                raise ValueError(f"stage {name}: option {option.key} is declared differently by another stage")
    return found


class Stage:
    """A matching stage (:mod:`ktr.matching.stage`): built once per cascade, with its place in it
    and the settings of matching."""

    name: ClassVar[str] = ""
    #: how strong a match of this stage is when assignments of the same size compete (lower first)
    strength: ClassVar[int] = 8
    #: the sense of the entry its matches rank as in the assignment, when they are none of the
    #: entry's listed senses (None: the place of the equivalent matched)
    sense: ClassVar[int | None] = None
    #: the options of this stage
    options: ClassVar[tuple[Option, ...]] = ()
    #: what it reads that is shared with other stages and checked once before a run, by name
    #: (:data:`ktr.scoring.preflight.NEEDS`: "WordNet")
    needs: ClassVar[tuple[str, ...]] = ()
    #: what the pipeline works out for it, by name: "numbers" (keywords' values, their words
    #: grouped into numbers), "sounds" (names' sound keys, the words an output capitalizes),
    #: "inflections" (the output read with English inflections: base words of its tokens),
    #: "roles" (a noun marked as its clause's topic or subject: :attr:`Targets.role`)
    reads: ClassVar[frozenset[str]] = frozenset()
    #: the field of a keyword's :class:`~ktr.matching.targets.Targets` its table fills, by the
    #: keyword's lexicon entry (the table: entry → phrases), if any
    fills: ClassVar[str | None] = None
    #: where it joins a line's keywords into units (a number, a construction, an idiom), in the
    #: order of this value (:meth:`join`); None: it joins none
    joins: ClassVar[int | None] = None

    def __init__(self, order: int, matching: Matching):
        self.order = order
        self.matching = matching
        #: its options' values, read once: a stage reads them for every keyword it weighs
        self._settings = {option.key: matching.setting(option.key) for option in self.options}

    def setting(self, key: str) -> Any:
        """The value of one of this stage's options."""
        return self._settings[key]

    @classmethod
    def problem(cls, settings: Mapping[str, Any]) -> str | None:
        """What this stage needs that is missing (a package, a data set), said in one line; None
        when nothing is. Asked before a run, without loading anything."""
        return None

    @classmethod
    def load(cls, settings: Mapping[str, Any], lexicon: Lexicon, tagset: str) -> Any:
        """The table this stage reads (WordNet's synonyms of the lexicon's equivalents, the idiom
        lexicons...), built or read from the cache once per pipeline; None when it reads none."""
        return None

    @classmethod
    def english(cls, table: Any) -> Iterable[str]:
        """The English phrases its table may match (the inflection table covers their words)."""
        return ()

    @classmethod
    def join(cls, table: Any, morphemes: Sequence[Morpheme], text: str, keywords: list[Keyword]) -> Joined:
        """A line's keywords with its units joined (see :attr:`joins`), and the look-up of each
        unit whose look-up comes with it (an idiom's English), by the unit's place in the list."""
        return keywords, {}

    @classmethod
    def lookup(cls, table: Any, keyword: Keyword) -> Lookup | None:
        """The look-up of a keyword of this stage's own kind (a unit it joined, ``via`` the stage's
        name), before the lexicon's; None for any other keyword."""
        return None

    @classmethod
    def targets(cls, keyword: Keyword, found: Lookup, numbers: tuple[str, ...]) -> Targets:
        """What a unit this stage joined may match, given its look-up and its number keys."""
        return Targets(idioms=found.equivalents)

    @classmethod
    def fragment(cls, settings: Mapping[str, Any], table: Any = None) -> dict[str, str]:
        """This stage's part of the signature, from its settings (``settings``: every option's
        value) and the table it loaded, if any: what decides its matches beyond its name."""
        return {}

    def propose(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        """Where keyword ``k`` may be transferred in the output."""
        return []

    def candidate(self, k: int, equivalent: str, span: tuple[int, int], rank: int = 0) -> Candidate:
        """A candidate of this stage: ``equivalent`` found at token ``span``, ``rank`` its place
        among the keyword's targets (the earlier preferred)."""
        return Candidate(k, equivalent, span[0], span[1], self.name, (self.order, rank, span[0]))


@runtime_checkable
class Refines(Protocol):
    """A stage that looks at every keyword's candidates before the assignment."""

    def refine(self, cands: dict[int, list[Candidate]], targets: Sequence[Targets], v: SentenceView) -> None:
        """Every keyword's candidates (keyword index → candidates, none empty), changed in place."""


@runtime_checkable
class Marks(Protocol):
    """A stage that adds grammatical marks, which share a token with another keyword's match."""

    def marks(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        """The marks of keyword ``k`` (a keyword whose targets have ``endings``)."""

    def place(
        self, chosen: dict[int, Candidate], marks: dict[int, list[Candidate]], keywords: int, tokens: int
    ) -> None:
        """The marks kept, after the assignment, added to ``chosen``."""


@runtime_checkable
class Completes(Protocol):
    """A stage that matches, after the assignment, keywords still missed on tokens nobody took."""

    def complete(self, lines: Sequence[tuple[dict[int, Candidate], Sequence[Targets], SentenceView]]) -> None:
        """After the assignment (and the marks) of some lines, each ``(chosen, targets, view)``:
        more keywords matched, added to ``chosen``."""


@dataclass(frozen=True)
class Cascade:
    """The stages of a :class:`Matching`, built, and those of each optional role."""

    stages: tuple[Stage, ...]
    refines: tuple[Refines, ...]
    marks: tuple[Marks, ...]
    completes: tuple[Completes, ...]


def cascade(matching: Matching) -> Cascade:
    """The stages ``matching`` names (:data:`ktr.matching.registry.STAGES`), in that order (each
    timed while :mod:`ktr.matching.timing` counts)."""
    return _cascade(matching, timing.on())


@lru_cache(maxsize=64)
def _cascade(matching: Matching, timed: bool) -> Cascade:
    stages = tuple(stage_class(name)(order, matching) for order, name in enumerate(matching.stages))
    if timed:
        stages = tuple(timing.timed(s, s.name) for s in stages)
    return Cascade(
        stages,
        tuple(s for s in stages if isinstance(s, Refines)),
        tuple(s for s in stages if isinstance(s, Marks)),
        tuple(s for s in stages if isinstance(s, Completes)),
    )
