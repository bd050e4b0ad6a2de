"""Numba kernels: numpy arrays and scalars in and out, no validation, I/O or printing.

Public wrappers elsewhere in the package validate their inputs and call these.
"""
