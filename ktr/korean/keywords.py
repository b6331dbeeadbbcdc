"""Morphemes → keywords, using the per-tagset class tables in ``configs/tagsets/``.

A keyword is a content morpheme (the paper's classes: determiners, nouns incl. bound nouns,
numerals, pronouns, proper nouns, verbs, adjectives, adverbs, and digit strings). Which tags
belong to which class is data; which classes count is an option.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property
from sys import intern
from typing import NamedTuple

import yaml

from ktr.errors import ConfigError
from ktr.korean.analyzers.base import Morpheme
from ktr.resources import configs_dir

#: every keyword class, in the order reports list them
CLASSES: tuple[str, ...] = (
    "noun",
    "proper_noun",
    "bound_noun",
    "pronoun",
    "numeral",
    "digits",
    "verb",
    "adjective",
    "adverb",
    "determiner",
)
#: the classes of predicates, whose lemma is the dictionary form in -다 (먹다, 크다)
PREDICATE_CLASSES = frozenset({"verb", "adjective"})
_DIGITS = re.compile(r"[0-9][0-9,.]*")
# a keyword has a letter or digit that is not a bare jamo: Hannanum tags emoji, ★ and ㅋㅋㅋ as
# nouns and Komoran tags !!! as a proper noun; none of them is a content word
_CONTENT = re.compile(r"[^\W_\u3131-\u318e\u1100-\u11ff]")


class Keyword(NamedTuple):
    """A keyword of a source sentence: dictionary form, analyzer tag, class, source span."""

    lemma: str
    tag: str
    cls: str
    start: int
    end: int
    base: str | None = None  # the noun before a joined suffix (손 of 손님), tried if lemma has no entry


@dataclass(frozen=True)
class TagTable:
    name: str
    tag_class: dict[str, str]
    roots: dict[str, dict[str, str]]
    suffix_tags: frozenset[str]
    suffix_forms: frozenset[str]

    @cached_property
    def wanted(self) -> dict[str, tuple[str | None, dict[str, str] | None]]:
        """Tag -> (its keyword class, the classes it forms with a following tag) of every tag
        that can start a keyword."""
        return {
            tag: (self.tag_class.get(tag), self.roots.get(tag) or None)
            for tag in {*self.tag_class, *(t for t, r in self.roots.items() if r)}
        }

    def class_of(self, tag: str) -> str | None:
        return self.tag_class.get(tag)


@cache
def load_tagset(name: str) -> TagTable:
    """Load ``configs/tagsets/NAME.yaml``."""
    path = configs_dir() / "tagsets" / f"{name}.yaml"
    if not path.is_file():
        raise ConfigError(f"no tag table for tagset {name!r} (looked for {path})")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    tag_class: dict[str, str] = {}
    for cls, tags in data["classes"].items():
        if cls not in CLASSES:
            raise ConfigError(f"{path}: unknown keyword class {cls!r}; valid: {', '.join(CLASSES)}")
        for tag in tags:
            tag_class[tag] = cls
    suffixes = data.get("noun_suffixes") or {}
    return TagTable(
        name=data["name"],
        tag_class=tag_class,
        roots=data.get("roots") or {},
        suffix_tags=frozenset(suffixes.get("tags", ())),
        suffix_forms=frozenset(suffixes.get("forms", ())),
    )


_NOUNISH = {"noun", "proper_noun"}


def extract(morphemes: list[Morpheme], table: TagTable, classes: frozenset[str] | set[str]) -> list[Keyword]:
    """The keywords of one analysed sentence, in source order."""
    out: list[Keyword] = []
    wanted = table.wanted
    i, n = 0, len(morphemes)
    while i < n:
        m = morphemes[i]
        i += 1
        rule = wanted.get(m.tag)
        if rule is None:  # particles, endings, punctuation: most morphemes
            continue
        cls, derived = rule
        nxt = morphemes[i] if i < n else None
        lemma, end, base = m.lemma, m.end, None
        if derived and nxt is not None and nxt.tag in derived:
            cls, lemma, end = derived[nxt.tag], m.form + nxt.form + "다", nxt.end
            i += 1
        elif cls in _NOUNISH and nxt is not None and nxt.tag in table.suffix_tags and nxt.form in table.suffix_forms:
            lemma, end, base = m.lemma + nxt.form, nxt.end, m.lemma
            i += 1
        if cls is not None:
            if cls == "digits" or cls == "numeral":
                digits = _DIGITS.search(m.form)
                if cls == "digits" or (digits is not None and digits.group() == m.form):
                    cls = "digits"
                    lemma = digits.group().replace(",", "") if digits else m.form
            if cls in classes and _CONTENT.search(lemma):
                # interned: the same words recur on many lines, whose results are all kept
                out.append(Keyword(intern(lemma), intern(m.tag), cls, m.start, end, base))
    return out


#: the particles that mark a noun as the topic or the subject of its clause
SUBJECT_PARTICLES = ("은", "는", "이", "가")
#: the plural suffix, before such a particle (학생들이)
PLURAL = "들"


def subject_mark(text: str, keyword: Keyword) -> str:
    """How the particle right after ``keyword`` (a noun or a name; ``text``: the line its offsets
    are in) marks it: "subject" where it is the topic or subject of its clause (남편은, 회사가),
    "plural" where the plural suffix comes first (학생들이), else "" (a pronoun or another class
    is never marked)."""
    if keyword.cls not in _NOUNISH:
        return ""
    after = text[keyword.end : keyword.end + 2]
    if after[:1] in SUBJECT_PARTICLES:
        return "subject"
    if after[:1] == PLURAL and after[1:2] in SUBJECT_PARTICLES:
        return "plural"
    return ""
