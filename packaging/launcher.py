"""Entry point of the standalone build: the bot worker's start must come before anything else."""

import multiprocessing

if __name__ == "__main__":
    # A frozen program starts the bot worker by running itself again; this makes that copy
    # run the worker instead of a second game.
    multiprocessing.freeze_support()

    import os
    import sys

    # A build without a console has no standard streams; give any print somewhere to go.
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115

    from game.main import main

    sys.exit(main())
