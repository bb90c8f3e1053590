"""Serve Hearts Trainer: the home page at `/`, the lesson page, puzzles and review beside it.

`marimo run lessons/` would put marimo's own file gallery at `/` and a "Back" link to it on every
page; mounting each notebook at its own address (`trainer.site.PAGES`) leaves neither, so the only
way home is the Hearts home page.

    python -m trainer.serve --port 2718
"""

from __future__ import annotations

import argparse

import marimo
import uvicorn

from trainer.data_files import LESSONS_DIR
from trainer.site import PAGES


def build_app():
    builder = marimo.create_asgi_app(quiet=True)
    for address, notebook in PAGES.items():
        mount = address.rstrip("/") or "/"  # marimo redirects /lesson to /lesson/
        builder = builder.with_app(path=mount, root=str(LESSONS_DIR / notebook))
    return builder.build()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=2718)
    args = parser.parse_args(argv)
    uvicorn.run(build_app(), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
