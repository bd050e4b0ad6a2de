"""Compiling the kernels ahead: afterwards every entry kernel is compiled."""

import subprocess
import sys

# In a fresh process: here the other tests have long since compiled everything.
CHECK = """
from rumdiff.cli.warmup import compile_kernels
from rumdiff.features import _extended, _jokers, _thesis
from rumdiff.puzzle import _tokens
from rumdiff.solve.engine import _joker_passes, _plain_passes, _search
kernels = (_plain_passes.solve_kernel, _search.search_kernel, _extended.extended_stack,
           _thesis.thesis_stack, _tokens.read_tiles, _tokens.read_puzzle_lines,
           _joker_passes.joker_search, _jokers.joker_stack)
assert not any(kernel.signatures for kernel in kernels)
seconds = compile_kernels()
assert seconds > 0
print(sum(bool(kernel.signatures) for kernel in kernels))
"""


def test_compile_kernels_leaves_every_kernel_compiled():
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, check=True, timeout=600
    )
    assert done.stdout.split() == ["8"]
