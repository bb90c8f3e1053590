"""The maintainer's measuring tools (README.md, Benchmarks): each one a script with ``--help``,
run from the repository's root as ``python -m benchmarks.NAME``; a package, so one tool can use
another's code and the tests can import them without touching ``sys.path``."""
