"""The embeddings' store and the signature are keyed by what determines the vectors
(ktr/embeddings/identity.py; docs/matching.md): two models in two folders of one name never share
a store, a model retrained in place gets a new one, and the signature records which model scored.
Before, both were keyed by the spec alone: model B, named as model A (``model2vec:.../model`` in
another folder), scored 0.6397 with A's vectors instead of its own 0.6873, under one signature."""

from __future__ import annotations

from pathlib import Path

from ktr import KTR, Config
from ktr.embeddings.base import Cached, describe
from ktr.embeddings.identity import content_key, hub_revision
from ktr.embeddings.store import VectorStore
from tests.conftest import write


def model(folder: Path, weights: bytes) -> Path:
    write(folder / "config.json", '{"dim": 8}')
    (folder / "model.safetensors").write_bytes(weights)
    return folder


def store_of(spec: str) -> Path:
    return VectorStore.for_spec(Cached(spec, lambda: None).key).path


def test_two_models_of_one_name_have_two_stores(tmp_path, monkeypatch):
    monkeypatch.setenv("KTR_CACHE_DIR", str(tmp_path / "cache"))
    a = model(tmp_path / "a" / "model", b"\x01" * 64)
    b = model(tmp_path / "b" / "model", b"\x02" * 64)
    spec_a, spec_b = f"model2vec:{a}", f"model2vec:{b}"
    assert describe(spec_a) == describe(spec_b)  # the name the signature had: the same
    assert Cached(spec_a, lambda: None).key != Cached(spec_b, lambda: None).key
    assert store_of(spec_a) != store_of(spec_b)


def test_a_model_retrained_in_place_has_a_new_key(tmp_path):
    folder = model(tmp_path / "model", b"\x01" * 64)
    spec = f"model2vec:{folder}"
    before = content_key(spec, describe(spec))
    assert content_key(spec, describe(spec)) == before  # read twice: the same
    (folder / "model.safetensors").write_bytes(b"\x03" * 64)
    assert content_key(spec, describe(spec)) != before
    assert before.startswith(describe(spec) + "#") and len(before) == len(describe(spec)) + 13


def test_a_hub_model_is_keyed_by_its_cached_revision(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    assert hub_revision("org/name") == "rev-unknown"
    write(tmp_path / "models--org--name" / "refs" / "main", "0123456789abcdef0123\n")
    assert hub_revision("org/name") == "0123456789abcdef0123"
    assert content_key("model2vec:org/name", "model2vec@1.0:name") == "model2vec@1.0:name@0123456789ab"


def test_the_shipped_model_keeps_its_signature(kiwi):
    """The default embedder's key is its package's version, as the signature always said."""
    signature = KTR(Config(), analyzer=kiwi).signature().short()
    assert f"|sem:{describe('use')}/t0.7/v5|" in signature
