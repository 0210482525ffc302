"""`python -m gamesmaster.cli`: the `gamesmaster` command."""

import sys

from . import main

sys.exit(main())
