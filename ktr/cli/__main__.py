"""``python -m ktr.cli``."""

import sys

from ktr.cli.main import main

sys.exit(main())
