"""MicroClaw: the bot's memories in SQLite (`runtime/microclaw.db`) and its AGENTS.md files,
reviewed with the engine's plan / apply / journal / undo model (see store.py)."""
