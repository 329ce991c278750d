"""Entry point of the standalone build: the bot worker's start must come before anything else."""

import multiprocessing

if __name__ == "__main__":
    # A frozen program starts the bot worker by running itself again; this makes that copy
    # run the worker instead of a second game.
    multiprocessing.freeze_support()

    import sys

    from game.main import main

    sys.exit(main())
