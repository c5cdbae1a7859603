"""The memory systems the engine reviews, each behind one interface (see base.py)."""
