"""The benchmark suite (`bench/`): the generator's memories and the MicroClaw benchmarks run."""
