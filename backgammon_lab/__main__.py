"""``python -m backgammon_lab``: the same CLI as ``backgammon-lab``."""

import sys

from .cli import main

sys.exit(main())
