"""``python -m trainer.puzzles check [FILES]``, ``index [FOLDER]`` or ``themes [FOLDER]``: see
``trainer.puzzles.commands``."""

import sys

from .commands import main

sys.exit(main())
