"""`python -m suji …` is the `suji` command."""

import sys

from suji.cli import main

sys.exit(main())
