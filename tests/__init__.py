"""The test suite, one folder per layer: engine/, stores/, console/, cli/, reliability/, docs/,
bench/; support/ holds the shared builders and helpers (imported as `tests.support.<module>`),
fixtures/ the files made by the agent's own code, conftest.py the shared fixtures."""
