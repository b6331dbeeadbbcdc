#!/usr/bin/env python3
"""Install WordNet 3.0 for NLTK, for using a WordNet other than the one shipped with ktr.

    python scripts/setup_wordnet.py [--target DIR]

ktr needs none of this: it reads its own copy (``ktr/english/nltk_data/corpora/wordnet.zip``,
written by ``make_wordnet_zip.py`` from the same Debian files as step 3). ``KTR_WORDNET=FOLDER``
makes it read the folder this installs (printed at the end) instead.

1. If NLTK already finds WordNet, nothing is done.
2. Otherwise NLTK's downloader is tried (it needs network access to NLTK's data server).
3. Otherwise the Debian/Ubuntu packages ``wordnet-base`` and ``wordnet-sense-index`` are used: installed with apt-get when
   absent and this runs as root, then its files are *copied* (real files: NLTK ≥ 3.10 refuses
   symlinks out of its data path and hardlinked files) into ``DIR/corpora/wordnet``, with the
   ``lexnames`` file the package lacks written from the lexicographer-file list of lexnames(5WN).

DIR defaults to ``<sys.prefix>/nltk_data``, which is on NLTK's search path for this Python.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

DEBIAN_DIR = Path("/usr/share/wordnet")
FILES = (
    [f"{kind}.{pos}" for kind in ("data", "index") for pos in ("noun", "verb", "adj", "adv")]
    + [f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv")]
    + ["cntlist.rev", "index.sense"]
)
PACKAGES = ["wordnet-base", "wordnet-sense-index"]
# lexicographer files of WordNet 3.0: number, name, syntactic category (lexnames(5WN))
LEXNAMES = """adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute
noun.body noun.cognition noun.communication noun.event noun.feeling noun.food noun.group
noun.location noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession
noun.process noun.quantity noun.relation noun.shape noun.state noun.substance noun.time
verb.body verb.change verb.cognition verb.communication verb.competition verb.consumption
verb.contact verb.creation verb.emotion verb.motion verb.perception verb.possession verb.social
verb.stative verb.weather adj.ppl""".split()
CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


def wordnet_found() -> str | None:
    """Where NLTK finds a complete WordNet (a folder missing a file NLTK opens does not count)."""
    import nltk

    try:
        return str(nltk.data.find("corpora/wordnet.zip"))
    except LookupError:
        pass
    try:
        found = Path(str(nltk.data.find("corpora/wordnet")))
    except LookupError:
        return None
    needed = [n for n in FILES if n != "cntlist.rev"] + ["lexnames"]
    return str(found) if all((found / n).is_file() for n in needed) else None


def try_download(target: Path) -> bool:
    import nltk

    try:
        return bool(nltk.download("wordnet", download_dir=str(target), quiet=True, raise_on_error=False))
    except Exception:  # the downloader raises assorted network errors
        return False


def _debian_files_present() -> bool:
    return all((DEBIAN_DIR / name).is_file() for name in FILES)


def ensure_debian_packages() -> bool:
    """Install wordnet-base and wordnet-sense-index with apt-get if needed (root only)."""
    if _debian_files_present():
        return True
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", *PACKAGES]
    if subprocess.run(install, env=env, stdout=subprocess.DEVNULL).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL)
        subprocess.run(install, env=env, stdout=subprocess.DEVNULL)
    return _debian_files_present()


def copy_debian(target: Path) -> Path:
    dest = target / "corpora" / "wordnet"
    dest.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copyfile(DEBIAN_DIR / name, dest / name)  # a real copy, never a link
    with open(dest / "lexnames", "w", encoding="ascii") as fh:
        for i, name in enumerate(LEXNAMES):
            fh.write(f"{i:02d}\t{name}\t{CATEGORY[name.split('.')[0]]}\n")
    return dest


def main() -> int:
    parser = argparse.ArgumentParser(description="Install WordNet 3.0 for NLTK.")
    parser.add_argument("--target", type=Path, default=Path(sys.prefix) / "nltk_data")
    args = parser.parse_args()
    found = wordnet_found()
    if found:
        print(f"WordNet already available: {found} (KTR_WORDNET={found} makes ktr read it)")
        return 0
    if try_download(args.target) and wordnet_found():
        print(f"WordNet downloaded by NLTK into {args.target} (KTR_WORDNET={wordnet_found()} makes ktr read it)")
        return 0
    if not ensure_debian_packages():
        print(
            "setup_wordnet: NLTK's downloader failed and the Debian packages "
            f"{' '.join(PACKAGES)} are not installed (apt-get install them as root, then run this again)",
            file=sys.stderr,
        )
        return 1
    dest = copy_debian(args.target)
    from nltk.corpus import wordnet as wn

    wn.ensure_loaded()
    print(f"WordNet {wn.get_version()} copied from {DEBIAN_DIR} into {dest} (KTR_WORDNET={dest} makes ktr read it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
