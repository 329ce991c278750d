"""Build script for the compiled kernels (Cython); metadata lives in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension("core._kernel", ["core/_kernel.pyx"], extra_compile_args=["-O3"]),
]

setup(ext_modules=cythonize(extensions, language_level=3))
