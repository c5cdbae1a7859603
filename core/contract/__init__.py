"""The contract between the stores and everything else: what a front end or an engine service
may ask of a memory system's store, and nothing more (docs/ARCHITECTURE.md, "The store
contract").

`store` holds the `Store` protocol (a small set of required members) and `Opened`; `parts` the
parts a store offers, required (`Journal`, `ByHand`) or optional (`Promoter`, `Restorer`,
`VersionKeeper`, `SideFiles`, `Decider`, `AftermathTeller`: `None` when the store has none);
`capabilities` the typed switches (`Capabilities`); `profile` the labels, columns and capabilities
a system shows with (`Profile`, `NoteColumn`); `topics` how its notes group into contradictions
(`TopicRules`, `Group`); `kind` how the command line offers it (`StoreKind`, `KindOption`);
`absent` what the front ends say when a part is absent.
May import: `core` top-level modules, `core.notes`, `core.journal`, `core.promotion`,
`core.safeio`. The engine services above it (`core.plans`, `core.review`) type against it; a
store (`core.stores.<system>`) implements it.
"""
