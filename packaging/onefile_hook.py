"""Runtime hook of the one-file build only: the program ends with the bootloader that runs it.

A one-file program is two processes: a small bootloader, which unpacks the program into a
temporary folder, starts it as its child and forwards it the stop signals, and the program.
When the bootloader is killed outright (``kill -9``), nothing tells the child: ``mdhearts
serve`` would go on listening, with its bot worker, unseen. On POSIX systems a thread notices
that the process's parent has changed (the orphan was adopted) and sends the process SIGTERM,
which stops it as a stop signal does (the server saves and says so). On Windows the parent's
id never changes, so nothing is watched there.
"""

import os
import signal
import threading
import time

#: Seconds between two looks at the parent.
WATCH_INTERVAL_S = 0.5


def _end_with_parent(parent: int) -> None:
    """Send this process SIGTERM once its parent is no longer ``parent``."""
    while os.getppid() == parent:
        time.sleep(WATCH_INTERVAL_S)
    os.kill(os.getpid(), signal.SIGTERM)


if os.name == "posix":
    threading.Thread(
        target=_end_with_parent, args=(os.getppid(),), name="bootloader watch", daemon=True
    ).start()
