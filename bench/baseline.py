"""A baseline bot from an earlier commit, played as an external engine seat.

``prepare_baseline(REF)`` checks the commit out in a temporary git worktree, installs it (with
its compiled modules, built by pip in an isolated build) into ``build/baseline/<commit>/`` and
removes the worktree again; a finished install is reused. The baseline then plays through the
engine protocol (``mdhearts engine`` of that commit), started by a small launcher that imports
that commit's packages only and refuses to run without their compiled modules. Nothing of the
old code is kept in this repository's source.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ai.external import ENGINE_PREFIX, SEED_ENV
from core.seats import join_bot_name

#: Where finished baseline installs are kept, under the repository root.
BASELINE_FOLDER = Path("build") / "baseline"
#: Written last: an install folder without it is unfinished and is built again.
DONE_MARKER = ".complete"
LAUNCHER = "baseline_engine.py"

_LAUNCHER_TEXT = '''"""Start this folder's mdhearts (a baseline commit), compiled."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEED_ENV = "@SEED_ENV@"
sys.path[:] = [HERE] + [entry for entry in sys.path if os.path.abspath(entry or ".") != HERE]
# An editable install of another copy must not fill in modules missing here.
sys.meta_path[:] = [
    finder for finder in sys.meta_path if "__editable__" not in getattr(finder, "__module__", "")
]

import ai.search  # noqa: E402
import core.kernel  # noqa: E402

for name, module in list(sys.modules.items()):
    if name.split(".")[0] in ("ai", "core", "game") and getattr(module, "__file__", None):
        if not os.path.abspath(module.__file__).startswith(HERE + os.sep):
            sys.exit(f"baseline: {name} was loaded from {module.__file__}, not from {HERE}")
for module in (core.kernel, ai.search):
    if not module.COMPILED:
        sys.exit(f"baseline: {module.__name__} is not compiled in {HERE}")

from game.main import main  # noqa: E402

args = sys.argv[1:]
# "--deals N" first: the hard bot searches N deals a decision without a time limit.
if args[:1] == ["--deals"]:
    if len(args) < 2 or not args[1].isascii() or not args[1].isdigit() or int(args[1]) < 1:
        sys.exit("baseline: --deals needs a whole number of at least 1")
    deals = int(args[1])
    del args[:2]
    import ai.registry  # noqa: E402

    timed_factory = ai.registry.BOTS["hard"]

    def counted_factory(seed):
        bot = timed_factory(seed)
        if not hasattr(bot, "max_samples"):
            sys.exit("baseline: this commit's hard bot takes no number of deals")
        bot.max_samples = deals
        return bot

    ai.registry.BOTS["hard"] = counted_factory
# An engine seat's seed, which older engines do not read from the environment themselves.
seed = os.environ.get(SEED_ENV, "").strip()
if args[:1] == ["engine"] and seed.isascii() and seed.isdigit() and "--seed" not in args:
    args += ["--seed", seed]
sys.exit(main(args))
'''


class BaselineError(RuntimeError):
    """The baseline commit cannot be found, checked out or built; the message says why."""


@dataclass(frozen=True)
class Baseline:
    """An installed baseline commit: its full hash and the folder holding its packages."""

    commit: str
    folder: Path

    @property
    def short(self) -> str:
        """Return the commit's abbreviated hash, as reports name it."""
        return self.commit[:10]

    def engine_seat(self, bot: str, think_ms: int | None, deals: int | None = None) -> str:
        """Return the ``engine:COMMAND`` seat kind that plays ``bot`` of this commit, thinking
        ``think_ms`` a decision or, with ``deals`` (the hard bot), searching that many deals a
        decision without a time limit, seeded by the seat's seed (``SEED_ENV``)."""
        command = [sys.executable, str(self.folder / LAUNCHER)]
        if deals is not None:
            command += ["--deals", str(deals)]
        command += ["engine", "--difficulty", bot]
        if think_ms is not None:
            command += ["--think-ms", str(think_ms)]
        return ENGINE_PREFIX + shlex.join(command)

    def label(self, bot: str, think_ms: int | None, deals: int | None = None) -> str:
        """Return how a report names the baseline seat, e.g. ``baseline@1cd1274 hard@100ms``
        or ``baseline@1cd1274 hard/300d``."""
        return f"baseline@{self.commit[:7]} {join_bot_name(bot, think_ms, deals=deals)}"


def _git(root: Path, *args: str) -> str:
    """Run git in ``root`` and return its output; raise BaselineError when it fails."""
    try:
        done = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, check=False, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BaselineError(f"git {args[0]} could not run: {error}") from None
    if done.returncode != 0:
        message = done.stderr.strip().splitlines()
        raise BaselineError(f"git {args[0]} failed: {message[-1] if message else 'no message'}")
    return done.stdout.strip()


def repository_root(start: Path | None = None) -> Path:
    """Return the root of the git checkout holding this program; BaselineError outside one."""
    here = start or Path(__file__).resolve().parent
    return Path(_git(here, "rev-parse", "--show-toplevel"))


def resolve_commit(root: Path, ref: str) -> str:
    """Return the full hash of the commit ``ref`` names; BaselineError when it names none."""
    if not ref or ref.startswith("-"):
        raise BaselineError(f"not a commit: {ref!r}")
    try:
        return _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except BaselineError:
        raise BaselineError(f"no commit {ref!r} in {root}") from None


def prepare_baseline(ref: str, root: Path | None = None, *, quiet: bool = False) -> Baseline:
    """Return the installed baseline for ``ref``, building it first when needed.

    Raises BaselineError when the commit is unknown or its install fails (pip's last lines say
    why); a failed build leaves no folder behind.
    """
    root = root or repository_root()
    commit = resolve_commit(root, ref)
    folder = root / BASELINE_FOLDER / commit
    if (folder / DONE_MARKER).is_file():
        _write_launcher(folder)
        _check(folder)
        return Baseline(commit, folder)
    shutil.rmtree(folder, ignore_errors=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    if not quiet:
        print(f"building the baseline {commit[:10]} into {folder} ...", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="mdhearts-baseline-") as scratch:
        checkout = Path(scratch) / "checkout"
        _git(root, "worktree", "add", "--detach", "--quiet", str(checkout), commit)
        try:
            _install(checkout, folder)
        except BaselineError:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        finally:
            _git(root, "worktree", "remove", "--force", str(checkout))
    _write_launcher(folder)
    _check(folder)
    (folder / DONE_MARKER).write_text(commit + "\n", encoding="utf-8")
    return Baseline(commit, folder)


def _install(checkout: Path, folder: Path) -> None:
    """Install the checked-out commit's packages, compiled, into ``folder`` (no dependencies:
    the running interpreter has them)."""
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-deps",
        "--no-compile",
        "--target",
        str(folder),
        str(checkout),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
        raise BaselineError(f"the baseline could not be installed:\n{tail}")


def _write_launcher(folder: Path) -> None:
    """Write (again) the launcher that starts the folder's copy: this program's current one."""
    text = _LAUNCHER_TEXT.replace("@SEED_ENV@", SEED_ENV)
    (folder / LAUNCHER).write_text(text, encoding="utf-8")


def _check(folder: Path) -> None:
    """Run the launcher once (``--version``) so a broken install fails here, not mid-run."""
    environment = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
    done = subprocess.run(
        [sys.executable, str(folder / LAUNCHER), "--version"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=environment,
    )
    if done.returncode != 0:
        (folder / DONE_MARKER).unlink(missing_ok=True)
        raise BaselineError(
            "the baseline does not start: " + (done.stderr.strip() or done.stdout.strip())
        )
