"""`python -m jarvis.cli` runs the `jarvis` command."""

import sys

from jarvis.cli import main

sys.exit(main())
