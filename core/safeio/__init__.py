"""Reading and writing files without surprises, and showing their text without escapes.

`open_regular` opens only regular files of bounded size, without blocking; `json_read` is the
one way JSON is parsed, its nesting bounded before the parser runs; `atomic_write`
replaces a file through a synced temp file; `file_stamp` notices a replaced file; `shown_text`
reads a file to show it; `inert_text` turns untrusted text into inert text for a terminal;
`crashpoints` is the test hook that kills a write at a chosen step. May import: `core.errors`.
"""
