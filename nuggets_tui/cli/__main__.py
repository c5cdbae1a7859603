"""`python -m nuggets_tui.cli`: the `nuggets` command line."""

from nuggets_tui.cli import main

main()
