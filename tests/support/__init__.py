"""Builders and helpers shared by the tests (no tests here): hand-built notes and homes, MicroClaw
rows, hostile memories, the injection corpus, driving the console, counting reliability figures.
Always imported as `from tests.support.<module> import ...`."""
