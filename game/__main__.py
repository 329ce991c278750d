"""Allow ``python -m game``."""

import sys

from game.main import main

sys.exit(main())
