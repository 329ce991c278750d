"""Build script for the compiled kernels (Cython); metadata lives in pyproject.toml."""

import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

# Floating point as written (no fused multiply-adds), so the compiled weighing gives the very
# floats of its pure-Python twin on every machine; MSVC's default /fp:precise does not fuse.
OPTIMISE = ["/O2"] if sys.platform == "win32" else ["-O3", "-ffp-contract=off"]

extensions = [
    Extension("core._kernel", ["core/_kernel.pyx"], extra_compile_args=OPTIMISE),
    Extension("ai._search", ["ai/_search.pyx"], extra_compile_args=OPTIMISE),
]

setup(ext_modules=cythonize(extensions, language_level=3))
