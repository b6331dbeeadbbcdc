"""English derivational suffixes: the words one suffix away from a word, in a known vocabulary.

WordNet links some derived words to their base (*criticism* → *criticize*), but not most adverbs
(*silently* → *silent*), agent nouns (*researcher* → *research*) or many adjectives (*rainy* →
*rain*). This module undoes one suffix at a time, with English spelling rules (*creation* →
*create*, *happiness* → *happy*, *gently* → *gentle*, *basically* → *basic*, *runner* → *run*), and
keeps a base only when the vocabulary (WordNet's words) holds it. Two words are related when one
is the other's *ancestor* (at most :data:`STEPS` suffixes apart: *differ* → *different* →
*differently*), never as siblings: *information* and *informal* both come from *inform*, and are
not related to each other. Suffixes that change the meaning (*-less*, and the prefixes *un-*,
*in-*) are not undone.
"""

from __future__ import annotations

from collections.abc import Callable

#: derivational suffixes (longest first, so that -ation is tried before -ion), each with the part
#: of speech of the derived word and those its base may have (WordNet's n, v, a, r)
SUFFIXES = (
    ("ation", "n", "v"),
    ("ition", "n", "v"),
    ("ness", "n", "a"),
    ("ment", "n", "v"),
    ("ally", "r", "a"),
    ("ance", "n", "v"),
    ("ence", "n", "v"),
    ("ity", "n", "a"),
    ("ion", "n", "v"),
    ("ive", "a", "nv"),
    ("ous", "a", "n"),
    ("ful", "a", "n"),
    ("ism", "n", "na"),
    ("ist", "n", "na"),
    ("ize", "v", "na"),
    ("ise", "v", "na"),
    ("ant", "a", "v"),
    ("ent", "a", "v"),
    ("er", "n", "v"),
    ("or", "n", "v"),
    ("al", "a", "n"),
    ("ly", "r", "a"),
    ("ic", "a", "n"),
    ("y", "a", "n"),
)
#: the version of the derivation rules (these and :func:`participle`), in the signature and the
#: cache key: bump it when they change
RULES = 2
#: how many suffixes apart an ancestor may be
STEPS = 2
#: the shortest base undone to (shorter ones are mostly chance: "be" + "ing")
MIN_BASE = 4


def bases(word: str, vocabulary: dict[str, str]) -> list[str]:
    """The words of ``vocabulary`` (word → its parts of speech) that ``word`` is made of by one
    suffix whose parts of speech agree (in suffix order)."""
    out: list[str] = []
    for suffix, derived, base_pos in SUFFIXES:
        if not word.endswith(suffix) or derived not in vocabulary.get(word, ""):
            continue
        stem = word[: -len(suffix)]
        if len(stem) < MIN_BASE - 1:
            continue
        tries = [stem]
        if len(stem) >= MIN_BASE + 1:  # creation → create; not station → state
            tries.append(stem + "e")
        if stem.endswith("i"):
            tries.append(stem[:-1] + "y")  # happiness → happy, beautiful → beauty
        if len(stem) >= 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiouls":
            tries.append(stem[:-1])  # runner → run
        if suffix == "ly" and not stem.endswith("l"):
            tries.append(stem + "le")  # gently → gentle
        if suffix == "ally":
            tries.append(stem + "al")  # basically → basic (stem), musically → musical
        for base in tries:
            if (
                len(base) >= MIN_BASE
                and base != word
                and base not in out
                and not set(vocabulary.get(base, "")).isdisjoint(base_pos)
            ):
                out.append(base)
    return out


class Families:
    """The derivational ancestors and descendants of words, within a vocabulary."""

    def __init__(self, vocabulary: dict[str, str]):
        self.vocabulary = {w: pos for w, pos in vocabulary.items() if w.isalpha()}
        self.parents: dict[str, list[str]] = {}
        self.children: dict[str, list[str]] = {}
        for word in sorted(self.vocabulary):
            found = bases(word, self.vocabulary)
            if found:
                self.parents[word] = found
                for base in found:
                    self.children.setdefault(base, []).append(word)

    def _walk(self, word: str, step: dict[str, list[str]]) -> list[str]:
        out: list[str] = []
        layer = [word]
        for _ in range(STEPS):
            layer = [w for x in layer for w in step.get(x, ()) if w != word and w not in out]
            out += dict.fromkeys(layer)
        return out

    def related(self, word: str) -> list[str]:
        """``word``'s ancestors (nearest first) and then its descendants: every word at most
        :data:`STEPS` suffixes up or down, none a sibling."""
        word = word.lower()
        up = self._walk(word, self.parents)
        down = [w for w in self._walk(word, self.children) if w not in up]
        return up + down


def participle(phrase: str, morphy: Callable[[str, str], str | None]) -> tuple[str, ...]:
    """The content word of an equivalent written as "be/get/become + participle", and its verb:
    ``be banned`` → (banned, ban), so that "a banned drug" and "banning" match it too (``morphy``:
    WordNet's, word and part of speech → base or None). Nothing for other phrases (``be ready``:
    an adjective, already matched as the phrase is written)."""
    head, _, rest = phrase.lower().partition(" ")
    if head not in ("be", "get", "become") or not rest.isalpha():
        return ()
    base = morphy(rest, "v")
    return (rest, base) if base and base != rest else ()
