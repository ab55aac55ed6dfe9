"""`python -m suji.cli …` is the `suji` command (as `python -m suji …` is)."""

import sys

from suji.cli import main

sys.exit(main())
