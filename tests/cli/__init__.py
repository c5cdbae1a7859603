"""The `nuggets` command line: commands, exit codes, JSON shapes, the run log, settings, words."""
