"""``python -m trainer.puzzles check [FILES]``, ``index [FOLDER]``, ``themes [FOLDER]`` or
``migrate [FOLDER]``: see
``trainer.puzzles.commands``."""

import sys

from .commands import main

sys.exit(main())
