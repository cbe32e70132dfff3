"""``python -m chronorag.cli``."""

from chronorag.cli import main

raise SystemExit(main())
