"""Case 11: scoring from several threads gives exactly the serial results.

One Scorer shared by threads, or one Scorer per thread: same JSON as a serial run. The WordNet
tables (synonyms, inflections) are built when a Scorer is made, before any thread scores, so
the threads never load WordNet (whose lazy loader is not thread-safe). A ``--jobs N`` option is
left to the speed work; these are the guarantees it builds on.
"""

from concurrent.futures import ThreadPoolExecutor

import pytest

from ktr import Config, Scorer
from ktr.sample import SYSTEMS, paths
from ktr.textio import read_lines

THREADS = 4


@pytest.fixture(scope="module")
def corpus():
    p = paths()
    sources = read_lines(p["source"])
    systems = {name: read_lines(p[name]) for name in SYSTEMS}
    # more work per thread: every line twice, the second time with stray characters to clean
    sources = sources + [s.replace(" ", " \x00", 1) for s in sources]
    systems = {name: lines + lines for name, lines in systems.items()}
    return sources, systems


pytestmark = pytest.mark.filterwarnings("ignore::ktr.errors.InputWarning")


def run(scorer, corpus):
    return scorer.score(*corpus).to_dict(sentences=True)


def test_threads_sharing_one_scorer_give_the_serial_result(corpus, kiwi):
    scorer = Scorer(Config(), analyzer=kiwi)
    serial = run(scorer, corpus)
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda _: run(scorer, corpus), range(2 * THREADS)))
    assert all(r == serial for r in results)


@pytest.mark.slow  # a scorer built in each of 4 threads
def test_threads_with_their_own_scorers_give_the_serial_result(corpus, kiwi):
    serial = run(Scorer(Config(), analyzer=kiwi), corpus)
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda _: run(Scorer(Config()), corpus), range(THREADS)))
    assert all(r == serial for r in results)


def test_wordnet_tables_are_built_before_any_thread_scores(corpus, kiwi, monkeypatch):
    from ktr.english import inflection, wordnet
    from ktr.lexicon import expand

    scorer = Scorer(Config(), analyzer=kiwi)
    assert scorer.pipeline.tables["synonym"] and scorer.pipeline._inflections  # built by the constructor
    serial = run(scorer, corpus)

    def no_wordnet(*args, **kwargs):
        raise AssertionError("WordNet was read while scoring")

    for module, name in ((wordnet, "load"), (expand, "compute"), (inflection, "build")):
        monkeypatch.setattr(module, name, no_wordnet)
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda _: run(scorer, corpus), range(THREADS)))
    assert all(r == serial for r in results)
