"""Keep freed memory in the process, so each chunk reuses the last chunk's pages instead of faulting in new ones.

A chunk of 16,384 deals allocates a few MB of temporary arrays and frees them when it is done.
glibc's malloc may hand that memory back to the kernel (heap trimming, mmap threshold); then the
next chunk takes a page fault for every 4 KiB it touches. Measured on 4 x 10 deals: about 1,000
faults a chunk on the main thread once worker threads have run, 13% of its time, which made the
thread-scaling figures depend on the order of the runs. Raising both thresholds keeps the memory
for reuse; the peak is unchanged, since the chunks in flight are bounded. Other C libraries: no-op.
"""

import ctypes
import ctypes.util
from functools import cache

M_TRIM_THRESHOLD = -1  # glibc <malloc.h>: keep this much free memory at the top of the heap
M_MMAP_THRESHOLD = -3  # glibc <malloc.h>: serve blocks smaller than this from the heap, not mmap
KEEP = 32 << 20  # bytes; glibc's largest mmap threshold on 64-bit machines


@cache
def keep_freed_memory() -> bool:
    """Ask glibc to keep freed blocks for reuse (once per process); False where malloc has no such knobs."""
    name = ctypes.util.find_library("c")
    mallopt = getattr(ctypes.CDLL(name), "mallopt", None) if name else None
    if mallopt is None:
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, KEEP)) and bool(mallopt(M_TRIM_THRESHOLD, 2 * KEEP))
