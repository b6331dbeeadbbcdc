"""``ktr cache``: where ktr keeps what it builds once (the tables compiled from the lexicons and
WordNet, WordNet's index of relations, the semantic stage's vectors, ``ktr run``'s analyses), how
much it holds, and ``ktr cache clear`` to remove it."""

from __future__ import annotations

import argparse
import sys

from ktr.cli.common import EXIT_ERROR, EXIT_OK
from ktr.controls import shown


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "cache", help="where ktr's cache is and what it holds; clear: remove the files ktr wrote there"
    )
    p.add_argument(
        "action",
        nargs="?",
        choices=("show", "clear"),
        default="show",
        help="show: the folder, each kind's files and their size (default show); clear: remove those files",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ktr.cache import cache_dir, cache_files

    folder = cache_dir()
    files = cache_files(folder) if folder.is_dir() else {}
    if args.action == "clear":
        removed, size, failed = 0, 0, []
        for paths in files.values():
            for path in paths:
                try:
                    bytes_ = path.stat().st_size
                    path.unlink()
                except OSError as exc:
                    failed.append(f"{path} ({exc.strerror})")
                    continue
                removed, size = removed + 1, size + bytes_
        for sub in ("embeddings", "analyses"):
            try:
                (folder / sub).rmdir()  # only when empty
            except OSError:
                pass
        print(f"removed {removed} files ({_size(size)}) from {shown(str(folder))}")
        if failed:
            print(f"ktr: error: could not remove {len(failed)} files: {shown(failed[0])}", file=sys.stderr)
            return EXIT_ERROR
        return EXIT_OK
    total = sum(p.stat().st_size for paths in files.values() for p in paths)
    print(f"{shown(str(folder))}: {_size(total)}{'' if folder.is_dir() else ' (not made yet)'}")
    for kind, paths in files.items():
        if paths:
            print(f"  {kind:<26} {len(paths):>6} files  {_size(sum(p.stat().st_size for p in paths)):>9}")
    return EXIT_OK


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} bytes"
    value = n / 1024
    for unit in ("KB", "MB"):
        if value < 1024:
            return f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"
