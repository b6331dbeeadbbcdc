"""What every command shares: exit codes and the config from ``-c`` and ``-a``."""
from __future__ import annotations

import argparse

from ktr.config import Config

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
EXIT_FAILED_LINES = 3  # the run finished, but the analyzer failed on some lines (not scored)


def config_from(args: argparse.Namespace) -> Config:
    config = Config.from_yaml(args.config) if args.config else Config()
    if getattr(args, "analyzer", None):
        config = config.replace(analyzer=args.analyzer)
    if getattr(args, "headline", None):
        config = config.replace(headline=args.headline)
    return config
