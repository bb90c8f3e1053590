"""``python -m trainer.puzzles check [FILES]`` and ``index [FOLDER]``: see ``trainer.puzzles.commands``."""

import sys

from .commands import main

sys.exit(main())
