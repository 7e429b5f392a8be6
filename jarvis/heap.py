"""glibc heap settings for the long-running API process, so its resident memory stays flat.

Measured in one process under the soak mix of bench/load_soak.py (4,000 requests at concurrency 32
after a 1,000-request warm-up): with glibc's defaults the resident set grew from 528 to 562 MB, and
`malloc_trim` then gave back 72 MB, to below the post-warm-up level: memory freed but kept by the
allocator, not a leak. Two defaults cause it in a threaded server:

- every new thread (the API's worker threads, onnxruntime's, httpx's) gets a heap arena of its own,
  up to 8 per core, and freed memory stays in the arena it came from;
- the threshold above which a block is mmap-ed (and unmapped when freed) rises each time such a
  block is freed, so the embedder's and spaCy's large temporary buffers end up in those arenas.

With at most two arenas and a fixed 128 KiB threshold, the same measurement grew from 452 to 469 MB (the
same wall time; `malloc_trim` then gave back 8 MB).
An operator's own MALLOC_ARENA_MAX / MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ win: glibc has
applied them at start-up, and they are left alone here. A no-op where the C library is not glibc.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys

logger = logging.getLogger(__name__)

# mallopt parameters (glibc's malloc.h) and the environment variables that set the same at start-up.
_SETTINGS = (
    (-8, 2, "MALLOC_ARENA_MAX"),  # M_ARENA_MAX
    (-3, 128 * 1024, "MALLOC_MMAP_THRESHOLD_"),  # M_MMAP_THRESHOLD: fixed, no longer dynamic
    (-1, 128 * 1024, "MALLOC_TRIM_THRESHOLD_"),  # M_TRIM_THRESHOLD: give back free heap tops
)


def tune_heap() -> bool:
    """Apply the settings above to this process (call before it starts threads); True if applied."""
    if not sys.platform.startswith("linux"):
        return False
    process = ctypes.CDLL(None)  # the C library this process already runs on
    if not hasattr(process, "gnu_get_libc_version"):  # glibc only: musl's mallopt does nothing
        return False
    mallopt = process.mallopt
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    for parameter, value, variable in _SETTINGS:
        if variable not in os.environ and mallopt(parameter, value) != 1:
            logger.warning("mallopt(%d) was refused; heap left at glibc's default", parameter)
            return False
    return True
