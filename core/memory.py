"""The front door: the store of the memory system a front end opens.

Every front end (the console, the command line, a cron job) goes through a `Store`
(core/stores/base.py); `Memory` is the Nuggets store under the name it has always had.
"""

from __future__ import annotations

from .stores.nuggets import NuggetsStore, result_of

Memory = NuggetsStore

__all__ = ["Memory", "NuggetsStore", "result_of"]
