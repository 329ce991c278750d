"""Build script for the compiled kernels (Cython); metadata lives in pyproject.toml."""

import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

OPTIMISE = ["/O2"] if sys.platform == "win32" else ["-O3"]

extensions = [
    Extension("core._kernel", ["core/_kernel.pyx"], extra_compile_args=OPTIMISE),
    Extension("ai._search", ["ai/_search.pyx"], extra_compile_args=OPTIMISE),
]

setup(ext_modules=cythonize(extensions, language_level=3))
