"""A shard a killed worker was writing (``.part-*.jsonl.PID.tmp``) is removed when the run is
resumed (docs/input-handling.md, "Shard folders"): before, it survived kill -9 and every
``--resume`` after it. The shards and the manifest are left as they are."""

from __future__ import annotations

from ktr.execution.shards import MANIFEST, Manifest


def test_a_stale_temporary_shard_is_removed_on_resume(tmp_path):
    plan = {"lines": 10, "tasks": 2}
    Manifest(str(tmp_path), plan, resume=False).close()
    stale = tmp_path / ".part-00001.jsonl.4242.tmp"
    stale.write_bytes(b'{"first": 0')
    kept = tmp_path / "notes.tmp"
    kept.write_text("the user's")
    manifest = (tmp_path / MANIFEST).read_bytes()
    Manifest(str(tmp_path), plan, resume=True).close()
    assert not stale.exists() and kept.exists()
    assert (tmp_path / MANIFEST).read_bytes() == manifest
