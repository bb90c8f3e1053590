"""Which files the wheel carries (everything else about the package is in pyproject.toml).

Every package under engine/ and trainer/ is found, not listed, so a new one cannot be left out.
The notebooks (lessons/) and the puzzle files (puzzles/, with their index.json) stay at the top
of the checkout, and go into the wheel inside the package, as trainer/notebooks and
trainer/puzzle_files, where trainer.data_files looks for them.
"""

from setuptools import find_packages, setup

DATA_PACKAGES = {"trainer.notebooks": "lessons", "trainer.puzzle_files": "puzzles"}

setup(
    packages=[*find_packages(include=["engine", "engine.*", "trainer", "trainer.*"]), *DATA_PACKAGES],
    package_dir=DATA_PACKAGES,
    package_data={
        "trainer.table": ["table.js", "table.css"],
        "trainer.analysis": ["picker.js", "picker.css"],  # the analysis board's deck picker
        "trainer.rooms": ["static/*.html", "static/*.js", "static/*.css"],  # the room page
        "trainer.site_build": ["save_guard.js"],
        "trainer.puzzle_files": ["*.toml", "index.json", "ratings.json", "README.md"],
        "": ["calibration_map.json"],  # in any package: the fitted map, beside the module reading it
    },
    include_package_data=False,  # only what is named here, whatever else sits in the folders
)
