"""The reflection pass: from a snapshot to the operations of a plan, without writing anything.

`reflect` runs the phases in order over one `pass_state`: `select_phase` (which notes and the
limit rules), `tidy_phase` (low value, normalized content, derived tags), `merge_phase` with its
`merge_index`, `link_phase` with its `link_index`; `work_count` counts comparisons for the tests
that bound the pass's work. May import: `core` top-level modules and `core.notes`.
"""
