"""Helping a person decide: contradictions among notes (`contradictions`, by `topics`, when two
statements form a minimal pair: `minimal_pairs`), the
operator's decision on one as a plan (`decisions`), the notes an open group holds back from
promotion (`queue`), and scored verdicts per note (`verdicts`) from
the default scorer (`default_scorer`) or a model the operator names (`model_scorer`); the
review service every front end calls for verdicts, contradictions and settling (`service`).
May import: `core` top-level modules, `core.notes`, `core.reflection`, `core.promotion`,
`core.journal`, `core.safeio`, `core.contract` (a store, as the contract types it).
"""
