"""Moments the tests name by their ISO-8601 text, typed as the datetime they always are."""

from __future__ import annotations

from datetime import datetime

from core.clock import parse_iso


def at(text: str) -> datetime:
    """The moment `text` names; a text that names none is a mistake in the test."""
    moment = parse_iso(text)
    assert moment is not None, f"not a moment: {text!r}"
    return moment
