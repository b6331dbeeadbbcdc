"""Scoring options as a typed, strict dataclass; YAML keys map 1:1 to its fields.

Config files are read strictly (:func:`read_yaml`): UTF-8, no key given twice, no YAML anchors or
aliases, every number finite; errors name the file (and line), and print no more of a value
than :func:`brief` gives.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import yaml

from ktr.errors import ConfigError, brief
from ktr.korean.keywords import CLASSES
from ktr.matching.registry import DEFAULT_CASCADE, STAGES
from ktr.textio import invalid_utf8, read_whole

if TYPE_CHECKING:
    from ktr.matching.stage import Option

AGGREGATIONS = ("macro", "micro", "weighted")
HEADLINES = ("ktr", "f")
NO_KEYWORD_POLICIES = ("exclude", "zero", "one")
MISSING_POLICIES = ("miss", "exclude")
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


@dataclass(frozen=True, init=False)
class Config:
    """How ktr scores. Every field has a documented default; see docs/configuration.md."""

    analyzer: str = "kiwi"
    """Morphological analyzer: kiwi, mecab, okt, komoran, hannanum, kkma."""
    classes: tuple[str, ...] = DEFAULT_CLASSES
    """Keyword classes that count."""
    lexicons: tuple[str, ...] = ("core", "senses")
    """Lexicons by shipped name or path, stacked in order (an entry in several keeps the first
    file's equivalents first)."""
    matching: tuple[str, ...] = DEFAULT_CASCADE
    """Matching stages, in cascade order (:data:`ktr.matching.registry.STAGES`): exact,
    inflection, derivation (WordNet), synonym (WordNet), idiom, construction, number,
    transliteration, semantic (an embedding model, on what the others left). Each stage's own
    options are keys of the config too, declared by the stage (docs/configuration.md lists
    them), held in :attr:`options` and read as attributes of the config."""
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
    options: Mapping[str, Any] = field(default_factory=dict)
    """The matching stages' options (key → value), every registered stage's, at their defaults
    unless given: ``Config(KEY=VALUE)`` and YAML's ``KEY: VALUE`` set one."""

    def __init__(self, **values: Any) -> None:
        """The fields as given (the rest at their defaults); any other key is a stage's option."""
        for f in _FIELDS.values():
            if f.name != "options":
                object.__setattr__(self, f.name, values.pop(f.name) if f.name in values else _default(f))
        known = _stage_options()
        given = {**values.pop("options", {}), **values}
        for key in given:
            if key not in known:
                raise ConfigError(f"unknown key {brief(key)}; valid keys: {', '.join(valid_keys())}")
        object.__setattr__(self, "options", MappingProxyType({k: given.get(k, o.default) for k, o in known.items()}))
        self.__post_init__()

    def __getattr__(self, name: str) -> Any:
        """A stage's option as an attribute (``config.KEY``)."""
        options = self.__dict__.get("options")
        if options is not None and name in options:
            return options[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by its values (the options are a read-only view)."""
        return _rebuild, (self.to_dict(),)

    def to_dict(self) -> dict[str, Any]:
        """Every key and its value, as YAML writes them: the stages' options after ``matching``."""
        found: dict[str, Any] = {}
        for name in _FIELDS:
            if name != "options":
                found[name] = getattr(self, name)
            if name == "matching":
                found.update(self.options)
        return found

    def __post_init__(self) -> None:
        for key in ("f_beta", "timeout", "max_chars"):
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
        for name in self.matching:
            _choice("matching", name, STAGES)
        if twice := sorted({s for s in self.matching if self.matching.count(s) > 1}):
            raise ConfigError(f"matching: {', '.join(twice)} given more than once; each stage runs once")
        for key, option in _stage_options().items():
            if problem := option.problem(self.options[key]):
                raise ConfigError(f"{key}: {problem}")
        if not self.lexicons:
            raise ConfigError("lexicons: at least one lexicon is needed")
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
        options = _stage_options()
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key in _FIELDS and key != "options":
                default = _default(_FIELDS[key])
            elif key in options:
                default = options[key].default
            else:
                raise ConfigError(f"{where}: unknown key {brief(key)}; valid keys: {', '.join(valid_keys())}")
            kwargs[key] = _typed(where, key, value, default)
        try:
            return cls(**kwargs)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None

    @classmethod
    def from_yaml(cls, path: str | Path) -> Config:
        return cls.from_dict(read_yaml(path) or {}, where=str(path))

    def replace(self, **changes: Any) -> Config:
        """This config with ``changes`` (fields or stage options)."""
        return Config(**{**self.to_dict(), **changes})


_FIELDS = {f.name: f for f in dataclasses.fields(Config)}


def _stage_options() -> dict[str, Option]:
    """Every registered stage's options (:func:`ktr.matching.stage.stage_options`): the stages'
    modules are imported when a config is first made, not when ktr is."""
    from ktr.matching.stage import stage_options

    return stage_options()


def _default(f: dataclasses.Field[Any]) -> Any:
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default


def _rebuild(values: dict[str, Any]) -> Config:
    return Config(**values)


def valid_keys() -> list[str]:
    """The keys a config may have: its fields and every registered stage's options."""
    return [name for name in _FIELDS if name != "options"] + list(_stage_options())


def _typed(where: str, key: str, value: Any, default: Any) -> Any:
    """A YAML value as the key's default has it typed: a mapping merged over the default's, an
    integer as a float, a string as a list of one; an error naming ``where`` and the key when its
    type is another."""
    if isinstance(default, dict):
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: {key} must be a mapping, got {brief(value)}")
        return {**default, **value}
    if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(default, tuple):
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: {key} must be a list of strings")
        return tuple(value)
    if key == "timeout":
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ConfigError(f"{where}: timeout must be a number of seconds, got {brief(value)}")
        return float(value)
    if not isinstance(value, type(default)):
        raise ConfigError(f"{where}: {key} must be a {type(default).__name__}, got {brief(value)}")
    return value


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


#: the deepest nesting of lists and mappings a config may have (PyYAML composes a level by a
#: call: 5,000 levels ran out of Python's stack, a RecursionError)
DEEPEST = 100


class StrictLoader(yaml.SafeLoader):
    """YAML for configs: safe (no Python objects are made), no key given twice in one mapping
    (PyYAML keeps the last silently), no anchors or aliases: an alias makes a small file a
    huge value (nine levels of nine: 387 million strings), which an error message would print;
    and no nesting past :data:`DEEPEST` levels."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        self._depth: int = getattr(self, "_depth", 0) + 1
        try:
            if self._depth > DEEPEST:
                raise Refused(None, None, f"nested more than {DEEPEST} levels deep", event.start_mark)
            return self._compose(parent, index, event)
        finally:
            self._depth -= 1

    def _compose(self, parent: yaml.Node | None, index: int, event: Any) -> yaml.Node | None:
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


def _finite(key: str, value: Any) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{key}: must be a finite number, got {value!r}")


def _choice(key: str, value: Any, valid: Collection[str]) -> None:
    if value not in valid:
        raise ConfigError(f"{key}: {brief(value)} is not valid; choose one of: {', '.join(valid)}")
