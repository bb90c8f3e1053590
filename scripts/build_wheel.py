"""Build Hearts Trainer's wheel from the checkout's own files: `python scripts/build_wheel.py OUT`
prints the wheel's path.

The files git knows (tracked, or new and not ignored) are copied to a temporary folder and built
there, so nothing lying around the checkout (build/, caches, a stale egg-info) can slip into the
wheel, and the checkout gets no build folders.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def source_files() -> list[pathlib.Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    return [pathlib.Path(name) for name in listed.split("\0") if name and (ROOT / name).is_file()]


def build_wheel(out: pathlib.Path) -> pathlib.Path:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hearts-trainer-src-") as folder:
        source = pathlib.Path(folder)
        for name in source_files():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
        before = set(out.glob("*.whl"))
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "--quiet",
                "--wheel-dir",
                str(out),
                str(source),
            ],
            check=True,
        )
    (wheel,) = set(out.glob("*.whl")) - before or set(out.glob("hearts_trainer-*.whl"))
    return wheel


if __name__ == "__main__":
    print(build_wheel(pathlib.Path(sys.argv[1]).resolve()))
