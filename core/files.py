"""The person's files: atomic writes, strict JSON reading, advisory locks and user folders.

Every module that writes or reads a file of the person goes through here, so each rule is kept
once:

- ``write_atomically`` writes through a temporary file and a rename, so a file is never
  half-written. It refuses a target that is not a regular file (a FIFO, a device, a folder),
  writes through a symlink to its target (the link stays a link), keeps an existing file's
  permission bits (a new file gets the usual ones, 0666 less the umask) and creates no folder
  unless asked to.
- ``read_regular_file`` reads a regular file of bounded size, never blocking on a FIFO.
- ``parse_strict_json`` refuses what plain ``json.loads`` lets through: a key given twice,
  NaN and infinities, absurdly long numbers and nesting deeper than asked.
- ``locked`` holds an advisory lock across a read–modify–write of one file, and
  ``lock_user_folder`` holds one for as long as a table runs, so a second table on the same
  folders stops before it writes anything. Both are the operating system's locks: they end
  with the process, even when it is killed, so no stale lock is ever left.
- ``keep_copy`` keeps a file's original beside it before this version rewrites what it
  does not fully understand (a newer version, fields it does not know).
- ``user_dirs`` names the program's folders (``MDH_HOME`` puts them all under one folder).
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import secrets
import stat
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

import platformdirs

from core.environment import environment, ignored
from core.text import short_repr as short_repr  # where callers have long found it

APP_NAME = "mdhearts"
HOME_ENV = "MDH_HOME"
#: Temporary files are named ``.<name>.<pid>-<random>.tmp`` beside their target.
TEMP_SUFFIX = ".tmp"
#: On systems where a process cannot be asked whether it is alive, a temporary file older
#: than this is taken as left behind by a killed writer.
STALE_TEMP_AGE_S = 3600.0
#: Most digits of a JSON integer read by default (a seed has at most 19).
MAX_NUMBER_DIGITS = 30
#: How long ``locked`` waits for another holder of the lock by default.
LOCK_WAIT_S = 10.0


# -- user folders -----------------------------------------------------------------------------


@dataclass(frozen=True)
class UserDirs:
    """The program's folders; each is created when first written to."""

    config: Path
    data: Path
    state: Path
    log: Path

    @property
    def settings_file(self) -> Path:
        """Return the settings file."""
        return self.config / "settings.json"

    @property
    def statistics_file(self) -> Path:
        """Return the statistics file."""
        return self.data / "statistics.json"

    @property
    def save_file(self) -> Path:
        """Return the file holding the table's game in progress."""
        return self.state / "current-game.json"

    @property
    def replays(self) -> Path:
        """Return the folder of the finished matches kept to replay."""
        return self.data / "replays"

    @property
    def reviews_file(self) -> Path:
        """Return the file holding the reviews of the table's game in progress."""
        return self.state / "current-game-reviews.json"

    @property
    def cli_state_file(self) -> Path:
        """Return the terminal harness's default state file."""
        return self.data / "cli-match.json"

    @property
    def lock_file(self) -> Path:
        """Return the file a running table holds locked, so a second table stops at once."""
        return self.state / "table.lock"

    @property
    def crash_log(self) -> Path:
        """Return the file a crash's traceback is written to."""
        return self.log / "crash.log"

    @property
    def telemetry(self) -> Path:
        """Return the folder of the bots' telemetry files."""
        return self.log / "telemetry"


def default_user_dirs() -> UserDirs:
    """Return the platform's user folders for the program."""
    return UserDirs(
        Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_state_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
    )


def folder_from_env(environ: Mapping[str, str], name: str, default: Path) -> tuple[Path, list[str]]:
    """Return the folder named by the variable ``name`` (``default`` when unset), and warnings.

    A value that no file system accepts (blank, or with a NUL) is ignored with a warning.
    """
    value = environ.get(name)
    if value is None:
        return default, []
    if not value.strip() or "\x00" in value:
        return default, [ignored(name, value, "not a usable folder path")]
    return Path(value).expanduser(), []


def user_dirs(environ: Mapping[str, str] | None = None) -> tuple[UserDirs, list[str]]:
    """Return the user folders (under ``$MDH_HOME`` when set) and one warning per bad value."""
    env = environment(environ)
    if HOME_ENV not in env:
        return default_user_dirs(), []
    home, warnings = folder_from_env(env, HOME_ENV, Path())
    if warnings:
        return default_user_dirs(), warnings
    return UserDirs(home / "config", home / "data", home / "state", home / "log"), []


# -- writing ----------------------------------------------------------------------------------


def not_regular_text(mode: int) -> str:
    """Describe a file that is not a regular one: ``a folder``, ``not a regular file (a FIFO)``."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "not a regular file (a named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "not a regular file (a device)"
    if stat.S_ISSOCK(mode):
        return "not a regular file (a socket)"
    return "not a regular file"


def not_regular_error(path: Path, mode: int) -> OSError:
    """Return the error for a path that exists but is not a regular file."""
    return OSError(errno.EINVAL, f"{not_regular_text(mode)}; nothing was written", str(path))


def write_target(path: str | os.PathLike[str]) -> Path:
    """Return the file a write to ``path`` must replace: the end of its symlinks, if any."""
    target = Path(path)
    return Path(os.path.realpath(target)) if target.is_symlink() else target


def write_atomically(
    path: str | os.PathLike[str],
    text: str | bytes,
    *,
    make_folders: bool = False,
    durable: bool = True,
) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename.

    ``durable`` flushes the file and its folder to the disk before returning; without it the
    write survives the program being killed at once, and a crash of the whole system once the
    system has written its caches (``sync_to_disk`` asks for that later).

    Raise OSError, leaving any existing file exactly as it was, when the target is not a
    regular file, its folder does not exist (unless ``make_folders``), or writing fails.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    with open_atomically(path, make_folders=make_folders, durable=durable) as stream:
        stream.write(data)


@contextlib.contextmanager
def open_atomically(
    path: str | os.PathLike[str], *, make_folders: bool = False, durable: bool = True
) -> Iterator[BinaryIO]:
    """Yield a binary stream whose content replaces ``path`` when the block ends normally.

    The same rules as ``write_atomically``; if the block raises, nothing is replaced.
    """
    target = write_target(path)
    existing = _existing_mode(target)
    folder = target.parent
    if make_folders:
        folder.mkdir(parents=True, exist_ok=True)
    elif not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, "the folder does not exist", str(folder))
    temp = folder / f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}{TEMP_SUFFIX}"
    try:
        descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_BINARY, 0o666)
        with os.fdopen(descriptor, "wb") as stream:
            yield stream
            stream.flush()
            if durable:
                os.fsync(stream.fileno())
        if existing is not None:
            os.chmod(temp, stat.S_IMODE(existing))
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    if durable:
        _sync_folder(folder)
    remove_stale_temps(target)


def sync_to_disk(path: str | os.PathLike[str]) -> None:
    """Flush a file that was written without ``durable`` and its folder to disk (best effort)."""
    target = write_target(path)
    with contextlib.suppress(OSError):
        descriptor = os.open(target, os.O_RDONLY | _O_BINARY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
    _sync_folder(target.parent)


_O_BINARY = getattr(os, "O_BINARY", 0)


def _existing_mode(target: Path) -> int | None:
    """Return the mode of the regular file at ``target`` (None when there is none)."""
    try:
        info = target.stat()
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise not_regular_error(target, info.st_mode)
    return info.st_mode


def temp_files_of(path: str | os.PathLike[str]) -> list[Path]:
    """Return the temporary files that writes of ``path`` made and have not renamed yet."""
    target = Path(path)
    try:
        return sorted(target.parent.glob(f".{_glob_escape(target.name)}.*{TEMP_SUFFIX}"))
    except OSError:
        return []


def remove_stale_temps(path: str | os.PathLike[str]) -> None:
    """Remove temporary files of ``path`` whose writer is gone (it was killed mid-write)."""
    for temp in temp_files_of(path):
        if _writer_gone(temp):
            with contextlib.suppress(OSError):
                temp.unlink()


def _writer_gone(temp: Path) -> bool:
    """Return whether the process that made a temporary file no longer runs."""
    pid_text = temp.name[: -len(TEMP_SUFFIX)].rpartition(".")[2].partition("-")[0]
    if not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    if sys.platform == "win32":  # signal 0 would end the process there
        try:
            return time.time() - temp.stat().st_mtime > STALE_TEMP_AGE_S
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _glob_escape(name: str) -> str:
    return "".join(f"[{char}]" if char in "*?[" else char for char in name)


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entries to disk so a rename survives a crash (best effort)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


# -- reading ----------------------------------------------------------------------------------


class FileContentError(ValueError):
    """A file exists but cannot be used: not a regular file, too large, not strict JSON..."""


def read_regular_file(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """Return the bytes of the regular file at ``path``, which may hold at most ``max_bytes``.

    Raise FileNotFoundError when there is none, another OSError when it cannot be read, and
    FileContentError when it is not a regular file or too large. A FIFO is never waited on.
    """
    target = Path(path)
    info = target.stat()
    if not stat.S_ISREG(info.st_mode):
        raise FileContentError(not_regular_text(info.st_mode))
    if info.st_size > max_bytes:
        raise FileContentError(f"larger than {size_text(max_bytes)}")
    descriptor = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _O_BINARY)
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):  # swapped since the stat
            raise FileContentError("not a regular file")
        raw = stream.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise FileContentError(f"larger than {size_text(max_bytes)}")
    return raw


def size_text(size: int) -> str:
    """Return a byte count in words, e.g. ``2048 KiB``."""
    return f"{size // 1024} KiB" if size >= 1024 else f"{size} bytes"


class StrictJsonError(ValueError):
    """Text that is not strict JSON; the message says why (``NaN is not allowed``...).

    ``cut_short`` is True when the text seems to end too early (a file cut short).
    """

    def __init__(self, message: str, *, cut_short: bool = False) -> None:
        super().__init__(message)
        self.cut_short = cut_short


def decode_utf8(raw: bytes) -> str:
    """Return UTF-8 bytes (a byte-order mark allowed) as text, or raise StrictJsonError."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise StrictJsonError(f"not UTF-8 text: invalid byte at offset {error.start}") from None


def parse_strict_json(
    text: str,
    *,
    max_depth: int | None = None,
    max_digits: int = MAX_NUMBER_DIGITS,
) -> Any:
    """Parse JSON text strictly; raise StrictJsonError saying what is wrong.

    Refused: a key twice in one object, NaN and infinities, a number out of float range or
    with more than ``max_digits`` digits, and lists or objects nested deeper than
    ``max_depth`` (when given).
    """

    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > max_digits:
            raise StrictJsonError(f"a number has more than {max_digits} digits")
        return int(digits)

    def real(digits: str) -> float:
        if len(digits) > max_digits * 2:
            raise StrictJsonError(f"a number has more than {max_digits * 2} characters")
        value = float(digits)
        if not math.isfinite(value):
            raise StrictJsonError(f"number {digits} is out of range")
        return value

    try:
        data = json.loads(
            text,
            object_pairs_hook=_object_without_repeats,
            parse_int=whole,
            parse_float=real,
            parse_constant=_no_constant,
        )
    except json.JSONDecodeError as error:
        cut_short = error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated")
        # Some of json's reasons end in "at" ("Unterminated string starting at"): say it once.
        reason = error.msg.removesuffix(" at")
        raise StrictJsonError(
            f"{reason} at line {error.lineno} column {error.colno}", cut_short=cut_short
        ) from None
    except RecursionError:
        limit = "too deeply" if max_depth is None else f"more than {max_depth} levels deep"
        raise StrictJsonError(f"nested {limit}") from None
    if max_depth is not None and json_depth(data) > max_depth:
        raise StrictJsonError(f"nested more than {max_depth} levels deep")
    return data


def json_depth(data: object) -> int:
    """Return how deeply lists and objects nest in JSON data (0 for a plain value)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in value)
    return deepest


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Build a JSON object, refusing a key given twice."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise StrictJsonError(f"the key {short_repr(key)} appears twice in one object")
        seen.add(key)
    return dict(pairs)


def _no_constant(name: str) -> float:
    """Refuse the non-standard constants NaN, Infinity and -Infinity."""
    raise StrictJsonError(f"{name} is not allowed")


#: A file set aside is renamed ``<name>.corrupt-YYYYmmdd-HHMMSS``.
CORRUPT_SUFFIX = ".corrupt-"


def set_aside(
    path: str | os.PathLike[str], *, now: datetime | None = None, suffix: str = CORRUPT_SUFFIX
) -> Path:
    """Rename a file to ``<name>.corrupt-YYYYmmdd-HHMMSS`` (``-2``, ``-3``... if taken).

    ``suffix`` replaces ``.corrupt-`` (``.unreadable-`` for a file that could not be read).
    Return the new path; raise OSError when the file cannot be renamed.
    """
    target = Path(path)
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = f"{target.name}{suffix}{stamp}"
    candidate = target.with_name(base)
    number = 1
    while os.path.lexists(candidate):
        number += 1
        candidate = target.with_name(f"{base}-{number}")
    target.rename(candidate)
    return candidate


#: A copy kept before a rewrite is named ``<name>.v4-backup`` (the file's newer version) or
#: ``<name>.backup`` (a file without a version).
BACKUP_SUFFIX = "backup"


def keep_copy(path: str | os.PathLike[str], raw: bytes, version: int | None = None) -> Path | None:
    """Keep ``raw``, the original content of ``path``, beside it before it is rewritten.

    The copy is ``<name>.v<version>-backup`` (``<name>.backup`` without a version); when that
    name holds other content, ``-2``, ``-3``... are added, so no earlier copy is replaced.
    Return the copy's path, or None when an identical copy was already kept (nothing new to
    say). Raise OSError when the copy cannot be written.
    """
    target = write_target(path)
    tag = BACKUP_SUFFIX if version is None else f"v{version}-{BACKUP_SUFFIX}"
    base = f"{target.name}.{tag}"
    candidate = target.with_name(base)
    number = 1
    while os.path.lexists(candidate):
        with contextlib.suppress(OSError, FileContentError):
            if read_regular_file(candidate, len(raw)) == raw:
                return None
        number += 1
        candidate = target.with_name(f"{base}-{number}")
    write_atomically(candidate, raw)
    return candidate


# -- locking ----------------------------------------------------------------------------------


class LockBusyError(OSError):
    """Another process holds the lock of a file for longer than we were willing to wait."""


class HeldLock:
    """An operating-system lock on a lock file, held until ``release`` or the process ends."""

    def __init__(self, descriptor: int, path: Path) -> None:
        self.path = path
        self._descriptor: int | None = descriptor

    def release(self, *, remove_file: bool = False) -> None:
        """Let the lock go (again: nothing); with ``remove_file`` the lock file goes too.

        A waiter never ends up holding a removed file: on POSIX the file is removed while
        still locked, and ``acquire_lock`` checks that the file it locked still has its name;
        on Windows an open file cannot be removed, so it goes after it is closed, and stays
        while another process has it open.
        """
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        try:
            if remove_file and sys.platform != "win32":
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
            _unlock(descriptor)
        finally:
            os.close(descriptor)
        if remove_file and sys.platform == "win32":
            with contextlib.suppress(OSError):
                os.unlink(self.path)


def acquire_lock(
    guard: str | os.PathLike[str],
    wait_s: float = 0.0,
    *,
    busy: str = "another mdhearts command is using this file",
    subject: str | os.PathLike[str] | None = None,
) -> HeldLock:
    """Take the lock on the lock file ``guard`` (made if needed), waiting up to ``wait_s``.

    Raise LockBusyError (saying ``busy`` about ``subject``, default ``guard``) when another
    process still holds it, OSError when the lock file cannot be made or opened.
    """
    deadline = time.monotonic() + wait_s
    while True:
        descriptor = os.open(guard, os.O_RDWR | os.O_CREAT | _O_BINARY, 0o666)
        try:
            while not _try_lock(descriptor):
                if time.monotonic() >= deadline:
                    subject_text = str(guard if subject is None else subject)
                    raise LockBusyError(errno.EBUSY, busy, subject_text)
                time.sleep(0.02)
        except BaseException:
            os.close(descriptor)
            raise
        if _still_named(descriptor, Path(guard)):
            return HeldLock(descriptor, Path(guard))
        # The holder before us removed the file we waited on: lock the one now named so.
        _unlock(descriptor)
        os.close(descriptor)


def _still_named(descriptor: int, guard: Path) -> bool:
    """Return whether the open lock file is still the file named ``guard``."""
    try:
        named = os.stat(guard)
    except FileNotFoundError:
        return False
    held = os.fstat(descriptor)
    return (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino)


#: What a second table on the same user folders is told.
ALREADY_RUNNING = "MDHearts is already running"


def lock_user_folder(dirs: UserDirs) -> HeldLock:
    """Hold the lock of the user folders for as long as the table runs, without waiting.

    Taken before anything in the folders is written. Raise LockBusyError (``ALREADY_RUNNING``)
    when another table holds it, OSError when the state folder or its lock file cannot be made.
    """
    dirs.state.mkdir(parents=True, exist_ok=True)
    return acquire_lock(dirs.lock_file, busy=ALREADY_RUNNING, subject=dirs.state)


def lock_path(path: str | os.PathLike[str]) -> Path:
    """Return the lock file that guards ``path``: ``.<name>.lock`` beside its target."""
    target = write_target(path)
    return target.with_name(f".{target.name}.lock")


@contextlib.contextmanager
def locked(path: str | os.PathLike[str], wait_s: float = LOCK_WAIT_S) -> Iterator[None]:
    """Hold an advisory lock on ``path`` (through a lock file beside it) for a read–modify–write.

    Waits up to ``wait_s`` for another holder, then raises LockBusyError. The lock ends with
    the process that holds it, even when it is killed. Raises OSError when the lock file
    cannot be made (e.g. the folder does not exist). The lock file is removed again when the
    lock is released, so none is left behind (a kill leaves one, which the next holder reuses).
    """
    held = acquire_lock(lock_path(path), wait_s, subject=path)
    try:
        yield
    finally:
        held.release(remove_file=True)


if sys.platform == "win32":
    import msvcrt

    def _try_lock(descriptor: int) -> bool:
        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(descriptor: int) -> None:
        with contextlib.suppress(OSError):
            msvcrt.locking(descriptor, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(descriptor: int) -> bool:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(descriptor: int) -> None:
        fcntl.flock(descriptor, fcntl.LOCK_UN)
