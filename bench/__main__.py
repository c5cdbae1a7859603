"""`python -m bench`: run the benchmark suite and write bench/RESULTS.md (see bench/run.py)."""

from bench.run import main

main()
