"""The Textual console (`nuggets_tui/`), driven with keys; snapshots of each screen sit in
__snapshots__/ beside their test module."""
