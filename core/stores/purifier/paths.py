"""Where a memory-purifier workspace keeps what the console reads (docs/PURIFIER.md)."""

from __future__ import annotations

from pathlib import Path

DEFAULT_WORKSPACE = Path("~/.openclaw/workspace")
CLAIMS = "purified-claims.jsonl"
CONTRADICTIONS = "purified-contradictions.jsonl"
REJECTED = "rejected-candidates.jsonl"
DEFERRED = "deferred-candidates.jsonl"
MANIFEST = "purified-manifest.json"
COMPONENT = "memory-purifier.purifier"
KNOWN_MANIFEST_SCHEMA = 1


def resolve_workspace(chosen: Path | None) -> Path:
    """The workspace named, else the purifier's default one."""
    return (chosen or DEFAULT_WORKSPACE).expanduser()


def runtime_dir(workspace: Path) -> Path:
    return workspace / "runtime"


def locks_dir(workspace: Path) -> Path:
    return runtime_dir(workspace) / "locks"


def telemetry_root(workspace: Path) -> Path:
    """The shared telemetry root: beside the workspace, as the purifier's defaults put it
    (`~/.openclaw/workspace` and `~/.openclaw/telemetry`)."""
    return workspace.parent / "telemetry"


def last_run_md(workspace: Path) -> Path:
    return telemetry_root(workspace) / "memory-purifier" / "last-run.md"


def journal_home(workspace: Path) -> Path:
    """Where a journal of ours would live; the read-only store never creates it."""
    return runtime_dir(workspace) / "nuggets-review"
