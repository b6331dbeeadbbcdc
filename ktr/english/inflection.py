"""English inflection for matching: ``waiting``/``waited`` → wait, ``went`` → go, ``children`` → child.

Instead of lemmatising every output token, ktr generates the inflected forms of the words that
can matter — the words of the lexicon's equivalents and synonyms — once, and caches the table
(inflected form → base words). Regular forms are generated only for the parts of speech a word
has in WordNet (so *new* gets *newer* but never *news*); irregular forms come from WordNet's
exception lists (``verb.exc``, ``noun.exc``, ``adj.exc``) read in reverse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ktr.cache import cached_json
from ktr.english import wordnet

VERSION = 2
_VOWELS = set("aeiou")


def _doubles(word: str) -> bool:
    """Short consonant-vowel-consonant words double their last letter: stop → stopped, big → bigger."""
    return (
        len(word) >= 3
        and word[-1] not in _VOWELS | set("wxy")
        and word[-2] in _VOWELS
        and word[-3] not in _VOWELS
        and len(word) <= 5
    )


def _s_form(word: str) -> str:
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return word[:-1] + "ies"
    return word + "s"


def noun_forms(word: str) -> set[str]:
    forms = {_s_form(word)}
    if word.endswith("man"):  # woman → women, chairman → chairmen (WordNet's morphy rule,
        forms.add(word[:-3] + "men")  # not in noun.exc); human → humans stays as well
    if word.endswith("f"):
        forms.add(word[:-1] + "ves")
    elif word.endswith("fe"):
        forms.add(word[:-2] + "ves")
    return forms


def verb_forms(word: str) -> set[str]:
    forms = {_s_form(word)}
    if word.endswith("e"):
        forms |= {word + "d", word[:-1] + "ing"}
        if word.endswith("ie"):
            forms.add(word[:-2] + "ying")
    elif word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        forms |= {word[:-1] + "ied", word + "ing"}
    else:
        forms |= {word + "ed", word + "ing"}
        if _doubles(word):
            forms |= {word + word[-1] + "ed", word + word[-1] + "ing"}
    return forms


def adjective_forms(word: str) -> set[str]:
    if word.endswith("e"):
        return {word + "r", word + "st"}
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return {word[:-1] + "ier", word[:-1] + "iest"}
    forms = {word + "er", word + "est"}
    if _doubles(word):
        forms |= {word + word[-1] + "er", word + word[-1] + "est"}
    return forms


_GENERATORS = {"noun": noun_forms, "verb": verb_forms, "adj": adjective_forms}


def _read_words(name: str) -> Iterable[str]:
    with wordnet.open_text(name) as fh:
        for line in fh:
            if not line.startswith(" "):
                yield line.split(" ", 1)[0]


def build(words: Iterable[str]) -> dict[str, list[str]]:
    """Inflected form → base words, for the given base words."""
    words = {w for w in words if w.isalpha()}
    index = {pos: {w for w in _read_words(f"index.{pos}") if w in words} for pos in _GENERATORS}
    table: dict[str, set[str]] = {}
    for pos, members in index.items():
        for word in members:
            for form in _GENERATORS[pos](word):
                if form != word:
                    table.setdefault(form, set()).add(word)
        with wordnet.open_text(f"{pos}.exc") as exceptions:
            for line in exceptions:
                parts = line.split()
                if len(parts) >= 2:
                    inflected, bases = parts[0], parts[1:]
                    for base in bases:
                        if base in words and inflected != base and "_" not in inflected:
                            table.setdefault(inflected, set()).add(base)
    return {form: sorted(bases) for form, bases in table.items()}


def table_for(words: Callable[[], Iterable[str]], key: str) -> dict[str, tuple[str, ...]]:
    """The table for the words ``words()`` gives (called only when the table is not cached yet),
    cached on disk under ``key`` (which must identify those words) and WordNet's fingerprint."""
    table = cached_json("inflection", f"{VERSION}|{key}|{wordnet.fingerprint()}", lambda: build(words()), _is_table)
    return {form: tuple(bases) for form, bases in table.items()}


def _is_table(value: object) -> bool:
    """Whether a table read back from the cache is one :func:`build` writes: form → its bases.
    An empty one is computed again (in no time, if it is empty), as a table emptied by hand or
    by accident would change scores unnoticed."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(bases, list) and all(isinstance(base, str) for base in bases) for bases in value.values())
    )
