"""The game in progress: resumed from its record file, saved as it goes.

Loading never raises for what the file holds: a corrupt or foreign file is set aside and the
caller gets a message. ``BackgroundSaver`` writes files on one daemon thread, keeping only the
latest unwritten text per file, so a frame never waits on the disk. The game in progress is
written at once instead (``write_now``: a write and a rename, well under a millisecond, so a
killed program loses nothing shown), and the thread then flushes it to the disk.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

from core.controller import Controller
from core.files import FileContentError, sync_to_disk, write_atomically
from core.record import MAX_RECORD_BYTES, loads_record
from game.table.store.json_store import read_owned_file, report_unreadable

#: What the player is told instead of resuming, after a load message.
NOT_RESUMED = "the saved game cannot be resumed"
#: Most failure messages a saver keeps between two calls of ``errors()``.
MAX_ERRORS = 50


class _Sync:
    """The pending job of flushing a file written by ``write_now`` to the disk."""


SYNC = _Sync()


def load_game(
    path: str | os.PathLike[str], fallback: str = NOT_RESUMED
) -> tuple[Controller | None, str | None]:
    """Load the game in progress (or another game record, such as a kept replay); return
    ``(controller, None)`` or ``(None, message)``, the message ending with ``fallback``.

    No file gives ``(None, None)``. A file that is not a valid record (bad JSON, foreign,
    tampered, unknown version, too large) or cannot be read (no permission...) is set aside,
    so the next save does not replace it.
    """
    target = Path(path)
    try:
        raw = read_owned_file(target, MAX_RECORD_BYTES, fallback)
    except FileNotFoundError:
        return None, None
    except FileContentError as error:
        return None, str(error)
    try:
        return loads_record(raw), None
    except (ValueError, RecursionError) as error:
        return None, report_unreadable(target, str(error), fallback)


def discard_game(path: str | os.PathLike[str]) -> None:
    """Remove the saved game if there is one; raise OSError only if it cannot be removed."""
    Path(path).unlink(missing_ok=True)


def _write_folders_made(path: Path, text: str) -> None:
    """Write one of the program's own files, making its folder if needed."""
    write_atomically(path, text, make_folders=True)


class BackgroundSaver:
    """Writes saved games on one daemon thread; every method returns without waiting on disk.

    ``submit`` queues the latest text for a file (replacing any unwritten older text for it),
    ``flush`` waits until everything submitted so far is written, ``errors`` returns the
    messages of failed writes, and ``close`` flushes and stops the thread. Thread-safe.
    """

    def __init__(self, write: Callable[[Path, str], None] = _write_folders_made) -> None:
        self._write = write
        self._condition = threading.Condition()
        # Held while a file is written, so a write_now never races an older background write.
        self._writing = threading.Lock()
        self._pending: dict[Path, str | _Sync | None] = {}
        self._submitted = 0
        self._written = 0
        self._errors: list[str] = []
        self._closed = False
        self._thread: threading.Thread | None = None

    def submit(self, path: str | os.PathLike[str], text: str) -> None:
        """Queue ``text`` to be written atomically to ``path``; raise RuntimeError if closed."""
        self._queue(Path(path), text)

    def discard(self, path: str | os.PathLike[str]) -> None:
        """Queue the removal of ``path``: it replaces any unwritten text for that file."""
        self._queue(Path(path), None)

    def write_now(self, path: str | os.PathLike[str], text: str | None) -> bool:
        """Write ``text`` to ``path`` (or remove it, for None) before returning.

        Replaces any unwritten text for that file, then leaves flushing to the disk to the
        thread. Returns False when the write failed (its message goes to ``errors``).
        """
        target = Path(path)
        with self._condition:
            self._pending.pop(target, None)
        with self._writing:
            message = self._write_one(target, text, durable=False)
        if message is not None:
            with self._condition:
                self._errors = [*self._errors, message][-MAX_ERRORS:]
            return False
        if text is not None:
            self._queue(target, SYNC)
        return True

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything submitted so far is written or failed; False on timeout."""
        with self._condition:
            target = self._submitted
            return self._condition.wait_for(lambda: self._written >= target, timeout)

    def errors(self) -> list[str]:
        """Return and clear the messages of the writes that failed since the last call."""
        with self._condition:
            messages, self._errors = self._errors, []
        return messages

    def close(self, timeout: float = 5.0) -> bool:
        """Flush, then stop the thread; return False if not everything was written in time."""
        done = self.flush(timeout)
        with self._condition:
            self._closed = True
            self._condition.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return done

    def _queue(self, path: Path, text: str | _Sync | None) -> None:
        with self._condition:
            if self._closed:
                raise RuntimeError("the saver is closed")
            self._pending[path] = text
            self._submitted += 1
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="mdhearts-saver", daemon=True
                )
                self._thread.start()
            self._condition.notify_all()

    def _run(self) -> None:
        """Write batches of pending texts until closed with nothing left to write."""
        while True:
            with self._condition:
                self._condition.wait_for(lambda: bool(self._pending) or self._closed)
                if not self._pending:
                    return
                batch, self._pending = self._pending, {}
                target = self._submitted
            failures = []
            for path, text in batch.items():
                if isinstance(text, _Sync):
                    sync_to_disk(path)
                    continue
                with self._writing:
                    message = self._write_one(path, text)
                if message is not None:
                    failures.append(message)
            with self._condition:
                self._errors = (self._errors + failures)[-MAX_ERRORS:]
                self._written = target
                self._condition.notify_all()

    def _write_one(self, path: Path, text: str | None, durable: bool = True) -> str | None:
        """Write or remove one file; return the message of a failure, else None."""
        try:
            if text is None:
                discard_game(path)
            elif durable:
                self._write(path, text)
            else:
                write_atomically(path, text, make_folders=True, durable=False)
        except Exception as error:
            # The file's name says which of the person's files it was (the game, the settings,
            # the statistics, a replay), not only the game in progress.
            action = "remove" if text is None else "save"
            return f"could not {action} {path.name}: {error}"
        return None
