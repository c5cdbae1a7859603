"""The Nuggets memory engine: the reflection pass, plans, apply, unhide, undo, promotion.

Pure Python; it never imports a user interface. Importing `core` loads nothing else: front ends
open a memory's store through `core.stores.registry` and talk to it through
`core.stores.base.Store` (docs/ARCHITECTURE.md).
"""
