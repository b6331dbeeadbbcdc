"""Scoring options as a typed, strict dataclass; YAML keys map 1:1 to its fields."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import ConfigError
from .keywords import CLASSES

AGGREGATIONS = ("macro", "micro")
NO_KEYWORD_POLICIES = ("exclude", "zero", "one")
MISSING_POLICIES = ("miss", "exclude")
MATCH_STAGES = ("exact", "inflection", "synonym", "idiom")

#: the paper's keyword classes (all of them)
DEFAULT_CLASSES: tuple[str, ...] = CLASSES


@dataclass(frozen=True)
class Config:
    """How ktr scores. Every field has a documented default; see README "Configuration"."""

    analyzer: str = "kiwi"
    """Morphological analyzer: kiwi, mecab, okt, komoran, hannanum, kkma."""
    classes: tuple[str, ...] = DEFAULT_CLASSES
    """Keyword classes that count."""
    lexicons: tuple[str, ...] = ("core",)
    """Lexicons by shipped name or path, stacked in order."""
    matching: tuple[str, ...] = ("exact", "inflection", "synonym", "idiom")
    """Matching stages, in cascade order: exact, inflection, synonym (WordNet), idiom."""
    idioms: tuple[str, ...] = ("idioms",)
    """Idiom lexicons (shipped names or paths), used when the idiom stage is on."""
    synonym_senses: int = 2
    """WordNet senses (synsets) per equivalent whose lemmas count as synonyms."""
    aggregation: str = "macro"
    """Headline corpus score: macro (mean of sentence scores, the paper) or micro."""
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
        _choice("aggregation", self.aggregation, AGGREGATIONS)
        _choice("no_keywords", self.no_keywords, NO_KEYWORD_POLICIES)
        _choice("missing_in_lexicon", self.missing_in_lexicon, MISSING_POLICIES)
        for c in self.classes:
            _choice("classes", c, CLASSES)
        if not self.classes:
            raise ConfigError("classes: at least one keyword class is needed")
        for s in self.matching:
            _choice("matching", s, MATCH_STAGES)
        if isinstance(self.synonym_senses, bool) or self.synonym_senses < 1:
            raise ConfigError(f"synonym_senses: must be a whole number of at least 1, got {self.synonym_senses!r}")
        if not self.lexicons:
            raise ConfigError("lexicons: at least one lexicon is needed")
        if isinstance(self.max_chars, bool) or self.max_chars < 100:
            raise ConfigError(f"max_chars: must be a whole number of at least 100, got {self.max_chars!r}")
        if self.timeout is not None and (isinstance(self.timeout, bool) or self.timeout < 0):
            raise ConfigError(f"timeout: must be 0 (no limit) or a number of seconds, got {self.timeout!r}")

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "config") -> "Config":
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: expected a mapping of options, got {type(data).__name__}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in fields:
                raise ConfigError(f"{where}: unknown key {key!r}; valid keys: {', '.join(fields)}")
            default = fields[key].default
            if isinstance(default, tuple):
                if isinstance(value, str):
                    value = [value]
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise ConfigError(f"{where}: {key} must be a list of strings")
                value = tuple(value)
            elif key == "timeout":
                if not isinstance(value, (int, float)) or isinstance(value, bool):
                    raise ConfigError(f"{where}: timeout must be a number of seconds, got {value!r}")
                value = float(value)
            elif not isinstance(value, type(default)):
                raise ConfigError(f"{where}: {key} must be a {type(default).__name__}, got {value!r}")
            kwargs[key] = value
        try:
            return cls(**kwargs)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None

    @classmethod
    def from_yaml(cls, path: str | Path) -> "Config":
        p = Path(path)
        try:
            data = yaml.safe_load(p.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read config: {exc.strerror}") from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = f":{mark.line + 1}" if mark is not None else ""
            raise ConfigError(f"{path}{line}: invalid YAML: {getattr(exc, 'problem', exc)}") from None
        return cls.from_dict(data or {}, where=str(path))

    def replace(self, **changes: Any) -> "Config":
        return dataclasses.replace(self, **changes)


def _choice(key: str, value: Any, valid: tuple[str, ...]) -> None:
    if value not in valid:
        raise ConfigError(f"{key}: {value!r} is not valid; choose one of: {', '.join(valid)}")
