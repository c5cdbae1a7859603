"""The notes every store hands the engine, and their serialised form.

A note is a raw dict in the agent's own shape: `fields` reads it with the defaults and with the
metadata the agent infers (`inferred_metadata`, `js_strings`). `snapshot` holds one consistent
read (`Graph`), the fingerprint that tells it changed, and the JSON bytes every file of ours is
written in (`json_writer`, `json_numbers`). `working_set` replays operations copy-on-write;
`diff` says what changed in one note; `text` holds the token and similarity rules, `similar`
the sets of words that overlap enough, found without comparing every pair; `checks` validates
a document; `vectors` and `agent_normalize` mirror what the agent stores and rewrites.
May import: `core` top-level modules and `core.safeio`. Never a store, the pass or a front end.
"""
