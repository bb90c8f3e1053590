"""The wheel carries the whole app: every package, the table's JS and CSS, the notebooks and the
puzzle files, and the `hearts-trainer` command (scripts/wheel-smoke.sh then installs and runs it)."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_wheel.py"), str(out)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with zipfile.ZipFile(built) as archive:
        yield archive


def test_every_package_of_the_checkout_is_in_the_wheel(wheel) -> None:
    packages = sorted(
        init.relative_to(ROOT).as_posix()
        for top in ("engine", "trainer")
        for init in (ROOT / top).rglob("__init__.py")
    )
    assert len(packages) >= 8
    missing = set(packages) - set(wheel.namelist())
    assert not missing


def test_the_data_files_the_engine_reads_beside_its_modules_are_in_the_wheel(wheel) -> None:
    data = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "engine").rglob("*.json"))
    assert any(name.endswith("calibration_map.json") for name in data)  # the forecast's map
    assert not set(data) - set(wheel.namelist())


def test_the_table_notebooks_and_puzzles_travel_inside_the_package(wheel) -> None:
    names = set(wheel.namelist())
    assert {"trainer/table/table.js", "trainer/table/table.css"} <= names
    room_page = {f"trainer/rooms/static/{path.name}" for path in (ROOT / "trainer/rooms/static").iterdir()}
    assert "trainer/rooms/static/room.js" in room_page and room_page <= names  # play with friends
    notebooks = {f"trainer/notebooks/{path.name}" for path in (ROOT / "lessons").glob("*.py")}
    assert "trainer/notebooks/index.py" in notebooks and notebooks <= names
    puzzles = {f"trainer/puzzle_files/{path.name}" for path in (ROOT / "puzzles").glob("*.toml")}
    assert len(puzzles) >= 10 and puzzles <= names
    assert "trainer/puzzle_files/index.json" in names  # the page lists the puzzles from it
    assert "trainer/puzzle_files/ratings.json" in names  # where each puzzle's rating starts


def test_nothing_but_the_two_packages_lands_in_site_packages(wheel) -> None:
    tops = {name.split("/")[0] for name in wheel.namelist()}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"engine", "trainer"}


def test_the_wheel_installs_the_hearts_trainer_command(wheel) -> None:
    (listed,) = [name for name in wheel.namelist() if name.endswith(".dist-info/entry_points.txt")]
    entry_points = wheel.read(listed).decode()
    assert "hearts-trainer = trainer.cli:main" in entry_points
