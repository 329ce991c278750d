"""The ``mdhearts`` command: dispatches to the program's subcommands."""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """usage: mdhearts [COMMAND] [ARGS...]

With no command, the table opens in a window.
  --self-test [--opponents easy|normal|hard]
               check headless that the table draws, the bots play a hand in the
               worker process, and a game record saves and loads; exit 0 if so

commands:
  cli       play or script a match from the terminal (mdhearts cli --help;
            mdhearts cli --interactive plays in the terminal)
  engine    answer engine-protocol requests on stdin/stdout (mdhearts engine --help)
  tournament  judge bots on duplicate deals (mdhearts tournament --help)
  telemetry   export the bots' decision records (mdhearts telemetry export --help)
  screenshots save pictures of the table at window sizes (mdhearts screenshots --help)
"""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the subcommand named by the first argument and return its exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        from game.table.main import main as table_main

        return table_main()
    command, rest = args[0], args[1:]
    if command == "--self-test":
        from game.tools.self_test import main as self_test_main

        return self_test_main(rest)
    if command in ("-h", "--help", "help"):
        sys.stdout.write(USAGE)
        return 0
    if command == "cli":
        from game.terminal.main import main as cli_main

        return cli_main(rest)
    if command == "engine":
        from game.engine.main import main as engine_main

        return engine_main(rest)
    if command == "tournament":
        from game.tools.tournament import main as tournament_main

        return tournament_main(rest)
    if command == "telemetry":
        from game.tools.telemetry import main as telemetry_main

        return telemetry_main(rest)
    if command == "screenshots":
        from game.tools.screenshots import main as screenshots_main

        return screenshots_main(rest)
    sys.stderr.write(f"mdhearts: unknown command {command!r}\n\n{USAGE}")
    return 2


if __name__ == "__main__":
    import multiprocessing

    multiprocessing.freeze_support()
    sys.exit(main())
