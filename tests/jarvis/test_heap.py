"""jarvis.heap: at most two glibc heap arenas however many threads allocate, unless the operator says otherwise."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# A fresh process: 12 threads each malloc through ctypes (which releases the GIL), all alive at
# once; then glibc's own report (malloc_info, XML) says how many heaps (arenas) exist.
PROBE = """
import ctypes, sys, tempfile, threading
from jarvis.heap import tune_heap
applied = tune_heap() if sys.argv[1] == "tune" else None
libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.fopen.restype, libc.fopen.argtypes = ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_char_p]
libc.malloc_info.argtypes, libc.fclose.argtypes = [ctypes.c_int, ctypes.c_void_p], [ctypes.c_void_p]
barrier = threading.Barrier(13)
def work():
    for _ in range(50):
        libc.malloc(4096)
    barrier.wait()  # every thread has its arena before anyone counts
    barrier.wait()
threads = [threading.Thread(target=work) for _ in range(12)]
for t in threads: t.start()
barrier.wait()
with tempfile.NamedTemporaryFile() as report:
    fp = libc.fopen(report.name.encode(), b"w")
    libc.malloc_info(0, fp)
    libc.fclose(fp)
    heaps = open(report.name).read().count("<heap nr=")
barrier.wait()
for t in threads: t.join()
print(applied, heaps)
"""


def arenas(mode: str, **env: str) -> tuple[str, int]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")} | env
    out = subprocess.run(
        [sys.executable, "-c", PROBE, mode], env=environment, capture_output=True, text=True, check=True
    ).stdout.split()
    return out[0], int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc only")
def test_threads_share_at_most_two_arenas_once_tuned() -> None:
    applied, untuned = arenas("plain")
    assert untuned > 2  # glibc's default: an arena per thread, up to 8 per core
    applied, tuned = arenas("tune")
    assert applied == "True"
    assert tuned <= 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc only")
def test_the_operators_own_setting_wins() -> None:
    applied, heaps = arenas("tune", MALLOC_ARENA_MAX="4")
    assert applied == "True"
    assert 2 < heaps <= 4
