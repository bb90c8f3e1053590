"""``python -m trainer.puzzles check [FILES]``: see ``trainer.puzzles.check``."""

import sys

from .check import main

sys.exit(main())
