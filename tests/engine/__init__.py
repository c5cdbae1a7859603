"""The engine (`core/`): text rules, the reflection pass rule by rule, plans and apply, undo and
unhide, promotion, contradictions, decisions and verdicts, browsing helpers."""
