"""Pausing the cyclic garbage collector around bulk work.

Reading 100k notes or planning over them allocates millions of objects and no reference cycles;
with the collector on, every few thousand allocations it walks all live objects again, which
more than doubles the time of `json.loads` on a large graph. Reference counting still frees
everything as usual while it is paused.

Turning it back on would make the next young-generation collection walk every object the block
made (most of a second at 100k notes), so on the way out those objects go straight to the oldest
generation (freeze, then unfreeze: two list splices), where the next full collection sees them as
it would have anyway. Skipped when someone froze objects on purpose, so we never thaw theirs.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Turn the collector off for the block; on again after it only if it was on before."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if was_enabled:
            gc.enable()
