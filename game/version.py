"""The program's version, shown by ``mdhearts --version`` and stamped into builds."""

VERSION = "0.2.0"
