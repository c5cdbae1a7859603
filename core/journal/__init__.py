"""What we wrote and how to take it back: the one `Journal` every store writes through, over
the store's small `Target` (`journal`: commit, recover, log, run, undo, blockers, write_file,
lock), the journal's files (`entries`), which run an undo restores next (`history`), the guarded
write of one file only over the version a plan was made from, settled after a kill
(`guarded_write`), the files a store may name (`own_files`) and the run log every writing
command appends to (`run_log`). May import: `core` top-level modules, `core.notes`,
`core.safeio`.
"""
