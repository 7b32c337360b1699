"""`python -m memo_tui` runs the `memo` command."""

from memo_tui.cli import main

raise SystemExit(main())
