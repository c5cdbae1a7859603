"""What we wrote and how to take it back: the journal of applied runs (`entries`), which run
an undo restores next (`history`), the journaled write of one file only over the version a plan
was made from, settled after a kill (`guarded_write`), the run log every writing command
appends to (`run_log`), and a store's journal as the store contract offers it
(`store_journal`). May import: `core` top-level modules, `core.notes`, `core.safeio`.
"""
