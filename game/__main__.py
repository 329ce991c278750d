"""Allow ``python -m game``."""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from game.main import main

    sys.exit(main())
