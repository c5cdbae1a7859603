"""Errors a user can act on. Front ends print the message and exit 1 (2 for an `ArgumentError`:
a usage error); no traceback."""

from __future__ import annotations


class NuggetsError(Exception):
    """Base of every error the engine reports to a person."""


class GraphError(NuggetsError):
    """The graph file cannot be read or written; it is left untouched."""


class PlanUnavailable(NuggetsError):
    """The system's own program that would make the plan cannot run (not installed, waiting
    for the operator): said in one line, never shown as a plan that changes nothing."""


class StalePlanError(NuggetsError):
    """The graph file changed since the plan was made."""


class ArgumentError(NuggetsError):
    """A value a person gave (a command's argument or option) that is malformed or names nothing
    in the memory: the command line's usage error, exit status 2."""


class UnknownNoteError(ArgumentError):
    """A note id that the graph does not hold."""


class UndoConflictError(NuggetsError):
    """Notes changed since the run, so undoing it would lose those changes."""

    def __init__(self, message: str, note_ids: list[str]) -> None:
        super().__init__(message)
        self.note_ids = note_ids


class JournalError(NuggetsError):
    """A journal entry is missing or unreadable."""


class UnknownRunError(JournalError, ArgumentError):
    """A run id the journal does not hold."""


class UnsettledWriteError(GraphError):
    """A write was cut off after it may have landed; the next start settles it from disk."""


class MicroClawError(GraphError):
    """A MicroClaw database (or its files) cannot be read as the engine needs; nothing was
    written to it."""


class FileKindError(GraphError):
    """A file we would open is not a regular file (a pipe, a device, a directory) or is larger
    than we read; nothing was read from it."""


def reason_of(exc: BaseException) -> str:
    """What went wrong, for a message: an OSError's strerror, else the error's own text."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)
