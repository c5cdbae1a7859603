"""Claude Code's auto-memory directory (docs/CLAUDE_CODE.md): MEMORY.md's index and the topic
files read as notes, what the agent changed since the last review, and a record of every version
seen, kept outside the directory so that what the agent deletes can be brought back. Imports the
engine and the store contract (core/contract/) only."""
