"""Compiling the kernels ahead: afterwards every entry kernel is compiled."""

from rumdiff.cli.warmup import compile_kernels


def test_compile_kernels_leaves_every_kernel_compiled():
    from rumdiff.features import _extended, _thesis
    from rumdiff.solve import _dp
    from rumdiff.solve import _search as _reference

    assert compile_kernels() >= 0
    for kernel in (
        _dp.solve_kernel,
        _reference.search_kernel,
        _extended.extended_stack,
        _thesis.thesis_stack,
    ):
        assert kernel.signatures, kernel
