#!/usr/bin/env python3
"""Write the WordNet 3.0 that ships inside ktr: ``ktr/english/nltk_data/corpora/wordnet.zip``.

    python scripts/make_wordnet_zip.py [--source DIR] [--output ZIP]

The zip has NLTK's own layout (``wordnet/data.noun`` ..., ``wordnet/LICENSE``), so NLTK reads it
as it reads the ``wordnet.zip`` of its downloader. Its files are those ``setup_wordnet.py``
installs: Debian's ``wordnet-base`` and ``wordnet-sense-index`` (installed with apt-get when absent
and run as root), with the ``lexnames`` file written from lexnames(5WN), and WordNet's licence
(``ktr/english/nltk_data/LICENSE-WordNet``). The same files give the same zip, byte for byte
(fixed dates, fixed order), so a rebuilt zip shows in ``git status`` only when WordNet changed.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

from setup_wordnet import CATEGORY, DEBIAN_DIR, FILES, LEXNAMES, PACKAGES, ensure_debian_packages

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "ktr" / "english" / "nltk_data"
DATE = (2006, 12, 6, 0, 0, 0)  # WordNet 3.0's release


def lexnames() -> bytes:
    return "".join(f"{i:02d}\t{name}\t{CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES)).encode(
        "ascii"
    )


def members(source: Path) -> dict[str, bytes]:
    files = {name: (source / name).read_bytes() for name in FILES}
    files["lexnames"] = lexnames()
    files["LICENSE"] = (DATA / "LICENSE-WordNet").read_bytes()
    return dict(sorted(files.items()))


def write(output: Path, files: dict[str, bytes]) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(output, "w") as archive:
        folder = zipfile.ZipInfo("wordnet/", DATE)
        folder.external_attr = 0o40755 << 16
        archive.writestr(folder, b"")
        for name, data in files.items():
            info = zipfile.ZipInfo(f"wordnet/{name}", DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data, compresslevel=9)


def main() -> int:
    parser = argparse.ArgumentParser(description="Write the WordNet zip shipped inside ktr.")
    parser.add_argument("--source", type=Path, default=DEBIAN_DIR, help="a WordNet 3.0 dict folder (default: Debian's)")
    parser.add_argument("--output", type=Path, default=DATA / "corpora" / "wordnet.zip")
    args = parser.parse_args()
    if args.source == DEBIAN_DIR and not ensure_debian_packages():
        print(
            f"make_wordnet_zip: the Debian packages {' '.join(PACKAGES)} are not installed "
            "(apt-get install them as root, then run this again)",
            file=sys.stderr,
        )
        return 1
    write(args.output, members(args.source))
    print(f"{args.output}: {args.output.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
