"""Where a memory-purifier workspace keeps what the console reads (docs/PURIFIER.md)."""

from __future__ import annotations

from pathlib import Path

from core.safeio.json_read import loads

DEFAULT_WORKSPACE = Path("~/.openclaw/workspace")
CONFIG = Path("~/.openclaw/memory-purifier/memory-purifier.json")
CONFIG_BYTES = 1024 * 1024
CLAIMS = "purified-claims.jsonl"
CONTRADICTIONS = "purified-contradictions.jsonl"
REJECTED = "rejected-candidates.jsonl"
DEFERRED = "deferred-candidates.jsonl"
MANIFEST = "purified-manifest.json"
# The views each of its runs regenerates in the workspace.
VIEWS = ("LTMEMORY.md", "PLAYBOOKS.md", "EPISODES.md", "HISTORY.md", "WISHES.md")
COMPONENT = "memory-purifier.purifier"
KNOWN_MANIFEST_SCHEMA = 1


def resolve_workspace(
    chosen: Path | None, variable: Path | None = None, config: Path = CONFIG
) -> Path:
    """The workspace named, else the one the purifier itself would use: its config's
    `paths.workspace`, else $WORKSPACE (`variable`: the settings' purifier_workspace), else
    ~/.openclaw/workspace (its scripts' order)."""
    if chosen is not None:
        return chosen.expanduser()
    found = configured_workspace(config.expanduser())
    return Path(found).expanduser() if found else (variable or DEFAULT_WORKSPACE.expanduser())


def configured_workspace(config: Path) -> str | None:
    """`paths.workspace` of the purifier's config (None: no config, unreadable, or unset)."""
    try:
        with config.open("rb") as handle:
            data = loads(handle.read(CONFIG_BYTES))
    except (OSError, ValueError):
        return None
    paths = data.get("paths") if isinstance(data, dict) else None
    workspace = paths.get("workspace") if isinstance(paths, dict) else None
    return workspace if isinstance(workspace, str) and workspace else None


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
