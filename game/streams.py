"""Writing to a terminal or pipe that may not take what is written.

Shared by the terminal transports: text the stream's encoding cannot show is escaped instead
of failing, and a standard output that went away (a closed pipe, a full disk) is pointed at
the null device so the program's exit cannot fail on it again.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from typing import TextIO


def write(stream: TextIO | None, text: str) -> None:
    """Write text, escaping what the stream's encoding cannot show instead of failing.

    A stream that was closed when the program started (None) raises OSError like a closed pipe.
    """
    if stream is None:
        raise OSError(errno.EBADF, "the stream was closed when the program started")
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding))


def tell(text: str) -> None:
    """Write a message for the person to standard error; a closed or full one is ignored."""
    with contextlib.suppress(OSError, ValueError):
        write(sys.stderr, text)


def silence_stdout() -> None:
    """Point standard output at the null device, so the exit flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
