"""Promotion of durable notes to a file the agent always loads: which notes qualify and
where they go (`candidates`), the file as sections and entries edited in place (`memory_md`), and
the screens that hold back what must never reach an agent's prompt (`screening`, and for
secrets `secret_screen` with its `secret_*` helpers).
May import: `core` top-level modules, `core.notes`, `core.safeio`.
"""
