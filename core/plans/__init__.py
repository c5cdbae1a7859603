"""Plans after they are made: what keeping only some changes would leave (`preview`), the
result as far as the changes were kept (`kept`), and planning again while another program
keeps the plan stale (`retry`); the operator's keep/reject decisions kept beside the journal
(`review_state`) and review rules (`review_rules`), a store's own files written through the
store contract; the review session that puts them together for every front end (`session`).
May import: `core` top-level modules, `core.notes`, `core.journal`,
`core.safeio`, `core.contract`.
"""
