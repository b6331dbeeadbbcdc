"""``python -m ktr``: the ``ktr`` command."""

import sys

from ktr.cli.main import main

sys.exit(main())
