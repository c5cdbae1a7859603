"""The documents hold for the code: README and docs/ self-contained, every command and key
documented, the verdict rules written down, the engine never importing the UI."""
