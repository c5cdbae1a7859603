"""The Nuggets store: an agent home with `graph/graph.json`, fact files and MEMORY.md.

`store` is the store the front ends open; `graph_file` reads and writes the graph file;
`first_notes` reads its head before the whole file; `fact_files` mirrors changes to fact notes in
the agent's `<name>.donna.json`; `home` finds the home; `demo` writes the demo memory;
`entry_points` runs the pass or promotion in one call.
May import: any engine package. Never another store or a front end.
"""
