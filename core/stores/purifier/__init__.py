"""OpenClaw memory-purifier workspaces (docs/PURIFIER.md): the purifier's claims and candidates
read as notes, its runs and its silent failures; never written. Imports the engine and
the store contract (core/contract/) only."""
