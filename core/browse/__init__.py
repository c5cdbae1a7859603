"""Walking a memory in a front end: the shelf of nuggets and notes (`shelf`), the link graph
(`link_graph`), the orders the notes table sorts by (`sort_orders`) and the overview figures
(`overview_stats`). May import: `core` top-level modules, `core.notes`, `core.promotion`.
"""
